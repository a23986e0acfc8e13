"""BANClassifier: the hill-climbed DAG on registry scores, exact marginalisation of empty
cells against brute force, scikit-learn's checks, plug-in scores, bad input."""

import warnings
from itertools import product

import numpy as np
import pandas as pd
import pytest
from scipy.integrate import simpson
from sklearn.utils.estimator_checks import parametrize_with_checks

from estimators.bnc import BANClassifier
from estimators.columns import EncodedColumns
from estimators.ktan import NaiveBayesClassifier
from estimators.learning.structure_learning import PERFECT
from estimators.scores import SCORES, DiscreteCMI, as_fitted_score, make_score, register_score
from estimators.search import brute_force_dag, canonical_order, hill_climb_dag


class EveryFamilyBIC:
    """A protocol score object (no BaseCMI) for every family: the registry's BIC."""

    families = ("discrete", "gaussian", "mixed")

    def fit(self, X, y):
        kind = "discrete" if all(np.issubdtype(t, np.integer) for t in X.dtypes) else "gaussian"
        self.base_ = make_score("bic", kind).fit(X, y)
        return self

    def fit_encoded(self, enc, y_codes, classes):
        self.base_ = make_score("bic", "mixed").fit_encoded(enc, y_codes, classes)
        return self

    def score(self, v, parents):
        return self.base_.score(v, parents)

    def __repr__(self):  # a test id without a memory address: the same in every xdist worker
        return "EveryFamilyBIC()"


