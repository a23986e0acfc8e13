"""Sufficient statistics that add up over row partitions, and their tree reduction.

Every score of the toolkit is a function of statistics that add up over the rows:

* **class moments** (Gaussian scores and densities): per class the row count, the mean, the
  centred cross-product matrix ``M = sum (x - mean)(x - mean)^T`` and the per-feature minimum
  and maximum (the exact "constant within the class" test). Partitions are merged by the
  parallel update of Chan, Golub and LeVeque (1979), which keeps the centring, so the merged
  moments agree with a two-pass computation on all rows to rounding, not to the cancellation
  error of raw sums of squares;
* **pair counts** (discrete scores and CPTs): per class the Gram matrix ``O_y^T O_y`` of the
  one-hot coded rows, which holds the ``K_i x K_j`` contingency table of every pair at once
  (exact integer counts in float64 below 2^53 rows).

A partition's statistics are computed where the partition lives (``to_delayed``), then
combined pairwise in a binary tree of ``dask.delayed`` tasks, so the client only receives the
final, O(m d^2) result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = [
    "ClassMoments",
    "PairCounts",
    "class_moments",
    "merge_moments",
    "pair_counts",
    "tree_reduce",
]


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

    def pooled(self) -> tuple[float, np.ndarray, np.ndarray]:
        """``(n, mean, M)`` of all rows (the classes merged in the same way)."""
        n, mean, M = self.n[0], self.mean[0], self.M[0]
        for c in range(1, self.classes.size):
            n, mean, M = _chan(n, mean, M, self.n[c], self.mean[c], self.M[c])
        return n, mean, M


def _chan(n1, mean1, M1, n2, mean2, M2):
    """Merge two (count, mean, centred cross-products) triples (Chan et al.)."""
    n = n1 + n2
    if n1 == 0 or n2 == 0:
        return (n, mean2, M2) if n1 == 0 else (n, mean1, M1)
    delta = mean2 - mean1
    mean = mean1 + delta * (n2 / n)
    M = M1 + M2 + np.outer(delta, delta) * (n1 * n2 / n)
    return n, mean, M


def class_moments(X: np.ndarray, y: np.ndarray) -> ClassMoments:
    """Two-pass class moments of one partition (rows of ``X`` with labels ``y``).

    Examples
    --------
    >>> import numpy as np
    >>> mo = class_moments(np.array([[1.0], [3.0], [5.0]]), np.array(["a", "a", "b"]))
    >>> mo.classes.tolist(), mo.n.tolist(), mo.mean.ravel().tolist(), mo.M.ravel().tolist()
    (['a', 'b'], [2.0, 1.0], [2.0, 5.0], [2.0, 0.0])
    """
    X = np.asarray(X, dtype=float)
    classes, codes = np.unique(np.asarray(y), return_inverse=True)
    m, d = classes.size, X.shape[1]
    n = np.bincount(codes, minlength=m).astype(float)
    mean, M = np.empty((m, d)), np.empty((m, d, d))
    lo, hi = np.empty((m, d)), np.empty((m, d))
    for c in range(m):  # one matrix product per class, not a loop over rows
        Xc = X[codes == c]
        mean[c] = Xc.mean(axis=0)
        A = Xc - mean[c]
        M[c] = A.T @ A
        lo[c], hi[c] = Xc.min(axis=0), Xc.max(axis=0)
    return ClassMoments(classes, n, mean, M, lo, hi)


def merge_moments(a: ClassMoments, b: ClassMoments) -> ClassMoments:
    """The moments of the union of two row sets (classes matched by label).

    Examples
    --------
    >>> import numpy as np
    >>> X, y = np.arange(8.0).reshape(4, 2), np.array([0, 1, 0, 0])
    >>> both = merge_moments(class_moments(X[:2], y[:2]), class_moments(X[2:], y[2:]))
    >>> bool(np.allclose(both.M, class_moments(X, y).M))
    True
    """
    classes = np.union1d(a.classes, b.classes)
    m, d = classes.size, a.mean.shape[1]
    out = ClassMoments(classes, np.zeros(m), np.zeros((m, d)), np.zeros((m, d, d)),
                       np.full((m, d), np.inf), np.full((m, d), -np.inf))
    for part in (a, b):
        for k, c in enumerate(np.searchsorted(classes, part.classes)):
            out.n[c], out.mean[c], out.M[c] = _chan(out.n[c], out.mean[c], out.M[c],
                                                    part.n[k], part.mean[k], part.M[k])
            out.lo[c] = np.minimum(out.lo[c], part.lo[k])
            out.hi[c] = np.maximum(out.hi[c], part.hi[k])
    return out


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

    def __add__(self, other: PairCounts) -> PairCounts:
        return PairCounts(self.G + other.G, self.K)


def encode(X: pd.DataFrame | np.ndarray, categories: Sequence[np.ndarray]) -> np.ndarray:
    """Codes ``0 .. K_i - 1`` of every cell (``categories[i]`` sorted as in memory).

    Examples
    --------
    >>> import numpy as np, pandas as pd
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


#: rows per one-hot block in :func:`pair_counts` (float32 counts are exact below 2^24)
ROWS_PER_BLOCK = 1 << 16


def pair_counts(X, y, categories: Sequence[np.ndarray], classes: np.ndarray) -> PairCounts:
    """The per-class Gram matrices of one partition: one BLAS product per class and block of
    :data:`ROWS_PER_BLOCK` rows (float32 one-hot, exact counts, summed in float64)."""
    K = np.array([c.size for c in categories], dtype=np.int64)
    return gram_counts(encode(X, categories), pd.Index(classes).get_indexer(np.asarray(y)), K,
                       classes.size)


def gram_counts(codes: np.ndarray, yc: np.ndarray, K: np.ndarray, m: int) -> PairCounts:
    """:func:`pair_counts` from the codes ``0 .. K_i - 1`` and the class codes ``0 .. m - 1``."""
    offsets = np.concatenate([[0], np.cumsum(K)[:-1]])
    D = int(K.sum())
    G = np.zeros((m, D, D))
    for s in range(0, codes.shape[0], ROWS_PER_BLOCK):  # blocks of rows bound the memory
        block, yb = codes[s : s + ROWS_PER_BLOCK], yc[s : s + ROWS_PER_BLOCK]
        one_hot = np.zeros((block.shape[0], D), dtype=np.float32)
        one_hot[np.arange(block.shape[0])[:, None], offsets + block] = 1.0
        for c in range(m):  # one matrix product per class
            rows = one_hot[yb == c]
            G[c] += rows.T @ rows
    return PairCounts(G, K)


def tree_reduce(parts: list, combine: Callable, split_every: int = 2):
    """Combine a list of delayed values (or plain values) in a balanced tree.

    Examples
    --------
    >>> import dask, operator
    >>> tree_reduce([dask.delayed(i) for i in range(10)], operator.add).compute()
    45
    """
    import dask

    if not parts:
        raise ValueError("tree_reduce needs at least one partition; got none.")
    step = dask.delayed(lambda *xs: _fold(combine, xs), pure=True)
    level = list(parts)
    while len(level) > 1:
        level = [step(*level[s : s + split_every]) if len(level[s : s + split_every]) > 1
                 else level[s] for s in range(0, len(level), split_every)]
    return level[0]


def _fold(combine: Callable, xs):
    out = xs[0]
    for x in xs[1:]:
        out = combine(out, x)
    return out
