"""The conditional Gaussian score of a continuous v (MATH.md §7), compiled: one pass per
hyperedge over its cells instead of numpy expressions over (hyperedges x cells x s x s)
temporaries (:func:`estimators.scores._cg_numpy.continuous_gains` is its numpy form, also
the path of ``ridge = 0``, where the regression takes a pseudo-inverse).

Per hyperedge, from the statistics of its cells (configuration u of the categorical
parents, class y) of its continuous members -- the continuous parents C, then v --:

* the cells merged over u (per class) and over everything (Chan's update,
  :func:`~estimators.scores._cell_merge.merge_cells`);
* per cell, the ridge regression of v on C over the first of the levels cell, class, all
  with at least ``max(mcr, |C| + 2)`` rows: ``b = (M_CC + ridge n diag(scale_C))^-1 M_Cv``,
  its intercept, residual sum of squares and variance (floored at ``vs scale_v``), and the
  cell's log-likelihood under it;
* the same without parents per class (pooled with all rows below ``max(mcr, 2)`` rows);
* the gain: the difference per row, and the precision flag of
  :mod:`estimators.scores._cg_batch`.

Values agree with the numpy form to rounding (both solve the regressions by LU with partial pivoting;
LAPACK's ``gesv`` in a blocked order).
"""

from __future__ import annotations

import numpy as np

from estimators.base.numba_cache import jit
from estimators.scores._cell_merge import merge_cells
from estimators.scores._cg_kernel import log
from estimators.scores._small_linalg import lu_solve
from estimators.stats.gaussian import LOG_2PI

__all__ = ["continuous_gains"]


@jit(error_model="numpy")
def _regression(n, mean, M, c, ridge, scale, b, A, rhs, piv, work):
    """The ridge coefficients ``b`` of the last coordinate on the first ``c`` of one
    level's statistics; returns (intercept, rss, n1)."""
    n1 = max(n, 1.0)
    for i in range(c):
        for j in range(c):
            A[i, j] = M[i, j]
        A[i, i] += ridge * n1 * scale[i]
        rhs[i] = M[i, c]
    if c > 0:
        lu_solve(A, rhs, b, piv, work)
    a = mean[c]
    for i in range(c):
        a -= b[i] * mean[i]
    return a, _residual(M, b, c), n1


@jit(inline="always", error_model="numpy")
def _residual(M, b, c):
    """``M_vv - 2 b . M_Cv + b' M_CC b``: the residual sum of squares of the coefficients
    ``b`` under the cross products ``M`` (C the first ``c`` coordinates, v the last)."""
    rss = M[c, c]
    bv = 0.0
    for i in range(c):
        bv += b[i] * M[i, c]
    rss -= 2.0 * bv
    q = 0.0
    for i in range(c):
        for j in range(c):
            q += b[i] * M[i, j] * b[j]
    return rss + q


