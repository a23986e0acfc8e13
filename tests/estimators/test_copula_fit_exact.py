"""The faster Gaussian-copula GNB fit (issue 15, point 4) against plain computations.

Every fitted value is recomputed here the straightforward way, from the public pieces
(``KDE1D``, ``kernel_cdf``, ``scipy.stats.norm.ppf``, ``numpy.corrcoef``), and must agree to
1e-12 relative: the speed-ups reorder no arithmetic that changes a fitted number. The tree is
Chow-Liu on the fitted copula: its edge weights are the fitted model's pairwise CMIs.
"""

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from estimators.base.validation import within_class_constant
from estimators.columns import MixedEncoder, infer_feature_types
from estimators.datasets import load_dataset
from estimators.densities._normal_scores import safe_correlation
from estimators.densities.copula_density import U_EPS
from estimators.densities.kde import KDE1D, kernel_bandwidth, scott_factor
from estimators.gnb import GNBClassifier, KGNBClassifier
from estimators.scores import GaussianCopulaCMI
from estimators.scores._marginals import kernel_cdf
from estimators.template.joint_likelihood import constant_by_class

SCORE_EPS = 1e-6  # GaussianCopulaCMI's default clip of u


def _copula_data(n: int, d: int, seed: int):
    """Two classes with AR(1) Gaussian copulas of different strength (rho^|i-j|), exp
    margins on every other feature."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    lag = np.abs(np.subtract.outer(np.arange(d), np.arange(d)))
    Z = np.empty((n, d))
    for c, rho in enumerate((0.4, 0.8)):
        Z[y == c] = rng.multivariate_normal(np.zeros(d), rho**lag, size=int((y == c).sum()))
    Z[:, ::2] = np.exp(Z[:, ::2])
    return Z, y


def _score_correlations(X, y):
    """Per class: Pearson correlation of ``norm.ppf`` of ``kernel_cdf`` of each column (the
    standalone score's transform)."""
    out = []
    for c in range(2):
        Xc = X[y == c]
        n = Xc.shape[0]
        Z = np.column_stack([
            norm.ppf(np.clip(kernel_cdf(col, scott_factor(n, 1) * col.std(ddof=1)),
                             SCORE_EPS, 1 - SCORE_EPS)) for col in Xc.T])
        out.append(np.corrcoef(Z, rowvar=False))
    return np.array(out)


def _weights(R, prior):
    """-1/2 sum_y p(y) ln(1 - r_y^2) for every pair (0 on the unit diagonal)."""
    with np.errstate(divide="ignore"):
        W = -0.5 * (prior[:, None, None] * np.log1p(-R**2)).sum(axis=0)
    np.fill_diagonal(W, 0.0)
    return W


def _networkx_tree(W):
    G = nx.Graph()
    d = W.shape[0]
    G.add_weighted_edges_from((a, b, W[a, b]) for a in range(d) for b in range(a + 1, d))
    return {frozenset(e) for e in nx.maximum_spanning_tree(G).edges}


def test_copula_gnb_fit_equals_the_plain_computation():
    X, y = _copula_data(3000, 7, 0)
    clf = GNBClassifier(dependence="gaussian-copula").fit(X, y)
    prior = np.bincount(y) / y.size
    # density: per class, KDEs built from scratch; correlations of ppf of their CDFs
    min_std = np.sqrt(1e-9 * np.var(X, axis=0).max())
    R = np.empty((2, 7, 7))
    for c in range(2):
        Xc = X[y == c]
        Z = np.empty_like(Xc)
        for s, col in enumerate(Xc.T):
            ref = KDE1D(col, kernel_bandwidth(col, scott_factor(col.size, 1), min_std))
            got = clf.density_.kdes_[c][s]
            assert got.h == pytest.approx(ref.h, rel=1e-12)
            np.testing.assert_allclose(got.cdf_grid, ref.cdf_grid, rtol=1e-12, atol=0)
            np.testing.assert_allclose(got.log_grid, ref.log_grid, rtol=1e-12, atol=0)
            Z[:, s] = norm.ppf(np.clip(ref.cdf(col), U_EPS, 1 - U_EPS))
        R[c] = np.corrcoef(Z, rowvar=False)
        np.testing.assert_allclose(clf.density_.corr_[c], R[c], rtol=1e-12, atol=1e-15)
    # structure: Chow-Liu on the fitted copula. The edge weights are the fitted model's
    # pairwise CMIs -1/2 sum_y p(y) ln(1 - rho_y^2), rho its correlations (density_.corr_),
    # and those of the plain computation above; the tree is networkx's maximum spanning tree
    i, j = clf.cluster_order_.T
    fitted = _weights(clf.density_.corr_, prior)
    np.testing.assert_allclose(clf.edge_weights_, fitted[i, j], rtol=1e-12, atol=0)
    W = _weights(R, prior)
    np.testing.assert_allclose(clf.edge_weights_, W[i, j], rtol=1e-12, atol=0)
    assert {frozenset(e) for e in clf.cluster_order_.tolist()} == _networkx_tree(W)
    assert clf.weight_ == pytest.approx(sum(W[a, b] for a, b in _networkx_tree(W)), rel=1e-12)


def test_copula_tree_is_chow_liu_on_the_fitted_copula_with_constant_columns():
    """Constant columns stay out of the structure; columns are the original indices."""
    X, y = _copula_data(600, 6, 4)
    X = np.column_stack([X[:, :2], np.full(600, 3.0), X[:, 2:]])  # column 2 constant
    with pytest.warns(UserWarning, match=r"column\(s\) \['x2'\] of X take fewer than two"):
        clf = GNBClassifier(dependence="gaussian-copula").fit(X, y)
    prior = np.bincount(y) / y.size
    used = np.array([0, 1, 3, 4, 5, 6])
    W = _weights(clf.density_.corr_[:, used[:, None], used[None, :]], prior)
    tree = {frozenset((int(used[a]), int(used[b]))) for a, b in map(tuple, _networkx_tree(W))}
    assert {frozenset(e) for e in clf.cluster_order_.tolist()} == tree
    full = _weights(clf.density_.corr_, prior)
    i, j = clf.cluster_order_.T
    np.testing.assert_allclose(clf.edge_weights_, full[i, j], rtol=1e-12, atol=0)


def test_standalone_kernel_copula_score_keeps_its_own_normal_scores():
    """GaussianCopulaCMI(marginals="kernel") used directly is unchanged: normal scores from
    ``kernel_cdf`` clipped at 1e-6 (its documented transform), not the density's KDE CDF."""
    X, y = _copula_data(3000, 5, 0)
    prior = np.bincount(y) / y.size
    got = GaussianCopulaCMI(marginals="kernel").fit(X, y).edge_matrix()
    np.testing.assert_allclose(got, _weights(_score_correlations(X, y), prior),
                               rtol=1e-12, atol=1e-300)


def test_copula_density_with_missing_cells_keeps_the_observed_value_kdes():
    X, y = _copula_data(800, 4, 1)
    X[np.random.default_rng(1).random(X.shape) < 0.1] = np.nan
    X[:, 3] = np.where(np.isnan(X[:, 3]), 1.0, X[:, 3])  # one complete column
    clf = GNBClassifier(dependence="gaussian-copula").fit(X, y)
    min_std = np.sqrt(1e-9 * np.nanvar(X, axis=0).max())
    for c in range(2):
        Xc = X[y == c]
        for s, col in enumerate(Xc.T):
            obs = col[~np.isnan(col)]
            ref = KDE1D(obs, kernel_bandwidth(obs, scott_factor(col.size, 1), min_std))
            np.testing.assert_allclose(clf.density_.kdes_[c][s].cdf_grid, ref.cdf_grid,
                                       rtol=1e-12, atol=0)


@pytest.mark.parametrize("outlier", [0.0, 1e4])  # 1e4: the grid is capped at 2**16 points
def test_sample_cdf_from_the_bin_positions_is_the_cdf_at_the_sample(outlier):
    x = np.random.default_rng(2).lognormal(size=5000)
    x[0] += outlier
    kde, u = KDE1D.with_sample_cdf(x, 0.05)
    assert kde.grid.size == (2**16 if outlier else kde.grid.size)
    np.testing.assert_array_equal(u, kde.cdf(x))
    np.testing.assert_array_equal(kde.cdf_grid, KDE1D(x, 0.05).cdf_grid)


def test_constant_within_class_equals_pandas_nunique():
    rng = np.random.default_rng(3)
    n = 400
    y = rng.integers(0, 4, n)
    X = pd.DataFrame({
        "a": rng.normal(size=n),
        "b": np.where(y == 2, 5.0, rng.normal(size=n)),  # constant in class 2
        "c": np.where(y == 1, np.nan, rng.normal(size=n)),  # no observed value in class 1
        "d": rng.choice(["u", "v", None], n),
        "e": np.where(y == 0, "w", rng.choice(["u", "v"], n)),  # categorical, constant in 0
        "f": np.where((y == 3) & (rng.random(n) < 0.5), np.nan, np.where(y == 3, 0.0, -0.0)),
    })
    X.loc[rng.random(n) < 0.1, "a"] = np.nan
    enc = MixedEncoder().fit(X).transform(X)
    cols = np.arange(enc.values.shape[1])
    got = constant_by_class(enc, cols, y, 4)
    table = pd.DataFrame(np.where(enc.continuous, enc.values,
                                  np.where(enc.codes >= 0, enc.codes, np.nan)))
    ref = table.groupby(y).nunique().to_numpy() <= 1
    np.testing.assert_array_equal(got, ref)
    assert got[2, 1] and got[1, 2] and got[0, 4] and not got[:, 0].any()


def test_integer_rule_decided_past_the_first_64_values():
    rng = np.random.default_rng(4)
    late = np.r_[rng.integers(0, 3, 100).astype(float), 0.5]  # a non-integer at row 100
    X = np.column_stack([late, rng.integers(0, 3, 101), rng.integers(0, 50, 101),
                         np.r_[np.nan, rng.integers(0, 3, 100)]])
    assert infer_feature_types(X) == {0: "continuous", 1: "categorical", 2: "continuous",
                                      3: "categorical"}


@pytest.mark.parametrize("dtype", [float, np.int64])
def test_score_constant_mask_equals_the_class_blocks(dtype):
    rng = np.random.default_rng(5)
    y = rng.integers(0, 3, 300)
    X = rng.integers(0, 4, size=(300, 5)).astype(dtype)
    X[y == 1, 2] = 7
    X[y == 0, 4] = 1
    if dtype is float:
        X[np.flatnonzero(y == 2)[:1], 0] = np.nan  # NaN in a block: not constant
        X[y == 2, 0] = np.where(np.isnan(X[y == 2, 0]), np.nan, 3.0)
    got = within_class_constant(X, y, np.array(["a", "b", "c", "d"]), list("pqrst"),
                                owner="Demo", warn=False)
    ref = np.array([(X[y == c] == X[y == c][0]).all(axis=0) for c in range(3)]
                   + [np.ones(5, bool)])  # class "d" has no row
    np.testing.assert_array_equal(got, ref)
    assert got[1, 2] and got[0, 4] and not got[2, 0]


@pytest.mark.parametrize("missing", [False, True])
def test_constant_columns_are_uncorrelated_despite_the_rounded_mean(missing):
    """A constant column centred by its rounded mean is one tiny value, not 0; its
    correlation with another such column was +-1 (yeast: rho = 1 in two classes)."""
    rng = np.random.default_rng(6)
    z = np.column_stack([np.full(35, 0.1), np.full(35, -0.0123456), rng.normal(size=35)])
    assert (z[:, :2] - z[:, :2].mean(axis=0) != 0).all()  # the rounding this is about
    if missing:
        z[3, 0] = z[5, 2] = np.nan
    corr = safe_correlation(z.copy())
    ref = np.corrcoef(z[~np.isnan(z).any(axis=1), 2:].T) if missing else 1.0
    np.testing.assert_array_equal(corr[:2, :2], np.eye(2))
    np.testing.assert_array_equal(corr[2, :2], [0.0, 0.0])
    assert corr[2, 2] == pytest.approx(ref)


def test_yeast_copula_has_no_correlation_for_constant_columns():
    X, y = load_dataset("yeast")
    # erl (2 values) and pox (3) are categorical by default (issue 25); forced continuous
    # here, they are the columns constant within classes whose correlations must be zero
    clf = GNBClassifier(dependence="gaussian-copula",
                        feature_types={"erl": "continuous", "pox": "continuous"}).fit(X, y)
    codes = np.searchsorted(clf.classes_, np.asarray(y))
    Xv = X.to_numpy(float)
    const = np.array([[np.ptp(Xv[codes == c, s]) == 0 for s in range(Xv.shape[1])]
                      for c in range(clf.classes_.size)])
    assert const[:, 4].sum() >= 2 and (const[:, 4] & const[:, 5]).any()  # erl, pox
    for c in range(clf.classes_.size):
        off = clf.density_.corr_[c] - np.eye(Xv.shape[1])
        assert not off[const[c]].any() and not off[:, const[c]].any()
    assert {4, 5} not in [set(e) for e in clf.cluster_order_.tolist()]


def test_kgnb_scores_hyperedges_by_the_fitted_copula():
    """KGNB's copula score is the fitted density's closed form for any parent set, and
    order 3 keeps GNBClassifier's tree where the standalone score's tree differs."""
    X, y = load_dataset("breast_cancer")
    X = X.iloc[:, 10:]  # the "error" and "worst" columns: the two kernel CDFs pick different trees
    gnb = GNBClassifier(dependence="gaussian-copula").fit(X, y)
    k3 = KGNBClassifier(order=3, dependence="gaussian-copula").fit(X, y)
    codes = pd.factorize(y, sort=True)[0]
    standalone = GaussianCopulaCMI(marginals="kernel").fit(X.to_numpy(float), codes)
    assert _networkx_tree(standalone.edge_matrix()) != {
        frozenset(X.columns.get_loc(v) for v in e) for e in gnb.structure_.edges}
    assert set(map(frozenset, gnb.structure_.edges)) == set(map(frozenset, k3.structure_.edges))
    np.testing.assert_allclose(gnb.predict_proba(X), k3.predict_proba(X), rtol=0, atol=1e-10)
    k4 = KGNBClassifier(order=4, dependence="gaussian-copula").fit(X, y)
    prior = np.bincount(codes) / y.size
    names = list(X.columns)
    ref = 0.0
    for v in k4.structure_.order:
        cols = [names.index(v), *sorted(names.index(p) for p in k4.structure_.parents(v))]
        for c, p in enumerate(prior):  # 1/2 [ln det R_P - ln det R_vP], numpy's slogdet
            R = k4.density_.corr_[c][np.ix_(cols, cols)]
            ref += p * 0.5 * (np.linalg.slogdet(R[1:, 1:])[1] - np.linalg.slogdet(R)[1])
    assert k4.weight_ == pytest.approx(ref, rel=1e-10)
