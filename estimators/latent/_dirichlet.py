"""The Dirichlet prior on the mixing weights (LD-CNB)."""

from __future__ import annotations

from scipy.special import digamma, gammaln

from ._prior_base import Prior, dirichlet_kl

__all__ = ["DirichletPrior"]


class DirichletPrior(Prior):
    """``pi ~ Dir(alpha)``; q(pi) = Dir(gamma) with ``gamma_k = alpha_k + n_k``.

    Parameters
    ----------
    n_components : int
    params : dict, optional
        ``alpha``: K concentrations (a float is broadcast), default 1.0 (uniform on the
        simplex).

    Examples
    --------
    >>> import numpy as np
    >>> prior = DirichletPrior(2, {"alpha": 1.0})
    >>> q = prior.posterior(np.array([[3.0, 1.0]]))
    >>> q[0]
    array([[4., 2.]])
    >>> prior.expected_weights(q).round(4)
    array([[0.6667, 0.3333]])
    """

    name = "dirichlet"
    defaults = {"alpha": (1.0, "K")}

    def posterior(self, counts):
        return (self.alpha + counts,)

    def expected_log_weights(self, q):
        (gamma,) = q
        return digamma(gamma) - digamma(gamma.sum(axis=1))[:, None]

    def expected_weights(self, q):
        (gamma,) = q
        return gamma / gamma.sum(axis=1, keepdims=True)

    def kl(self, q, elog=None):
        (gamma,) = q
        if elog is None:
            return dirichlet_kl(gamma, self.alpha)
        # the same closed form, reusing E_q[ln pi] = digamma(gamma) - digamma(sum gamma)
        const = gammaln(self.alpha).sum() - gammaln(self.alpha.sum())
        return (
            gammaln(gamma.sum(axis=1))
            - gammaln(gamma).sum(axis=1)
            + ((gamma - self.alpha) * elog).sum(axis=1)
            + const
        )
