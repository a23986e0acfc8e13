"""The CG engine against the closed forms and brute-force integration of a mixed model."""

import itertools

import numpy as np
import pytest
from scipy.special import logsumexp
from scipy.stats import multivariate_normal, norm

from estimators.ktan import KTANClassifier
from estimators.marginal import (
    cg_log_marginal,
    gaussian_log_marginal,
    linear_gaussian_joint,
    mixed,
)
from estimators.marginal._elimination import eliminate
from estimators.network.factors import BayesCategoricalFactor, LinearGaussianFactor


def test_all_continuous_equals_closed_form():
    """Only the exact Gaussian block is used: equal to dropping rows and columns."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 5)) @ rng.normal(size=(5, 5))
    y = (X[:, 0] + rng.normal(size=300) > 0).astype(int)
    clf = KTANClassifier(k=2, features="gaussian", search="greedy").fit(X, y)
    missing = rng.random((60, 5)) < 0.5
    Xm = np.where(missing, np.nan, X[:60])
    got = cg_log_marginal(clf.network_.marginal_factors, clf.class_log_prior_, Xm, missing)
    mean, cov = linear_gaussian_joint(clf.network_.marginal_factors)
    ref = gaussian_log_marginal(mean, cov, Xm, missing) + clf.class_log_prior_
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-9)


# A mixed model over x0 (continuous), z1 (3 categories), x2 (continuous), z3 (2 categories):
# x0 ~ N(mu_y, s_y^2); z1 | x0 by Bayes' rule; x2 | z1, x0 linear Gaussian per cell;
# z3 | x2, z1 by Bayes' rule. Missing x0 with z1 kept, or x2 with z3 kept, needs quadrature.
R = np.random.default_rng(42)
PRIOR = np.log([0.4, 0.6])
MU0, S0 = np.array([0.0, 1.0]), np.array([1.0, 1.5])
P1 = R.dirichlet(np.ones(3), size=2)  # p(z1 | y)
M1 = R.normal(scale=1.5, size=(2, 3))  # x0 | z1, y means of the CG joint behind z1 | x0
V1 = R.uniform(0.5, 1.5, size=(2, 3))
A2, B2 = R.normal(size=(2, 3)), R.normal(size=(2, 3))
V2 = R.uniform(0.3, 1.0, size=(2, 3))
P3 = R.dirichlet(np.ones(2), size=(2, 3))  # p(z3 | z1, y)
M3 = R.normal(scale=1.5, size=(2, 3, 2))
V3 = R.uniform(0.5, 1.5, size=(2, 3, 2))

FACTORS = [
    LinearGaussianFactor.from_dense(0, (), (), MU0, np.zeros((2, 0)), S0**2),
    BayesCategoricalFactor.from_dense(1, (), (0,), np.log(P1), M1[..., None], V1[..., None, None]),
    LinearGaussianFactor.from_dense(2, (1,), (0,), A2, B2[..., None], V2),
    BayesCategoricalFactor.from_dense(3, (1,), (2,), np.log(P3), M3[..., None], V3[..., None, None]),
]


# The same model with z3 replaced by a continuous x3 | z1, x2: missing x2 with x3 observed
# is then a Gaussian block (exact), below the Gauss-Hermite vertex x0 when x0 is missing too.
A3, B3 = R.normal(size=(2, 3)), R.normal(size=(2, 3))
V3C = R.uniform(0.3, 1.0, size=(2, 3))
FACTORS_G = [*FACTORS[:3], LinearGaussianFactor.from_dense(3, (1,), (2,), A3, B3[..., None], V3C)]


def _bayes(log_p, means, var, x):
    """ln p(z | x) for all z by Bayes' rule: log_p, means, var of shape (..., r)."""
    lj = log_p + norm.logpdf(x[..., None], means, np.sqrt(var))
    return lj - logsumexp(lj, axis=-1, keepdims=True)


def _joint(x0, z1, x2, z3, c, x3_continuous=False):
    """ln p(y = c, x) written out with scipy, broadcasting over the arguments; z3=None
    leaves the last vertex out (its marginal is 1)."""
    z1 = np.asarray(z1)
    lp1 = np.take_along_axis(
        np.broadcast_to(_bayes(np.log(P1[c]), M1[c], V1[c], x0), np.broadcast_shapes(
            np.shape(x0), z1.shape) + (3,)), np.broadcast_to(z1, np.broadcast_shapes(
                np.shape(x0), z1.shape))[..., None], -1)[..., 0]
    if z3 is None:
        lp3 = 0.0
    elif x3_continuous:
        lp3 = norm.logpdf(z3, A3[c][z1] + B3[c][z1] * x2, np.sqrt(V3C[c][z1]))
    else:
        post3 = _bayes(np.log(P3[c][z1]), M3[c][z1], V3[c][z1], x2)
        lp3 = np.take_along_axis(post3, np.broadcast_to(np.asarray(z3), post3.shape[:-1])[..., None],
                                 -1)[..., 0]
    return (PRIOR[c] + norm.logpdf(x0, MU0[c], S0[c]) + lp1
            + norm.logpdf(x2, A2[c][z1] + B2[c][z1] * x0, np.sqrt(V2[c][z1])) + lp3)


