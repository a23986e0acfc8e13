"""The statistics of a mixed table for the conditional Gaussian model (MATH.md §7) with
parent sets of at most one feature on complete rows (TAN, the pair scores).

Every such conditional Gaussian factor is a function of:

* the :class:`~estimators.stats.cell_statistics.ClassMoments` of the continuous columns (a
  continuous vertex with a continuous parent or none; the "all rows" and "class" pooling
  levels);
* the :class:`~estimators.stats.cell_statistics.PairCounts` of the categorical columns (the
  CPTs);
* the :class:`LevelMoments`: for every categorical column ``i``, level ``l`` and class ``y``
  the row count, the mean and the centred sum of squares of every continuous column over
  the rows with ``x_i = l`` and that class (a continuous vertex with a categorical parent:
  its cells (l, y); a categorical vertex with a continuous parent: the Gaussians of Bayes'
  rule in the cells (c, y)).

All three add up over row partitions (counts exactly, moments by
:meth:`~estimators.stats.cell_statistics.CellStats.merge`). The categories must be known first.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from estimators.stats.cell_statistics import (
    CellStats,
    ClassMoments,
    PairCounts,
    encode,
    gram_counts,
)

__all__ = ["LevelMoments", "MixedStats", "level_moments", "mixed_stats"]


@dataclass(eq=False)
class LevelMoments:
    """Per (categorical level, class) moments of the continuous columns: ``cells`` with
    ``n`` (D, m), ``mean`` (D, m, p) and the centred sums of squares ``S`` (D, m, p) (the
    diagonal :class:`CellStats`); categorical column ``i``'s levels are rows
    ``offsets[i] : offsets[i] + K[i]`` (as in :class:`PairCounts`)."""

    cells: CellStats
    K: np.ndarray

    n = property(lambda self: self.cells.n)
    mean = property(lambda self: self.cells.mean)
    S = property(lambda self: self.cells.M)

    @property
    def offsets(self) -> np.ndarray:
        return np.concatenate([[0], np.cumsum(self.K)[:-1]]).astype(np.int64)

    def rows(self, i: int) -> slice:
        """The rows of categorical column ``i``'s levels."""
        o = int(self.offsets[i])
        return slice(o, o + int(self.K[i]))

    def merge(self, other: LevelMoments) -> LevelMoments:
        return LevelMoments(self.cells.merge(other.cells), self.K)


def level_moments(Xc: np.ndarray, codes: np.ndarray, K: np.ndarray, yc: np.ndarray,
                  m: int) -> LevelMoments:
    """Two-pass level moments of one partition (per categorical column one
    :meth:`CellStats.from_arrays` over its (level, class) cells).

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
    LevelMoments

    Examples
    --------
    >>> cm = level_moments(np.array([[1.0], [3.0], [5.0]]), np.array([[0], [0], [1]]),
    ...                    np.array([2]), np.zeros(3, int), 1)
    >>> cm.n.ravel().tolist(), cm.mean.ravel().tolist(), cm.S.ravel().tolist()
    ([2.0, 1.0], [2.0, 5.0], [2.0, 0.0])
    """
    p, D = Xc.shape[1], int(np.sum(K))
    n, mean, S = np.zeros((D, m)), np.zeros((D, m, p)), np.zeros((D, m, p))
    out = LevelMoments(CellStats(n, mean, S), np.asarray(K, dtype=np.int64))
    for i in range(codes.shape[1]):  # loop over categorical columns, not rows
        st = CellStats.from_arrays(Xc, codes[:, i] * m + yc, int(K[i]) * m, cross=False)
        rows = out.rows(i)
        n[rows], mean[rows], S[rows] = (st.n.reshape(-1, m), st.mean.reshape(-1, m, p),
                                        st.M.reshape(-1, m, p))
    return out


@dataclass(eq=False)
class MixedStats:
    """Class moments of the continuous columns, pair counts and level moments of the
    categorical ones (column order: the ``continuous`` and ``categorical`` lists given to
    :func:`mixed_stats`)."""

    moments: ClassMoments
    counts: PairCounts
    cells: LevelMoments

    def merge(self, other: MixedStats) -> MixedStats:
        return MixedStats(self.moments.merge(other.moments), self.counts.merge(other.counts),
                          self.cells.merge(other.cells))

    __add__ = merge


def mixed_stats(x: pd.DataFrame, y: pd.Series, continuous: list, categorical: list,
                categories: list, classes: np.ndarray, owner: str) -> MixedStats:
    """:class:`MixedStats` of one partition (``categories[i]`` the levels of
    ``categorical[i]`` in code order); incomplete rows are refused naming the column."""
    if pd.isna(y).any():
        raise ValueError(f"{owner}: y contains missing labels (NaN/None); all rows need a class.")
    Xc = x[continuous].to_numpy(dtype=float) if continuous else np.zeros((len(x), 0))
    bad = ~np.isfinite(Xc)
    if bad.any():
        name = continuous[int(np.flatnonzero(bad.any(axis=0))[0])]
        raise ValueError(f"Input X contains NaN or infinity in column {name!r}; {owner} from "
                         "a Dask collection needs complete rows: impute or drop them first.")
    codes = encode(x[categorical], categories)
    missing = (codes < 0).any(axis=0)
    if missing.any():
        name = categorical[int(np.flatnonzero(missing)[0])]
        raise ValueError(f"Input X contains missing values in column {name!r}; {owner} from "
                         "a Dask collection needs complete rows: impute or drop them first.")
    yc = pd.Index(classes).get_indexer(y.to_numpy())
    K = np.array([c.size for c in categories], dtype=np.int64)
    return MixedStats(ClassMoments.from_arrays(Xc, yc, classes),
                      gram_counts(codes, yc, K, classes.size),
                      level_moments(Xc, codes, K, yc, classes.size))
