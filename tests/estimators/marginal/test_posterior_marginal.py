"""The mixed engine's posterior path (:mod:`estimators.marginal.posterior`): Gauss-Hermite
nodes only for the continuous parents of Bayes-rule vertices, on their exact joint Gaussian
posterior, every other missing continuous vertex integrated in closed form; against
brute-force integration of the joint density."""

import itertools

import numpy as np
import pytest
from scipy.special import logsumexp
from scipy.stats import multivariate_normal, norm

from estimators.marginal import cg_log_marginal, mixed, posterior
from estimators.network.factors import (
    BayesCategoricalFactor,
    CategoricalFactor,
    LinearGaussianFactor,
)

R = np.random.default_rng(11)
PRIOR = np.log([0.4, 0.6])
# x0 ~ N(mu_y, s_y^2); x1 | x0; z2 | x1 by Bayes' rule (3 states); x3 | x0, x1 (slope 0 on
# x1: a parent all the same); x4 | z2 (continuous, categorical parent). With x0 and x1
# missing and z2 kept, mixed's Gauss-Hermite set is {x0, x1}, the posterior path's {x1}.
MU0, S0 = np.array([0.0, 1.0]), np.array([1.0, 1.5])
A1, B1, V1 = R.normal(size=2), R.normal(size=2), R.uniform(0.4, 1.0, 2)
P2 = R.dirichlet(np.ones(3), size=2)
M2, W2 = R.normal(scale=1.5, size=(2, 3)), R.uniform(0.5, 1.5, (2, 3))
A3, B3 = R.normal(size=2), np.ones(2)
A4, V4 = R.normal(scale=2.0, size=(2, 3)), R.uniform(0.4, 1.0, (2, 3))


def _factors(var3):
    return [
        LinearGaussianFactor.from_dense(0, (), (), MU0, np.zeros((2, 0)), S0**2),
        LinearGaussianFactor.from_dense(1, (), (0,), A1, B1[:, None], V1),
        BayesCategoricalFactor.from_dense(2, (), (1,), np.log(P2), M2[..., None],
                                          W2[..., None, None]),
        LinearGaussianFactor.from_dense(3, (), (0, 1), A3, np.column_stack([B3, 0 * B3]),
                                        np.full(2, var3)),
        LinearGaussianFactor.from_dense(4, (2,), (), A4, np.zeros((2, 3, 0)), V4),
    ]


def _log_joint(x0, x1, z2, x3, x4, c, var3):
    """ln p(y = c, x) with scipy; None for a missing leaf (its factor integrates to 1)."""
    lj = np.log(P2[c]) + norm.logpdf(np.asarray(x1)[..., None], M2[c], np.sqrt(W2[c]))
    out = (PRIOR[c] + norm.logpdf(x0, MU0[c], S0[c])
           + norm.logpdf(x1, A1[c] + B1[c] * x0, np.sqrt(V1[c]))
           + lj[..., z2] - logsumexp(lj, axis=-1))
    if x3 is not None:
        out = out + norm.logpdf(x3, A3[c] + B3[c] * x0, np.sqrt(var3))
    if x4 is not None:
        out = out + norm.logpdf(x4, A4[c, z2], np.sqrt(V4[c, z2]))
    return out


def _brute_force(row, miss, var3):
    """Sums over z2, trapezoid over missing x0 and x1: x1 on [-14, 14] (1401 points); x0 on
    [-14, 14] (1401 points), or, when x3 is observed, on x3 - A3 -+ 40 sd(x3 | x0) (the
    likelihood of x0 vanishes outside; 1601 points)."""
    wide = np.linspace(-14, 14, 1401)
    out = []
    for c in range(2):
        at = row[3] - A3[c]  # x0's likelihood peaks there
        g0 = wide if miss[3] else np.linspace(at - 40 * np.sqrt(var3), at + 40 * np.sqrt(var3),
                                              1601)
        total = 0.0
        for z2 in range(3) if miss[2] else [int(row[2])]:
            x0 = g0[:, None] if miss[0] else np.array([[row[0]]])
            x1 = wide[None, :] if miss[1] else np.array([[row[1]]])
            vals = np.exp(_log_joint(x0, x1, z2, None if miss[3] else row[3],
                                     None if miss[4] else row[4], c, var3))
            vals = np.broadcast_to(vals, (x0.shape[0], x1.shape[1]))
            vals = np.trapezoid(vals, g0, axis=0) if miss[0] else vals[0]
            total += float(np.trapezoid(vals, wide) if miss[1] else vals[0])
        out.append(np.log(total))
    return np.array(out)


ROW = np.array([0.3, -0.5, 1.0, 0.8, -0.6])
#: patterns with x0, x1 missing and z2 kept (observed, or summed below an observed x4)
PATTERNS = [np.array([1, 1, z, x3, x4], dtype=bool)
            for z, x3, x4 in itertools.product([0, 1], repeat=3) if not (z and x4)]


