"""Grouped sufficient statistics for the conditional Gaussian factors (MATH.md §7).

Everything is computed per *cell* (a parent configuration and a class, possibly a category
of the vertex) with ``np.bincount`` over cell codes: no loop over rows. A cell with too few
rows borrows the estimate of a coarser cell (the class, then all rows): :func:`pooled`
picks, for each finest cell, the first level of a list whose cell holds enough rows.
"""

from __future__ import annotations

import numpy as np

from estimators.stats.cell_statistics import CellStats

__all__ = ["Moments", "grouped_moments", "parent_configurations", "pooled", "shrunk"]


#: per-group counts, means and centred cross products: the statistics layer's cells
Moments = CellStats


def grouped_moments(Z: np.ndarray, groups: np.ndarray, n_groups: int) -> Moments:
    """Two-pass (centred) moments of the rows of ``Z`` in each group
    (:meth:`~estimators.stats.cell_statistics.CellStats.from_arrays`).

    Parameters
    ----------
    Z : ndarray of shape (n, p)
    groups : ndarray of int, shape (n,)
        Group of each row, in ``0 .. n_groups - 1``.
    n_groups : int

    Returns
    -------
    Moments
        Empty groups get count 0, mean 0 and M = 0.

    Examples
    --------
    >>> import numpy as np
    >>> mo = grouped_moments(np.array([[1.0], [3.0], [5.0]]), np.array([0, 0, 1]), 2)
    >>> mo.n.tolist(), mo.mean.ravel().tolist(), mo.M.ravel().tolist()
    ([2.0, 1.0], [2.0, 5.0], [2.0, 0.0])
    """
    return CellStats.from_arrays(Z, groups, n_groups)


def pooled(levels: list[tuple[Moments, np.ndarray]], min_rows: float,
           min_var: np.ndarray | None = None) -> Moments:
    """For each finest cell, the moments of the first level whose cell has ``>= min_rows``
    rows (the last level when none has).

    With ``min_var``, a cell with enough rows in which some coordinate j has a variance of at
    most ``min_var[j]`` (a constant column of the cell) keeps its count and means but borrows
    the covariance of the first coarser cell that is neither small nor constant: such a cell
    says nothing about the spread, and its plug-in variance (0, then the floor) would make a
    factor arbitrarily confident.

    Parameters
    ----------
    levels : list of (Moments, ndarray)
        From finest to coarsest; the array maps each finest cell to its group at that level
        (the identity for the first level).
    min_rows : float
    min_var : ndarray of shape (p,) or None, default=None
        Per-coordinate variance a cell must exceed (``-inf`` for coordinates not checked).

    Returns
    -------
    Moments
        One entry per finest cell.

    Examples
    --------
    >>> import numpy as np
    >>> fine = grouped_moments(np.array([[1.0], [3.0], [5.0]]), np.array([0, 0, 1]), 2)
    >>> coarse = grouped_moments(np.array([[1.0], [3.0], [5.0]]), np.zeros(3, int), 1)
    >>> pooled([(fine, np.arange(2)), (coarse, np.zeros(2, int))], 2).mean.ravel().tolist()
    [2.0, 3.0]
    >>> Z, g = np.array([[1.0], [1.0], [3.0], [7.0]]), np.array([0, 0, 1, 1])
    >>> levels = [(grouped_moments(Z, g, 2), np.arange(2)),
    ...           (grouped_moments(Z, np.zeros(4, int), 1), np.zeros(2, int))]
    >>> mo = pooled(levels, 2, np.zeros(1))  # cell 0 is constant: the pooled variance, 6
    >>> mo.mean.ravel().tolist(), (mo.M[:, 0, 0] / mo.n).tolist()
    ([1.0, 5.0], [6.0, 4.0])
    """
    def usable(mo: Moments, up: np.ndarray) -> np.ndarray:
        ok = mo.n[up] >= min_rows
        if min_var is not None:
            var = np.diagonal(mo.M[up], axis1=1, axis2=2) / np.maximum(mo.n[up], 1.0)[:, None]
            ok &= (var > min_var).all(axis=1)
        return ok

    first, up = levels[0]
    n, mean, M = first.n[up].copy(), first.mean[up].copy(), first.M[up].copy()
    small = n < min_rows
    done = usable(first, up)
    for mo, up in levels[1:]:
        take = np.flatnonzero(~done)
        whole, spread = take[small[take]], take[~small[take]]
        n[whole], mean[whole], M[whole] = mo.n[up[whole]], mo.mean[up[whole]], mo.M[up[whole]]
        g = up[spread]
        M[spread] = mo.M[g] * (n[spread] / np.maximum(mo.n[g], 1.0))[:, None, None]
        done |= usable(mo, up)
    return Moments(n, mean, M)


