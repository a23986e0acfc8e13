"""The Gaussian cells of the conditional Gaussian model (MATH.md §7), from their moments.

A cell (a configuration of the categorical parents and a class, possibly a state of the
vertex) is given by the moments of its rows -- count ``n``, means and centred cross
products ``M`` (:class:`~estimators.stats.cell_statistics.CellStats`, pooled or shrunk by
:mod:`estimators.stats.moments`) -- and everything the CG factors, scores and SPODE stacks
compute from them is here, batched over cells (any number of leading axes):

* :func:`regression_cells`: the pooled (or shrunk, :mod:`estimators.stats.moments`)
  regression of the last coordinate on the others per cell (:func:`cell_regression`:
  intercepts, slopes and floored variances);
* :func:`gaussian_cells`: the pooled (or shrunk) Gaussians of the Bayes-rule factor -- the
  means, and by :func:`cell_gaussians` the precision and log-determinant of each cell's
  covariance plus a diagonal floor;
* :func:`cells_log_likelihood`: ``sum ln N(x_v; a + b.x_C, s2)`` over a cell's rows from
  its own moments, without the rows;
* :func:`normal_log_density` and :func:`gaussian_log_joint`: the Gaussian log densities
  of a regression and of Bayes' rule, and :data:`LOG_2PI` (``ln(2 pi)`` is defined here
  only).

The compiled score kernels (:mod:`estimators.scores`) run these formulas inside their
per-hyperedge loops, operation for operation.
"""

from __future__ import annotations

import numpy as np

from estimators.stats.cell_statistics import CellStats
from estimators.stats.moments import pooled, shrunk

__all__ = ["LOG_2PI", "cell_gaussians", "cell_regression", "cells_log_likelihood",
           "gaussian_cells", "gaussian_log_joint", "normal_log_density", "regression_cells"]

#: ``ln(2 pi)``
LOG_2PI = float(np.log(2.0 * np.pi))


def normal_log_density(residual, var):
    """``ln N(r; 0, var) = -(ln 2 pi + ln var + r^2 / var) / 2``, elementwise.

    Examples
    --------
    >>> bool(np.isclose(normal_log_density(1.0, 4.0), np.log(0.5 / np.sqrt(2 * np.pi)) - 0.125))
    True
    """
    return -0.5 * (LOG_2PI + np.log(var) + residual * residual / var)


def gaussian_log_joint(log_prior, residual, precision, logdet):
    """``ln p(k) + ln N(x; mu_k, S_k) = ln p(k) - (p ln 2 pi + ln|S_k| + r' S_k^-1 r) / 2``
    with ``r = x - mu_k`` (..., p), from the precision and log-determinant of each
    Gaussian (:func:`cell_gaussians`): the terms of Bayes' rule over the states k.

    Examples
    --------
    >>> got = gaussian_log_joint(np.log(0.5), np.ones(1), np.array([[0.25]]), np.log(4.0))
    >>> bool(np.isclose(got, np.log(0.5) + normal_log_density(1.0, 4.0)))
    True
    """
    quad = np.einsum("...i,...ij,...j->...", residual, precision, residual)
    return log_prior - 0.5 * (residual.shape[-1] * LOG_2PI + logdet + quad)


def _dot(a, b):
    return np.einsum("...c,...c->...", a, b)


def _quad(b, M):
    return np.einsum("...i,...ij,...j->...", b, M, b)


def cell_regression(mo: CellStats, ridge: float, scale, floor, additive: bool) -> tuple:
    """Intercept ``a``, slopes ``b`` and variance ``s2`` of the regression of the last
    coordinate on the others in each cell of ``mo`` (leading axes: the cells).

    ``b = (M_CC + ridge n diag(scale))^-1 M_Cv``, ``scale`` the parents' variances (one row
    per cell or broadcast); with ``ridge = 0`` the minimum-norm least-squares slopes
    (pseudo-inverse), as ``numpy.linalg.lstsq`` gives for collinear parents. ``s2`` is the
    ML residual variance ``max(rss / n, 0)`` floored at ``floor`` (a number or one per
    cell), or with ``floor`` added to it when ``additive``.

    Examples
    --------
    >>> x = np.array([0.0, 1.0, 2.0, 3.0])
    >>> Z = np.column_stack([x, 1.0 + 2.0 * x])
    >>> mo = CellStats.from_arrays(Z, np.zeros(4, np.int64), 1)
    >>> a, b, s2 = cell_regression(mo, 0.0, None, 0.25, False)
    >>> np.round([a[0], b[0, 0], s2[0]], 12).tolist()
    [1.0, 2.0, 0.25]
    """
    p = mo.mean.shape[-1] - 1
    n = np.maximum(mo.n, 1.0)
    Mcc, Mcv, Mvv = mo.M[..., :p, :p], mo.M[..., :p, p], mo.M[..., p, p]
    if not p:
        b = np.zeros(Mcv.shape)
    elif ridge > 0:
        A = Mcc + (ridge * n)[..., None, None] * (scale[..., :, None] * np.eye(p))
        b = np.linalg.solve(A, Mcv[..., None])[..., 0]
    else:
        b = np.einsum("...ij,...j->...i", np.linalg.pinv(Mcc, hermitian=True), Mcv)
    a = mo.mean[..., p] - _dot(b, mo.mean[..., :p])
    ml = np.maximum((Mvv - 2.0 * _dot(b, Mcv) + _quad(b, Mcc)) / n, 0.0)
    return a, b, ml + floor if additive else np.maximum(ml, floor)


