"""Ties broken the same way everywhere: scores equal within a relative tolerance, then the
order of the variables' names.

On tables with exactly dependent columns (a column copied under another name, one column a
function of others) optimal structures tie exactly, and which one a searcher returns would
otherwise be decided by the last bit of rounding or by the column order of the table. Every
structure a classifier learns (:func:`estimators.learning.structure_learning.learn_structure`, the BAN
and kDB searches) is searched

1. over the variables sorted by :func:`name_key` (their names, not the table's column order
   and not ``hash``, so neither a permutation of the columns nor ``PYTHONHASHSEED`` changes
   it), and every searcher breaks exact ties by that variable order;
2. on scores **snapped** to a grid of step :func:`tie_step`: the power of two at or above
   ``TIE_RTOL * max|f|`` (``TIE_RTOL = 1e-9``, ``max|f|`` the largest finite pair score).
   Snapped values are integer multiples of one power of two, so every sum a searcher forms
   (a structure's score, a DP value) is exact in floating point whatever the order of the
   additions: scores equal within the grid tie exactly, and the name order decides.

Choices between a few scored candidates (model selection, hill-climbing moves, feature
rankings) compare with the same tolerance instead of a grid (:mod:`estimators.base.tie_tolerance`).

The chosen structure is optimal for the snapped scores, so its true score is within
``n_vertices * step`` (at most ``n_vertices * 2e-9 * max|f|``) of the searcher's optimum on
the true scores; exact searchers stay exact to that tolerance. A grid is deterministic (a
tolerance comparison is not transitive); two values within a rounding error of each other
fall in different cells only when a cell boundary separates them (probability about
``1e-16 / 1e-9`` per value).

Examples
--------
>>> import numpy as np
>>> step = tie_step(np.array([[0.0, 0.3], [0.3, 0.0]]))
>>> step == 2.0 ** -31, bool(snap(0.1 + 0.2, step) == snap(0.3, step))
(True, True)
>>> canonical_order(["b", "a", 2, 10])
[2, 10, 'a', 'b']
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from numbers import Real

import numpy as np

from estimators.base.tie_tolerance import TIE_RTOL  # the one tolerance of every tie (MATH.md §12)

__all__ = ["TIE_RTOL", "canonical_order", "name_key", "snap", "tie_step"]



def name_key(v: Hashable) -> tuple:
    """A sort key of a variable name that depends on the name only: numbers first (by
    value), then every other name by its text (``str``), then its type's name.

    Examples
    --------
    >>> sorted(["x10", "x2", 3, 1.5], key=name_key)
    [1.5, 3, 'x10', 'x2']
    """
    if isinstance(v, Real) and not isinstance(v, bool):
        return (0, float(v), "", "")
    return (1, 0.0, str(v), type(v).__name__)


def canonical_order(variables: Iterable[Hashable]) -> list:
    """The variables sorted by :func:`name_key` (the order every searcher's ties follow).

    Examples
    --------
    >>> from estimators.search import canonical_order
    >>> canonical_order(["x10", "x2", "b", 3, 1.5])
    [1.5, 3, 'b', 'x10', 'x2']
    """
    return sorted(variables, key=name_key)


def tie_step(values, *, bounds: tuple[float, float] = (-np.inf, np.inf)) -> float:
    """The grid step of :func:`snap`: the smallest power of two at or above ``TIE_RTOL``
    times the largest magnitude among the finite ``values`` strictly inside ``bounds``
    (the search policy's stand-ins for infinite scores are left out); ``TIE_RTOL`` when
    there is none (all zero).

    Examples
    --------
    >>> tie_step([0.5, -2.0]) == 2.0 ** math.ceil(math.log2(2e-9))
    True
    """
    values = np.asarray(values, dtype=float)
    # one mask, no copy of the values inside it (a d x d matrix of scores on wide tables)
    inside = np.isfinite(values)
    inside &= values > bounds[0]
    inside &= values < bounds[1]
    top = values.max(where=inside, initial=-np.inf)
    bottom = values.min(where=inside, initial=np.inf)
    scale = max(abs(float(top)), abs(float(bottom))) if inside.any() else 0.0
    if scale == 0.0:
        scale = 1.0
    return 2.0 ** math.ceil(math.log2(TIE_RTOL * scale))


def snap(values, step: float):
    """``values`` rounded to the nearest multiple of ``step`` (a power of two: exact),
    infinities kept; a float for a scalar, else an array.

    Examples
    --------
    Two sums that differ only by rounding become the same number:

    >>> from estimators.search import snap
    >>> step = 2.0 ** -31
    >>> 0.1 + 0.2 == 0.3, snap(0.1 + 0.2, step) == snap(0.3, step)
    (False, True)
    >>> snap([0.5 + 1e-12, float("inf")], step)
    array([0.5, inf])
    """
    values = np.asarray(values, dtype=float)
    # in place from here: one new array (a d x d matrix on wide tables; 0-d for a scalar)
    out = np.divide(values, step, out=np.empty_like(values))
    np.round(out, out=out)
    out *= step
    np.copyto(out, values, where=~np.isfinite(values))
    return float(out) if out.ndim == 0 else out
