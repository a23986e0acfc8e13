"""The mixed engine's Gaussian block components and memory bound on models whose joint
Gaussian block would span many Gauss-Hermite axes."""

import tracemalloc
import warnings

import numpy as np
import pytest

from estimators.marginal import (
    cg_log_marginal,
    mixed,
)
from estimators.network.factors import BayesCategoricalFactor, LinearGaussianFactor

R = np.random.default_rng(7)
PRIOR = np.log([0.3, 0.7])


def _chain(length: int, linked: bool = True):
    """Per link i: x_i | x_{i-1} (continuous; a root when not ``linked``), z_i | x_i by
    Bayes' rule (2 states), w_i | x_i and v_i | w_i (continuous). With every x and w missing
    and every z and v observed, the x are Gauss-Hermite vertices and each w_i its own
    Gaussian component (with v_i) that depends on x_i's nodes only."""
    factors = []
    for i in range(length):
        x, z, w, v = 4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3
        parents = (x - 4,) if i and linked else ()
        factors += [
            LinearGaussianFactor.from_dense(x, (), parents, R.normal(size=2),
                                 R.normal(scale=0.7, size=(2, len(parents))), R.uniform(0.5, 1.5, 2)),
            BayesCategoricalFactor.from_dense(z, (), (x,), np.log(R.dirichlet(np.ones(2), size=2)),
                        R.normal(scale=1.5, size=(2, 2, 1)), R.uniform(0.5, 1.5, (2, 2, 1, 1))),
            LinearGaussianFactor.from_dense(w, (), (x,), R.normal(size=2), R.normal(size=(2, 1)),
                                 R.uniform(0.3, 1.0, 2)),
            LinearGaussianFactor.from_dense(v, (), (w,), R.normal(size=2), R.normal(size=(2, 1)),
                                 R.uniform(0.3, 1.0, 2)),
        ]
    return factors


def _chain_rows(length: int, n: int):
    X = R.normal(size=(n, 4 * length))
    X[:, 1::4] = R.integers(0, 2, size=(n, length))
    missing = np.zeros_like(X, dtype=bool)
    missing[:, 0::4] = missing[:, 2::4] = True
    return np.where(missing, np.nan, X), missing


def test_block_splits_into_components_equal_to_the_joint_block(monkeypatch):
    """Two links: the block {w_0, w_1} has two components, each below its own Gauss-Hermite
    vertex. One factor per component equals the single joint factor (max difference
    measured 1.8e-15; asserted 1e-12)."""
    factors = _chain(2)
    parents = [f.parents for f in factors]
    comps = list(mixed._block_components(parents, [2, 6], [3, 7]))
    assert comps == [([2], [3]), ([6], [7])]
    X, missing = _chain_rows(2, 20)
    split = cg_log_marginal(factors, PRIOR, X, missing)

    def joint(parents, block, children):
        yield list(block), list(children)

    monkeypatch.setattr(mixed, "_block_components", joint)
    np.testing.assert_allclose(split, cg_log_marginal(factors, PRIOR, X, missing),
                               rtol=0, atol=1e-12)


def test_six_gauss_hermite_vertices_complete_within_the_budget():
    """Six Gauss-Hermite vertices, each with a categorical child and a missing continuous
    child: the joint Gaussian block was a table of 64**6 nodes per row and class (a
    MemoryError before); per component it is 64 x classes. Peak memory measured
    1.4 MB; asserted below the 128 MB budget, no order lowered."""
    X, missing = _chain_rows(6, 30)
    tracemalloc.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            out = cg_log_marginal(_chain(6, linked=False), PRIOR, X, missing)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert np.isfinite(out).all()
    assert peak < 8 * mixed.MAX_CELLS


def test_order_6_not_fitting_is_a_value_error():
    X, missing = _chain_rows(3, 2)
    with pytest.raises(ValueError, match="3 missing continuous features with a categorical"):
        cg_log_marginal(_chain(3), PRIOR, X, missing, max_cells=100)


def test_linked_chain_lowers_the_order_then_refuses():
    """Linked by regressions, x_i's nodes sit on its posterior given x_{i-1}'s nodes, so the
    tables span the whole chain: g**length per row and class. Four links fit 2**24 cells at
    order 32 (one warning naming it); six links fit at order 10 (a second warning), ten
    links do not fit even at order 6: ValueError."""
    X, missing = _chain_rows(4, 3)
    with pytest.warns(UserWarning, match="lowered from 64 to") as record:
        out = cg_log_marginal(_chain(4), PRIOR, X, missing, max_cells=2**24)
    assert len(record) == 1
    assert np.isfinite(out).all()
    X, missing = _chain_rows(6, 3)
    with pytest.warns(UserWarning, match="lowered from 64 to 10 .* about 3.4e-03"):
        out = cg_log_marginal(_chain(6), PRIOR, X, missing, max_cells=2**24)
    assert np.isfinite(out).all()
    X, missing = _chain_rows(10, 3)
    with pytest.raises(ValueError, match="10 missing continuous features with a categorical"):
        cg_log_marginal(_chain(10), PRIOR, X, missing, max_cells=2**24)


@pytest.mark.parametrize("length", [1, 2])
def test_cells_bound_is_at_least_the_probed_count_on_every_pattern(length):
    """The probe-free bound that lets a pattern skip building its factors twice is an upper
    bound of the probe's count (factors, temporaries, elimination peak) at orders 2, 6 and
    64, on every missing pattern of a chain with Bayes-rule children and Gaussian blocks."""
    factors = _chain(length)
    d = len(factors)
    order = mixed.topological_order([f.parents for f in factors])
    X, _ = _chain_rows(length, 1)
    for bits in range(2**d):
        pattern = np.array([(bits >> v) & 1 for v in range(d)], dtype=bool)
        row = np.where(pattern, np.nan, np.nan_to_num(X))
        probe = mixed._pattern_factors(factors, order, PRIOR, row, pattern,
                                       mixed.hermegauss(2))
        for g in (2, 6, 64):
            counted = mixed._fitting_order(probe, g, 2**62)[1]
            assert mixed._cells_bound(factors, PRIOR.size, pattern, g) >= counted
