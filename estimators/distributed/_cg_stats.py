"""Partition statistics of a mixed table for the conditional Gaussian model (MATH.md §7).

For parent sets of at most one feature (TAN, the pair scores) on complete rows, every
conditional Gaussian factor of :func:`~estimators.scores.fit_cg_factor` is a function of:

* the **class moments** of the continuous columns (a continuous vertex with a continuous
  parent or none; the "all rows" and "class" pooling levels);
* the **pair counts** of the categorical columns (the CPTs);
* the **cell moments**: for every categorical column ``i``, level ``l`` and class ``y`` the
  row count, the mean and the centred sum of squares of every continuous column over the
  rows with ``x_i = l`` and that class (a continuous vertex with a categorical parent: its
  cells (l, y); a categorical vertex with a continuous parent: the Gaussians of Bayes' rule
  in the cells (c, y)).

All three add up over row partitions: counts exactly, moments by the parallel update of
Chan, Golub and LeVeque (centred, so equal to the two-pass in-memory moments to rounding).
The categories must be known first (one pass, :func:`~estimators.distributed._collect.categories_of`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from estimators.distributed._stats import (
    ClassMoments,
    PairCounts,
    class_moments,
    encode,
    gram_counts,
    merge_moments,
)

__all__ = ["CellMoments", "MixedStats", "cell_moments", "merge_cells", "mixed_stats"]


@dataclass(eq=False)
class CellMoments:
    """Per (categorical level, class) moments of the continuous columns: ``n`` (D, m),
    ``mean`` (D, m, p), ``S`` (D, m, p) the centred sums of squares; categorical column
    ``i``'s levels are rows ``offsets[i] : offsets[i] + K[i]`` (as in :class:`PairCounts`)."""

    n: np.ndarray
    mean: np.ndarray
    S: np.ndarray
    K: np.ndarray

    @property
    def offsets(self) -> np.ndarray:
        return np.concatenate([[0], np.cumsum(self.K)[:-1]]).astype(np.int64)

    def rows(self, i: int) -> slice:
        """The rows of categorical column ``i``'s levels."""
        o = int(self.offsets[i])
        return slice(o, o + int(self.K[i]))


def merge_cells(n1, mean1, S1, n2, mean2, S2):
    """Chan's update of per-cell (count, mean, centred sum of squares), element-wise.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([1.0, 2.0, 4.0, 7.0])
    >>> n, mean, S = merge_cells(np.array(2.0), x[:2].mean(), np.array(0.5),
    ...                          np.array(2.0), x[2:].mean(), np.array(4.5))
    >>> float(n), float(mean), float(S), float(((x - x.mean()) ** 2).sum())
    (4.0, 3.5, 21.0, 21.0)
    """
    n = n1 + n2
    w2 = np.divide(n2, n, out=np.zeros_like(n, dtype=float), where=n > 0)
    w = np.divide(n1 * n2, n, out=np.zeros_like(n, dtype=float), where=n > 0)
    if np.ndim(mean1) > np.ndim(n):
        w2, w = w2[..., None], w[..., None]
    first = n1 == 0
    if np.ndim(mean1) > np.ndim(n):
        first = first[..., None]
    delta = mean2 - mean1
    mean = np.where(first, mean2, mean1 + delta * w2)
    return n, mean, S1 + S2 + delta * delta * w


def _cells_add(a: CellMoments, b: CellMoments) -> CellMoments:
    return CellMoments(*merge_cells(a.n, a.mean, a.S, b.n, b.mean, b.S), a.K)


CellMoments.__add__ = _cells_add


def cell_moments(Xc: np.ndarray, codes: np.ndarray, K: np.ndarray, yc: np.ndarray,
                 m: int) -> CellMoments:
    """Two-pass cell moments of one partition (per categorical column one one-hot matrix
    product for the sums and one for the centred squares).

    Parameters
    ----------
    Xc : ndarray of shape (n, p)
        The continuous columns.
    codes : ndarray of int, shape (n, q)
        The categorical columns' codes ``0 .. K_i - 1``.
    K : ndarray of int, shape (q,)
    yc : ndarray of int, shape (n,)
        Class codes ``0 .. m - 1``.
    m : int

    Returns
    -------
    CellMoments

    Examples
    --------
    >>> import numpy as np
    >>> cm = cell_moments(np.array([[1.0], [3.0], [5.0]]), np.array([[0], [0], [1]]),
    ...                   np.array([2]), np.zeros(3, int), 1)
    >>> cm.n.ravel().tolist(), cm.mean.ravel().tolist(), cm.S.ravel().tolist()
    ([2.0, 1.0], [2.0, 5.0], [2.0, 0.0])
    """
    rows_n, p, D = Xc.shape[0], Xc.shape[1], int(np.sum(K))
    n, mean, S = np.zeros((D, m)), np.zeros((D, m, p)), np.zeros((D, m, p))
    out = CellMoments(n, mean, S, np.asarray(K, dtype=np.int64))
    for i in range(codes.shape[1]):  # loop over categorical columns, not rows
        G = int(K[i]) * m
        g = codes[:, i] * m + yc
        one_hot = np.zeros((rows_n, G))
        one_hot[np.arange(rows_n), g] = 1.0
        cnt = np.bincount(g, minlength=G).astype(float)
        mu = (one_hot.T @ Xc) / np.maximum(cnt, 1.0)[:, None]
        A = Xc - mu[g]
        np.square(A, out=A)
        rows = out.rows(i)
        n[rows], mean[rows], S[rows] = cnt.reshape(-1, m), mu.reshape(-1, m, p), \
            (one_hot.T @ A).reshape(-1, m, p)
    return out


@dataclass(eq=False)
class MixedStats:
    """Class moments of the continuous columns, pair counts and cell moments of the
    categorical ones (column order: the ``continuous`` and ``categorical`` lists given to
    :func:`mixed_stats`)."""

    moments: ClassMoments
    counts: PairCounts
    cells: CellMoments

    def __add__(self, other: MixedStats) -> MixedStats:
        return MixedStats(merge_moments(self.moments, other.moments),
                          self.counts + other.counts, self.cells + other.cells)


def mixed_stats(x: pd.DataFrame, y: pd.Series, continuous: list, categorical: list,
                categories: list, classes: np.ndarray, owner: str) -> MixedStats:
    """:class:`MixedStats` of one partition (``categories[i]`` the levels of
    ``categorical[i]`` in code order)."""
    if pd.isna(y).any():
        raise ValueError(f"{owner}: y contains missing labels (NaN/None); all rows need a class.")
    Xc = x[continuous].to_numpy(dtype=float) if continuous else np.zeros((len(x), 0))
    bad = ~np.isfinite(Xc)
    if bad.any():
        name = continuous[int(np.flatnonzero(bad.any(axis=0))[0])]
        raise ValueError(f"Input X contains NaN or infinity in column {name!r}; {owner} from "
                         "a Dask collection needs complete rows: impute or drop them first.")
    cat = x[categorical]
    codes = encode(cat, categories)
    missing = (codes < 0).any(axis=0)
    if missing.any():
        name = categorical[int(np.flatnonzero(missing)[0])]
        raise ValueError(f"Input X contains missing values in column {name!r}; {owner} from "
                         "a Dask collection needs complete rows: impute or drop them first.")
    yv = y.to_numpy()
    yc = pd.Index(classes).get_indexer(yv)
    K = np.array([c.size for c in categories], dtype=np.int64)
    return MixedStats(class_moments(Xc, yv), gram_counts(codes, yc, K, classes.size),
                      cell_moments(Xc, codes, K, yc, classes.size))
