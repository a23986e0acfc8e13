"""The full-covariance KDE (``ClassKDE(kernel="full")``, ``GNBClassifier(kernel="full")``)
against scipy's ``gaussian_kde`` on the same data: log-densities to 1e-10, the GNB joint
log-likelihood summed by hand from scipy's KDEs, bandwidth floors and bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import logsumexp
from scipy.stats import gaussian_kde

from estimators.densities import ClassKDE
from estimators.densities.kde_full import FullKDE, kernel_covariance
from estimators.gnb import GNBClassifier


def _classes(n=240, seed=0):
    """Two classes, correlated and skewed features (so full and product kernels differ)."""
    rng = np.random.default_rng(seed)
    z0 = rng.multivariate_normal([0, 0, 0], [[1, 0.8, 0.3], [0.8, 1, 0.5], [0.3, 0.5, 1]], n)
    z1 = rng.multivariate_normal([0.5, -0.3, 1], [[1, -0.6, 0], [-0.6, 1, 0.2], [0, 0.2, 1]],
                                 n // 2)
    X = np.vstack([z0, np.column_stack([np.exp(z1[:, 0]), z1[:, 1], z1[:, 2] ** 3])])
    return X, np.repeat([0, 1], [n, n // 2])


@pytest.mark.parametrize("bandwidth", ["scott", 0.3])
def test_full_kernel_log_densities_equal_scipy(bandwidth):
    X, y = _classes()
    pts = np.vstack([X[::7], X[::11] + 3.0])  # training points and far-out points
    m = ClassKDE(bandwidth=bandwidth, kernel="full").fit(X, y, 2, [(0, 1), (2, 1)])
    bw = None if bandwidth == "scott" else bandwidth
    for c in (0, 1):
        Xc = X[y == c]
        for a, b in ((0, 1), (1, 2)):
            ref = gaussian_kde(Xc[:, [a, b]].T, bw_method=bw).logpdf(pts[:, [a, b]].T)
            np.testing.assert_allclose(m.logpdf2(pts, b, a)[:, c], ref, rtol=1e-10, atol=1e-10)
        for s in (0, 1, 2):
            ref = gaussian_kde(Xc[:, s], bw_method=bw).logpdf(pts[:, s])
            np.testing.assert_allclose(m.logpdf1(pts, s)[:, c], ref, rtol=1e-10, atol=1e-10)
    # the product kernel is a different density on correlated data
    prod = ClassKDE(bandwidth=bandwidth).fit(X, y, 2, [(0, 1)])
    assert np.max(np.abs(prod.logpdf2(X[:50], 0, 1) - m.logpdf2(X[:50], 0, 1))) > 0.05


def test_gnb_full_kernel_joint_log_likelihood_is_the_scipy_ratio():
    X, y = _classes(seed=1)
    X = np.column_stack([X, X[:, 0] + np.random.default_rng(2).normal(size=len(y))])
    clf = GNBClassifier(dependence="kde", kernel="full").fit(X, y)
    prod = GNBClassifier(dependence="kde").fit(X, y)
    np.testing.assert_array_equal(clf.cluster_order_, prod.cluster_order_)  # same structure
    edges = [tuple(e) for e in clf.cluster_order_.tolist()]
    deg = np.bincount(np.ravel(edges), minlength=X.shape[1])
    pts, wants = X[::5], []
    for c in (0, 1):
        Xc = X[y == c]
        want = np.log(np.mean(y == c)) + sum(
            gaussian_kde(Xc[:, [a, b]].T).logpdf(pts[:, [a, b]].T) for a, b in edges)
        want -= sum((deg[s] - 1) * gaussian_kde(Xc[:, s]).logpdf(pts[:, s])
                    for s in range(X.shape[1]) if deg[s] > 1)
        wants.append(want)
    want = np.column_stack(wants)
    want -= logsumexp(want, axis=1, keepdims=True)
    np.testing.assert_allclose(clf.predict_log_proba(pts), want, rtol=1e-10, atol=1e-10)
    assert clf.score(X, y) > 0.7


def test_full_kernel_small_class_and_constant_feature_stay_finite():
    X, y = _classes(n=60)
    X = np.vstack([X, [[0.1, 0.2, 0.3]]])
    y = np.append(y, 2)  # a class with one row: borrows the whole table's covariance
    X[:, 2] = np.where(y == 1, 0.5, X[:, 2])  # constant within class 1: floored kernel
    m = ClassKDE(kernel="full", min_std=1e-3).fit(X, y, 3, [(0, 1), (1, 2)])
    assert np.isfinite(m.logpdf2(X, 0, 1)).all() and np.isfinite(m.logpdf2(X, 1, 2)).all()
    assert np.isfinite(m.logpdf1(X, 2)).all()
    assert m.h_[1][2] == pytest.approx(1e-3)
    table = np.cov(X[:, :2], rowvar=False) * 1.0 ** (-2 / 6)
    np.testing.assert_allclose(m.kde2_[2][(0, 1)].cov, table)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3), min_size=2, max_size=12),
       st.floats(0.05, 2.0), st.floats(0.0, 1.0))
def test_kernel_covariance_floor_property(values, factor, floor):
    """Eigenvalues are at least floor**2 (and 1e-10 of the largest); a covariance above
    that is scipy's exactly; the density is finite everywhere on the data."""
    data = np.column_stack([values, np.roll(values, 1)])
    cov = kernel_covariance(data, factor, floor)
    raw = factor**2 * np.cov(data, rowvar=False)
    low = max(floor**2, 1e-10 * np.linalg.eigvalsh(raw).max(), 1e-24)
    assert np.linalg.eigvalsh(cov).min() >= low * (1 - 1e-6) - 1e-9 * np.abs(cov).max()
    if np.linalg.eigvalsh(raw).min() > low:
        np.testing.assert_array_equal(cov, raw)
    kde = FullKDE(data, cov)
    assert np.isfinite(kde.logpdf(data[:, 0], data[:, 1])).all()


def test_bad_kernel_and_missing_cells_are_refused():
    X, y = _classes(n=60)
    with pytest.raises(ValueError, match=r"'kernel'.*Got 'scipy'"):
        GNBClassifier(dependence="kde", kernel="scipy").fit(X, y)
    with pytest.raises(ValueError, match=r"kernel must be one of \['product', 'full'\]"):
        ClassKDE(kernel="diagonal").fit(X, y, 2, [(0, 1)])
    with pytest.raises(ValueError, match="takes 2 coordinate array"):
        FullKDE(X[:, :2], np.eye(2)).logpdf(X[:, 0])
    clf = GNBClassifier(dependence="kde", kernel="full").fit(X, y)
    Z = X[:5].copy()
    Z[0, 1] = np.nan
    with pytest.raises(ValueError, match=r"kernel='full'.*1 row\(s\) have a missing"):
        clf.predict(Z)
    assert GNBClassifier(dependence="kde").fit(X, y).predict(Z).shape == (5,)