def shrunk(levels: list[tuple[Moments, np.ndarray]], prior_rows: float) -> Moments:
    """For each finest cell, its moments blended with ``prior_rows`` pseudo-rows of the
    (recursively blended) coarser cell: the posterior moments of a conjugate
    Normal-inverse-Wishart prior centred on the coarser cell.

    From the coarsest level (its own moments) to the finest, a cell with ``n`` rows, mean
    ``m`` and centred cross products ``M`` under a coarser estimate ``(n0, mu, S)`` (``S`` the
    coarser covariance ``M_c / n_c``, ``n0 = prior_rows``) becomes::

        n' = n + n0,   mean' = (n m + n0 mu) / n',
        M' = M + n0 S + (n n0 / n') (m - mu)(m - mu)^T,

    i.e. the cell's rows plus ``n0`` pseudo-rows with the coarser mean and covariance. A
    cell with many rows keeps its estimate up to O(n0 / n); a cell with few rows (available
    cases, MATH.md §8) is pulled towards the coarser cell, so that a regression fitted on a
    handful of rows keeps a residual variance of the order of the coarser one; an empty
    cell takes the coarser estimate with ``n0`` rows.

    Parameters
    ----------
    levels : list of (Moments, ndarray)
        As in :func:`pooled`, finest first; no two consecutive levels may be the same
        partition (each would count the prior again).
    prior_rows : float
        Pseudo-rows ``n0 >= 0`` of the coarser estimate in each cell (0: every level keeps its
        own moments).

    Returns
    -------
    Moments
        One entry per finest cell (``n`` counts the pseudo-rows).

    Examples
    --------
    >>> import numpy as np
    >>> Z, g = np.array([[1.0], [3.0], [5.0]]), np.array([0, 0, 1])
    >>> fine = grouped_moments(Z, g, 2)
    >>> coarse = grouped_moments(Z, np.zeros(3, int), 1)
    >>> mo = shrunk([(fine, np.arange(2)), (coarse, np.zeros(2, int))], 3.0)
    >>> mo.n.tolist(), mo.mean.ravel().tolist()
    ([5.0, 4.0], [2.6, 3.5])
    """
    last, up = levels[-1]
    n, mean, M = last.n[up], last.mean[up], last.M[up]
    for mo, up in reversed(levels[:-1]):
        nl, ml = mo.n[up], mo.mean[up]
        cov = M / np.maximum(n, 1.0)[:, None, None]
        w = nl + prior_rows
        d = ml - mean
        mean = (nl[:, None] * ml + prior_rows * mean) / np.maximum(w, 1e-300)[:, None]
        M = (mo.M[up] + prior_rows * cov
             + (nl * prior_rows / np.maximum(w, 1e-300))[:, None, None]
             * d[:, :, None] * d[:, None, :])
        n = w
    return Moments(n, mean, M)


def parent_configurations(codes: np.ndarray, n_levels: np.ndarray) -> np.ndarray:
    """Mixed-radix code of each row's categorical parent configuration (``-1`` when a parent
    is missing); a single configuration 0 when there are no categorical parents.

    Examples
    --------
    >>> import numpy as np
    >>> parent_configurations(np.array([[1, 2], [0, -1]]), np.array([2, 3])).tolist()
    [5, -1]
    """
    if float(np.prod(np.maximum(n_levels, 1).astype(float))) >= 2.0**62:
        raise ValueError(f"The categorical parents have {n_levels.tolist()} levels: too many "
                         "configurations to code in 64 bits; merge rare categories first.")
    out = np.zeros(codes.shape[0], dtype=np.int64)
    for j in range(codes.shape[1]):  # loop over parents, not rows
        out *= int(n_levels[j])
        out += codes[:, j]
    return np.where((codes < 0).any(axis=1), -1, out)
