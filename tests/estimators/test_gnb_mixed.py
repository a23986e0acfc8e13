"""GNB and k-GNB on mixed tables and with missing cells (issues 11, 12; MATH.md §7–§8):
normalisation per class, the closed-form Gaussian marginal, brute-force integration of the
mixed model, the arborescence on all-continuous scores, small classes and odd columns."""

import warnings

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from scipy.special import logsumexp
from scipy.stats import multivariate_normal

from estimators.gnb import GNBClassifier, KGNBClassifier
from estimators.gnb._mixed_scores import learn_gnb_tree


def _mixed(n, seed, d_cont=2):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    z = (rng.random(n) < 0.3 + 0.4 * y).astype(int)
    x0 = rng.normal(1.5 * z - y, 1.0)
    cols = {"z": np.array(["lo", "hi"])[z], "x0": x0}
    for j in range(1, d_cont):
        cols[f"x{j}"] = 0.8 * cols[f"x{j - 1}"] + rng.normal(0.5 * y, 0.7)
    return pd.DataFrame(cols), y


def _grid(lo, hi, n=801):
    t = np.linspace(lo, hi, n)
    return t, np.gradient(t)  # trapezoid-like weights on a fine regular grid


@pytest.mark.parametrize("model", [GNBClassifier(), GNBClassifier(dependence="kde"),
                                   GNBClassifier(dependence="gaussian-copula"),
                                   KGNBClassifier(order=4)])
def test_mixed_density_is_normalised_per_class(model):
    """sum over z of the integral over (x0, x1) of p(z, x0, x1 | y) is 1 for every class."""
    X, y = _mixed(300, 0)
    clf = model.fit(X, y)
    t0, w0 = _grid(X.x0.min() - 6, X.x0.max() + 6, 121)
    t1, w1 = _grid(X.x1.min() - 6, X.x1.max() + 6, 121)
    g0, g1 = np.meshgrid(t0, t1, indexing="ij")
    w = np.outer(w0, w1).ravel()
    total = np.zeros(2)
    for z in ("lo", "hi"):
        grid = pd.DataFrame({"z": z, "x0": g0.ravel(), "x1": g1.ravel()})
        jll = clf._joint_log_likelihood(clf._check_X(grid)) - clf.class_log_prior_
        total += np.exp(jll).T @ w
    assert np.allclose(total, 1.0, atol=2e-3)


def _tree_covariance(clf, c):
    """Covariance of class c implied by the GNB tree: correlations multiply along paths."""
    dens = clf.density_
    G = nx.Graph([tuple(e) for e in clf.cluster_order_.tolist()])
    d = dens.std_.shape[1]
    R = np.eye(d)
    for i in range(d):
        for j in range(d):
            if i != j:
                path = nx.shortest_path(G, i, j)
                R[i, j] = np.prod([dens.corr_[c, a, b] for a, b in zip(path[:-1], path[1:], strict=True)])
    return R * np.outer(dens.std_[c], dens.std_[c])


def test_gaussian_gnb_with_missing_cells_is_the_closed_form_marginal():
    rng = np.random.default_rng(1)
    A = rng.normal(size=(4, 4))
    y = rng.integers(0, 2, 400)
    X = rng.normal(size=(400, 4)) @ A + y[:, None]
    clf = GNBClassifier().fit(X, y)
    test = rng.normal(size=(40, 4)) @ A
    test[rng.random(test.shape) < 0.35] = np.nan
    test[0] = np.nan
    got = clf.predict_log_proba(test)
    logs = np.zeros((40, 2))
    for r in range(40):
        obs = ~np.isnan(test[r])
        for c in range(2):
            cov = _tree_covariance(clf, c)
            logs[r, c] = clf.class_log_prior_[c] + (multivariate_normal(
                clf.density_.mean_[c, obs], cov[np.ix_(obs, obs)]).logpdf(test[r, obs])
                if obs.any() else 0.0)
    assert np.allclose(got, logs - logsumexp(logs, axis=1, keepdims=True), atol=1e-9)


@pytest.mark.parametrize("model", [GNBClassifier(), KGNBClassifier(order=4),
                                   GNBClassifier(dependence="gaussian-copula"),
                                   GNBClassifier(dependence="kde"),
                                   KGNBClassifier(order=4, dependence="gaussian-copula")])
