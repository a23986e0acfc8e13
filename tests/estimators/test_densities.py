"""Class-conditional densities: KDE grids against scipy and direct sums, marginal consistency,
the vectorised GNB log-density against the edge-by-edge one, multivariate subsets."""

import numpy as np
import pytest
from scipy.integrate import trapezoid
from scipy.special import logsumexp
from scipy.stats import gaussian_kde, multivariate_normal, norm

from estimators.densities import (
    KDE1D,
    KDE2D,
    ClassGaussian,
    ClassGaussianCopula,
    ClassKDE,
)


@pytest.fixture(scope="module")
def skewed():
    rng = np.random.default_rng(3)
    return rng.gamma(2.0, size=2000)


def test_kde1d_matches_scipy_in_the_bulk(skewed):
    h = 0.25
    kde = KDE1D(skewed, h)
    ref = gaussian_kde(skewed, bw_method=h / skewed.std(ddof=1))
    t = np.linspace(skewed.min() - 1, skewed.max() + 1, 3000)
    bulk = ref(t) > 1e-3 * ref(t).max()
    assert np.max(np.abs(kde.logpdf(t)[bulk] - ref.logpdf(t)[bulk])) < 5e-3


def test_kde1d_far_points_use_the_exact_sum(skewed):
    kde = KDE1D(skewed, 0.25)
    far = np.array([-30.0, -5.0, 60.0])  # outside the grid
    direct = logsumexp(norm.logpdf((far[:, None] - skewed[None, :]) / 0.25), axis=1)
    direct -= np.log(skewed.size * 0.25)
    assert np.allclose(kde.logpdf(far), direct, atol=1e-6)


def test_kde1d_cdf_matches_direct_mean(skewed):
    kde = KDE1D(skewed, 0.25)
    t = np.linspace(-1, 15, 200)
    direct = norm.cdf((t[:, None] - skewed[None, :]) / 0.25).mean(axis=1)
    assert np.max(np.abs(kde.cdf(t) - direct)) < 1e-4


def test_kde2d_matches_direct_sum_including_gaps():
    rng = np.random.default_rng(4)
    xy = np.vstack([rng.normal(0, 0.3, (400, 2)), rng.normal(6, 0.3, (400, 2))])
    h = (0.2, 0.25)
    kde = KDE2D(xy[:, 0], xy[:, 1], h)
    pts = rng.uniform(-2, 8, size=(400, 2))
    t = (pts[:, None, :] - xy[None, :, :]) / np.array(h)
    direct = logsumexp(-0.5 * np.sum(t * t, axis=2), axis=1) - np.log(
        xy.shape[0] * h[0] * h[1] * 2 * np.pi
    )
    got = kde.logpdf(pts[:, 0], pts[:, 1])
    bulk = direct > direct.max() - np.log(1e3)
    assert np.max(np.abs(got[bulk] - direct[bulk])) < 5e-3
    # far-out and gap points: relative error of the density stays small in absolute log terms
    assert np.max(np.abs(got - direct) / np.maximum(1.0, np.abs(direct))) < 0.05


def _three_feature_classes(n=600, seed=0):
    rng = np.random.default_rng(seed)
    cov = [[1.0, 0.7, 0.2], [0.7, 1.0, 0.5], [0.2, 0.5, 1.0]]
    X0 = rng.multivariate_normal([0, 0, 0], cov, size=n)
    X1 = np.exp(rng.multivariate_normal([0.5, 0, 1], np.eye(3) * 0.5 + 0.3, size=n))
    return np.vstack([X0, X1]), np.repeat([0, 1], n)


MODELS = [
    pytest.param(lambda: ClassGaussian(), id="gaussian"),
    pytest.param(lambda: ClassGaussianCopula(), id="gaussian-copula"),
    pytest.param(lambda: ClassKDE(), id="kde"),
]


@pytest.mark.parametrize("make", MODELS)
def test_univariate_density_is_the_marginal_of_the_pair_density(make):
    X, y = _three_feature_classes()
    model = make().fit(X, y, 2, [(0, 1), (1, 2)])
    for c in (0, 1):
        rows = X[y == c]
        xj = np.linspace(rows[:, 1].min() - 4, rows[:, 1].max() + 4, 4000)
        for xi in np.quantile(rows[:, 0], [0.1, 0.5, 0.9]):
            grid = np.column_stack([np.full_like(xj, xi), xj, np.zeros_like(xj)])
            joint = np.exp(model.logpdf2(grid, 0, 1)[:, c])
            marginal = np.exp(model.logpdf1(grid[:1], 0)[0, c])
            assert trapezoid(joint, xj) == pytest.approx(marginal, rel=2e-2)


@pytest.mark.parametrize("make", MODELS)
def test_vectorised_log_density_equals_edge_by_edge_sum(make):
    X, y = _three_feature_classes()
    edges = [(1, 2), (0, 1)]
    model = make().fit(X, y, 2, edges)
    by_edge = sum(model.edge_increments(X[:50], edges))
    direct = model.logpdf2(X[:50], 1, 2) + model.logpdf2(X[:50], 0, 1) - model.logpdf1(X[:50], 1)
    assert np.allclose(by_edge, direct)
    assert np.allclose(model.log_density(X[:50], edges), direct)


def test_gaussian_subset_density_is_the_multivariate_normal():
    X, y = _three_feature_classes()
    g = ClassGaussian(var_smoothing=0.0).fit(X, y, 2)
    for c in (0, 1):
        Xc = X[y == c]
        ref = multivariate_normal(Xc.mean(0), np.cov(Xc.T, bias=True)).logpdf(X[:20])
        assert np.allclose(g.logpdf_subset(X[:20], [0, 1, 2])[:, c], ref)
    assert np.allclose(g.logpdf_subset(X[:20], [0, 2]), g.logpdf2(X[:20], 0, 2))


