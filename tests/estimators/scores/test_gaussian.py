"""Gaussian CMI: the closed form against independent computations."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from estimators.scores import GaussianCMI, GaussianCopulaCMI


def entropy_cmi(X, y, v, parents):
    """Sum_y p(y) [H(X_v) + H(X_P) - H(X_vP)] with multivariate-normal entropies."""

    def h(S):  # differential entropy of N(0, S), S a covariance matrix
        S = np.atleast_2d(S)
        return 0.5 * np.log((2 * np.pi * np.e) ** S.shape[0] * np.linalg.det(S))

    total = 0.0
    for c in np.unique(y):
        Xc = X[y == c]
        S = np.cov(Xc, rowvar=False)
        P = list(parents)
        total += np.mean(y == c) * (h(S[v, v]) + h(S[np.ix_(P, P)]) - h(S[np.ix_([v] + P, [v] + P)]))
    return total


@pytest.mark.parametrize("parents", [(1,), (1, 2), (0, 2, 4), (1, 2, 3, 4)])
def test_closed_form_equals_entropy_computation(parents):
    rng = np.random.default_rng(3)
    n, d = 700, 6
    y = rng.integers(0, 3, n)
    A = rng.normal(size=(d, d))
    X = rng.normal(size=(n, d)) @ A + y[:, None] * rng.normal(size=d)
    v = 5
    got = GaussianCMI().fit(X, y).score(v, parents)
    assert got == pytest.approx(entropy_cmi(X, y, v, parents), rel=1e-10, abs=1e-12)


def test_population_value_for_known_covariance():
    rng = np.random.default_rng(4)
    S0 = np.array([[1.0, 0.5, 0.3, 0.0], [0.5, 2.0, 0.4, 0.1], [0.3, 0.4, 1.5, 0.2], [0, 0.1, 0.2, 1]])
    S1 = np.eye(4) + 0.6 * (np.ones((4, 4)) - np.eye(4))
    n = 200_000
    y = np.repeat([0, 1], [n // 4, 3 * n // 4])
    X = np.vstack([rng.multivariate_normal(np.zeros(4), S, size=k) for S, k in ((S0, n // 4), (S1, 3 * n // 4))])

    def pop(S, v, P):
        P = list(P)
        vp = [v] + P
        return 0.5 * (np.log(S[v, v]) + np.linalg.slogdet(S[np.ix_(P, P)])[1] - np.linalg.slogdet(S[np.ix_(vp, vp)])[1])

    score = GaussianCMI().fit(X, y)
    for v, P in [(0, (1,)), (0, (1, 2)), (3, (0, 1, 2))]:
        truth = 0.25 * pop(S0, v, P) + 0.75 * pop(S1, v, P)
        assert score(v, P) == pytest.approx(truth, abs=0.01)


def rho_data(rho, n=2000, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    Z = rng.multivariate_normal([0, 0], [[1, rho], [rho, 1]], size=n) + 2.0 * y[:, None]
    return Z, y


@pytest.mark.parametrize("rho", [0.0, 0.3, 0.6, 0.9])
@pytest.mark.parametrize(
    "score",
    [GaussianCMI(), GaussianCopulaCMI(), GaussianCopulaCMI(marginals="kernel"),
     GaussianCopulaCMI(marginals="rank")],
    ids=["gaussian", "copula-rank-kernel", "copula-kernel", "copula-rank"],
)
def test_gaussian_copula_data_recovers_rho(score, rho):
    Z, y = rho_data(rho)
    truth = -0.5 * np.log(1 - rho**2)
    got = score.fit(Z, y).score(0, {1})
    assert abs(got - truth) <= max(0.03, 0.1 * truth)
    if rho == 0:
        assert got < 0.02


@pytest.mark.parametrize("marginals", ["rank-kernel", "rank"])
def test_copula_rank_invariant_under_monotone_transforms(marginals):
    """The default (kernel CDF of the ranks) and the rank CDF depend on ranks only."""
    Z, y = rho_data(0.6)
    ref = GaussianCopulaCMI(marginals=marginals).fit(Z, y)
    moved = GaussianCopulaCMI(marginals=marginals).fit(
        np.column_stack([np.exp(Z[:, 0]), Z[:, 1] ** 3]), y)
    assert abs(moved(0, {1}) - ref(0, {1})) < 1e-12
    np.testing.assert_allclose(moved.edge_matrix(), ref.edge_matrix(), atol=1e-12, rtol=0)


def test_copula_kernel_nearly_invariant():
    """The kernel CDF is computed on the data scale, so invariance holds only up to noise."""
    Z, y = rho_data(0.6)
    ref = GaussianCopulaCMI(marginals="kernel").fit(Z, y)(0, {1})
    for f in (np.exp, lambda t: t**3):
        moved = GaussianCopulaCMI(marginals="kernel").fit(
            np.column_stack([f(Z[:, 0]), Z[:, 1]]), y)(0, {1})
        assert abs(moved - ref) < 0.03


def test_collinear_parents_score_as_their_independent_part():
    """A parent that duplicates another adds nothing: R² = r' R_PP⁺ r (no 0/0 NaN)."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(300, 3)), columns=["a", "b", "c"])
    X["a"] += 0.6 * X["c"]
    X["d"] = X["c"]
    X["e"] = 2.0 * X["b"] - X["c"]
    y = rng.integers(0, 2, 300)
    for score in (GaussianCMI(), GaussianCopulaCMI()):
        score.fit(X, y)
        assert score("a", {"c", "d"}) == pytest.approx(score("a", {"c"}), rel=1e-9)
        assert score("a", {"b", "c", "d"}) == pytest.approx(score("a", {"b", "c"}), rel=1e-9)
        # a perfect dependence is +inf (or, after the rank-kernel transform, huge): no error
        assert score("c", {"d"}) > 15
    # e is an exact linear combination of b and c: +inf for the Gaussian score
    assert GaussianCMI().fit(X, y)("e", {"b", "c", "d"}) == np.inf
    both = GaussianCMI().fit(X, y)
    assert both("a", {"b", "c", "e"}) == pytest.approx(entropy_cmi(X.to_numpy(), y, 0, (1, 2)),
                                                       rel=1e-9)