def test_mixed_model_with_missing_cells_equals_brute_force_integration(model):
    """d = 4 (two categorical, two continuous): every missing pattern of some rows against a
    sum over the categories and a grid integral over the missing continuous features of the
    complete-data density."""
    X, y = _mixed(400, 2, d_cont=2)
    rng = np.random.default_rng(3)
    X["w"] = np.where(rng.random(400) < 0.5 + 0.3 * (X.x1 > 0), "p", "q")
    clf = model.fit(X, y)
    rows = X.iloc[:6].copy()
    patterns = [["z"], ["x0"], ["x0", "z"], ["x1", "w"], ["x0", "x1"], ["z", "x0", "w"]]
    for r, cols in enumerate(patterns):
        rows.loc[rows.index[r], cols] = np.nan
    got = clf._joint_log_likelihood(clf._check_X(rows))
    t, wt = _grid(-10, 10, 241 if getattr(model, "dependence", "") == "gaussian" else 161)
    levels = {"z": ["lo", "hi"], "w": ["p", "q"]}
    for r, cols in enumerate(patterns):
        frame = rows.iloc[[r]]
        for col in cols:  # expand the missing cells: categories, then the grid
            vals = levels.get(col, t)
            n_before = len(frame)
            frame = frame.iloc[np.repeat(np.arange(n_before), len(vals))].copy()
            frame[col] = np.tile(vals, n_before)
        jll = clf._joint_log_likelihood(clf._check_X(frame))
        n_grid = sum(c not in levels for c in cols)
        wts = np.ones(1)
        for col in cols:
            wts = np.kron(wts, np.ones(2) if col in levels else wt)
        brute = logsumexp(jll + np.log(wts)[:, None], axis=0)
        assert n_grid <= 2
        # the KDE's 1-D densities are the marginals of its binned 2-D ones only up to the
        # binning error (~2e-4 here), so dropping a missing leaf is exact for the model's
        # definition but not for its numerical values
        tol = 1e-3 if getattr(model, "dependence", "") == "kde" else 1e-5
        assert np.allclose(got[r], brute, atol=tol), (cols, got[r], brute)


def test_arborescence_on_all_continuous_scores_is_kruskals_tree():
    """Symmetric scores: the maximum-likelihood rooted tree has Kruskal's edges."""
    rng = np.random.default_rng(4)
    X = pd.DataFrame(rng.normal(size=(300, 6)) @ rng.normal(size=(6, 6)))
    X.columns = [f"c{j}" for j in range(6)]
    y = rng.integers(0, 2, 300)
    clf = GNBClassifier().fit(X, y)
    enc, codes = clf.encoder_.transform(X), y
    used = np.arange(6)
    arcs, w_arc = learn_gnb_tree(enc, codes, clf.classes_, used, "gaussian", "scott", 1e-9,
                                None, directed=True)
    edges, w = learn_gnb_tree(enc, codes, clf.classes_, used, "gaussian", "scott", 1e-9,
                             None, directed=False)
    assert set(map(frozenset, arcs)) == set(map(frozenset, edges))
    assert np.isclose(w_arc.sum(), w.sum(), atol=1e-12)
    assert edges == [tuple(e) for e in clf.cluster_order_.tolist()]


@pytest.mark.parametrize("model", [GNBClassifier(), GNBClassifier(dependence="kde"),
                                   GNBClassifier(dependence="gaussian-copula"),
                                   GNBClassifier(n_clusters="auto", n_splits=2, random_state=0),
                                   KGNBClassifier(order=4),
                                   KGNBClassifier(order=4, dependence="gaussian-copula")])
def test_small_classes_constant_and_collinear_columns_never_stop_a_fit(model):
    X, y = _mixed(120, 5, d_cont=3)
    X["copy"] = 2.0 * X.x1  # collinear
    X["const"] = 7.0
    X.loc[3, "x0"] = np.nan
    X.loc[5, "z"] = None
    labels = np.where(y == 1, "b", "a").astype(object)
    labels[0] = "lonely"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        clf = model.fit(X, labels)
    text = " ".join(str(w.message) for w in caught)
    assert "'lonely'" in text and "'const'" in text
    test = X.copy()
    test.loc[7, "z"] = "unseen"
    proba = clf.predict_proba(test)
    assert np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1.0)