def cell_gaussians(mo: CellStats, floor) -> tuple[np.ndarray, np.ndarray]:
    """Precision and log-determinant of each cell's covariance ``M / max(n, 1) +
    diag(floor)`` (``floor`` per coordinate, or per cell and coordinate).

    Examples
    --------
    >>> mo = CellStats(np.array([2.0]), np.zeros((1, 1)), np.array([[[8.0]]]))
    >>> prec, logdet = cell_gaussians(mo, np.array([0.0]))
    >>> prec.ravel().tolist(), bool(np.isclose(logdet[0], np.log(4.0)))
    ([0.25], True)
    """
    p = mo.mean.shape[-1]
    cov = mo.M / np.maximum(mo.n, 1.0)[..., None, None] + floor[..., :, None] * np.eye(p)
    return np.linalg.inv(cov), np.linalg.slogdet(cov)[1]


def _estimate(levels, min_rows, shrink, min_var) -> CellStats:
    """Per finest cell, the moments :func:`~estimators.stats.moments.shrunk` (``shrink``)
    or :func:`~estimators.stats.moments.pooled` (``min_var``) gives."""
    return shrunk(levels, min_rows) if shrink else pooled(levels, min_rows, min_var)


def regression_cells(levels: list, min_rows: float, *, ridge: float, scale, floor,
                     additive: bool = False, shrink: bool = False, min_var=None) -> tuple:
    """``(a, b, s2)`` of each finest cell: the ``levels`` (finest first, as for
    :func:`~estimators.stats.moments.pooled`) pooled at ``min_rows`` -- or shrunk with
    ``min_rows`` pseudo-rows -- then :func:`cell_regression`.

    Examples
    --------
    >>> Z = np.array([[0.0, 1.0], [1.0, 3.0], [2.0, 5.0], [3.0, 6.0]])
    >>> fine = CellStats.from_arrays(Z, np.array([0, 0, 0, 1]), 2)
    >>> alls = CellStats.from_arrays(Z, np.zeros(4, np.int64), 1)
    >>> levels = [(fine, np.arange(2)), (alls, np.zeros(2, np.int64))]
    >>> a, b, s2 = regression_cells(levels, 3, ridge=0.0, scale=None, floor=0.0)
    >>> np.round(b[:, 0], 12).tolist()  # cell 1 (one row) takes all rows' slope
    [2.0, 1.7]
    """
    mo = _estimate(levels, min_rows, shrink, min_var)
    return cell_regression(mo, ridge, scale, floor, additive)


def gaussian_cells(levels: list, min_rows: float, floor, *, shrink: bool = False,
                   min_var=None) -> tuple:
    """``(mean, precision, logdet)`` of each finest cell's Gaussian: the ``levels`` pooled
    at ``min_rows`` (or shrunk) as in :func:`regression_cells`, then
    :func:`cell_gaussians` with the diagonal ``floor``.

    Examples
    --------
    >>> Z = np.array([[0.0], [2.0], [4.0]])
    >>> levels = [(CellStats.from_arrays(Z, np.zeros(3, np.int64), 1), np.zeros(1, np.int64))]
    >>> mean, prec, logdet = gaussian_cells(levels, 2, np.array([0.0]))
    >>> mean.tolist(), np.round(prec.ravel(), 12).tolist()
    ([[2.0]], [0.375])
    """
    mo = _estimate(levels, min_rows, shrink, min_var)
    return (mo.mean, *cell_gaussians(mo, floor))


def cells_log_likelihood(own: CellStats, a, b, s2) -> np.ndarray:
    """``sum ln N(x_v; a + b.x_C, s2)`` over each cell's rows from its own moments (v the
    last coordinate): ``-(n (ln 2 pi + ln s2) + R / s2) / 2`` with ``R = M_vv - 2 b.M_Cv +
    b' M_CC b + n d^2`` the residual sum of squares, ``d`` the cell's mean residual; 0 for
    an empty cell.

    Examples
    --------
    >>> Z = np.array([[0.0, 1.0], [1.0, 2.0], [2.0, 4.0]])
    >>> own = CellStats.from_arrays(Z, np.zeros(3, np.int64), 1)
    >>> a, b, s2 = np.array([1.0]), np.array([[1.5]]), np.array([0.5])
    >>> rows = normal_log_density(Z[:, 1] - (1.0 + 1.5 * Z[:, 0]), 0.5).sum()
    >>> bool(np.isclose(cells_log_likelihood(own, a, b, s2)[0], rows))
    True
    """
    p = own.mean.shape[-1] - 1
    M = own.M
    d = own.mean[..., p] - a - _dot(b, own.mean[..., :p])
    R = M[..., p, p] - 2.0 * _dot(b, M[..., :p, p]) + _quad(b, M[..., :p, :p]) + own.n * d * d
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(own.n > 0, -0.5 * (own.n * (LOG_2PI + np.log(s2)) + R / s2), 0.0)
