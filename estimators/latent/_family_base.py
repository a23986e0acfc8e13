"""Shared pieces of the per-feature component families (Gaussian, categorical)."""

from __future__ import annotations

from abc import ABCMeta, abstractmethod

import numpy as np

__all__ = ["Family", "check_rows_observed", "plus_plus_seeds"]


def check_rows_observed(mask: np.ndarray) -> None:
    """Raise a ValueError naming the first row with no observed feature."""
    empty = ~mask.any(axis=1)
    if empty.any():
        rows = np.flatnonzero(empty)
        raise ValueError(
            f"Row {int(rows[0])} of X has no observed feature (all NaN); "
            f"{rows.size} such row(s). Every row needs at least one observed value."
        )


def plus_plus_seeds(distance, n_rows: int, n_components: int, rng) -> np.ndarray:
    """k-means++ seeding: K row indices, each next one drawn with probability proportional
    to its squared distance to the nearest seed so far (uniform when all distances are 0).

    ``distance(i)`` returns the (n_rows,) distances of every row to row i.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([0.0, 0.1, 10.0, 10.1])
    >>> seeds = plus_plus_seeds(lambda i: np.abs(x - x[i]), 4, 2, np.random.default_rng(0))
    >>> sorted((x[seeds] > 5).tolist())
    [False, True]
    """
    seeds = [int(rng.integers(n_rows))]
    nearest = distance(seeds[0]) ** 2
    for _ in range(1, n_components):
        total = nearest.sum()
        p = nearest / total if total > 0 else np.full(n_rows, 1.0 / n_rows)
        seeds.append(int(rng.choice(n_rows, p=p)))
        nearest = np.minimum(nearest, distance(seeds[-1]) ** 2)
    return np.array(seeds)


class Family(metaclass=ABCMeta):
    """Base class of the distribution of one feature given its component.

    A family is created unfitted; :meth:`encode` with ``fit=True`` learns what it needs from
    the training data (categories, scales). Parameters ``theta`` are a dict of arrays. It
    supplies the family's steps of the variational EM: ``init_params``,
    ``log_likelihood`` (an (n, d, K) array, 0 where a feature is unobserved), ``m_step``
    (the exact maximiser of the objective given ``phi``) and ``log_prior`` (the
    penalty the M-step maximises besides the ELBO; 0 when there is none).
    """

    name: str = ""

    @abstractmethod
    def encode(self, X, *, fit: bool) -> tuple[np.ndarray, np.ndarray]:
        ...

    @abstractmethod
    def distances(self, data, mask, i) -> np.ndarray:
        """Distances of every row to row i over their jointly observed features."""

    def init_params(self, data, mask, n_components, rng) -> dict:
        """One k-means step: K seed rows by k-means++ seeding on :meth:`distances`, every
        row assigned to its nearest seed, then the M-step of that hard assignment."""
        n = data.shape[0]
        seeds = plus_plus_seeds(lambda i: self.distances(data, mask, i), n, n_components, rng)
        dist = np.stack([self.distances(data, mask, i) for i in seeds], axis=1)
        dist[seeds, np.arange(n_components)] = -1.0  # a seed row belongs to its own component
        nearest = dist.argmin(axis=1)
        phi = (nearest[:, None, None] == np.arange(n_components)) & mask[:, :, None]
        return self.m_step(data, mask, phi.astype(float))

    @abstractmethod
    def log_likelihood(self, theta, data, mask) -> np.ndarray:
        ...

    @abstractmethod
    def m_step(self, data, mask, phi) -> dict:
        ...

    def log_prior(self, theta) -> float:
        return 0.0