@pytest.mark.parametrize("dependence", ["gaussian", "gaussian-copula", "kde"])
def test_rooted_form_equals_the_ratio_form_on_all_continuous_data(dependence):
    """MATH.md §7: rooted anywhere, the product of p(x_c | x_m, y) telescopes to eq. 1."""
    from estimators.gnb._forest import fit_rooted_forest

    rng = np.random.default_rng(6)
    X = pd.DataFrame(rng.normal(size=(200, 5)) @ rng.normal(size=(5, 5)),
                     columns=list("abcde"))
    y = rng.integers(0, 2, 200)
    clf = GNBClassifier(dependence=dependence).fit(X, y)
    enc = clf.encoder_.transform(X)
    edges = [tuple(e) for e in clf.cluster_order_.tolist()]
    G = nx.bfs_tree(nx.Graph(edges), source=3)  # rooted at an arbitrary vertex
    arcs = sorted(G.edges, key=lambda a: edges.index(a) if a in edges else edges.index(a[::-1]))
    forest = fit_rooted_forest(enc, y, 2, arcs, range(5), clf.density_, dependence,
                               var_smoothing=1e-9)
    for m in (2, 4):
        ratio = clf.density_.log_density(enc.values, edges[:m])
        assert np.allclose(forest.log_density(enc, m), ratio, rtol=0, atol=1e-9)


def test_pair_diagnostics_of_a_mixed_model_show_the_continuous_pairs():
    from estimators.gnb import pair_data

    X, y = _mixed(200, 7, d_cont=3)
    clf = GNBClassifier().fit(X, y)
    names = clf.feature_names()
    expected = [(names[i], names[j]) for i, j in clf.cluster_order_.tolist()
                if "z" not in (names[i], names[j])]
    assert [p.names for p in pair_data(clf, X, y)] == expected and expected


def test_no_eligible_arborescence_still_fits_with_one_warning():
    # column b is observed on three rows only: no arc into or out of it has enough
    # complete rows, so the tree takes its arcs at the ineligible weight and says so
    X = pd.DataFrame({"a": [0.126, -0.132, 0.640, 0.105, -0.536, np.nan],
                      "b": [np.nan, 2, 1, np.nan, 2, np.nan]})
    y = ["c0", "c1", "c0", "c1", "c1", "c1"]
    with pytest.warns(UserWarning, match="arcs without enough complete rows"):
        proba = GNBClassifier().fit(X, y).predict_proba(X)
    assert np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1.0)


def _per_hyperedge_cg(score, enc, codes, classes):
    """``score`` switched from the DiscreteCMI fast path to the per-hyperedge CG score."""
    from estimators.scores import ConditionalGaussianScore

    score.discrete = None
    score.cg = ConditionalGaussianScore().fit_encoded(enc, codes, classes)
    return score


def test_all_categorical_complete_scores_through_discrete_cmi_equal_the_cg_score(monkeypatch):
    """The fast path (DiscreteCMI's batched tables) gives the CG score's values (1e-10) and
    the same k-GNB as the per-hyperedge CG path."""
    from estimators.columns import MixedEncoder
    from estimators.gnb import _mixed_scores

    rng = np.random.default_rng(5)
    y = rng.integers(0, 3, 300)
    X = pd.DataFrame({f"c{j}": np.array(list("abcd"))[(rng.integers(0, 4, 300) + y * (j % 2))
                                                       % 4] for j in range(5)})
    enc = MixedEncoder().fit(X).transform(X)
    fast = _mixed_scores.MixedScore(enc, y, np.arange(3), np.arange(5), "gaussian")
    assert fast.discrete is not None
    slow = _per_hyperedge_cg(_mixed_scores.MixedScore(enc, y, np.arange(3), np.arange(5),
                                                      "gaussian"), enc, y, np.arange(3))
    for v, ps in [(0, {1}), (2, {0, 4}), (3, {1, 2, 4})]:
        assert fast(v, ps) == pytest.approx(slow(v, ps), abs=1e-10)
    np.testing.assert_allclose(fast.edge_matrix(), slow.edge_matrix(), atol=1e-10)
    ref = KGNBClassifier(order=3).fit(X, y).predict_proba(X)
    init = _mixed_scores.MixedScore.__init__

    def without_fast_path(self, enc, codes, classes, *args, **kwargs):
        init(self, enc, codes, classes, *args, **kwargs)
        _per_hyperedge_cg(self, enc, codes, classes)

    monkeypatch.setattr(_mixed_scores.MixedScore, "__init__", without_fast_path)
    np.testing.assert_allclose(KGNBClassifier(order=3).fit(X, y).predict_proba(X), ref,
                               atol=1e-9)
