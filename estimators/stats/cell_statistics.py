"""Additive sufficient statistics: every score, factor and density that is a function of
them fits from one partition (the rows in memory) or from many merged (a Dask DataFrame,
:func:`estimators.distributed.collect`), by the same code.

* :class:`CellStats` -- per cell (a class, a categorical level and a class, a parent
  configuration, a missingness pattern, ...) the row count ``n``, the means and the centred
  cross products ``M = sum (x - mean)(x - mean)^T`` (or only their diagonal). Merged by the
  parallel update of Chan, Golub and LeVeque (1979) -- :meth:`CellStats.merge`, the one such
  update of the package -- which keeps the centring, so merged moments agree with a two-pass
  computation on all rows to rounding, not to the cancellation error of raw sums of squares;
* :class:`ClassMoments` -- the class cells of all continuous columns, with each class's
  per-column minimum and maximum (the exact "constant within the class" test) and the
  class labels (partitions may see different classes); its correlation matrices serve the
  Gaussian score and the class-conditional Gaussian density alike (computed once per fit);
* :class:`PairCounts` -- per class the Gram matrix ``O_y^T O_y`` of the one-hot coded rows,
  which holds the ``K_i x K_j`` contingency table of every pair of categorical columns
  (exact integer counts in float64 below 2^53 rows); counts add.

Examples
--------
>>> import numpy as np
>>> X, y = np.arange(8.0).reshape(4, 2), np.array([0, 1, 0, 0])
>>> both = ClassMoments.from_arrays(X[:2], y[:2]).merge(ClassMoments.from_arrays(X[2:], y[2:]))
>>> bool(np.allclose(both.M, ClassMoments.from_arrays(X, y).M))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd
from scipy import sparse

__all__ = ["CellStats", "ClassMoments", "PairCounts", "encode", "gram_counts", "merge_axes",
           "one_hot", "upper_pairs"]


@lru_cache(maxsize=64)
def upper_pairs(p: int) -> tuple[np.ndarray, np.ndarray]:
    """``numpy.triu_indices(p)`` (pairs ``i <= j``), kept per ``p`` as read-only arrays:
    ``triu_indices`` takes ~13 us, called for every cell statistic and design block.

    Examples
    --------
    >>> [a.tolist() for a in upper_pairs(2)]
    [[0, 0, 1], [0, 1, 1]]
    """
    out = np.triu_indices(p)
    for a in out:
        a.flags.writeable = False
    return out


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


def _cell_sums(Z: np.ndarray, cells: np.ndarray, n_cells: int) -> np.ndarray:
    """Per cell, the column sums of the rows of ``Z`` (n, q) in it: one ``bincount`` per
    column (no loop over rows; faster than a sparse product on the many small tables of a
    fit)."""
    return _cell_sums_t(np.ascontiguousarray(Z.T), cells, n_cells)


def _cell_sums_t(ZT: np.ndarray, cells: np.ndarray, n_cells: int) -> np.ndarray:
    """:func:`_cell_sums` of ``ZT.T``, from the columns as contiguous rows of ``ZT`` (q, n):
    each bincount adds a cell's values in row order, the same sums bit for bit."""
    out = np.empty((n_cells, ZT.shape[0]))
    for j in range(ZT.shape[0]):
        out[:, j] = np.bincount(cells, weights=ZT[j], minlength=n_cells)
    return out


def _outer(d: np.ndarray, cross: bool) -> np.ndarray:
    return d[..., :, None] * d[..., None, :] if cross else d * d


def _bcast(mask: np.ndarray, like: np.ndarray) -> np.ndarray:
    return mask.reshape(mask.shape + (1,) * (like.ndim - mask.ndim))


