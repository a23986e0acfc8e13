"""Smoothed conditional probability tables of a discrete k-TAN, given its parent map.

For feature ``v`` with parents ``pa`` (features) and the class ``y``:

    P(x_v = a | y, x_pa = b) = (N(a, y, b) + alpha) / (N(y, b) + alpha * r_v),

with ``r_v`` the number of categories of ``v`` seen in training. Laplace's rule takes one
``alpha`` for every table; the BDeu-style Dirichlet prior with equivalent sample size ``ess``
spreads ``ess`` pseudo-rows uniformly over the cells of the family of ``v``:

    alpha_v = ess / (r_v * q_v * m),    q_v = prod_{p in pa(v)} r_p,

so a table with many parent configurations is smoothed less per cell (the prior that makes
the posterior-mean CPTs those of the BDeu score, Heckerman et al. 1995). Every variable gets one
extra code for "a category not seen in training" (see :class:`DiscreteEncoding`), so a
test row never indexes outside the tables. It is handled by the same smoothing: an unseen
value of ``v`` is scored like a training category that never occurred with that class and
parent configuration, ``alpha / (N(y, b) + alpha * r_v)``; an unseen value of a parent makes
a configuration with no training rows, whose distribution is the uniform ``1 / r_v``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class DiscreteCPTs:
    """Log-CPTs of every feature of a discrete k-TAN.

    Attributes
    ----------
    parents : tuple of tuple of int
        ``parents[v]``: the feature parents of feature ``v`` (column indices, sorted).
    n_levels : ndarray of int
        Training categories per feature (``r_v``).
    log_tables : tuple of ndarray
        ``log_tables[v]`` has shape ``(n_classes, r_p1 + 1, ..., r_pj + 1, r_v + 1)`` with
        the parents in the order of ``parents[v]``; the last index of every axis but the
        first is the "unseen category" code.
    counts : tuple of ndarray
        The training counts ``N(a, y, b)`` on the same axes (zero on unseen codes).
    """

    parents: tuple[tuple[int, ...], ...]
    n_levels: np.ndarray
    log_tables: tuple[np.ndarray, ...]
    counts: tuple[np.ndarray, ...]

    def table_shape(self, v: int) -> tuple[int, ...]:
        """Shape of ``log_tables[v]`` without its class axis."""
        return tuple(int(self.n_levels[p]) + 1 for p in (*self.parents[v], v))

    def flat_index(self, codes: np.ndarray, v: int) -> np.ndarray:
        """Row-wise flat index into ``log_tables[v][c]`` of each row of ``codes``."""
        cols = (*self.parents[v], v)
        return np.ravel_multi_index(tuple(codes[:, c] for c in cols), self.table_shape(v))

    def joint_log_likelihood(self, codes: np.ndarray) -> np.ndarray:
        """``sum_v ln P(x_v | y, x_pa(v))`` for every row and class, shape (n, n_classes).

        One fancy-indexing gather per feature over all rows: no loop over rows.
        """
        n_classes = self.log_tables[0].shape[0]
        out = np.zeros((codes.shape[0], n_classes))
        for v, table in enumerate(self.log_tables):
            out += table.reshape(n_classes, -1)[:, self.flat_index(codes, v)].T
        return out


def fit_cpts(
    codes: np.ndarray,
    y_codes: np.ndarray,
    n_classes: int,
    n_levels: np.ndarray,
    parents: Sequence[Sequence[int]],
    alpha: float,
    ess: float | None = None,
) -> DiscreteCPTs:
    """Count and smooth the CPT of every feature.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features)
        Training codes in ``0 .. n_levels[j] - 1``.
    y_codes : ndarray of shape (n_samples,)
        Class codes in ``0 .. n_classes - 1``.
    n_classes : int
        Number of classes.
    n_levels : ndarray of shape (n_features,)
        Categories per feature.
    parents : sequence of sequence of int
        Feature parents of each feature (column indices).
    alpha : float
        Pseudo-count (> 0) of every cell (Laplace's rule); ignored when ``ess`` is given.
    ess : float or None, default=None
        Equivalent sample size of the BDeu-style prior: cell pseudo-count
        ``ess / (r_v * prod_p r_p * n_classes)`` per feature.

    Returns
    -------
    DiscreteCPTs

    Examples
    --------
    >>> import numpy as np
    >>> codes = np.array([[0, 0], [0, 1], [1, 1], [1, 1]])
    >>> cpts = fit_cpts(codes, np.array([0, 0, 1, 1]), 2, np.array([2, 2]), [(), (0,)], 1.0)
    >>> np.exp(cpts.log_tables[1][0, 0, :2])  # P(x1 | y=0, x0=0): counts (1, 1) + 1
    array([0.5, 0.5])
    >>> np.exp(cpts.log_tables[1][1, 1, :2])  # P(x1 | y=1, x0=1): counts (0, 2) + 1
    array([0.25, 0.75])
    >>> bdeu = fit_cpts(codes, np.array([0, 0, 1, 1]), 2, np.array([2, 2]), [(), (0,)], 1.0, ess=8.0)
    >>> np.exp(bdeu.log_tables[1][1, 1, :2])  # pseudo-count 8 / (2 * 2 * 2) = 1: as above
    array([0.25, 0.75])
    """
    parents = tuple(tuple(sorted(int(p) for p in pa)) for pa in parents)
    n_levels = np.asarray(n_levels, dtype=np.intp)
    skeleton = DiscreteCPTs(parents, n_levels, (), ())
    log_tables, counts = [], []
    for v in range(codes.shape[1]):
        shape = skeleton.table_shape(v)
        size = int(np.prod(shape))
        flat = y_codes * size + skeleton.flat_index(codes, v)
        count = np.bincount(flat, minlength=n_classes * size).reshape(n_classes, *shape)
        r = int(n_levels[v])
        a = alpha if ess is None else ess / (r * np.prod(n_levels[list(parents[v])]) * n_classes)
        totals = count.sum(axis=-1, keepdims=True) + a * r
        counts.append(count)
        log_tables.append(np.log(count + a) - np.log(totals))
    return DiscreteCPTs(parents, n_levels, tuple(log_tables), tuple(counts))
