"""The generalized Dirichlet prior on the mixing weights (LGD-CNB), in stick-breaking form."""

from __future__ import annotations

import numpy as np
from scipy.special import digamma

from ._prior_base import Prior, beta_kl

__all__ = ["GeneralizedDirichletPrior"]


class GeneralizedDirichletPrior(Prior):
    """``pi_k = V_k prod_{l<k} (1 - V_l)``, ``V_k ~ Beta(alpha_k, beta_k)`` for k < K.

    q(pi) is of the same form with ``V_k ~ Beta(gamma_k, lambda_k)``,
    ``gamma_k = alpha_k + n_k`` and ``lambda_k = beta_k + sum_{l>k} n_l`` (MATH.md §6).
    The KL to the prior is the sum of the K - 1 Beta KLs (taken in the V coordinates).

    Parameters
    ----------
    n_components : int
    params : dict, optional
        ``alpha`` and ``beta``: K - 1 positive Beta shapes each (a float is broadcast),
        default 1.0 and 1.0 (every stick fraction uniform on (0, 1)). With
        ``beta_k = sum_{l>k} alpha_l`` (``alpha_K`` the Dirichlet's last entry) the prior
        is ``Dir(alpha)``: see :meth:`dirichlet_equivalent`.

    Examples
    --------
    >>> import numpy as np
    >>> prior = GeneralizedDirichletPrior(3)
    >>> q = prior.posterior(np.array([[2.0, 1.0, 1.0]]))
    >>> q[0], q[1]
    (array([[3., 2.]]), array([[3., 2.]]))
    >>> float(prior.expected_weights(q).sum())
    1.0
    """

    name = "generalized-dirichlet"
    defaults = {"alpha": (1.0, "K-1"), "beta": (1.0, "K-1")}

    @staticmethod
    def dirichlet_equivalent(alpha) -> dict[str, np.ndarray]:
        """The parameters that make this prior equal to ``Dir(alpha)``.

        Examples
        --------
        >>> GeneralizedDirichletPrior.dirichlet_equivalent([1.0, 2.0, 3.0])
        {'alpha': array([1., 2.]), 'beta': array([5., 3.])}
        """
        alpha = np.asarray(alpha, dtype=float)
        tail = np.cumsum(alpha[::-1])[::-1]  # tail[k] = sum_{l>=k} alpha_l
        return {"alpha": alpha[:-1].copy(), "beta": tail[1:].copy()}

    def posterior(self, counts):
        tail = np.cumsum(counts[:, ::-1], axis=1)[:, ::-1]  # sum_{l>=k} n_l
        return (self.alpha + counts[:, :-1], self.beta + tail[:, 1:])

    def _expected_logs(self, q):
        gamma, lam = q
        total = digamma(gamma + lam)
        return digamma(gamma) - total, digamma(lam) - total  # E ln V, E ln(1 - V)

    def expected_log_weights(self, q):
        elog_v, elog_1mv = self._expected_logs(q)
        n = elog_v.shape[0]
        # E ln pi_k = E ln V_k + sum_{l<k} E ln(1 - V_l); E ln pi_K = sum_{l<K} E ln(1 - V_l)
        before = np.concatenate([np.zeros((n, 1)), np.cumsum(elog_1mv, axis=1)], axis=1)
        return before + np.concatenate([elog_v, np.zeros((n, 1))], axis=1)

    def expected_weights(self, q):
        gamma, lam = q
        mean_v = gamma / (gamma + lam)
        n = mean_v.shape[0]
        before = np.concatenate([np.ones((n, 1)), np.cumprod(1.0 - mean_v, axis=1)], axis=1)
        return before * np.concatenate([mean_v, np.ones((n, 1))], axis=1)

    def kl(self, q, elog=None):
        gamma, lam = q
        return beta_kl(gamma, lam, self.alpha, self.beta).sum(axis=1)
