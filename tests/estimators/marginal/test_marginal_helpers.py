"""Pattern grouping, pruning and the errors of the marginalisation helpers."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from estimators.marginal import (
    cg_log_marginal,
)
from estimators.marginal._elimination import MAX_SUMMED, check_summed
from estimators.marginal._patterns import kept_vertices, missing_patterns, topological_order
from estimators.network.factors import BayesCategoricalFactor, LinearGaussianFactor


@settings(max_examples=50, deadline=None)
@given(arrays(bool, st.tuples(st.integers(1, 30), st.integers(1, 5))))
def test_patterns_partition_the_rows(mask):
    seen = []
    for pattern, rows in missing_patterns(mask):
        assert (mask[rows] == pattern).all()
        seen.extend(rows.tolist())
    assert sorted(seen) == list(range(mask.shape[0]))


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 6).flatmap(lambda d: st.tuples(
    st.lists(st.lists(st.booleans(), min_size=d, max_size=d), min_size=d, max_size=d),
    arrays(bool, d))))
def test_kept_vertices_are_the_observed_and_their_ancestors(data):
    """Random DAG (parents among earlier vertices): kept iff an observed vertex is reachable
    downwards, by brute-force reachability."""
    adj, missing = data
    d = len(adj)
    parents = [tuple(p for p in range(v) if adj[v][p]) for v in range(d)]
    reach = np.eye(d, dtype=bool)
    for v in range(d):  # reach[a, b]: b is a descendant of a (or a itself)
        for p in parents[v]:
            reach[:, v] |= reach[:, p]
    expected = (reach & ~missing[None, :]).any(axis=1)
    np.testing.assert_array_equal(kept_vertices(parents, missing), expected)


def test_cycle_is_refused():
    with pytest.raises(ValueError, match="directed cycle"):
        topological_order([(1,), (0,)])


def test_too_many_summed_variables_are_refused():
    with pytest.raises(ValueError, match=f"at most {MAX_SUMMED} per row"):
        check_summed(MAX_SUMMED + 1, "categorical features")


def test_gaussian_numerator_needs_one_continuous_parent():
    f = BayesCategoricalFactor.from_dense(2, (), (0, 1), np.log(np.full((1, 2), 0.5)), np.zeros((1, 2, 2)),
                    np.tile(np.eye(2), (1, 2, 1, 1)))
    with pytest.raises(ValueError, match="vertex 2 has 2"):
        f.gaussian_numerator(np.zeros((1, 1), int), {0: np.zeros((1, 1)), 1: np.zeros((1, 1))})


def test_bayes_factor_with_two_continuous_parents_is_a_proper_conditional():
    """Summed over its states, p(c | x_C) is 1 at any x_C (MATH.md §7); and a missing
    such child with no observed descendant leaves only the prior."""
    rng = np.random.default_rng(0)
    cov = np.array([[[[1.0, 0.3], [0.3, 2.0]], [[0.5, -0.1], [-0.1, 1.0]]]])
    f = BayesCategoricalFactor.from_dense(2, (), (0, 1), np.log([[0.3, 0.7]]), rng.normal(size=(1, 2, 2)), cov)
    x = {0: rng.normal(size=(5, 1)), 1: rng.normal(size=(5, 1))}
    total = np.exp(f.log_prob_values(np.zeros((5, 1), int), x)) + np.exp(f.log_prob_values(np.ones((5, 1), int), x))
    np.testing.assert_allclose(total, 1.0, atol=1e-12)
    roots = [LinearGaussianFactor.from_dense(v, (), (), np.zeros(1), np.zeros((1, 0)), np.ones(1))
             for v in (0, 1)]
    X = np.array([[np.nan, np.nan, np.nan]])
    out = cg_log_marginal([*roots, f], np.zeros(1), X, np.isnan(X))
    np.testing.assert_allclose(out, 0.0, atol=1e-12)


@pytest.mark.parametrize("shape,axis", [((300, 4, 2), -1), ((50, 3, 7), 1), ((60, 7), 1),
                                        ((300, 40, 5), -1), ((40, 2, 5, 2), 0),
                                        ((300, 40, 8), -1), ((20, 3, 9), -1)])
def test_log_sum_exp_is_numpys_reduction_bit_for_bit(shape, axis):
    """The slice-by-slice path of short axes (2 to 7 entries) gives the numbers of the
    reduction (max, exp, sum, log) exactly, -inf rows included; terms of one size, so that
    a different order of the sum would show."""
    from estimators.base.log_sum_exp import log_sum_exp

    rng = np.random.default_rng(len(shape) + axis)
    a = rng.random(shape)
    a[rng.random(shape) < 0.1] = -np.inf
    top = np.max(a, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        ref = np.log(np.sum(np.exp(a - top), axis=axis, keepdims=True)) + top
    assert np.array_equal(log_sum_exp(a, axis), ref)
    from scipy.special import logsumexp  # and scipy's values to rounding

    np.testing.assert_allclose(log_sum_exp(a, axis), logsumexp(a, axis=axis, keepdims=True),
                               rtol=1e-14, atol=0)