def test_constant_parent_in_one_class_is_dropped_there():
    rng = np.random.default_rng(2)
    n = 1000
    y = np.repeat([0, 1], n // 2)
    X = rng.multivariate_normal(np.zeros(3), [[1, .5, .3], [.5, 1, .2], [.3, .2, 1]], size=n)
    X[y == 1, 2] = 7.0
    with pytest.warns(UserWarning, match="constant within class 1"):
        score = GaussianCMI().fit(X, y)
    expected = 0.5 * entropy_cmi(X[y == 0], np.zeros(n // 2), 0, (1, 2)) + 0.5 * entropy_cmi(
        X[y == 1], np.zeros(n // 2), 0, (1,)
    )
    assert score(0, (1, 2)) == pytest.approx(expected, rel=1e-10)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), d=st.integers(3, 6), size=st.integers(1, 2))
def test_hyperedge_cmi_nonnegative_and_monotone(seed, d, size):
    """CMI >= 0, and adding a parent never lowers I(X_v; X_P | Y) (chain rule)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(60, d)) @ rng.normal(size=(d, d))
    y = rng.integers(0, 2, 60)
    score = GaussianCMI().fit(X, y)
    P = tuple(range(1, 1 + size))
    small, big = score(0, P), score(0, P + (d - 1,))
    assert small >= -1e-12
    assert big >= small - 1e-10


@pytest.mark.parametrize("score", [GaussianCMI, GaussianCopulaCMI])
def test_a_class_too_small_for_a_correlation_is_scored_with_all_rows(score):
    """Two rows always correlate perfectly (+inf nats); with ``min_class_rows`` such a class
    takes the correlation of all rows, as the classifiers pool its Gaussian cells."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    y = np.r_[np.zeros(28, int), np.ones(2, int)]
    got = score(min_class_rows=5).fit(X, y)(0, {1})
    assert np.isfinite(got) and 0 <= got < score().fit(X, y)(0, {1})
    if score is GaussianCMI:
        assert score().fit(X, y)(0, {1}) == np.inf  # closed form: class 0's own r, class 1 the r of all rows
        r0 = np.corrcoef(X[y == 0].T)[0, 1]
        r_all = np.corrcoef(X.T)[0, 1]
        expected = -0.5 * (28 / 30 * np.log(1 - r0**2) + 2 / 30 * np.log(1 - r_all**2))
        assert got == pytest.approx(expected, rel=1e-12)
    big = np.r_[np.zeros(15, int), np.ones(15, int)]  # no class below 5 rows: unchanged
    assert score(min_class_rows=5).fit(X, big)(0, {1}) == score().fit(X, big)(0, {1})
