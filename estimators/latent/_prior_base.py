"""Shared pieces of the mixing-weight priors: the base class and closed-form KLs."""

from __future__ import annotations

from abc import ABCMeta, abstractmethod
from numbers import Real

import numpy as np
from scipy.special import digamma, gammaln

__all__ = ["Prior", "beta_kl", "dirichlet_kl", "row_sum"]


def row_sum(a: np.ndarray) -> np.ndarray:
    """Sum over the short last axis of an (n, K) array, one column at a time (several
    times faster per row than ``a.sum(axis=1)`` when K is small).

    Examples
    --------
    >>> import numpy as np
    >>> row_sum(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
    array([ 6., 15.])
    """
    out = a[:, 0].copy()
    for k in range(1, a.shape[1]):
        out += a[:, k]
    return out


def dirichlet_kl(gamma: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """KL(Dir(gamma) || Dir(alpha)) in nats, row-wise over the last axis.

    Parameters
    ----------
    gamma : ndarray of shape (..., K)
        Parameters of the first (variational) Dirichlet.
    alpha : ndarray of shape (K,) or (..., K)
        Parameters of the second (prior) Dirichlet.

    Returns
    -------
    kl : ndarray of shape (...)

    Examples
    --------
    >>> import numpy as np
    >>> float(dirichlet_kl(np.array([2.0, 3.0]), np.array([2.0, 3.0])))
    0.0
    """
    gamma = np.asarray(gamma, dtype=float)
    alpha = np.broadcast_to(np.asarray(alpha, dtype=float), gamma.shape)
    g0 = gamma.sum(axis=-1)
    a0 = alpha.sum(axis=-1)
    elog = digamma(gamma) - digamma(g0)[..., None]
    return (
        gammaln(g0)
        - gammaln(gamma).sum(axis=-1)
        - gammaln(a0)
        + gammaln(alpha).sum(axis=-1)
        + ((gamma - alpha) * elog).sum(axis=-1)
    )


def beta_kl(a: np.ndarray, b: np.ndarray, a0: np.ndarray, b0: np.ndarray) -> np.ndarray:
    """KL(Beta(a, b) || Beta(a0, b0)) in nats, elementwise.

    Examples
    --------
    >>> round(float(beta_kl(2.0, 2.0, 1.0, 1.0)), 6)
    0.125093
    """
    a, b, a0, b0 = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (a, b, a0, b0)))
    ab = a + b
    return (
        gammaln(ab)
        - gammaln(a)
        - gammaln(b)
        - gammaln(a0 + b0)
        + gammaln(a0)
        + gammaln(b0)
        + (a - a0) * (digamma(a) - digamma(ab))
        + (b - b0) * (digamma(b) - digamma(ab))
    )


def _positive_vector(prior: str, name: str, value, size: int) -> np.ndarray:
    """Broadcast a scalar or check a vector of length ``size``; every entry must be > 0."""
    arr = np.asarray(value, dtype=float)
    if arr.ndim == 0:
        arr = np.full(size, float(arr))
    if arr.shape != (size,):
        raise ValueError(
            f"The prior parameter {name!r} of the {prior} prior must be a positive float or "
            f"an array of {size} positive floats. Got shape {arr.shape} instead."
        )
    bad = np.flatnonzero(~(arr > 0) | ~np.isfinite(arr))
    if bad.size:
        raise ValueError(
            f"The prior parameter {name!r} of the {prior} prior must be positive and finite. "
            f"Got {float(arr[bad[0]])!r} at index {int(bad[0])}."
        )
    return arr


class Prior(metaclass=ABCMeta):
    """Base class of a prior on the mixing weights ``pi`` of one row.

    A subclass states its parameters in ``defaults`` (name -> (default, length rule)) and
    implements the three steps the variational EM needs from it: the q(pi) update from the
    expected counts ``n_k``, ``E_q[ln pi_k]`` and ``KL(q || prior)`` (which may reuse the
    already computed ``elog = E_q[ln pi]``), plus ``E_q[pi]``.
    The variational state ``q`` is a tuple of arrays whose first axis is the row.
    """

    name: str = ""
    #: parameter name -> (default, "K" or "K-1" or "1": how many entries it has)
    defaults: dict[str, tuple[float, str]] = {}

    def __init__(self, n_components: int, params: dict | None = None):
        self.n_components = int(n_components)
        params = {} if params is None else dict(params)
        unknown = sorted(set(params) - set(self.defaults))
        if unknown:
            raise ValueError(
                f"Unknown prior parameter(s) {unknown} for the {self.name} prior; "
                f"valid ones are {sorted(self.defaults)}."
            )
        sizes = {"K": self.n_components, "K-1": max(self.n_components - 1, 0), "1": 1}
        for key, (default, rule) in self.defaults.items():
            value = params.get(key, default)
            if not isinstance(value, Real | np.ndarray | list | tuple):
                raise ValueError(
                    f"The prior parameter {key!r} of the {self.name} prior must be a float "
                    f"or an array of floats. Got {value!r} instead."
                )
            setattr(self, key, _positive_vector(self.name, key, value, sizes[rule]))

    def params(self) -> dict[str, np.ndarray]:
        """The resolved prior parameters (arrays)."""
        return {key: getattr(self, key) for key in self.defaults}

    def initial(self, n_observed: np.ndarray) -> tuple[np.ndarray, ...]:
        """q(pi) for rows whose ``n_observed`` features are spread evenly over components."""
        counts = np.repeat(np.asarray(n_observed, dtype=float)[:, None], self.n_components, 1)
        return self.posterior(counts / self.n_components)

    @abstractmethod
    def posterior(self, counts: np.ndarray) -> tuple[np.ndarray, ...]:
        """q(pi) of every row from its expected counts n_k."""

    @abstractmethod
    def expected_log_weights(self, q: tuple[np.ndarray, ...]) -> np.ndarray:
        """E_q[ln pi_k], shape (n_rows, K)."""

    @abstractmethod
    def expected_weights(self, q: tuple[np.ndarray, ...]) -> np.ndarray:
        """E_q[pi_k], shape (n_rows, K)."""

    @abstractmethod
    def kl(self, q: tuple[np.ndarray, ...], elog=None) -> np.ndarray:
        """KL(q(pi_i) || prior) per row, in closed form."""
