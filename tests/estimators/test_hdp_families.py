"""``parameters="hdp"`` on the network families: the tables are the HDP estimates of the
factors' counts (trees class first, then the parents in the family's order), continuous
factors and defaults untouched, exports equal to ``predict_proba``, partitions equal to
rows."""

import dask
import numpy as np
import pandas as pd
import pytest
from pgmpy.inference import VariableElimination
from sklearn.utils._param_validation import InvalidParameterError

from estimators.bnc import A2DEClassifier, AODEClassifier, BANClassifier, KDBClassifier
from estimators.datasets import load_dataset
from estimators.distributed import collect
from estimators.ktan import KTANClassifier, NaiveBayesClassifier, TANClassifier
from estimators.network.factors import CategoricalFactor
from estimators.network.fitting import fit_cg_factor
from estimators.network.hdp_tables import HDPSmoothing
from estimators.stats.hdp import fit_hdp

FAST = dict(parameters="hdp", hdp_iterations=200)
FAMILIES = {"nb": NaiveBayesClassifier, "tan": TANClassifier, "ktan": KTANClassifier,
            "kdb": KDBClassifier, "ban": BANClassifier}


@pytest.fixture(scope="module")
def car():
    X, y = load_dataset("car")
    return X, np.asarray(y)


def _factor(clf, name):
    j = list(clf.feature_names()).index(name)
    return next(f for f in clf.network_.factors if f.v == j)


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_fits_hdp_tables(car, family):
    X, y = car
    kw = dict(k=2) if family == "ktan" else {}
    hdp = FAMILIES[family](**FAST, **kw).fit(X, y)
    laplace = FAMILIES[family](**kw).fit(X, y)
    p = hdp.predict_proba(X)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert hdp.discriminative_ is None
    for f in hdp.network_.factors:
        table = np.exp(f.log_cpt)
        np.testing.assert_allclose(table.sum(axis=-1), 1.0, rtol=0, atol=1e-12)
    assert not np.allclose(p, laplace.predict_proba(X))


def test_naive_bayes_tables_are_the_two_level_tree_of_their_counts(car):
    """p(x | y) is the HDP tree root p(x) -> class, seeded by the vertex."""
    X, y = car
    clf = NaiveBayesClassifier(**FAST, random_state=3).fit(X, y)
    codes = np.searchsorted(clf.classes_, y)
    for j, name in enumerate(clf.feature_names()):
        x = clf.encoder_.transform(X).codes[:, j]
        K = int(x.max()) + 1
        counts = np.zeros((clf.classes_.size, K), int)
        np.add.at(counts, (codes, x), 1)
        rs = np.random.RandomState(np.random.SeedSequence([3, j]).generate_state(1))
        tree = fit_hdp(np.arange(clf.classes_.size)[:, None], counts, [clf.classes_.size],
                       iterations=200, random_state=rs)
        f = _factor(clf, name)
        np.testing.assert_allclose(np.exp(f.log_cpt[0]), tree.query(np.arange(4)[:, None]),
                                   rtol=0, atol=1e-14)


def test_the_tree_follows_the_familys_parent_order():
    """With the order (b, a) the table equals the one of the same counts with the parents'
    axes swapped and the order (a, b)."""
    rng = np.random.default_rng(0)
    counts = rng.poisson(1.5, size=(3, 4, 2, 3)).astype(float)  # (a, b, class, x)
    counts[0, 1] = 0
    U = 12
    table = np.concatenate([counts.reshape(U, 2, 3), np.zeros((1, 2, 3))])
    smooth = HDPSmoothing(iterations=100, seed=1, orders={7: (5, 4)})
    got = smooth.log_cpt(table, np.arange(U), np.array([3, 4]), v=7, parents=(4, 5))
    swapped = np.concatenate([counts.transpose(1, 0, 2, 3).reshape(U, 2, 3),
                              np.zeros((1, 2, 3))])
    ref = HDPSmoothing(iterations=100, seed=1).log_cpt(swapped, np.arange(U), np.array([4, 3]),
                                                        v=7, parents=(5, 4))
    np.testing.assert_array_equal(got[:U].reshape(3, 4, 2, 3),
                                  ref[:U].reshape(4, 3, 2, 3).transpose(1, 0, 2, 3))
    np.testing.assert_array_equal(got[U], ref[U])