@dataclass(frozen=True, eq=False)
class CellStats:
    """Counts ``n`` (...,), means (..., p) and centred cross products ``M`` (..., p, p), or
    their diagonal (..., p) when ``cross`` is False, per cell.

    Examples
    --------
    >>> X = np.array([[1.0, 2.0], [3.0, 2.0], [5.0, 0.0]])
    >>> st = CellStats.from_arrays(X, np.array([0, 0, 1]), 2)
    >>> st.n.tolist(), st.mean.tolist(), st.M[0].tolist()
    ([2.0, 1.0], [[2.0, 2.0], [5.0, 0.0]], [[2.0, 0.0], [0.0, 0.0]])
    >>> whole = CellStats.from_arrays(X, np.zeros(3, int), 1)
    >>> bool(np.allclose(merge_axes(st, 0).M, whole.M))
    True
    >>> head = CellStats.from_arrays(X[:1], np.zeros(1, int), 1)
    >>> tail = CellStats.from_arrays(X[1:], np.zeros(2, int), 1)
    >>> bool(np.allclose(whole.subtract(head).M, tail.M)), bool(np.allclose(head.merge(tail).M, whole.M))
    (True, True)
    """

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
        """Two-pass statistics of the rows of ``X`` in each cell (bincounts, no loop
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
        keep = cells >= 0
        if not keep.all():
            X, cells = X[keep], cells[keep]
        p = X.shape[1]
        count = np.bincount(cells, minlength=n_cells).astype(float)
        mean = _cell_sums(X, cells, n_cells) / np.maximum(count, 1.0)[:, None]
        C = X - mean[cells] if n_cells else X
        if cross:  # the upper triangle, mirrored: x_i x_j is x_j x_i, bit for bit
            iu, ju = upper_pairs(p)
            CT = np.ascontiguousarray(C.T)  # columns as rows: gathers and sums contiguous
            upper = _cell_sums_t(CT[iu] * CT[ju], cells, n_cells)
            M = np.empty((n_cells, p, p))
            M[:, iu, ju] = upper
            M[:, ju, iu] = upper
        else:
            M = _cell_sums(C * C, cells, n_cells)
        return cls(count, mean, M)

    def merge(self, other: CellStats) -> CellStats:
        """The statistics of both row sets together, cell by cell (Chan's update; both
        with or both without the cross terms; a cell empty on one side is the other's)."""
        n = self.n + other.n
        share = np.where(n > 0, other.n / np.maximum(n, 1e-300), 0.0)
        d = other.mean - self.mean
        w = _bcast(self.n * share, self.M)
        return CellStats(n, self.mean + d * share[..., None],
                         self.M + other.M + w * _outer(d, self.cross))

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

    def take(self, index) -> CellStats:
        """The cells ``index`` (along the first axis)."""
        return CellStats(self.n[index], self.mean[index], self.M[index])


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


@dataclass(eq=False)
class ClassMoments:
    """Moments of each class: ``n`` (m,), ``mean`` (m, d), ``M`` (m, d, d), ``lo``/``hi``
    (m, d) the per-feature minimum and maximum, ``classes`` (m,) sorted labels."""

    classes: np.ndarray
    n: np.ndarray
    mean: np.ndarray
    M: np.ndarray
    lo: np.ndarray
    hi: np.ndarray

    @classmethod
    def from_arrays(cls, X: np.ndarray, y: np.ndarray, classes: np.ndarray | None = None
                    ) -> ClassMoments:
        """Two-pass class moments of the rows of ``X`` (one BLAS Gram product per class).

        ``y`` holds the labels, or with ``classes`` the class codes ``0 .. m - 1``.

        Examples
        --------
        >>> mo = ClassMoments.from_arrays(np.array([[1.0], [3.0], [5.0]]), np.array(["a", "a", "b"]))
        >>> mo.classes.tolist(), mo.n.tolist(), mo.mean.ravel().tolist(), mo.M.ravel().tolist()
        (['a', 'b'], [2.0, 1.0], [2.0, 5.0], [2.0, 0.0])
        """
        X = np.asarray(X, dtype=float)
        if classes is None:
            classes, codes = np.unique(np.asarray(y), return_inverse=True)
        else:
            codes = np.asarray(y)
        m, d = classes.size, X.shape[1]
        n = np.bincount(codes, minlength=m).astype(float)
        mean, M = np.zeros((m, d)), np.zeros((m, d, d))
        lo, hi = np.full((m, d), np.inf), np.full((m, d), -np.inf)
        for c in range(m):  # one matrix product per class, not a loop over rows
            if not n[c]:
                continue
            A = X[codes == c]
            lo[c], hi[c] = A.min(axis=0), A.max(axis=0)
            mean[c] = A.mean(axis=0)
            A -= mean[c]
            np.matmul(A.T, A, out=M[c])
        return cls(classes, n, mean, M, lo, hi)

    @property
    def cells(self) -> CellStats:
        return CellStats(self.n, self.mean, self.M)

    def merge(self, other: ClassMoments) -> ClassMoments:
        """The moments of the union of two row sets (classes matched by label)."""
        classes = np.union1d(self.classes, other.classes)
        a, b = self.aligned(classes), other.aligned(classes)
        st = a.cells.merge(b.cells)
        return ClassMoments(classes, st.n, st.mean, st.M, np.minimum(a.lo, b.lo),
                            np.maximum(a.hi, b.hi))

    def aligned(self, classes: np.ndarray) -> ClassMoments:
        """The same moments over the labels ``classes`` (a superset; absent classes empty)."""
        if classes.size == self.classes.size:
            return self
        m, d = classes.size, self.mean.shape[1]
        out = ClassMoments(classes, np.zeros(m), np.zeros((m, d)), np.zeros((m, d, d)),
                           np.full((m, d), np.inf), np.full((m, d), -np.inf))
        at = np.searchsorted(classes, self.classes)
        out.n[at], out.mean[at], out.M[at] = self.n, self.mean, self.M
        out.lo[at], out.hi[at] = self.lo, self.hi
        return out

    def pooled(self) -> tuple[float, np.ndarray, np.ndarray]:
        """``(n, mean, M)`` of all rows (the classes merged by the same update)."""
        st = self.cells.take(0)
        for c in range(1, self.classes.size):
            st = st.merge(self.cells.take(c))
        return st.n, st.mean, st.M

    def pooled_variance(self) -> np.ndarray:
        """(d,) maximum-likelihood variance of each column over all rows (the diagonal of
        :meth:`pooled`, without the cross products)."""
        diag = np.diagonal(self.M, axis1=1, axis2=2)
        st = CellStats(self.n[:1], self.mean[:1], diag[:1])
        for c in range(1, self.classes.size):
            st = st.merge(CellStats(self.n[c:c + 1], self.mean[c:c + 1], diag[c:c + 1]))
        return st.M[0] / st.n[0]

    def subset(self, kept) -> ClassMoments:
        """The class moments of the columns ``kept`` (itself when that is every column)."""
        k = np.asarray(kept)
        if k.size == self.mean.shape[1] and np.array_equal(k, np.arange(k.size)):
            return self
        return ClassMoments(self.classes, self.n, self.mean[:, k], self.M[:, k][:, :, k],
                            self.lo[:, k], self.hi[:, k])

    def constant(self) -> np.ndarray:
        """(m, d): the column takes one value in the class (or the class has one row)."""
        return (self.lo == self.hi) | (self.n <= 1)[:, None]

    def correlations(self, constant: np.ndarray | None = None) -> np.ndarray:
        """Per-class correlation matrices, symmetric and clipped to [-1, 1]; a column
        ``constant`` in a class (default :meth:`constant`) gets a unit row/column there.

        Examples
        --------
        >>> mo = ClassMoments.from_arrays(np.array([[0.0, 1.0], [1.0, 3.0], [2.0, 2.0]]), np.zeros(3))
        >>> mo.correlations()[0].round(3)
        array([[1. , 0.5],
               [0.5, 1. ]])
        """
        constant = self.constant() if constant is None else constant
        R = np.empty_like(self.M)
        for c, M in enumerate(self.M):  # one matrix per class, in place
            sd = np.sqrt(np.diagonal(M).copy())
            sd[constant[c] | (sd == 0)] = np.inf
            s = 1.0 / sd
            Rc = np.multiply(s[:, None], s[None, :], out=R[c])  # in place: no temporaries
            Rc *= M  # M is exactly symmetric, and so is Rc
            np.clip(Rc, -1.0, 1.0, out=Rc)
            np.fill_diagonal(Rc, 1.0)
        return R

    def pair_information(self, constant: np.ndarray | None = None) -> np.ndarray:
        """(d, d) Gaussian ``I(X_i; X_j | Y) = -1/2 sum_y p(y) ln(1 - r_{ij|y}^2)`` with a zero
        diagonal, ``r`` the class correlations of :meth:`correlations` (0 for a column
        ``constant`` in the class), computed from the Gram matrices without materialising
        the correlation matrices (one (d, d) buffer per call).

        Examples
        --------
        >>> X = np.array([[0.0, 1.0], [1.0, 3.0], [2.0, 2.0], [5.0, 5.0], [4.0, 1.0], [3.0, 4.0]])
        >>> mo = ClassMoments.from_arrays(X, np.array([0, 0, 0, 1, 1, 1]))
        >>> R, p = mo.correlations(), mo.n / mo.n.sum()
        >>> ref = -0.5 * (p[:, None, None] * np.log1p(-R * R)).sum(axis=0)
        >>> bool(np.isclose(mo.pair_information()[0, 1], ref[0, 1]))
        True
        """
        constant = self.constant() if constant is None else constant
        prior = self.n / self.n.sum()
        d = self.M.shape[1]
        W, t = np.zeros((d, d)), np.empty((d, d))
        for c, M in enumerate(self.M):  # one class at a time, in place
            diag = np.diagonal(M)
            keep = ~constant[c] & (diag > 0)
            s2 = np.zeros(d)
            s2[keep] = 1.0 / diag[keep]
            np.multiply(s2[:, None], s2[None, :], out=t)
            t *= M
            t *= M  # r^2, exactly symmetric as M is
            np.minimum(t, 1.0, out=t)
            np.negative(t, out=t)
            with np.errstate(divide="ignore"):
                np.log1p(t, out=t)
            t *= prior[c]
            W += t
        W *= -0.5
        np.fill_diagonal(W, 0.0)
        return W

    def variances(self) -> np.ndarray:
        """(m, d) maximum-likelihood variances of each class."""
        return np.diagonal(self.M, axis1=1, axis2=2) / np.maximum(self.n, 1.0)[:, None]


@dataclass(eq=False)
class PairCounts:
    """Per-class Gram matrices of the one-hot codes: ``G[y]`` (m, D, D) with
    ``D = sum K_i``; feature ``i``'s levels sit at ``offsets[i] : offsets[i] + K[i]``."""

    G: np.ndarray
    K: np.ndarray

    @property
    def offsets(self) -> np.ndarray:
        return np.concatenate([[0], np.cumsum(self.K)[:-1]]).astype(np.int64)

    def table(self, i: int, j: int) -> np.ndarray:
        """The (m, K_i, K_j) contingency table of features ``i`` and ``j`` (``i == j``: the
        class-wise counts of ``i`` on the diagonal)."""
        oi, oj = self.offsets[i], self.offsets[j]
        return self.G[:, oi : oi + self.K[i], oj : oj + self.K[j]]

    def class_counts(self) -> np.ndarray:
        """Rows per class."""
        return self.table(0, 0).sum(axis=(1, 2))

    def subset(self, kept) -> PairCounts:
        """The pair tables of the columns ``kept``."""
        idx = np.concatenate([np.arange(self.offsets[j], self.offsets[j] + self.K[j])
                              for j in kept])
        return PairCounts(self.G[:, idx][:, :, idx], self.K[np.asarray(kept)])

    def merge(self, other: PairCounts) -> PairCounts:
        """Counts add."""
        return PairCounts(self.G + other.G, self.K)

    __add__ = merge


def encode(X: pd.DataFrame | np.ndarray, categories: Sequence[np.ndarray]) -> np.ndarray:
    """Codes ``0 .. K_i - 1`` of every cell (``categories[i]`` sorted as in memory), -1 for
    a value not among them.

    Examples
    --------
    >>> encode(pd.DataFrame({"a": ["y", "x"], "b": [2, 1]}), [np.array(["x", "y"]), np.array([1, 2])])
    array([[1, 1],
           [0, 0]])
    """
    columns = ([X.iloc[:, j].to_numpy() for j in range(X.shape[1])] if isinstance(X, pd.DataFrame)
               else [np.asarray(X)[:, j] for j in range(np.shape(X)[1])])
    codes = np.empty((len(columns[0]) if columns else 0, len(categories)), dtype=np.int64)
    for j, (col, cats) in enumerate(zip(columns, categories, strict=True)):  # per column
        codes[:, j] = pd.Index(cats).get_indexer(col)
    return codes


#: rows per one-hot block in :func:`gram_counts` (float32 counts are exact below 2^24)
ROWS_PER_BLOCK = 1 << 16


def gram_counts(codes: np.ndarray, yc: np.ndarray, K: np.ndarray, m: int) -> PairCounts:
    """:class:`PairCounts` from the codes ``0 .. K_i - 1`` and the class codes ``0 .. m - 1``:
    one BLAS product per class and block of :data:`ROWS_PER_BLOCK` rows (float32 one-hot,
    exact counts, summed in float64)."""
    K = np.asarray(K, dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(K)[:-1]]).astype(np.int64)
    D = int(K.sum())
    G = np.zeros((m, D, D))
    for s in range(0, codes.shape[0], ROWS_PER_BLOCK):  # blocks of rows bound the memory
        block, yb = codes[s : s + ROWS_PER_BLOCK], yc[s : s + ROWS_PER_BLOCK]
        one = np.zeros((block.shape[0], D), dtype=np.float32)
        one[np.arange(block.shape[0])[:, None], offsets + block] = 1.0
        for c in range(m):  # one matrix product per class
            rows = one[yb == c]
            G[c] += rows.T @ rows
    return PairCounts(G, K)
