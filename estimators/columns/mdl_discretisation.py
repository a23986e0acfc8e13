"""Supervised discretisation of a continuous column by entropy and the MDL principle.

Fayyad & Irani (1993), "Multi-interval discretization of continuous-valued attributes for
classification learning" (IJCAI-93, 1022-1027): the column's observed values are sorted
and split recursively. Within an interval S of N rows, every boundary T between two
adjacent distinct values is a candidate; the one of least class-information entropy::

    E(T; S) = |S_1| / N Ent(S_1) + |S_2| / N Ent(S_2)        (entropies in bits)

is taken, and accepted when its gain passes the MDL criterion::

    Ent(S) - E(T; S) > (log2(N - 1) + Delta) / N,
    Delta = log2(3^k - 2) - (k Ent(S) - k_1 Ent(S_1) - k_2 Ent(S_2)),

k, k_1, k_2 the numbers of classes present in S, S_1, S_2. An accepted cut splits S and
both halves are split the same way; the recursion stops in an interval of fewer than two
rows or where no cut gains entropy or passes the criterion. This is the rule of Weka's
supervised ``Discretize`` filter with its defaults (and its option ``better_encoding``,
used by the ESKDB reference, which puts the number of candidate boundaries of S in
place of N - 1).

Conventions (Weka's):

* **candidates**: every boundary between adjacent distinct observed values (Fayyad &
  Irani's theorem puts the least entropy at a class boundary, so restricting the search to
  class boundaries would change nothing but ties); among equal entropies (within
  ``1e-12`` bits, what rounding cannot order) the smallest boundary wins;
* **cut point**: the midpoint ``(a + b) / 2`` of the two values (``a`` where rounding
  puts the midpoint on ``b``, so ``a < cut < b`` or ``cut = a``);
* **intervals** are closed on the right: a value equal to a cut falls in the interval
  below it, ``(-inf, c_1], (c_1, c_2], ..., (c_m, inf)``; :func:`interval_codes` is
  ``np.searchsorted(cuts, x, side="left")``;
* **missing** values (NaN) take no part in the fit and get the code ``-1``.

**Cost.** Per column one sort and one cumulative class-count table (n + 1) x m; each
interval's candidates are scored at once from it with numpy; the recursion runs over the
accepted intervals, never over rows: O(n log n + n m depth).

Examples
--------
Iris's petal length (Weka gives the same cut points):

>>> from estimators.datasets import load_dataset
>>> X, y = load_dataset("iris")
>>> codes = np.unique(y, return_inverse=True)[1]
>>> mdl_cut_points(X["petal length (cm)"].to_numpy(), codes).tolist()
[2.45, 4.75]
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np

__all__ = ["interval_codes", "interval_labels", "mdl_cut_points"]

#: entropies (bits) closer than this are a tie, broken towards the smaller boundary
TIE = 1e-12
_LOG2_3 = np.log2(3.0)


def mdl_cut_points(x: np.ndarray, y: np.ndarray, *, better_encoding: bool = False
                   ) -> np.ndarray:
    """The MDL cut points of one column (module docstring), sorted.

    Parameters
    ----------
    x : ndarray of shape (n,)
        The column's values, NaN where missing.
    y : ndarray of shape (n,)
        Class codes ``0 .. m - 1``.
    better_encoding : bool, default=False
        Weka's ``useBetterEncoding``: the criterion's ``log2(N - 1)`` becomes the log of the
        number of candidate boundaries in the interval.

    Returns
    -------
    ndarray of float
        The accepted cut points in increasing order (empty when none is accepted).

    Examples
    --------
    Two classes apart on the line, and a column that says nothing:

    >>> y = np.repeat([0, 1], 20)
    >>> mdl_cut_points(np.r_[np.arange(20.0), np.arange(30.0, 50.0)], y).tolist()
    [24.5]
    >>> mdl_cut_points(np.tile([1.0, 2.0], 20), y).tolist()
    []
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=np.int64)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"x and y must be 1-d of one length; got shapes {x.shape} and "
                         f"{y.shape}.")
    seen = ~np.isnan(x)
    x, y = x[seen], y[seen]
    if x.size < 2:
        return np.empty(0)
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], y[order]
    m = int(ys.max()) + 1
    cum = np.zeros((xs.size + 1, m), dtype=np.int64)  # cum[i]: class counts of rows < i
    np.cumsum(np.eye(m, dtype=np.int64)[ys], axis=0, out=cum[1:])
    # after[i]: a boundary between rows i and i + 1 (distinct values)
    after = np.flatnonzero(xs[1:] > xs[:-1])
    cuts = []
    stack = [(0, xs.size)]
    while stack:  # the intervals still to split (rows lo .. hi - 1)
        lo, hi = stack.pop()
        split = _best_split(cum, after, lo, hi, better_encoding)
        if split is None:
            continue
        a, b = xs[split], xs[split + 1]
        mid = (a + b) / 2.0
        cuts.append(mid if mid < b else a)
        stack += [(lo, split + 1), (split + 1, hi)]
    return np.sort(np.asarray(cuts, dtype=float))