def test_copula_recovers_rho_and_subset_agrees_with_pairs():
    rng = np.random.default_rng(5)
    Z = rng.multivariate_normal([0, 0, 0], [[1, 0.6, 0.3], [0.6, 1, 0.5], [0.3, 0.5, 1]], 4000)
    X = np.column_stack([np.exp(Z[:, 0]), Z[:, 1] ** 3, Z[:, 2]])
    m = ClassGaussianCopula().fit(X, np.zeros(4000, dtype=int), 1)
    assert m.corr_[0, 0, 1] == pytest.approx(0.6, abs=0.05)
    assert m.corr_[0, 1, 2] == pytest.approx(0.5, abs=0.05)
    assert np.allclose(m.logpdf_subset(X[:30], [1, 2]), m.logpdf2(X[:30], 1, 2))
    assert np.allclose(m.logpdf_subset(X[:30], [2]), m.logpdf1(X[:30], 2))


def test_kde1d_cdf_is_the_linear_interpolation_of_its_grid():
    """KDE1D.cdf indexes its regular grid directly: equal to np.interp on the grid (0 and 1
    outside it) to 1e-12, for points inside, outside and on the grid ends, any shape."""
    from estimators.densities.kde import KDE1D

    x = np.random.default_rng(4).standard_t(3, size=2000)
    kde = KDE1D(x, 0.25)
    pts = np.r_[x, kde.grid[[0, -1]], kde.grid[0] - 1.0, kde.grid[-1] + 1.0,
                np.linspace(kde.grid[0] - 2, kde.grid[-1] + 2, 1000)]
    ref = np.interp(pts, kde.grid, kde.cdf_grid, left=0.0, right=1.0)
    np.testing.assert_allclose(kde.cdf(pts), ref, rtol=0, atol=1e-12)
    assert kde.cdf(pts.reshape(-1, 2)).shape == (pts.size // 2, 2)
    assert float(kde.cdf(np.float64(kde.grid[-1] + 5))) == 1.0


def test_kde_cdf_keeps_missing_values_missing():
    from estimators.densities.kde import KDE1D

    kde = KDE1D(np.random.default_rng(0).normal(size=200), h=0.3)
    out = kde.cdf(np.array([np.nan, -50.0, 0.0, 50.0]))
    assert np.isnan(out[0]) and out[1] == 0.0 and out[3] == 1.0 and 0.4 < out[2] < 0.6


def test_class_block_is_the_fortran_gather_over_several_blocks():
    """``class_block`` (blocked gather + transpose) equals ``np.asfortranarray(X[rows])``
    for a class spanning several 2,048-row blocks and a last partial one."""
    from estimators.densities._pair_density import BLOCK_ROWS, class_block

    rng = np.random.default_rng(0)
    X = rng.normal(size=(3 * BLOCK_ROWS + 17, 5))
    rows = np.sort(rng.choice(X.shape[0], size=2 * BLOCK_ROWS + 5, replace=False))
    got = class_block(X, rows)
    assert got.flags.f_contiguous
    np.testing.assert_array_equal(got, X[rows])


def test_copula_fit_on_a_large_class_equals_plain_normal_scores():
    """A class over several gather blocks: the copula correlation is ``np.corrcoef`` of
    ``norm.ppf`` of each column's own KDE CDF (``KDE1D(...).cdf``), to 1e-12."""
    from estimators.densities._pair_density import BLOCK_ROWS
    from estimators.densities.copula_density import U_EPS, ClassGaussianCopula
    from estimators.densities.kde import KDE1D, kernel_bandwidth, scott_factor

    rng = np.random.default_rng(1)
    n = 2 * BLOCK_ROWS + 300
    Z = rng.multivariate_normal([0, 0, 0], [[1, .6, .2], [.6, 1, .4], [.2, .4, 1]], size=n)
    X = np.column_stack([np.exp(Z[:, 0]), Z[:, 1], Z[:, 2] ** 3])
    m = ClassGaussianCopula().fit(X, np.zeros(n, dtype=int), 1)
    z = np.column_stack([norm.ppf(np.clip(KDE1D(c, kernel_bandwidth(c, scott_factor(n, 1)))
                                          .cdf(c), U_EPS, 1 - U_EPS)) for c in X.T])
    np.testing.assert_allclose(m.corr_[0], np.corrcoef(z, rowvar=False), rtol=1e-12, atol=1e-15)


def test_bandwidth_factor_rules_match_scipy_and_gnb_takes_them():
    from estimators.densities.kde import bandwidth_factor
    from estimators.gnb import GNBClassifier

    rng = np.random.default_rng(3)
    for dim in (1, 2):
        kde = gaussian_kde(rng.normal(size=(dim, 57)))
        assert bandwidth_factor("scott", 57, dim) == pytest.approx(kde.scotts_factor(), rel=1e-14)
        assert bandwidth_factor("silverman", 57, dim) == pytest.approx(
            kde.silverman_factor(), rel=1e-14)
    X = rng.normal(size=(60, 3))
    y = np.repeat([0, 1], 30)
    GNBClassifier(dependence="kde", bandwidth="silverman").fit(X, y)
    with pytest.raises(ValueError, match="'bandwidth' parameter of GNBClassifier"):
        GNBClassifier(dependence="kde", bandwidth="wide").fit(X, y)
