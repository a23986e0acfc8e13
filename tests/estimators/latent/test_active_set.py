"""The active-set E-step: only rows still iterating are swept, with the same result as
sweeping every row until the last one stops, and as iterating each row on its own."""

import numpy as np
import pytest

from estimators.latent import make_prior
from estimators.latent._estep import e_step

PRIORS = ["dirichlet", "generalized-dirichlet", "beta-liouville"]


def problem(n=300, d=6, K=4, seed=0):
    """Log-likelihoods of a random categorical model, with 25% of the entries hidden."""
    rng = np.random.default_rng(seed)
    loglik = np.log(rng.dirichlet(np.full(K, 0.4), (n, d)))
    mask = rng.random((n, d)) > 0.25
    mask[:, 0] = True
    return loglik, mask


@pytest.mark.parametrize("prior", PRIORS)
@pytest.mark.parametrize("warm", [False, True])
def test_active_set_equals_full_sweeps_and_per_row_runs(prior, warm):
    loglik, mask = problem(seed=len(prior) + warm)
    p = make_prior(prior, loglik.shape[2])
    counts = None
    if warm:
        counts = np.random.default_rng(5).dirichlet(np.ones(4), 300) * mask.sum(1)[:, None]
    active = e_step(p, loglik, mask, counts, tol=1e-6)
    full = e_step(p, loglik, mask, counts, tol=1e-6, active_set=False)
    np.testing.assert_allclose(active.elbo, full.elbo, rtol=0, atol=1e-10)
    np.testing.assert_allclose(active.counts, full.counts, rtol=0, atol=1e-10)
    np.testing.assert_allclose(active.phi, full.phi, rtol=0, atol=1e-10)
    assert active.n_iter == full.n_iter
    assert full.row_sweeps == 300 * full.n_iter
    assert active.row_sweeps < full.row_sweeps
    # each row iterated alone (an independent computation of "until its ELBO stops rising")
    for i in range(0, 300, 37):
        alone = e_step(p, loglik[i : i + 1], mask[i : i + 1],
                       None if counts is None else counts[i : i + 1], tol=1e-6)
        assert abs(alone.elbo[0] - active.elbo[i]) < 1e-10
        np.testing.assert_allclose(alone.phi[0], active.phi[i], rtol=0, atol=1e-10)


def test_fixed_point_reached():
    """At a tight tolerance the stored state is the fixed point: one more exact sweep
    (warm-started from it) moves neither the counts nor the ELBO."""
    loglik, mask = problem(seed=3)
    p = make_prior("dirichlet", 4)
    first = e_step(p, loglik, mask, tol=1e-13)
    again = e_step(p, loglik, mask, first.counts, max_iter=1)
    np.testing.assert_allclose(again.counts, first.counts, rtol=0, atol=1e-6)
    np.testing.assert_allclose(again.elbo, first.elbo, rtol=0, atol=1e-10)
