"""The Dirichlet prior on the mixing weights (LD-CNB)."""

from __future__ import annotations

import numpy as np
from scipy.special import digamma, gammaln

from ._prior_base import Prior, dirichlet_kl, row_sum

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
        return digamma(gamma) - digamma(row_sum(gamma))[:, None]

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
            gammaln(row_sum(gamma))
            - row_sum(gammaln(gamma))
            + np.einsum("ik,ik->i", gamma - self.alpha, elog)
            + const
        )