def test_kdb_hdp_passes_its_parents_by_information(monkeypatch):
    """kDB's trees take a feature's parents largest I(X_i; X_j | C) first."""
    import estimators.template.network_classifier as nc

    seen = []
    real = nc.hdp_smoothing
    monkeypatch.setattr(nc, "hdp_smoothing", lambda est, orders=None: seen.append(orders)
                        or real(est, orders))
    X, y = load_dataset("kr_vs_kp")
    rows = np.random.default_rng(0).permutation(len(X))[:600]
    clf = KDBClassifier(max_parents=3, **FAST).fit(X.iloc[rows], np.asarray(y)[rows])
    orders = next(o for o in seen if o)
    W = clf.edge_scores_  # modelled features in column order
    modelled = sorted(orders)
    assert sum(len(pa) == 3 for pa in orders.values()) > 5
    for v, pa in orders.items():
        info = [W[modelled.index(p), modelled.index(v)] for p in pa]
        assert info == sorted(info, reverse=True)
        assert len(set(info)) == len(info) or len(pa) < 2


def test_same_seed_same_tables_other_seed_other_tables(car):
    X, y = car
    a = KDBClassifier(max_parents=3, random_state=1, **FAST).fit(X, y).predict_proba(X)
    b = KDBClassifier(max_parents=3, random_state=1, **FAST).fit(X, y).predict_proba(X)
    c = KDBClassifier(max_parents=3, random_state=2, **FAST).fit(X, y).predict_proba(X)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)
    np.testing.assert_allclose(a, c, rtol=0, atol=0.05)  # Monte Carlo noise only


def test_pgmpy_variable_elimination_equals_predict_proba(car):
    X, y = car
    idx = np.random.default_rng(0).permutation(len(X))
    te, tr = idx[:100], idx[100:]
    clf = KDBClassifier(max_parents=3, **FAST).fit(X.iloc[tr], y[tr])
    infer = VariableElimination(clf.to_pgmpy())
    proba = clf.predict_proba(X.iloc[te])
    for i, (_, row) in enumerate(X.iloc[te].iterrows()):
        post = infer.query([clf.class_node_], evidence=row.to_dict(), show_progress=False)
        np.testing.assert_allclose(post.values, proba[i], rtol=0, atol=1e-9)


def test_continuous_features_keep_their_factors():
    rng = np.random.default_rng(1)
    n = 400
    y = rng.integers(0, 2, n)
    z = np.where(rng.random(n) < 0.3 + 0.4 * y, "a", "b")
    w = np.where(rng.random(n) < 0.5, "u", "v")
    X = pd.DataFrame({"z": z, "w": w, "x": rng.normal(y + (z == "a"), 1.0),
                      "t": rng.normal(-y, 1.0)})
    hdp = KDBClassifier(max_parents=2, **FAST).fit(X, y)
    gen = KDBClassifier(max_parents=2).fit(X, y)
    assert hdp.structure_.edges == gen.structure_.edges
    for fh, fg in zip(hdp.network_.factors, gen.network_.factors, strict=True):
        if X.columns[fh.v] in ("x", "t"):  # continuous: the same Gaussian factor
            np.testing.assert_array_equal(fh.intercept, fg.intercept)
            np.testing.assert_array_equal(fh.var, fg.var)
        elif fh.continuous_parents:  # Bayes' rule: the same factor
            np.testing.assert_array_equal(fh.log_cpt, fg.log_cpt)
        else:
            assert not np.allclose(fh.log_cpt, fg.log_cpt)
    np.testing.assert_allclose(hdp.predict_proba(X).sum(axis=1), 1.0, rtol=0, atol=1e-12)
    # a categorical feature with a continuous parent keeps its Bayes'-rule factor
    enc = hdp.encoder_.transform(X)
    smooth = HDPSmoothing(iterations=50, alpha=0.7)
    for parents in ([2], [1, 2]):
        got = fit_cg_factor(enc, y, 2, 0, parents, alpha=smooth)
        want = fit_cg_factor(enc, y, 2, 0, parents, alpha=0.7)
        assert type(got).__name__ == "BayesCategoricalFactor"
        for field in ("log_cpt", "mean", "precision", "logdet"):
            np.testing.assert_array_equal(getattr(got, field), getattr(want, field))
    assert not np.array_equal(fit_cg_factor(enc, y, 2, 0, [1], alpha=smooth).log_cpt,
                              fit_cg_factor(enc, y, 2, 0, [1], alpha=0.7).log_cpt)