@pytest.mark.parametrize("pattern", PATTERNS, ids=lambda p: "".join(map(str, p.astype(int))))
def test_posterior_path_equals_brute_force(pattern, monkeypatch):
    """Measured error at order 64: below 1e-13 on these patterns; asserted 1e-9. The
    posterior path is the one taken (one Gauss-Hermite axis instead of two)."""
    factors = _factors(0.5)
    calls = []
    build = posterior.posterior_pattern_factors
    monkeypatch.setattr(mixed, "posterior_pattern_factors",
                        lambda *a: calls.append(a) or build(*a))
    got = cg_log_marginal(factors, PRIOR, np.where(pattern, np.nan, ROW)[None], pattern[None])
    assert [a[-1][0].size for a in calls] == [2, 64]  # the choice's probe, then the rows
    np.testing.assert_allclose(got[0], _brute_force(ROW, pattern, 0.5), rtol=0, atol=1e-9)


def test_narrow_evidence_below_an_ancestor():
    """x3 = A3 + x0 + e with sd(e) = 0.01, observed; x0 and x1 missing, z2 observed. The
    likelihood of x0 is 100 times narrower than its prior: Gauss-Hermite nodes on x0's
    prior (mixed's path) miss it (error measured 1.6 nats; asserted > 0.1), the posterior
    path integrates x0 exactly (error measured 2e-15; asserted 1e-9)."""
    factors = _factors(1e-4)
    pattern = np.array([True, True, False, False, True])
    X = np.where(pattern, np.nan, ROW)[None]
    ref = _brute_force(ROW, pattern, 1e-4)
    new = cg_log_marginal(factors, PRIOR, X, pattern[None])[0]
    old = cg_log_marginal(factors, PRIOR, X, pattern[None], posterior=False)[0]
    np.testing.assert_allclose(new, ref, rtol=0, atol=1e-9)
    assert np.abs(old - ref).max() > 0.1


def test_patterns_left_on_mixed_path_keep_its_numbers():
    """Every pattern of the model: those the choice leaves on mixed's path give mixed's
    numbers exactly (the same code); all agree with brute force."""
    factors = _factors(0.5)
    patterns = np.array(list(itertools.product([False, True], repeat=5)))
    X = np.where(patterns, np.nan, ROW)
    got = cg_log_marginal(factors, PRIOR, X, patterns)
    old = cg_log_marginal(factors, PRIOR, X, patterns, posterior=False)
    order = mixed.topological_order([f.parents for f in factors])
    moved = np.array([mixed._posterior_probe(factors, order, PRIOR, X[i:i + 1], p, 64) is not None
                      for i, p in enumerate(patterns)])
    assert 0 < moved.sum() < len(patterns)
    np.testing.assert_array_equal(got[~moved], old[~moved])
    for r in np.flatnonzero(moved & ~patterns[:, 3]):
        np.testing.assert_allclose(got[r], _brute_force(ROW, patterns[r], 0.5), rtol=0,
                                   atol=1e-9)


# Two continuous parents under an ancestor: xa ~ N; x0 | xa; x1 | xa, x0; z2 | x0, x1 by
# Bayes' rule (no single-parent numerator: the rule sees the whole factor).
COV2 = np.array([[[[1.0, 0.4], [0.4, 1.5]], [[0.8, -0.3], [-0.3, 1.0]]]])
MEAN2 = np.array([[[0.0, 1.0], [1.0, -1.0]]])
FACTORS_2 = [
    LinearGaussianFactor.from_dense(0, (), (), np.zeros(1), np.zeros((1, 0)), np.ones(1)),
    LinearGaussianFactor.from_dense(1, (), (0,), np.array([0.2]), np.array([[0.9]]),
                                    np.array([0.5])),
    LinearGaussianFactor.from_dense(2, (), (0, 1), np.array([0.5]), np.array([[0.6, 0.5]]),
                                    np.array([0.6])),
    BayesCategoricalFactor.from_dense(3, (), (1, 2), np.log([[0.4, 0.6]]), MEAN2, COV2),
]


def test_two_parent_bayes_vertex_below_a_missing_ancestor():
    """xa, x0, x1 missing, z2 observed: mixed's set {xa, x0, x1}, the posterior path's
    {x0, x1} with xa integrated exactly. Brute force: trapezoid on a 3-d grid of 161 points
    per axis over [-9, 9] (every conditional sd >= 0.7). Measured error 4e-10; asserted
    1e-7."""
    row = np.array([np.nan, np.nan, np.nan, 1.0])
    pattern = np.array([True, True, True, False])
    got = cg_log_marginal(FACTORS_2, np.zeros(1), row[None], pattern[None])[0, 0]
    g = np.linspace(-9, 9, 161)
    xa, x0, x1 = np.meshgrid(g, g, g, indexing="ij")
    pts = np.stack([x0, x1], axis=-1)
    lj = np.log([0.4, 0.6]) + np.stack([multivariate_normal(MEAN2[0, c], COV2[0, c]).logpdf(pts)
                                        for c in range(2)], axis=-1)
    log_p = (norm.logpdf(xa) + norm.logpdf(x0, 0.2 + 0.9 * xa, np.sqrt(0.5))
             + norm.logpdf(x1, 0.5 + 0.6 * xa + 0.5 * x0, np.sqrt(0.6))
             + lj[..., 1] - logsumexp(lj, axis=-1))
    ref = np.log(np.trapezoid(np.trapezoid(np.trapezoid(np.exp(log_p), g), g), g))
    assert abs(got - ref) < 1e-7


