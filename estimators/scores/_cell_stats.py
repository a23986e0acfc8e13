"""Additive per-cell sufficient statistics: counts, means and centred cross products of
continuous columns in the cells of a grouping (a categorical configuration and a class, a
missingness pattern, ...).

:class:`CellStats` holds, for ``G`` cells and ``p`` columns, the row count ``n`` (G,), the
means (G, p) and the centred cross products ``M = sum (x - mean)(x - mean)^T`` (G, p, p) --
or only their diagonal (G, p) when the cross terms are not needed. They are computed in two
passes (means, then centred products), and combined with Chan et al.'s pairwise update
(:meth:`CellStats.merge`): the statistics of a union of row sets, of a coarser cell
(:func:`merge_axes`), and of a training fold as the whole table minus its held-out rows
(:meth:`CellStats.subtract`). Unlike raw sums of squares this keeps the digits of cells
whose spread is small against their mean (a constant cell has ``M`` of the order of the
rounding of its mean, as a two-pass variance does).

Examples
--------
>>> import numpy as np
>>> X = np.array([[1.0, 2.0], [3.0, 2.0], [5.0, 0.0]])
>>> st = CellStats.from_arrays(X, np.array([0, 0, 1]), 2)
>>> st.n.tolist(), st.mean.tolist()
([2.0, 1.0], [[2.0, 2.0], [5.0, 0.0]])
>>> st.M[0].tolist()
[[2.0, 0.0], [0.0, 0.0]]
>>> whole = CellStats.from_arrays(X, np.zeros(3, int), 1)
>>> bool(np.allclose(merge_axes(st, 0).M, whole.M))
True
>>> head = CellStats.from_arrays(X[:1], np.zeros(1, int), 1)
>>> tail = CellStats.from_arrays(X[1:], np.zeros(2, int), 1)
>>> bool(np.allclose(whole.subtract(head).M, tail.M)), bool(np.allclose(head.merge(tail).M, whole.M))
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse

__all__ = ["CellStats", "merge_axes", "one_hot"]


def one_hot(cells: np.ndarray, n_cells: int) -> sparse.csr_matrix:
    """Sparse (n_cells, n_rows) indicator of each row's cell; rows with cell ``-1`` are in
    none.

    Examples
    --------
    >>> one_hot(np.array([1, -1, 0]), 2).toarray().tolist()
    [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]
    """
    rows = np.flatnonzero(cells >= 0)
    return sparse.csr_matrix((np.ones(rows.size), (cells[rows], rows)),
                             shape=(n_cells, cells.size))


def _outer(d: np.ndarray, cross: bool) -> np.ndarray:
    return d[..., :, None] * d[..., None, :] if cross else d * d


@dataclass(frozen=True, eq=False)
class CellStats:
    """Counts ``n`` (..., ), means (..., p) and centred cross products ``M`` (..., p, p), or
    their diagonal (..., p) when ``cross`` is False, per cell (module docstring)."""

    n: np.ndarray
    mean: np.ndarray
    M: np.ndarray

    @property
    def cross(self) -> bool:
        """Whether ``M`` holds the full cross products (else only the diagonal)."""
        return self.M.ndim == self.mean.ndim + 1

    @classmethod
    def from_arrays(cls, X: np.ndarray, cells: np.ndarray, n_cells: int, *,
                    cross: bool = True) -> CellStats:
        """Two-pass statistics of the rows of ``X`` in each cell (sparse products, no loop
        over rows or cells).

        Parameters
        ----------
        X : ndarray of shape (n, p)
            Finite values (a caller with missing entries gives them as 0 and keys their
            rows to cells of their own missingness pattern).
        cells : ndarray of int, shape (n,)
            Cell of each row in ``0 .. n_cells - 1``; ``-1`` leaves the row out.
        n_cells : int
        cross : bool, default=True
            The full cross products (else only the diagonal).

        Returns
        -------
        CellStats
            Empty cells have n = 0, mean 0 and M = 0.
        """
        X = np.asarray(X, dtype=float)
        cells = np.asarray(cells, dtype=np.int64)
        n, p = X.shape
        A = one_hot(cells, n_cells)
        count = np.bincount(cells[cells >= 0], minlength=n_cells).astype(float)
        mean = np.asarray(A @ X) / np.maximum(count, 1.0)[:, None]
        C = X - mean[np.maximum(cells, 0)] if n_cells else X
        if cross:
            M = np.asarray(A @ _outer(C, True).reshape(n, p * p)).reshape(n_cells, p, p)
        else:
            M = np.asarray(A @ (C * C))
        return cls(count, mean, M)

    def merge(self, other: CellStats) -> CellStats:
        """The statistics of both row sets together, cell by cell (Chan's update; both
        with or both without the cross terms)."""
        n = self.n + other.n
        share = np.where(n > 0, other.n / np.maximum(n, 1e-300), 0.0)
        d = other.mean - self.mean
        w = _bcast(self.n * share, self.M)
        return CellStats(n, self.mean + d * share[..., None], self.M + other.M + w * _outer(d, self.cross))

    def subtract(self, other: CellStats) -> CellStats:
        """The statistics of this row set without ``other`` (a subset of it): a training
        fold as the whole table minus its held-out rows (Chan's update reversed)."""
        n = self.n - other.n
        mean = (self.n[..., None] * self.mean - other.n[..., None] * other.mean) / \
            np.maximum(n, 1.0)[..., None]
        mean = np.where((n > 0)[..., None], mean, 0.0)
        d = other.mean - mean
        w = np.where(n > 0, n * other.n / np.maximum(self.n, 1e-300), 0.0)
        cross = self.cross and other.cross
        wd = w[..., None, None] if cross else w[..., None]
        M = self.M - other.M - wd * _outer(d, cross)
        return CellStats(n, mean, np.where(_bcast(n > 0, M), M, 0.0))


def _bcast(mask: np.ndarray, like: np.ndarray) -> np.ndarray:
    return mask.reshape(mask.shape + (1,) * (like.ndim - mask.ndim))


def merge_axes(st: CellStats, axes, weights: np.ndarray | None = None) -> CellStats:
    """Merge the cells along ``axes`` of the cell shape into one, kept as an axis of size
    1 (so that the result broadcasts against the finer cells).

    ``weights`` (0 or 1, broadcast against ``n``) selects the cells that take part, e.g.
    the missingness patterns in which a hyperedge's columns are all observed.
    """
    axes = (axes,) if isinstance(axes, int) else tuple(axes)
    n = st.n if weights is None else st.n * weights
    tot = n.sum(axis=axes, keepdims=True)
    mean = (n[..., None] * st.mean).sum(axis=axes, keepdims=True) / np.maximum(tot, 1.0)[..., None]
    d = st.mean - mean
    M = st.M if weights is None else st.M * _bcast(np.broadcast_to(weights, n.shape), st.M)
    M = (M + _bcast(n, st.M) * _outer(d, st.cross)).sum(axis=axes, keepdims=True)
    return CellStats(tot, mean, M)