@jit(error_model="numpy")
def continuous_gains(n, mean, M, mcr, vs, ridge, tiny):
    """``f(v, C u D)`` of many hyperedges with a continuous v.

    Parameters
    ----------
    n : ndarray (H, U, m)
        Rows per cell: configuration of the categorical parents, class.
    mean : ndarray (H, U, m, s)
        Means of the continuous parents, then v.
    M : ndarray (H, U, m, s, s)
        Centred cross products.
    mcr : int
        ``min_cell_rows``.
    vs, ridge : float
        The variance floor and the ridge (relative to the column variances; ridge > 0).
    tiny : float
        The precision threshold of the flags.

    Returns
    -------
    gain, ntot : ndarray (H,)
    flag : ndarray of bool (H,)
    """
    H, U, m = n.shape
    s = mean.shape[-1]
    c = s - 1
    th = max(mcr, c + 2)
    th0 = max(mcr, 2)
    gain, ntot = np.empty(H), np.empty(H)
    flag = np.zeros(H, dtype=np.bool_)
    cl_n, cl_mean, cl_M = np.empty(m), np.empty((m, s)), np.empty((m, s, s))
    g_mean, g_M = np.empty(s), np.empty((s, s))
    scale = np.empty(s)
    A, work, rhs = np.empty((c, c)), np.empty((c, c)), np.empty(c)
    piv = np.empty(c, dtype=np.int64)
    b = np.empty(c)
    cl_b, cl_par = np.empty((m, c)), np.empty((m, 3))  # per class: b; intercept, rss, n1
    g_b = np.empty(c)
    bb, pdiag = np.empty(c), np.empty(c)
    cm, cM = np.empty(s), np.empty((s, s))
    for h in range(H):
        for y in range(m):
            cl_n[y] = merge_cells(n[h, :, y:y + 1], mean[h, :, y:y + 1], M[h, :, y:y + 1],
                                  cl_mean[y], cl_M[y])
        g_n = merge_cells(cl_n.reshape((1, m)), cl_mean.reshape((1, m, s)),
                          cl_M.reshape((1, m, s, s)), g_mean, g_M)
        ntot[h] = g_n
        for i in range(s):
            var = g_M[i, i] / max(g_n, 1.0)
            if var != 0.0 and var < tiny * (var + g_mean[i] * g_mean[i]):
                flag[h] = True
            scale[i] = var if var > 0.0 else 1.0
        floor = vs * scale[c]
        ga, grss, gn1 = _regression(g_n, g_mean, g_M, c, ridge, scale, g_b, A, rhs, piv, work)
        for y in range(m):
            a, rss, n1 = _regression(cl_n[y], cl_mean[y], cl_M[y], c, ridge, scale, b, A, rhs,
                                     piv, work)
            cl_par[y, 0], cl_par[y, 1], cl_par[y, 2] = a, rss, n1
            for i in range(c):
                cl_b[y, i] = b[i]
        full = 0.0
        for u in range(U):
            for y in range(m):
                nn = n[h, u, y]
                if nn <= 0.0:  # an empty cell adds nothing
                    continue
                for i in range(s):  # the cell's statistics (copies: no array views)
                    cm[i] = mean[h, u, y, i]
                    for j in range(s):
                        cM[i, j] = M[h, u, y, i, j]
                if nn >= th and c == 0:  # (no call for c <= 1: a call per cell costs
                    # more than its arithmetic)
                    a, rss, n1 = cm[0], cM[0, 0], max(nn, 1.0)
                    pvv = cM[c, c]
                elif nn >= th and c == 1:  # _regression's operations, in scalars
                    n1 = max(nn, 1.0)
                    b0 = cM[0, 1] / (cM[0, 0] + ridge * n1 * scale[0])
                    bb[0] = b0
                    a = cm[1] - b0 * cm[0]
                    rss = (cM[1, 1] - 2.0 * (b0 * cM[0, 1])) + b0 * cM[0, 0] * b0
                    pvv, pdiag[0] = cM[1, 1], cM[0, 0]
                elif nn >= th:
                    a, rss, n1 = _regression(nn, cm, cM, c, ridge, scale, bb, A, rhs, piv,
                                             work)
                    pvv = cM[c, c]
                    for i in range(c):
                        pdiag[i] = cM[i, i]
                elif cl_n[y] >= th:
                    a, rss, n1 = cl_par[y, 0], cl_par[y, 1], cl_par[y, 2]
                    pvv = cl_M[y, c, c]
                    for i in range(c):
                        bb[i], pdiag[i] = cl_b[y, i], cl_M[y, i, i]
                else:
                    a, rss, n1 = ga, grss, gn1
                    pvv = g_M[c, c]
                    for i in range(c):
                        bb[i], pdiag[i] = g_b[i], g_M[i, i]
                s2 = max(max(rss / n1, 0.0), floor)
                dd = 0.0
                for i in range(c):
                    dd += bb[i] * bb[i] * pdiag[i]
                if rss < tiny * (pvv + dd):
                    flag[h] = True
                d = cm[c] - a
                for i in range(c):
                    d -= bb[i] * cm[i]
                R = _residual(cM, bb, c) + nn * d * d
                full += nn * (LOG_2PI + log(s2)) + R / s2
        base = 0.0
        for y in range(m):
            cn = cl_n[y]
            if cn <= 0.0:
                continue
            if cn < th0:
                qn, qmean, qM = g_n, g_mean[c], g_M[c, c]
            else:
                qn, qmean, qM = cn, cl_mean[y, c], cl_M[y, c, c]
            s20 = max(max(qM / max(qn, 1.0), 0.0), floor)
            R0 = cl_M[y, c, c] + cn * (cl_mean[y, c] - qmean) ** 2
            base += cn * (LOG_2PI + log(s20)) + R0 / s20
        gain[h] = (-0.5 * full + 0.5 * base) / max(g_n, 1.0)
    return gain, ntot, flag