def _brute_force(row, miss, x3_continuous=False):
    """Sum over missing categories, trapezoid over missing continuous values (grid of 2001
    points per axis over [-14, 14]: the integrands are Gaussian-tailed with sd <= 2)."""
    grid = np.linspace(-14, 14, 2001 if not (miss[0] and miss[2]) else 701)
    out = []
    for c in range(2):
        total = 0.0
        for z1 in (range(3) if miss[1] else [int(row[1])]):
            z3s = [row[3]] if x3_continuous else [int(row[3])]
            for z3 in (range(2) if miss[3] and not x3_continuous else z3s):
                x0 = grid[:, None] if miss[0] else row[0]
                x2 = grid[None, :] if miss[2] else row[2]
                if miss[3] and x3_continuous:  # x3 missing: its density integrates to 1
                    z3 = None
                vals = np.exp(_joint(x0, z1, x2, z3, c, x3_continuous))
                vals = np.atleast_2d(vals)
                if miss[0]:
                    vals = np.trapezoid(vals, grid, axis=0)[None]
                if miss[2]:
                    vals = np.trapezoid(vals, grid, axis=1)
                total += float(np.ravel(vals)[0])
        out.append(np.log(total))
    return np.array(out)


def _rows():
    rng = np.random.default_rng(1)
    patterns = np.array(list(itertools.product([False, True], repeat=4)))
    missing = np.repeat(patterns, 2, axis=0)
    X = np.column_stack([rng.normal(size=32), rng.integers(0, 3, 32),
                         rng.normal(size=32), rng.integers(0, 2, 32)]).astype(float)
    return X, missing


def test_mixed_equals_brute_force_integration():
    """Default Gauss-Hermite order 64: the largest error over all 16 patterns is asserted
    < 1e-6 (measured 1.3e-7 on this model)."""
    X, missing = _rows()
    got = cg_log_marginal(FACTORS, PRIOR, np.where(missing, np.nan, X), missing)
    ref = np.array([_brute_force(X[r], missing[r]) for r in range(X.shape[0])])
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-6)


def test_gaussian_block_equals_brute_force_integration():
    """x3 continuous: a missing x2 with x3 observed is integrated exactly by the Gaussian
    block (per cell of z1); with x0 missing too the block depends on x0's Gauss-Hermite
    nodes. Measured: 1e-15 without Gauss-Hermite, 1.3e-7 with it; asserted 1e-9 and 1e-6."""
    X, missing = _rows()
    X[:, 3] = np.random.default_rng(3).normal(size=X.shape[0])
    got = cg_log_marginal(FACTORS_G, PRIOR, np.where(missing, np.nan, X), missing)
    ref = np.array([_brute_force(X[r], missing[r], True) for r in range(X.shape[0])])
    exact = ~missing[:, 0] | missing[:, 1:].all(axis=1)  # no Gauss-Hermite vertex
    np.testing.assert_allclose(got[exact], ref[exact], rtol=0, atol=1e-9)
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-6)


def test_complete_rows_equal_the_joint():
    X, missing = _rows()
    complete = ~missing.any(axis=1)
    got = cg_log_marginal(FACTORS, PRIOR, X[complete], missing[complete])
    ref = np.column_stack([_joint(X[complete, 0], X[complete, 1].astype(int), X[complete, 2],
                                  X[complete, 3].astype(int), c) for c in range(2)])
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-12)


def test_gauss_hermite_error_shrinks_with_order():
    """The error falls with the order (measured 1e-2, 5e-4, 1.9e-5 at 8, 16, 32)."""
    X, missing = _rows()
    quad_rows = missing[:, 0] & ~missing[:, 1]  # x0 missing, its categorical child observed
    Xq, mq = np.where(missing, np.nan, X)[quad_rows], missing[quad_rows]
    ref = np.array([_brute_force(X[r], missing[r]) for r in np.flatnonzero(quad_rows)])
    errors = [np.abs(cg_log_marginal(FACTORS, PRIOR, Xq, mq, gh_order=n) - ref).max()
              for n in (8, 16, 32)]
    assert errors[0] > errors[1] > errors[2]
    assert errors[2] < 1e-4


def test_factor_list_must_be_indexed_by_vertex():
    with pytest.raises(ValueError, match="factors\\[v\\] must be the factor of vertex v"):
        cg_log_marginal(FACTORS[::-1], PRIOR, np.zeros((1, 4)), np.zeros((1, 4), bool))


