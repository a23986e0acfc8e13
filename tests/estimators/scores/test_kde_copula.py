"""KDE pair-copula CMI: accuracy, rank invariance, and the binned FFT against exact KDE."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import ndtri
from scipy.stats import gaussian_kde, rankdata

from estimators.scores import KDECopulaCMI, copula_mi_normal_scores

from .test_gaussian import rho_data


@pytest.mark.parametrize("rho", [0.0, 0.3, 0.6, 0.9])
def test_gaussian_copula_recovers_rho(rho):
    Z, y = rho_data(rho)
    truth = -0.5 * np.log(1 - rho**2)
    got = KDECopulaCMI().fit(Z, y).score(0, {1})
    assert abs(got - truth) <= max(0.03, 0.1 * truth)
    if rho == 0:
        assert got < 0.02


def test_invariant_under_monotone_transforms():
    Z, y = rho_data(0.6)
    ref = KDECopulaCMI().fit(Z, y)(0, {1})
    for f0, f1 in ((np.exp, lambda t: t**3), (lambda t: t**3, np.exp)):
        moved = KDECopulaCMI().fit(np.column_stack([f0(Z[:, 0]), f1(Z[:, 1])]), y)(0, {1})
        assert moved == pytest.approx(ref, abs=1e-12)


def exact_kde_mi(a, b, factor, grid=240):
    """The same quantity with scipy's exact gaussian_kde on a fine grid (independent code)."""
    kde = gaussian_kde(np.vstack([a, b]), bw_method=factor)
    pad = 4 * factor * max(a.std(ddof=1), b.std(ddof=1))
    ta = np.linspace(a.min() - pad, a.max() + pad, grid)
    tb = np.linspace(b.min() - pad, b.max() + pad, grid)
    A, B = np.meshgrid(ta, tb, indexing="ij")
    f = kde(np.vstack([A.ravel(), B.ravel()])).reshape(grid, grid)
    dA = (ta[1] - ta[0]) * (tb[1] - tb[0])
    f1 = f.sum(axis=1) * (tb[1] - tb[0])
    f2 = f.sum(axis=0) * (ta[1] - ta[0])
    return float(np.sum(f * np.log(f / np.outer(f1, f2))) * dA)


@pytest.mark.parametrize("rho", [0.0, 0.5, 0.85])
def test_binned_fft_equals_exact_kde(rho):
    rng = np.random.default_rng(11)
    n = 300
    z = rng.multivariate_normal([0, 0], [[1, rho], [rho, 1]], size=n)
    a, b = (ndtri(rankdata(c) / (n + 1)) for c in z.T)
    factor = n ** (-1 / 6)
    assert copula_mi_normal_scores(a, b) == pytest.approx(exact_kde_mi(a, b, factor), abs=2e-3)


def test_class_weighting_and_bandwidth():
    Z0, _ = rho_data(0.8, n=1000, seed=1)
    Z1, _ = rho_data(0.0, n=1000, seed=2)
    X, y = np.vstack([Z0, Z1]), np.repeat(["a", "b"], 1000)
    cmi = KDECopulaCMI(bandwidth=0.25).fit(X, y)
    ranks = [ndtri(rankdata(c) / 1001) for c in (Z0[:, 0], Z0[:, 1], Z1[:, 0], Z1[:, 1])]
    expected = 0.5 * copula_mi_normal_scores(ranks[0], ranks[1], bandwidth=0.25) + 0.5 * (
        copula_mi_normal_scores(ranks[2], ranks[3], bandwidth=0.25)
    )
    assert cmi(0, {1}) == pytest.approx(expected, rel=1e-12)


def test_two_parents_rejected():
    Z, y = rho_data(0.3)
    X = np.column_stack([Z, Z[:, 0] + Z[:, 1]])
    cmi = KDECopulaCMI().fit(X, y)
    with pytest.raises(ValueError, match=r"KDECopulaCMI supports at most 1 parent\(s\); got 2"):
        cmi(0, {1, 2})
    with pytest.raises(ValueError, match="The 'max_grid' parameter of KDECopulaCMI"):
        KDECopulaCMI(max_grid=4).fit(X, y)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), power=st.sampled_from([3, 5]), shift=st.floats(-5, 5))
def test_depends_on_ranks_only(seed, power, shift):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(120, 3))
    X[:, 1] += X[:, 0]
    y = rng.integers(0, 2, 120)
    W = KDECopulaCMI().fit(X, y).edge_matrix()
    Xt = np.column_stack([np.exp(X[:, 0]) + shift, (X[:, 1] - shift) ** power, np.arctan(X[:, 2])])
    Wt = KDECopulaCMI().fit(Xt, y).edge_matrix()
    np.testing.assert_allclose(Wt, W, atol=1e-12, rtol=0)
    assert (W >= 0).all()