def _best_split(cum: np.ndarray, after: np.ndarray, lo: int, hi: int,
                better_encoding: bool) -> int | None:
    """The row after which the interval ``lo .. hi - 1`` is cut, or None (no candidate,
    no gain, or the MDL criterion refuses)."""
    n = hi - lo
    if n < 2:
        return None
    at = after[np.searchsorted(after, lo):np.searchsorted(after, hi - 1)]
    if at.size == 0:
        return None
    total = cum[hi] - cum[lo]
    left = cum[at + 1] - cum[lo]  # (candidates, m)
    right = total - left
    n_left = at + 1 - lo
    cond = (_n_entropy(left, n_left) + _n_entropy(right, n - n_left)) / n
    best = int(np.flatnonzero(cond <= cond.min() + TIE)[0])
    prior = _entropy(total, n)
    gain = prior - cond[best]
    if not gain > TIE:  # Weka: gain <= 0 stops
        return None
    left, right = left[best], right[best]
    k, k1, k2 = (int(np.count_nonzero(c)) for c in (total, left, right))
    delta = (_log2_3k_minus_2(k) - k * prior + k1 * _entropy(left, n_left[best])
             + k2 * _entropy(right, n - n_left[best]))
    candidates = at.size if better_encoding else n - 1
    return int(at[best]) if gain > (np.log2(candidates) + delta) / n else None


def _n_entropy(counts: np.ndarray, n: np.ndarray) -> np.ndarray:
    """``n Ent`` (bits) of each row of class counts, ``n`` its total:
    ``n log2 n - sum_c c log2 c``."""
    c = counts.astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        clogc = np.where(c > 0, c * np.log2(c), 0.0).sum(axis=-1)
        nn = np.asarray(n, dtype=float)
        return np.where(nn > 0, nn * np.log2(nn), 0.0) - clogc


def _entropy(counts: np.ndarray, n: int) -> float:
    """Ent (bits) of one vector of class counts of total ``n`` > 0."""
    return float(_n_entropy(counts, n)) / n


def _log2_3k_minus_2(k: int) -> float:
    """``log2(3^k - 2)`` without forming ``3^k`` (k of hundreds of classes)."""
    return k * _LOG2_3 + np.log1p(-2.0 * 3.0 ** -k) / np.log(2.0)


def interval_codes(x: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """The interval of each value: ``i`` for ``cuts[i - 1] < x <= cuts[i]`` (module
    docstring), ``-1`` where ``x`` is NaN.

    Examples
    --------
    >>> interval_codes(np.array([1.0, 2.45, 2.5, np.nan, 9.0]), np.array([2.45, 4.75])).tolist()
    [0, 0, 1, -1, 2]
    """
    x = np.asarray(x, dtype=float)
    codes = np.searchsorted(np.asarray(cuts, dtype=float), x, side="left").astype(np.int64)
    codes[np.isnan(x)] = -1
    return codes


def interval_labels(cuts: np.ndarray) -> list[str]:
    """The names of the intervals of ``cuts``: ``"-inf..2.45"``, ``"2.45..4.75"``,
    ``"4.75..inf"`` (one interval: ``"-inf..inf"``), each ``a < x <= b`` (the last
    ``a < x``). The numbers have 6 significant digits, more where two cuts would read the
    same. Only digits, letters, ``.`` and ``-`` appear, the characters every network file
    format and its readers take in a state name (pgmpy's BIF reader takes no bracket,
    comma or semicolon in a parent's state).

    Examples
    --------
    >>> interval_labels(np.array([2.45, 4.75]))
    ['-inf..2.45', '2.45..4.75', '4.75..inf']
    >>> interval_labels(np.array([-1.5e9, 1.0000001, 1.0000002]))
    ['-inf..-1.5e09', '-1.5e09..1.0000001', '1.0000001..1.0000002', '1.0000002..inf']
    """
    cuts = np.asarray(cuts, dtype=float)
    digits = 6
    while len({f"{c:.{digits}g}" for c in cuts}) < cuts.size and digits < 17:
        digits += 1
    ends = ["-inf", *(f"{c:.{digits}g}".replace("e+", "e") for c in cuts), "inf"]
    return [f"{a}..{b}" for a, b in pairwise(ends)]