def test_chunked_rows_equal_one_pass():
    """A budget that splits a posterior-path pattern's rows into chunks: the result equals
    one pass to 1e-12."""
    factors = _factors(0.5)
    pattern = np.array([True, True, False, False, True])
    X = np.tile(np.where(pattern, np.nan, ROW), (7, 1))
    X[:, 3] += np.linspace(-1, 1, 7)
    whole = cg_log_marginal(factors, PRIOR, X, np.tile(pattern, (7, 1)))
    order = mixed.topological_order([f.parents for f in factors])
    per_row = mixed._cells_at(mixed._posterior_probe(factors, order, PRIOR, X[:1], pattern, 64), 64)
    chunked = cg_log_marginal(factors, PRIOR, X, np.tile(pattern, (7, 1)),
                              max_cells=2 * per_row)
    np.testing.assert_allclose(chunked, whole, rtol=0, atol=1e-12)


def test_posterior_path_lowers_its_order_within_the_stated_error():
    """A budget below the posterior path's tables at order 64 (z2 summed below an observed
    x4, x0 and x1 missing): the path lowers its order like mixed's, one warning stating it;
    against brute force the error is within the error the warning states."""
    factors = _factors(0.5)
    pattern = np.array([True, True, True, False, False])
    X = np.where(pattern, np.nan, ROW)[None]
    order = mixed.topological_order([f.parents for f in factors])
    probe = mixed._posterior_probe(factors, order, PRIOR, X, pattern, 64)
    assert probe is not None
    budget = mixed._cells_at(probe, 12)
    with pytest.warns(UserWarning, match="lowered from 64 to") as record:
        got = cg_log_marginal(factors, PRIOR, X, pattern[None], max_cells=budget)
    message = str(record[0].message)
    stated = float(message.rsplit("about ", 1)[1].rstrip("."))
    assert 12 <= int(message.split(" to ")[1].split()[0]) < 64
    assert np.abs(got[0] - _brute_force(ROW, pattern, 0.5)).max() <= stated


# A summed categorical parent inside the Gaussian part: z0 (3 states) ~ p(z0 | y);
# x1 | z0 (a regression per cell); x2 | x1; z3 | x2 by Bayes' rule. With z0, x1, x2 missing
# and z3 observed, the posterior path integrates x1 in closed form per state of z0.
P0 = R.dirichlet(np.ones(3), size=2)
A1Z, V1Z = R.normal(scale=1.5, size=(2, 3)), R.uniform(0.4, 1.2, (2, 3))
A2Z, B2Z, V2Z = R.normal(size=2), R.normal(size=2), R.uniform(0.4, 1.0, 2)
P3Z, M3Z, W3Z = R.dirichlet(np.ones(2), size=2), R.normal(scale=1.5, size=(2, 2)), \
    R.uniform(0.5, 1.5, (2, 2))
FACTORS_Z = [
    CategoricalFactor.from_dense(0, (), np.log(P0)),
    LinearGaussianFactor.from_dense(1, (0,), (), A1Z, np.zeros((2, 3, 0)), V1Z),
    LinearGaussianFactor.from_dense(2, (), (1,), A2Z, B2Z[:, None], V2Z),
    BayesCategoricalFactor.from_dense(3, (), (2,), np.log(P3Z), M3Z[..., None],
                                      W3Z[..., None, None]),
]


def test_summed_categorical_parent_of_the_gaussian_part():
    """Measured error against brute force (sum over z0, trapezoid on a 1201^2 grid over
    [-14, 14]^2): below 1e-12; asserted 1e-9. Taken by the posterior path (one node axis
    instead of two)."""
    pattern = np.array([True, True, True, False])
    row = np.array([np.nan, np.nan, np.nan, 1.0])
    order = mixed.topological_order([f.parents for f in FACTORS_Z])
    assert mixed._posterior_probe(FACTORS_Z, order, PRIOR, row[None], pattern, 64) is not None
    got = cg_log_marginal(FACTORS_Z, PRIOR, row[None], pattern[None])[0]
    g = np.linspace(-14, 14, 1201)
    x1, x2 = g[:, None], g[None, :]
    ref = []
    for c in range(2):
        lj = np.log(P3Z[c]) + norm.logpdf(x2[..., None], M3Z[c], np.sqrt(W3Z[c]))
        bayes = lj[..., 1] - logsumexp(lj, axis=-1)
        total = 0.0
        for z0 in range(3):
            log_p = (PRIOR[c] + np.log(P0[c, z0]) + norm.logpdf(x1, A1Z[c, z0], np.sqrt(V1Z[c, z0]))
                     + norm.logpdf(x2, A2Z[c] + B2Z[c] * x1, np.sqrt(V2Z[c])) + bayes)
            total += np.trapezoid(np.trapezoid(np.exp(log_p), g, axis=0), g)
        ref.append(np.log(total))
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-9)
