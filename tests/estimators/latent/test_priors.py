"""Priors: closed forms against Monte Carlo, Dirichlet equivalence, parameter checks."""

import numpy as np
import pytest
from scipy import stats

from estimators.latent import (
    BetaLiouvillePrior,
    DirichletPrior,
    GeneralizedDirichletPrior,
    beta_kl,
    dirichlet_kl,
    make_prior,
)

K = 4
N_MC = 100_000


def _sample(prior, q, rng):
    """Draws of (pi, ln q(coords) - ln prior(coords)) for a single row's q, by the prior's
    own generative definition (independent of the closed forms under test)."""
    if isinstance(prior, DirichletPrior):
        (g,) = q
        pi = rng.dirichlet(g[0], N_MC)
        lr = stats.dirichlet(g[0]).logpdf(pi.T) - stats.dirichlet(prior.alpha).logpdf(pi.T)
        return pi, lr
    if isinstance(prior, GeneralizedDirichletPrior):
        g, lam = q
        v = rng.beta(g[0], lam[0], size=(N_MC, K - 1))
        lr = (stats.beta(g[0], lam[0]).logpdf(v) - stats.beta(prior.alpha, prior.beta).logpdf(v))
        rest = np.cumprod(np.concatenate([np.ones((N_MC, 1)), 1 - v], axis=1), axis=1)
        pi = rest * np.concatenate([v, np.ones((N_MC, 1))], axis=1)
        return pi, lr.sum(axis=1)
    a_w, a, b = q
    u = rng.beta(a[0, 0], b[0, 0], N_MC)
    w = rng.dirichlet(a_w[0], N_MC)
    lr = (
        stats.beta(a[0, 0], b[0, 0]).logpdf(u)
        - stats.beta(prior.u_alpha[0], prior.u_beta[0]).logpdf(u)
        + stats.dirichlet(a_w[0]).logpdf(w.T)
        - stats.dirichlet(prior.alpha).logpdf(w.T)
    )
    return np.concatenate([u[:, None] * w, 1 - u[:, None]], axis=1), lr


PRIORS = {
    "dirichlet": {"alpha": [0.5, 1.0, 2.0, 1.5]},
    "generalized-dirichlet": {"alpha": [0.7, 1.2, 2.0], "beta": [1.5, 0.8, 1.1]},
    "beta-liouville": {"alpha": [0.6, 1.3, 2.0], "u_alpha": 1.7, "u_beta": 0.9},
}


@pytest.mark.parametrize("name", sorted(PRIORS))
def test_closed_forms_match_monte_carlo(name):
    rng = np.random.default_rng(0)
    prior = make_prior(name, K, PRIORS[name])
    q = prior.posterior(np.array([[3.0, 0.5, 1.2, 2.3]]))
    pi, log_ratio = _sample(prior, q, rng)
    kl = prior.kl(q)[0]
    se = log_ratio.std() / np.sqrt(N_MC)
    assert abs(kl - log_ratio.mean()) < 4 * se
    elog = np.log(pi).mean(axis=0)
    se_log = np.log(pi).std(axis=0) / np.sqrt(N_MC)
    np.testing.assert_array_less(np.abs(prior.expected_log_weights(q)[0] - elog), 4 * se_log)
    np.testing.assert_allclose(prior.expected_weights(q)[0], pi.mean(axis=0), atol=4e-3)


def test_kl_helpers_against_scipy_entropy():
    # KL(Dir(g) || Dir(1)) = -H(Dir(g)) - ln Gamma(K) (the flat density is Gamma(K))
    g = np.array([2.0, 0.5, 3.0])
    assert np.isclose(dirichlet_kl(g, np.ones(3)), -stats.dirichlet(g).entropy() - np.log(2.0))
    assert np.isclose(beta_kl(2.5, 0.7, 1.0, 1.0), -stats.beta(2.5, 0.7).entropy())


@pytest.mark.parametrize("cls", [GeneralizedDirichletPrior, BetaLiouvillePrior])
def test_dirichlet_equivalent_parameters_reproduce_dirichlet(cls):
    alpha = np.array([0.5, 1.0, 2.0, 1.5])
    dirichlet = DirichletPrior(K, {"alpha": alpha})
    other = cls(K, cls.dirichlet_equivalent(alpha))
    counts = np.random.default_rng(1).gamma(1.0, 2.0, size=(6, K))
    qd, qo = dirichlet.posterior(counts), other.posterior(counts)
    np.testing.assert_allclose(
        other.expected_log_weights(qo), dirichlet.expected_log_weights(qd), rtol=1e-12
    )
    np.testing.assert_allclose(other.kl(qo), dirichlet.kl(qd), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(other.expected_weights(qo), dirichlet.expected_weights(qd))


def test_dirichlet_kl_reusing_expectations_is_the_same():
    prior = DirichletPrior(K, {"alpha": [0.5, 1.0, 2.0, 1.5]})
    q = prior.posterior(np.random.default_rng(2).gamma(1.0, 2.0, size=(5, K)))
    np.testing.assert_allclose(prior.kl(q, prior.expected_log_weights(q)), prior.kl(q))


@pytest.mark.parametrize(
    ("name", "params", "match"),
    [
        ("dirichlet", {"alpha": -1.0}, "'alpha' of the dirichlet prior must be positive"),
        ("generalized-dirichlet", {"beta": [1.0, -2.0, 1.0]}, "'beta'.*Got -2.0 at index 1"),
        ("beta-liouville", {"u_alpha": 0.0}, "'u_alpha' of the beta-liouville"),
        ("beta-liouville", {"u_beta": -0.5}, "'u_beta'"),
        ("generalized-dirichlet", {"alpha": [1.0, 2.0]}, "array of 3 positive floats"),
        ("dirichlet", {"gamma": 1.0}, r"Unknown prior parameter.*valid ones are \['alpha'\]"),
    ],
)
def test_bad_prior_parameters_are_named(name, params, match):
    with pytest.raises(ValueError, match=match):
        make_prior(name, K, params)


def test_unknown_prior_lists_valid_ones():
    with pytest.raises(ValueError, match="valid ones are.*beta-liouville.*dirichlet"):
        make_prior("gamma", K)


@pytest.mark.parametrize("name", sorted(PRIORS))
def test_single_component_is_trivial(name):
    prior = make_prior(name, 1)
    q = prior.posterior(np.array([[4.0], [1.0]]))
    np.testing.assert_allclose(prior.expected_log_weights(q), 0.0)
    np.testing.assert_allclose(prior.expected_weights(q), 1.0)
    np.testing.assert_allclose(prior.kl(q), 0.0)
