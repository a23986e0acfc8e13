"""Variable elimination in log space over dense, axis-aligned factors.

Every factor of one missing pattern is an ndarray with ``2 + n_vars`` axes: rows, classes,
then one axis per summed variable in a fixed order, of length 1 where the factor does not
depend on that variable (numpy broadcasting does the alignment). A variable is summed out by
adding the log-factors that involve it and taking ``logsumexp`` over its axis; the order is
greedy (smallest intermediate table first), which on a k-tree keeps every intermediate table
within the width of the structure.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from estimators.base.log_sum_exp import log_sum_exp

#: numpy arrays have at most 64 axes: rows, classes and 62 summed variables per pattern
MAX_SUMMED = 62


def axis_shape(n_vars: int, var: int, size: int) -> tuple[int, ...]:
    """Shape of an array that varies only along variable ``var``'s axis (length ``size``)."""
    shape = [1] * (2 + n_vars)
    shape[2 + var] = size
    return tuple(shape)


def check_summed(n_vars: int, what: str) -> None:
    """Refuse patterns with more summed variables than numpy has axes for.

    Examples
    --------
    >>> from estimators.marginal import check_summed
    >>> check_summed(3, "missing features")  # within numpy's axes: nothing to say
    >>> check_summed(63, "missing features")
    Traceback (most recent call last):
    ...
    ValueError: A missing pattern leaves 63 missing features to sum or integrate out; at ...
    """
    if n_vars > MAX_SUMMED:
        raise ValueError(
            f"A missing pattern leaves {n_vars} {what} to sum or integrate out; at most "
            f"{MAX_SUMMED} per row are supported."
        )


def _table_size(shapes: Sequence[tuple[int, ...]], v: int) -> int:
    """Size per row of the table made by combining the factors (of these shapes) that
    involve variable ``v`` (per row, so that the order does not depend on the number of
    rows and :func:`largest_table` can replay it for one row)."""
    involved = [s[1:] for s in shapes if s[2 + v] > 1]
    return int(np.prod(np.broadcast_shapes(*involved))) if involved else 0


def _next_variable(shapes: Sequence[tuple[int, ...]], remaining: set[int]) -> int:
    """The greedy choice: the variable whose combined table is smallest."""
    return min(remaining, key=lambda u: _table_size(shapes, u))


def _replay(shapes: Sequence[tuple[int, ...]], n_vars: int):
    """:func:`eliminate`'s steps on factors of these shapes, computing nothing: yields the
    pool before each summed variable's step and the combined shape of its factors."""
    pool = [tuple(s) for s in shapes]
    remaining = set(range(n_vars))
    while remaining:
        v = _next_variable(pool, remaining)
        remaining.discard(v)
        involved = [s for s in pool if s[2 + v] > 1]
        if not involved:
            continue
        pool = [s for s in pool if s[2 + v] == 1]
        combined = list(np.broadcast_shapes(*involved))
        yield pool, involved, combined
        combined[2 + v] = 1
        pool.append(tuple(combined))


def peak_cells(shapes: Sequence[tuple[int, ...]], n_vars: int) -> int:
    """Cells :func:`eliminate` holds at once for factors of these shapes, without computing
    anything: at each step the factors still pooled plus three tables of the combined size
    (the sum, its exponential and the sum over the variable's axis is no larger).

    Examples
    --------
    >>> peak_cells([(1, 2, 64, 1), (1, 1, 64, 64), (1, 2, 1, 64)], 2)
    24704
    """
    peak = sum(int(np.prod(s)) for s in shapes)
    for pool, _, combined in _replay(shapes, n_vars):
        peak = max(peak, sum(int(np.prod(s)) for s in pool) + 3 * int(np.prod(combined)))
    return peak


def work_cells(shapes: Sequence[tuple[int, ...]], n_vars: int) -> int:
    """Cells :func:`eliminate` writes for factors of these shapes, without computing
    anything: per step one table of the combined size per factor added in, and three for
    the log-sum-exp (a measure of its time, to compare two ways of building a pattern).

    Examples
    --------
    >>> work_cells([(1, 2, 64, 1), (1, 1, 64, 64), (1, 2, 1, 64)], 2)
    33280
    """
    return sum((len(involved) + 2) * int(np.prod(combined))
               for _, involved, combined in _replay(shapes, n_vars))


def eliminate(factors: Sequence[np.ndarray], n_rows: int, n_classes: int, n_vars: int) -> np.ndarray:
    """``ln sum_vars exp(sum factors)`` for every row and class, shape (n_rows, n_classes).

    Parameters
    ----------
    factors : sequence of ndarray
        Log-factors with ``2 + n_vars`` axes, broadcastable to each other.
    n_rows, n_classes : int
        Lengths of the first two axes of the result.
    n_vars : int
        Number of summed variables (axes 2 .. 1 + n_vars).

    Examples
    --------
    >>> import numpy as np
    >>> a = np.log(np.array([0.2, 0.8])).reshape(1, 1, 2)  # p(z)
    >>> b = np.log(np.array([0.5, 0.1])).reshape(1, 1, 2)  # p(x = obs | z)
    >>> float(np.exp(eliminate([a, b], 1, 1, 1))[0, 0])  # 0.2 * 0.5 + 0.8 * 0.1
    0.18
    """
    pool = [np.asarray(f, dtype=float) for f in factors]
    remaining = set(range(n_vars))
    while remaining:
        v = _next_variable([f.shape for f in pool], remaining)
        remaining.discard(v)
        involved = [f for f in pool if f.shape[2 + v] > 1]
        if not involved:
            continue
        pool = [f for f in pool if f.shape[2 + v] == 1]
        total = involved[0]
        for f in involved[1:]:
            total = total + f
        pool.append(log_sum_exp(total, 2 + v))
    out = np.zeros((n_rows, n_classes))
    for f in pool:
        out = out + f.reshape(f.shape[:2])
    return out