def test_missing_cells_count_the_observed_cells_and_are_marginalised(car):
    X, y = car
    X = X.mask(np.random.default_rng(0).random(X.shape) < 0.1)
    clf = NaiveBayesClassifier(**FAST).fit(X, y)
    codes = np.searchsorted(clf.classes_, y)
    enc = clf.encoder_.transform(X)
    f = clf.network_.factors[0]
    ok = enc.observed[:, f.v]
    m = clf.classes_.size
    counts = np.zeros((m, int(enc.n_levels[f.v])), int)
    np.add.at(counts, (codes[ok], enc.codes[ok, f.v]), 1)
    rs = np.random.RandomState(np.random.SeedSequence([0, f.v]).generate_state(1))
    tree = fit_hdp(np.arange(m)[:, None], counts, [m], iterations=200, random_state=rs)
    np.testing.assert_allclose(np.exp(f.log_cpt[0]), tree.query(np.arange(m)[:, None]),
                               rtol=0, atol=1e-14)
    # a row with every cell missing: the class prior
    empty = X.iloc[:1].copy()
    empty.loc[:, :] = np.nan
    np.testing.assert_allclose(clf.predict_proba(empty)[0], np.exp(clf.class_log_prior_),
                               rtol=0, atol=1e-12)


def test_partitions_give_the_in_memory_fit(car):
    import dask.dataframe as dd

    X, y = car
    X, y = X.iloc[:600], pd.Series(y[:600])
    Xd, yd = dd.from_pandas(X, npartitions=3), dd.from_pandas(y, npartitions=3)
    with dask.config.set(scheduler="synchronous"):
        for cls in (NaiveBayesClassifier, TANClassifier):
            got = cls(**FAST).fit(collect(Xd, yd))
            ref = cls(**FAST).fit(X, y)
            np.testing.assert_allclose(got.predict_proba(X), ref.predict_proba(X), rtol=0,
                                       atol=1e-12)


@pytest.mark.parametrize("bad, message", [
    (dict(parameters="hdpx"), "'parameters' parameter"),
    (dict(parameters="hdp", hdp_iterations=0), "'hdp_iterations' parameter"),
    (dict(parameters="hdp", hdp_burn_in=-1), "'hdp_burn_in' parameter"),
    (dict(parameters="hdp", hdp_tying="parent"), "'hdp_tying' parameter"),
])
def test_bad_hdp_settings_are_refused(car, bad, message):
    X, y = car
    with pytest.raises(InvalidParameterError, match=message):
        KDBClassifier(**bad).fit(X, y)


def test_a_burn_in_not_below_the_sweeps_is_refused(car):
    X, y = car
    with pytest.raises(ValueError, match="burn_in must be an integer in"):
        KDBClassifier(parameters="hdp", hdp_iterations=10, hdp_burn_in=10).fit(X, y)


def test_categorical_factors_are_tables(car):
    X, y = car
    clf = TANClassifier(**FAST).fit(X, y)
    assert all(isinstance(f, CategoricalFactor) for f in clf.network_.factors)


@pytest.mark.parametrize("cls", [AODEClassifier, A2DEClassifier])
def test_ande_spode_tables_are_the_trees_of_their_counts(car, cls):
    """Each SPODE's table p(x | super-parents, y): the tree class -> super-parents of its
    counts, seeded by the vertex and its parents."""
    X, y = car
    clf = cls(smoothing="hdp", hdp_iterations=100, random_state=4).fit(X, y)
    laplace = cls().fit(X, y)
    assert not np.allclose(clf.predict_proba(X), laplace.predict_proba(X))
    enc = clf.encoder_.transform(X)
    codes = np.searchsorted(clf.classes_, y)
    m = clf.classes_.size
    checked = 0
    for network in clf.spodes_[:2]:
        for f in network.factors:
            pa = f.categorical_parents
            if not pa:
                continue
            radix = enc.n_levels[list(pa)]
            counts = np.zeros((*radix, m, int(enc.n_levels[f.v])), int)
            np.add.at(counts, (*enc.codes[:, list(pa)].T, codes, enc.codes[:, f.v]), 1)
            counts = np.moveaxis(counts, -2, 0)  # (class, parents..., x)
            paths = np.indices(counts.shape[:-1]).reshape(counts.ndim - 1, -1).T
            key = [4, f.v, *sorted(pa)]
            rs = np.random.RandomState(np.random.SeedSequence(key).generate_state(1))
            tree = fit_hdp(paths, counts.reshape(-1, counts.shape[-1]), counts.shape[:-1],
                           iterations=100, random_state=rs)
            seen = np.stack(np.unravel_index(f.configs, tuple(radix)), axis=1)
            for y_ in range(m):
                want = tree.query(np.column_stack([np.full(len(seen), y_), seen]))
                np.testing.assert_allclose(np.exp(f.log_cpt[:-1, y_]), want, rtol=0, atol=1e-14)
            checked += 1
    assert checked > 0
