"""Choices that do not depend on the last bits of the arithmetic: scores within a relative
tolerance of the best tie, and ties go to the candidate first in a canonical order.

Two computations of the same number can differ in their last bits from one CPU to another
(numpy's SIMD ``log`` on AVX-512 is within 1 ulp of the C library's; OpenBLAS picks other
kernels), with the column order of a table, or with the order of a sum. A choice between
candidates whose scores are equal in exact arithmetic (a copied column, a score-equivalent
arc reversal, two held-out losses equal on every fold but one) is then decided by rounding.
Every choice the estimators make between scored candidates (model selection by inner
cross-validation, the penalty walk of discriminative parameters, hill-climbing moves,
feature rankings) goes through these helpers instead:

* :func:`tolerance`: ``TIE_RTOL`` times the scale of the scores (by default the largest
  finite magnitude among them; a difference of scores is measured against the scores it
  came from, not against itself);
* :func:`first_best`: among the candidates within the tolerance of the best, the first in
  the order they are given (the caller lists them in their canonical order: simplest first,
  variable order, ...). The set is defined from the single best value, so the choice is
  well defined although "within the tolerance" is not transitive;
* :func:`tied_ranking`: candidates best first, each place taken by :func:`first_best` of the
  candidates left (a selection sort with that rule, so a chain of near-equal scores keeps
  the canonical order and no score is compared with a value that is not the best left).

Scores that differ by more than the tolerance are ordered by their values, as an exact
comparison would order them; exact ties keep the canonical order, as a stable sort does. The
structure searches over many summed scores snap the scores to a grid of the same relative
step instead (:mod:`estimators.search.ties`), so that every sum is exact.

Examples
--------
>>> first_best([0.3, 0.1 + 0.2, 0.2])  # 0.30000000000000004 is the largest, 0.3 is first
0
>>> tied_ranking([1.0, 3.0, 3.0 + 1e-15, 2.0]).tolist()
[1, 2, 3, 0]
"""

from __future__ import annotations

import heapq

import numpy as np

__all__ = ["TIE_RTOL", "first_best", "tied_ranking", "tolerance"]

#: relative tolerance under which two scores tie: far above the rounding of a score (1e-16
#: per operation, ~1e-13 after thousands of terms), far below a difference that means
#: anything statistically (MATH.md, "Ties")
TIE_RTOL = 1e-9


def tolerance(values, scale: float | None = None) -> float:
    """``TIE_RTOL * scale``: the absolute tolerance of a tie among ``values``; ``scale``
    defaults to the largest finite magnitude among them (1 when there is none or it is 0).

    Examples
    --------
    >>> tolerance([-2.0, 0.5, -np.inf]), tolerance([0.0]), tolerance([1e-3], scale=100.0)
    (2e-09, 1e-09, 1e-07)
    """
    if scale is None:
        values = np.asarray(values, dtype=float)
        finite = values[np.isfinite(values)]
        scale = float(np.abs(finite).max()) if finite.size else 0.0
    scale = abs(float(scale))
    return TIE_RTOL * (scale if scale > 0.0 and np.isfinite(scale) else 1.0)


def first_best(values, *, scale: float | None = None, minimise: bool = False) -> int:
    """Index of the first value within :func:`tolerance` of the largest (``minimise``: the
    smallest); NaN is never best. Raises ``ValueError`` when no value is a number.

    Examples
    --------
    >>> first_best([1.0, 2.0, 2.0 - 1e-12]), first_best([1.0, 2.0, 2.0 - 1e-3])
    (1, 1)
    >>> first_best([5.0, 2.0 + 1e-12, 2.0], minimise=True)
    1
    >>> first_best([-np.inf, -np.inf])  # every value ties at -inf: the first
    0
    """
    v = np.asarray(values, dtype=float)
    if minimise:
        v = -v
    if v.size == 0 or np.isnan(v).all():
        raise ValueError("first_best needs at least one value that is not NaN.")
    top = np.nanmax(v)
    if not np.isfinite(top):
        return int(np.flatnonzero(v == top)[0])
    return int(np.flatnonzero(v >= top - tolerance(v, scale))[0])


def tied_ranking(values, *, scale: float | None = None) -> np.ndarray:
    """Indices of ``values`` from the largest down, each place the :func:`first_best` of the
    values left (near-ties in index order); NaN last, in index order.

    The values left within the tolerance of the largest left form a window of the sorted
    values that only grows as the largest is taken, so a heap of their indices gives the
    ranking in O(n log n).

    Examples
    --------
    >>> tied_ranking([2.0, 1.0, 2.0 + 1e-14, np.nan, -np.inf]).tolist()
    [0, 2, 1, 4, 3]
    >>> tied_ranking([1.0, 3.0, 3.0 - 1e-15, 2.0]).tolist()
    [1, 2, 3, 0]
    """
    v = np.asarray(values, dtype=float).ravel()
    atol = tolerance(v, scale)
    nan = np.isnan(v)
    order = np.flatnonzero(~nan)
    order = order[np.argsort(-v[order], kind="stable")]  # largest first, then index
    s = v[order]
    if not np.any(s[:-1] - s[1:] <= atol):  # no near-tie: the value order (the usual case)
        return np.concatenate([order, np.flatnonzero(nan)])
    out, window, taken = [], [], np.zeros(v.size, dtype=bool)
    head = grown = 0  # the largest value left is s[head]; the window is order[:grown]
    while head < len(order):
        bound = s[head] - atol if np.isfinite(s[head]) else s[head]
        while grown < len(order) and s[grown] >= bound:
            heapq.heappush(window, int(order[grown]))
            grown += 1
        pick = heapq.heappop(window)
        out.append(pick)
        taken[pick] = True
        while head < len(order) and taken[order[head]]:
            head += 1
    return np.array(out + np.flatnonzero(nan).tolist(), dtype=np.int64)