# BANClassifier() at its defaults: tests/estimators/test_sklearn_conformance.py
@parametrize_with_checks([BANClassifier(max_parents=1, restarts=2, random_state=0),
                          BANClassifier(structure_score=EveryFamilyBIC())])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def mixed_table(seed, n=160, missing=0.12):
    """Two continuous and two categorical columns with planted dependences, empty cells."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a = rng.normal(y, 1.0)
    z = np.where(rng.random(n) < 0.2 + 0.3 * y + 0.3 * (a > 0.5), "p", "q")
    w = np.where(rng.random(n) < 0.5, "r", np.where(z == "p", "s", "t"))
    b = a * 0.8 + (z == "p") + rng.normal(0, 0.5, n)
    X = pd.DataFrame({"a": a, "z": z, "b": b, "w": w})
    return X.mask(rng.random(X.shape) < missing), y


def brute_force_proba(clf, X):
    """p(y | x_O) by enumerating the missing categories and integrating a missing continuous
    cell by Simpson's rule on a fine grid, with the classifier's own fitted factors on completed
    rows (rows with at most one missing continuous cell)."""
    enc = clf._check_X(X)
    net, prior = clf.network_, clf.class_log_prior_
    out = np.full((len(X), prior.size), np.nan)
    for i in range(len(X)):
        row = enc.take([i])
        missing = ~row.observed[0]
        cont = [j for j in np.flatnonzero(missing) if enc.continuous[j]]
        if len(cont) > 1:
            continue
        cats = [j for j in np.flatnonzero(missing) if not enc.continuous[j]]
        combos = list(product(*(range(int(enc.n_levels[j])) for j in cats)))
        total = np.zeros(prior.size)
        for combo in combos:
            codes = row.codes.copy()
            codes[0, cats] = combo
            if cont:
                j = cont[0]
                seen = clf.encoder_.transform(X).values[:, j]
                lo, hi = np.nanmin(seen), np.nanmax(seen)
                span = hi - lo
                t = np.linspace(lo - 3 * span, hi + 3 * span, 4_001)
                values = np.repeat(row.values, t.size, axis=0)
                values[:, j] = t
                full = EncodedColumns(values, np.repeat(codes, t.size, axis=0), enc.types,
                                      enc.n_levels, enc.names, enc.n_unseen)
                dens = np.exp(net.log_likelihood(full))
                total += simpson(dens, x=t, axis=0)
            else:
                full = EncodedColumns(row.values, codes, enc.types, enc.n_levels, enc.names,
                                      enc.n_unseen)
                total += np.exp(net.log_likelihood(full))[0]
        joint = total * np.exp(prior)
        out[i] = joint / joint.sum()
    return out


@pytest.mark.parametrize("seed, score, gauss_hermite", [(0, "bic", False), (1, "bic", False),
                                                       (0, "cmi", True), (2, "cmi", False)])
def test_predict_proba_equals_brute_force_marginalisation(seed, score, gauss_hermite):
    X, y = mixed_table(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = BANClassifier(structure_score=score).fit(X, y)
    assert sum(map(len, clf.parents_.values())) >= 3  # a DAG, not naive Bayes
    # a categorical feature with a continuous parent: the Gauss-Hermite path of the engine
    cont = {"a", "b"}
    assert gauss_hermite == any(set(clf.parents_[v]) & cont for v in ("z", "w"))
    test, _ = mixed_table(seed + 100, n=60, missing=0.3)
    expected = brute_force_proba(clf, test)
    rows = ~np.isnan(expected).any(axis=1)
    enc = clf._check_X(test)
    assert rows.sum() >= 50 and (~enc.observed[rows][:, enc.continuous]).any(axis=1).sum() >= 20
    np.testing.assert_allclose(clf.predict_proba(test)[rows], expected[rows], atol=1e-9)


def test_discrete_predict_proba_equals_pgmpy_free_enumeration():
    # all categorical with empty cells: exact sums only (no quadrature), tighter tolerance
    X, y = mixed_table(7)
    X = X[["z", "w"]].assign(c=pd.cut(X["a"], 3, labels=["lo", "mid", "hi"]).astype(object))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = BANClassifier().fit(X, y)
    test = X.iloc[:40]
    np.testing.assert_allclose(clf.predict_proba(test), brute_force_proba(clf, test),
                               atol=1e-12)


@pytest.mark.parametrize("family, score", [("discrete", "bic"), ("discrete", "bdeu"),
                                           ("gaussian", "bic"), ("mixed", "bic")])
def test_structure_is_the_hill_climb_of_the_registry_score(family, score):
    X, y = mixed_table(3, missing=0.0 if family != "mixed" else 0.1)
    if family == "discrete":
        X = pd.DataFrame({c: pd.qcut(X[c], 3, labels=False) if X[c].dtype.kind == "f"
                          else X[c].map({"p": 0, "q": 1, "r": 0, "s": 1, "t": 2})
                          for c in X})
    elif family == "gaussian":
        X = X[["a", "b"]].assign(c=X["a"] - X["b"] + np.random.default_rng(0).normal(size=160))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = BANClassifier(structure_score=score).fit(X, y)
        f = make_score(score, family)
        f = f.fit_encoded(clf.encoder_.transform(X), y, clf.classes_) if family == "mixed" \
            else f.fit(X, y)
    assert clf.family_ == family
    f = as_fitted_score(f, list(X.columns))
    expected = hill_climb_dag(f, 2, variables=canonical_order(X.columns))  # ties: names
    assert clf.parents_ == expected.parents
    assert clf.score_ == pytest.approx(expected.score)
    best = brute_force_dag(f, 2)
    assert clf.score_ <= best.score + 1e-9
    assert sum(f(v, frozenset(p)) for v, p in clf.parents_.items()) == pytest.approx(clf.score_)


def test_no_parents_is_naive_bayes():
    X, y = mixed_table(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ban = BANClassifier(max_parents=0).fit(X, y)
        nb = NaiveBayesClassifier().fit(X, y)
    assert all(p == () for p in ban.parents_.values())
    np.testing.assert_allclose(ban.predict_proba(X), nb.predict_proba(X), rtol=1e-12)


def test_a_registered_plugin_score_drives_the_search():
    class Halved:
        """A protocol score (fit, score only): half the plug-in CMI minus a price per
        parent, so only strong pairs pay."""

        families = ("discrete",)

        def fit(self, X, y):
            self.base_ = DiscreteCMI().fit(X, y)
            return self

        def score(self, v, parents):
            return self.base_.score(v, parents) / 2 - 0.01 * len(parents)

    register_score("ban-test-halved", {"discrete": Halved})
    try:
        rng = np.random.default_rng(0)
        y = rng.integers(0, 2, 300)
        a = rng.integers(0, 3, 300)
        X = pd.DataFrame({"a": a, "b": (a + (rng.random(300) < 0.1)) % 3,
                          "c": rng.integers(0, 3, 300)})
        clf = BANClassifier(structure_score="ban-test-halved").fit(X, y)
        f = as_fitted_score(Halved().fit(X, y), list(X.columns))
        assert clf.parents_ == hill_climb_dag(f, 2).parents
        assert clf.parents_["b"] == ("a",) or clf.parents_["a"] == ("b",)
        assert clf.parents_["c"] == ()
    finally:
        del SCORES["ban-test-halved"]


def test_restarts_follow_random_state():
    X, y = mixed_table(2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one = BANClassifier(restarts=3, random_state=5).fit(X, y)
        two = BANClassifier(restarts=3, random_state=5).fit(X, y)
        plain = BANClassifier().fit(X, y)
    assert one.parents_ == two.parents_ and one.search_result_ == two.search_result_
    assert one.score_ >= plain.score_ - 1e-9


def test_singular_families_are_searched_as_perfect_dependences_with_one_warning():
    # x2 = x0 + x1 exactly: the Gaussian family (x2 | x0, x1) has a singular covariance and
    # scores +inf; BAN searches it as every structured classifier does (learn_structure's
    # policy: +inf at PERFECT), so the exact relation is in the DAG
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    X = rng.normal(y[:, None], 1.0, size=(200, 2))
    X = pd.DataFrame(np.column_stack([X, X.sum(axis=1)]), columns=["x0", "x1", "x2"])
    with pytest.warns(Warning, match=r"scored \+inf .* searched as perfect dependences"):
        clf = BANClassifier().fit(X, y)
    f = as_fitted_score(make_score("bic", "gaussian").fit(X, y), list(X.columns))
    expected = hill_climb_dag(lambda v, ps: min(f(v, ps), PERFECT), 2,
                              variables=canonical_order(X.columns))
    assert clf.parents_ == expected.parents
    perfect = [v for v, s in clf.hyperedge_scores_.items() if s == np.inf]
    assert perfect, clf.parents_
    for v in perfect:  # each is an exact linear function of its parents within each class
        for c in (0, 1):
            rows = X[y == c]
            design = np.column_stack([np.ones(len(rows)), rows[list(clf.parents_[v])]])
            coef = np.linalg.lstsq(design, rows[v], rcond=None)[0]
            assert np.abs(design @ coef - rows[v]).max() < 1e-9
    proba = clf.predict_proba(X)
    assert np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1.0)


@pytest.mark.parametrize("params, error, match", [
    (dict(max_parents=-1), ValueError, "'max_parents' parameter of BANClassifier must be"),
    (dict(max_parents=1.5), ValueError, "'max_parents' parameter of BANClassifier must be"),
    (dict(structure_score="nope"), ValueError, "'structure_score' parameter of BANClassifier"),
    (dict(tabu_length=-1), ValueError, "'tabu_length' parameter of BANClassifier must be"),
    (dict(structure_score="bdeu"), ValueError, "Score 'bdeu' is defined for discrete "
                                               "features only; got gaussian features"),
])
def test_bad_parameters(params, error, match):
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(50, 3)), rng.integers(0, 2, 50)
    with pytest.raises(error, match=match):
        BANClassifier(**params).fit(X, y)


def test_all_constant_columns_are_refused():
    with pytest.raises(ValueError, match="BANClassifier: needs at least 1 non-constant"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            BANClassifier().fit(np.ones((20, 2)), np.arange(20) % 2)


def discrete_table(seed=0, n=300):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a = (y + rng.integers(0, 2, n)) % 3
    b = np.where(rng.random(n) < 0.8, a, rng.integers(0, 3, n))
    c = np.where(rng.random(n) < 0.7, (a + b) % 3, rng.integers(0, 3, n))
    X = pd.DataFrame({"a": a, "b": b, "c": c, "d": rng.integers(0, 2, n)}).astype(str)
    return X, y


def test_structure_files_and_pgmpy_export(tmp_path):
    from pgmpy.inference import VariableElimination

    from estimators.network.export.exact_export import write_network
    from kgraph import ParentSetDAG, read_structure

    X, y = discrete_table()
    clf = BANClassifier().fit(X, y)
    assert isinstance(clf.structure_, ParentSetDAG) and clf.structure_.in_degree >= 1
    assert {v: tuple(sorted(clf.structure_.parents(v))) for v in X.columns} == {
        v: tuple(sorted(p)) for v, p in clf.parents_.items()}
    clf.write_graphml(tmp_path / "ban.graphml")
    assert read_structure(tmp_path / "ban.graphml") == clf.structure_
    clf.structure_.write_json(tmp_path / "ban.json")
    assert read_structure(tmp_path / "ban.json") == clf.structure_
    model = clf.to_pgmpy()
    for v in clf.structure_.order:
        assert set(model.get_parents(v)) == set(clf.structure_.parents(v)) | {"class"}
    infer = VariableElimination(model)
    test = X.iloc[:12].copy()
    test.iloc[::3, 1] = np.nan  # an empty cell: left out of pgmpy's evidence
    proba = clf.predict_proba(test)
    for i, (_, row) in enumerate(test.iterrows()):
        q = infer.query(["class"], evidence={c: row[c] for c in X.columns if pd.notna(row[c])},
                        show_progress=False)
        got = [q.values[q.state_names["class"].index(c)] for c in clf.classes_]
        np.testing.assert_allclose(proba[i], got, atol=1e-12)
    path = write_network(clf, "bif", tmp_path / "ban.bif")
    assert path.exists()


def test_mixed_model_has_no_pgmpy_form():
    X, y = mixed_table(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = BANClassifier().fit(X, y)
    with pytest.raises(ValueError, match="continuous feature"):
        clf.to_pgmpy()


def test_the_registered_searcher_gives_ktan_a_dag():
    # search="hill-climbing" through the searcher registry: a k-TAN whose structure is a DAG
    # of in-degree k, the same DAG as BAN's on the same (CMI) score
    from estimators.ktan import KTANClassifier
    from estimators.search import SEARCHERS

    assert "hill-climbing" in SEARCHERS
    X, y = discrete_table(1)
    ktan = KTANClassifier(k=2, search="hill-climbing").fit(X, y)
    ban = BANClassifier(structure_score="cmi").fit(X, y)
    assert ktan.structure_ == ban.structure_
    np.testing.assert_allclose(ktan.predict_proba(X), ban.predict_proba(X), rtol=1e-12)
    with pytest.raises(ValueError, match="^KTANClassifier: search='hill-climbing' learns "
                                         "without a backbone"):
        KTANClassifier(k=2, search="hill-climbing", backbone="mst-dfs").fit(X, y)
