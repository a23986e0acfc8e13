"""The Beta-Liouville prior on the mixing weights (LBL-CNB)."""

from __future__ import annotations

import numpy as np
from scipy.special import digamma

from ._prior_base import Prior, beta_kl, dirichlet_kl

__all__ = ["BetaLiouvillePrior"]


class BetaLiouvillePrior(Prior):
    """``u ~ Beta(u_alpha, u_beta)``, ``w ~ Dir(alpha_1..alpha_{K-1})``,
    ``pi_k = u w_k`` (k < K), ``pi_K = 1 - u``.

    q(pi) is of the same form with ``alpha'_k = alpha_k + n_k``,
    ``u_alpha' = u_alpha + sum_{k<K} n_k`` and ``u_beta' = u_beta + n_K`` (MATH.md §6); the
    KL to the prior is a Beta KL plus a Dirichlet KL (taken in the (u, w) coordinates).
    With one component the weight is 1 and the prior has no effect.

    Parameters
    ----------
    n_components : int
    params : dict, optional
        ``alpha``: K - 1 positive Dirichlet parameters of w (a float is broadcast),
        default 1.0; ``u_alpha``, ``u_beta``: the Beta shapes of u, default 1.0 and 1.0.
        With ``u_alpha = sum_{k<K} alpha_k`` and ``u_beta = alpha_K`` the prior is
        ``Dir(alpha)``: see :meth:`dirichlet_equivalent`.

    Examples
    --------
    >>> import numpy as np
    >>> prior = BetaLiouvillePrior(3)
    >>> q = prior.posterior(np.array([[2.0, 1.0, 1.0]]))
    >>> [a.tolist() for a in q]
    [[[3.0, 2.0]], [[4.0]], [[2.0]]]
    >>> prior.expected_weights(q).round(4)
    array([[0.4   , 0.2667, 0.3333]])
    """

    name = "beta-liouville"
    defaults = {"alpha": (1.0, "K-1"), "u_alpha": (1.0, "1"), "u_beta": (1.0, "1")}

    @staticmethod
    def dirichlet_equivalent(alpha) -> dict[str, np.ndarray]:
        """The parameters that make this prior equal to ``Dir(alpha)``.

        Examples
        --------
        >>> BetaLiouvillePrior.dirichlet_equivalent([1.0, 2.0, 3.0])
        {'alpha': array([1., 2.]), 'u_alpha': array([3.]), 'u_beta': array([3.])}
        """
        alpha = np.asarray(alpha, dtype=float)
        return {
            "alpha": alpha[:-1].copy(),
            "u_alpha": np.array([alpha[:-1].sum()]),
            "u_beta": alpha[-1:].copy(),
        }

    def posterior(self, counts):
        head = counts[:, :-1]
        return (
            self.alpha + head,
            self.u_alpha + head.sum(axis=1, keepdims=True),
            self.u_beta + counts[:, -1:],
        )

    def expected_log_weights(self, q):
        alpha, a, b = q
        if self.n_components == 1:
            return np.zeros((a.shape[0], 1))
        total = digamma(a + b)
        elog_w = digamma(alpha) - digamma(alpha.sum(axis=1, keepdims=True))
        return np.concatenate([elog_w + digamma(a) - total, digamma(b) - total], axis=1)

    def expected_weights(self, q):
        alpha, a, b = q
        if self.n_components == 1:
            return np.ones((a.shape[0], 1))
        mean_u = a / (a + b)
        return np.concatenate([mean_u * alpha / alpha.sum(axis=1, keepdims=True), 1 - mean_u], 1)

    def kl(self, q, elog=None):
        alpha, a, b = q
        if self.n_components == 1:
            return np.zeros(a.shape[0])
        return beta_kl(a[:, 0], b[:, 0], self.u_alpha[0], self.u_beta[0]) + dirichlet_kl(
            alpha, self.alpha
        )
