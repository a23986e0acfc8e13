"""Class-conditional normal scores: the binned kernel CDF against the exact one."""

import numpy as np
import pytest
from scipy.special import ndtr

from estimators.scores._marginals import EXACT_MAX, bandwidth_factor, kernel_cdf, normal_scores


@pytest.mark.parametrize("n", [EXACT_MAX + 1, 5000])
def test_binned_kernel_cdf_matches_exact(n):
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.lognormal(size=n // 2), rng.normal(5, 0.1, size=n - n // 2)])
    h = bandwidth_factor("scott", n, 1) * x.std(ddof=1)
    exact = np.array([ndtr((xi - x) / h).mean() for xi in x])
    assert np.max(np.abs(kernel_cdf(x, h) - exact)) < 1e-5


def test_normal_scores_per_class_and_clip():
    X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]])
    y = np.array([0, 0, 0, 1, 1, 1])
    Z = normal_scores(X, y, 2, marginals="rank")
    np.testing.assert_allclose(Z[0], Z[1])  # same ranks within each class
    Zk = normal_scores(X, y, 2, marginals="kernel", eps=0.2)
    assert np.all(np.abs(Zk[0]) <= 0.8417) and Zk[0][0, 0] < 0 < Zk[0][2, 0]



@pytest.mark.parametrize("seed", [0, 1])
def test_binned_kernel_cdf_is_close_to_the_exact_sum(seed):
    """The binned CDF (interpolated within each point's own bin) against the exact O(n^2)
    kernel sum, on skewed data with a tail."""
    x = np.random.default_rng(seed).lognormal(size=3000)
    for h in (0.05, 0.3):
        exact = ndtr((x[:, None] - x[None, :]) / h).mean(axis=1)
        assert np.max(np.abs(kernel_cdf(x, h) - exact)) < 1e-4  # see the kernel_cdf docstring