# A categorical z2 with two continuous parents (as in a k = 2 tree): its Bayes-rule
# factor has no single-parent Gaussian numerator, so the Gauss-Hermite rule sees it whole.
COV2 = np.array([[[[1.0, 0.4], [0.4, 1.5]], [[0.8, -0.3], [-0.3, 1.0]], [[2.0, 0.0], [0.0, 0.7]]]])
MEAN2 = np.array([[[0.0, 1.0], [1.0, -1.0], [-1.0, 0.0]]])
FACTORS_2 = [
    LinearGaussianFactor.from_dense(0, (), (), np.zeros(1), np.zeros((1, 0)), np.ones(1)),
    LinearGaussianFactor.from_dense(1, (), (0,), np.array([0.5]), np.array([[0.8]]), np.array([0.6])),
    BayesCategoricalFactor.from_dense(2, (), (0, 1), np.log([[0.2, 0.5, 0.3]]), MEAN2, COV2),
]


def _joint_2(x0, x1, z2):
    lj = np.log([0.2, 0.5, 0.3]) + np.array([
        multivariate_normal(MEAN2[0, c], COV2[0, c]).logpdf(np.stack([x0, x1], axis=-1))
        for c in range(3)]).T
    lp2 = lj[..., z2] - logsumexp(lj, axis=-1)
    return norm.logpdf(x0) + norm.logpdf(x1, 0.5 + 0.8 * x0, np.sqrt(0.6)) + lp2


@pytest.mark.parametrize("miss", [(True, False), (False, True), (True, True)], ids=str)
def test_two_continuous_parents_equal_brute_force(miss):
    """Measured error at order 64: 5e-15, 3e-14, 6e-9 for the three patterns; asserted 1e-7."""
    row = np.array([0.3, -0.4, 1.0])
    missing = np.array([[miss[0], miss[1], False]])
    got = cg_log_marginal(FACTORS_2, np.zeros(1), row[None], missing)[0, 0]
    grid = np.linspace(-12, 12, 2001 if not all(miss) else 401)
    x0 = grid[:, None] if miss[0] else np.full((1, 1), row[0])
    x1 = grid[None, :] if miss[1] else np.full((1, 1), row[1])
    x0, x1 = np.broadcast_arrays(x0, x1)
    vals = np.exp(_joint_2(x0.ravel(), x1.ravel(), 1).reshape(x0.shape))
    if miss[0]:
        vals = np.trapezoid(vals, grid, axis=0)[None]
    if miss[1]:
        vals = np.trapezoid(vals, grid, axis=1)
    assert abs(got - np.log(float(np.ravel(vals)[0]))) < 1e-7


def test_chunked_rows_equal_one_pass(monkeypatch):
    """A budget of 6000 cells (the largest pattern holds 2760 per row at order 64)
    splits the patterns' rows into chunks; the result equals one pass to 1e-12."""
    X, missing = _rows()
    X[:, 3] = np.random.default_rng(3).normal(size=X.shape[0])
    Xm = np.where(missing, np.nan, X)
    whole = cg_log_marginal(FACTORS_G, PRIOR, Xm, missing)
    calls = []
    monkeypatch.setattr(mixed, "eliminate", lambda *a: calls.append(a[1]) or eliminate(*a))
    chunked = cg_log_marginal(FACTORS_G, PRIOR, Xm, missing, max_cells=6000)
    assert max(calls) < 2 * len(calls)  # some pattern's rows were split
    np.testing.assert_allclose(chunked, whole, rtol=0, atol=1e-12)


def test_lowered_order_is_within_its_stated_error():
    """A budget too small for order 64 on the patterns with x0 and x2 both missing: the
    largest order that fits is used, with one warning; against brute force the error is
    within the error the warning states for that order (measured: orders 17 to 31, error 1.0e-4,
    stated 5e-4)."""
    X, missing = _rows()
    with pytest.warns(UserWarning, match="lowered from 64 to") as record:
        got = cg_log_marginal(FACTORS, PRIOR, np.where(missing, np.nan, X), missing,
                              max_cells=8000)
    assert len(record) == 1
    message = str(record[0].message)
    order = int(message.split(" to ")[1].split()[0])
    stated = float(message.rsplit("about ", 1)[1].rstrip("."))
    assert 6 <= order < 64
    ref = np.array([_brute_force(X[r], missing[r]) for r in range(X.shape[0])])
    assert np.abs(got - ref).max() <= stated
    two = missing[:, 0] & missing[:, 2] & ~missing[:, 3]  # two Gauss-Hermite vertices
    lowest = two & missing[:, 1]  # and z1 summed: the largest table, the lowest order
    for rows, gh in ((lowest, order), (~two, 64)):
        same = cg_log_marginal(FACTORS, PRIOR, np.where(missing, np.nan, X)[rows],
                               missing[rows], gh_order=gh)
        np.testing.assert_allclose(got[rows], same, rtol=0, atol=1e-12)
