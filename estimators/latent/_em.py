"""The variational EM loop, written once for every prior x family combination."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from estimators.base.progress import progress
from estimators.base.user_warnings import warn_user

from ._estep import EStepResult, e_step
from ._family_base import Family
from ._prior_base import Prior

__all__ = ["EMResult", "fit_em"]


@dataclass
class EMResult:
    """Best run of :func:`fit_em`."""

    theta: dict
    estep: EStepResult
    lower_bound: float
    lower_bounds: list[float] = field(default_factory=list)
    n_iter: int = 0
    converged: bool = False


def objective(family: Family, theta: dict, estep: EStepResult) -> float:
    """Mean per-row ELBO plus the family's M-step penalty divided by the number of rows."""
    n = estep.elbo.shape[0]
    return float((estep.elbo.sum() + family.log_prior(theta)) / n)


def fit_em(
    prior: Prior,
    family: Family,
    data: np.ndarray,
    mask: np.ndarray,
    *,
    n_components: int,
    max_iter: int,
    tol: float,
    n_init: int,
    e_step_max_iter: int,
    e_step_tol: float,
    rng: np.random.Generator,
) -> EMResult:
    """Variational EM with restarts, after scikit-learn's ``BaseMixture.fit_predict``.

    Each restart draws initial parameters from ``family.init_params`` and runs an initial
    E-step; each iteration is an M-step followed by an E-step warm-started from the previous
    q(pi), so it ends in a consistent state (no separate final E-step is needed) and the
    objective (:func:`objective`) never decreases. A run stops when an iteration changes the
    objective by less than ``tol``; the run with the highest objective is kept, and a
    :class:`~sklearn.exceptions.ConvergenceWarning` is raised when it did not converge.

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.latent import make_family, make_prior
    >>> X = np.r_[np.zeros((20, 2)), np.ones((20, 2)) * 5] + np.random.default_rng(0).normal(
    ...     size=(40, 2))
    >>> family = make_family("gaussian")
    >>> data, mask = family.encode(X, fit=True)
    >>> result = fit_em(make_prior("dirichlet", 2), family, data, mask, n_components=2,
    ...                 max_iter=50, tol=1e-6, n_init=1, e_step_max_iter=100, e_step_tol=1e-8,
    ...                 rng=np.random.default_rng(0))
    >>> result.converged, bool(np.all(np.diff(result.lower_bounds) >= 0))
    (True, True)
    >>> sorted(result.theta["means"][:, 0].round(0).tolist())
    [0.0, 5.0]
    """

    def run_e_step(theta, counts):
        loglik = family.log_likelihood(theta, data, mask)
        return e_step(prior, loglik, mask, counts, max_iter=e_step_max_iter, tol=e_step_tol)

    best: EMResult | None = None
    for _ in range(n_init):
        theta = family.init_params(data, mask, n_components, rng)
        estep = run_e_step(theta, None)
        lower_bound = objective(family, theta, estep)
        bounds: list[float] = []
        converged, n_iter = False, 0
        for n_iter in progress(range(1, max_iter + 1), "EM iterations"):  # noqa: B007
            previous = lower_bound
            theta = family.m_step(data, mask, estep.phi)
            estep = run_e_step(theta, estep.counts)
            lower_bound = objective(family, theta, estep)
            bounds.append(lower_bound)
            if abs(lower_bound - previous) < tol:
                converged = True
                break
        if best is None or lower_bound > best.lower_bound:
            best = EMResult(theta, estep, lower_bound, bounds, n_iter, converged)
    if not best.converged and max_iter > 0:
        warn_user(
            "Best performing initialization did not converge. Try different init "
            "parameters, or increase max_iter, tol, or check for degenerate data.",
            ConvergenceWarning,
        )
    return best
