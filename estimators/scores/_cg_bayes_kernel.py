"""The pooled Gaussians of the Bayes-rule factor (MATH.md §7, a categorical v with
continuous parents C), compiled: one pass per hyperedge over its cells instead of numpy
expressions over (hyperedges x cells x |C| x |C|) temporaries.

For each hyperedge, from the statistics of its cells (state k of v, configuration u of the
categorical parents, class y) -- counts, means and centred cross products of C --:

* the cells merged over u (per state and class), over the classes (per state) and over the
  states (all rows): Chan's update (:func:`~estimators.scores._cell_merge.merge_cells`);
* each cell's Gaussian from the first of these levels with at least ``max(mcr, |C| + 2)``
  rows (the row path's pooling), its covariance ``M / n + max(ridge, vs) diag(scale)`` with
  ``scale`` the column variances over all the rows (1 where 0);
* the precision and log-determinant by an LU factorisation with partial pivoting (``|C|``
  is at most k, a handful), and the constant of each state's log density
  ``ln p(k | u, y) - (|C| ln 2 pi + ln|S|) / 2``;
* the class table's log-likelihood ``sum N_ky ln p(k | y)`` (the factor without parents)
  and the rows of the hyperedge;
* the precision flag of :mod:`estimators.scores._cg_batch` (a column constant over the rows,
  or nearly collinear parents within a non-empty cell).

The arithmetic follows the numpy path it replaces formula for formula; sums run in the
same order, but LAPACK's blocked factorisations and numpy's pairwise sums are not
reproduced, so values agree to rounding (~1e-15 relative), not bit for bit.
"""

from __future__ import annotations

import math

import numpy as np

from estimators.base.numba_cache import jit
from estimators.scores._cell_merge import merge_cells
from estimators.scores._cg_kernel import log
from estimators.scores._small_linalg import lu_inverse, lu_inverse_2
from estimators.stats.gaussian import LOG_2PI

__all__ = ["bayes_parameters"]


@jit(inline="always", error_model="numpy")
def _gaussian(nn, M, scale, floor, cov, prec, piv, work):
    """Precision (into ``prec``) and log-determinant of ``M / max(nn, 1) + floor
    diag(scale)``."""
    c = scale.size
    n1 = max(nn, 1.0)
    if c == 1:
        v = M[0, 0] / n1 + floor * scale[0]
        prec[0, 0] = 1.0 / v
        return log(v)
    for a in range(c):
        for b in range(c):
            cov[a, b] = M[a, b] / n1
        cov[a, a] += floor * scale[a]
    return lu_inverse(cov, prec, piv, work)


@jit(error_model="numpy")
def _collinear(src, corr, inv, piv, work, tiny):
    """Whether the cross products ``src`` have a correlation matrix with log-determinant
    below ``ln tiny`` (nearly collinear parents: the variance floor decides)."""
    c = corr.shape[0]
    for a in range(c):
        for b in range(c):
            sa = math.sqrt(max(src[a, a], 1e-300))
            sb = math.sqrt(max(src[b, b], 1e-300))
            corr[a, b] = src[a, b] / (sa * sb)
    return lu_inverse(corr, inv, piv, work) < log(tiny)


@jit(error_model="numpy")
def bayes_parameters(n, mean, M, mcr, vs, ridge, tiny, p_mean, p_prec, p_const):
    """Pooled Gaussians, constants and class-table log-likelihoods of many hyperedges.

    The cells are given in the layout of the categorical members (v at position j among
    them): ``A`` configurations of the members before v, v's ``K`` states, ``B``
    configurations of those after it, ``m`` classes; the parameters are returned per
    state and cell ``u = a B + b`` of the categorical parents (the order in which the
    cells of one state are merged).

    Parameters
    ----------
    n : ndarray (H, A, K, B, m)
        Rows per cell.
    mean : ndarray (H, A, K, B, m, c)
    M : ndarray (H, A, K, B, m, c, c)
    mcr : int
        ``min_cell_rows``.
    vs, ridge : float
        The variance floor and the ridge (relative to the column variances).
    tiny : float
        The precision threshold of the flags.
    p_mean, p_prec, p_const : ndarray (H, K, A, B, m, c), (H, K, A, B, m, c, c), (H, K, A, B, m)
        Filled: each cell's pooled mean, precision and log-density constant.

    Returns
    -------
    class_ll : ndarray (H,)
        ``sum_{k, y} N_ky ln(N_ky / N_y)``.
    ntot : ndarray (H,)
    flag : ndarray of bool (H,)
    """
    H, A, K, B, m = n.shape
    c = mean.shape[-1]
    th = max(mcr, c + 2)
    floor = max(ridge, vs)
    class_ll, ntot = np.zeros(H), np.zeros(H)
    flag = np.zeros(H, dtype=np.bool_)
    # per hyperedge the levels: merged over u (K, m), over classes (K), over states (1)
    cy_n, cy_mean, cy_M = np.empty((K, m)), np.empty((K, m, c)), np.empty((K, m, c, c))
    cc_n, cc_mean, cc_M = np.empty(K), np.empty((K, c)), np.empty((K, c, c))
    g_mean, g_M = np.empty(c), np.empty((c, c))
    cy_prec, cy_ld = np.empty((K, m, c, c)), np.empty((K, m))
    cc_prec, cc_ld = np.empty((K, c, c)), np.empty(K)
    g_prec = np.empty((c, c))
    scale = np.empty(c)
    cov, inv, work, corr = np.empty((c, c)), np.empty((c, c)), np.empty((c, c)), np.empty((c, c))
    piv = np.empty(c, dtype=np.int64)
    for h in range(H):
        for k in range(K):
            for y in range(m):
                cy_n[k, y] = merge_cells(n[h, :, k, :, y], mean[h, :, k, :, y],
                                         M[h, :, k, :, y], cy_mean[k, y], cy_M[k, y])
            cc_n[k] = merge_cells(cy_n[k:k + 1], cy_mean[k:k + 1], cy_M[k:k + 1], cc_mean[k],
                                  cc_M[k])
        ntot[h] = merge_cells(cc_n.reshape((1, K)), cc_mean.reshape((1, K, c)),
                              cc_M.reshape((1, K, c, c)), g_mean, g_M)
        g_n = ntot[h]
        for i in range(c):
            var = g_M[i, i] / max(g_n, 1.0)
            if var != 0.0 and var < tiny * (var + g_mean[i] * g_mean[i]):
                flag[h] = True
            scale[i] = var if var > 0.0 else 1.0
        g_ld = _gaussian(g_n, g_M, scale, floor, cov, g_prec, piv, work)
        for k in range(K):
            cc_ld[k] = _gaussian(cc_n[k], cc_M[k], scale, floor, cov, cc_prec[k], piv, work)
            for y in range(m):
                cy_ld[k, y] = _gaussian(cy_n[k, y], cy_M[k, y], scale, floor, cov,
                                        cy_prec[k, y], piv, work)
        class_ll[h] = _class_table_ll(cy_n)
        for a in range(A):
            for b in range(B):
                for y in range(m):
                    nuy = 0.0
                    for k in range(K):
                        nuy += n[h, a, k, b, y]
                    for k in range(K):
                        nn = n[h, a, k, b, y]
                        if c == 1:  # in scalars: no array views or calls per cell
                            if nn >= th:
                                v1 = M[h, a, k, b, y, 0, 0] / nn + floor * scale[0]
                                m0, i00, ld = mean[h, a, k, b, y, 0], 1.0 / v1, log(v1)
                            elif cy_n[k, y] >= th:
                                m0, i00, ld = cy_mean[k, y, 0], cy_prec[k, y, 0, 0], cy_ld[k, y]
                            elif cc_n[k] >= th:
                                m0, i00, ld = cc_mean[k, 0], cc_prec[k, 0, 0], cc_ld[k]
                            else:
                                m0, i00, ld = g_mean[0], g_prec[0, 0], g_ld
                            p_mean[h, k, a, b, y, 0], p_prec[h, k, a, b, y, 0, 0] = m0, i00
                            p_const[h, k, a, b, y] = _log_prior(nn, nuy) - 0.5 * (
                                c * LOG_2PI + ld)
                            continue
                        if c == 2:
                            if nn >= th:
                                s00, s01 = M[h, a, k, b, y, 0, 0], M[h, a, k, b, y, 0, 1]
                                s10, s11 = M[h, a, k, b, y, 1, 0], M[h, a, k, b, y, 1, 1]
                                n1 = max(nn, 1.0)
                                ld, i00, i01, i10, i11 = lu_inverse_2(
                                    s00 / n1 + floor * scale[0], s01 / n1, s10 / n1,
                                    s11 / n1 + floor * scale[1])
                                m0, m1 = mean[h, a, k, b, y, 0], mean[h, a, k, b, y, 1]
                            else:
                                lv = 0 if cy_n[k, y] >= th else (1 if cc_n[k] >= th else 2)
                                src = cy_M[k, y] if lv == 0 else (cc_M[k] if lv == 1 else g_M)
                                pre = (cy_prec[k, y] if lv == 0 else
                                       (cc_prec[k] if lv == 1 else g_prec))
                                mu = cy_mean[k, y] if lv == 0 else (cc_mean[k] if lv == 1 else g_mean)
                                ld = cy_ld[k, y] if lv == 0 else (cc_ld[k] if lv == 1 else g_ld)
                                s00, s01, s10, s11 = src[0, 0], src[0, 1], src[1, 0], src[1, 1]
                                i00, i01, i10, i11 = pre[0, 0], pre[0, 1], pre[1, 0], pre[1, 1]
                                m0, m1 = mu[0], mu[1]
                            p_mean[h, k, a, b, y, 0], p_mean[h, k, a, b, y, 1] = m0, m1
                            p_prec[h, k, a, b, y, 0, 0], p_prec[h, k, a, b, y, 0, 1] = i00, i01
                            p_prec[h, k, a, b, y, 1, 0], p_prec[h, k, a, b, y, 1, 1] = i10, i11
                            p_const[h, k, a, b, y] = _log_prior(nn, nuy) - 0.5 * (
                                c * LOG_2PI + ld)
                            if nn > 0.0 and not flag[h]:  # nearly collinear parents
                                sa = math.sqrt(max(s00, 1e-300))
                                sb = math.sqrt(max(s11, 1e-300))
                                cld = lu_inverse_2(s00 / (sa * sa), s01 / (sa * sb),
                                                   s10 / (sb * sa), s11 / (sb * sb))[0]
                                flag[h] = cld < log(tiny)
                            continue
                        out = p_prec[h, k, a, b, y]
                        if nn >= th:
                            src = M[h, a, k, b, y]
                            ld = _gaussian(nn, src, scale, floor, cov, out, piv, work)
                            for i in range(c):
                                p_mean[h, k, a, b, y, i] = mean[h, a, k, b, y, i]
                        else:
                            if cy_n[k, y] >= th:
                                src, ld, pm, pp = cy_M[k, y], cy_ld[k, y], cy_mean[k, y], cy_prec[k, y]
                            elif cc_n[k] >= th:
                                src, ld, pm, pp = cc_M[k], cc_ld[k], cc_mean[k], cc_prec[k]
                            else:
                                src, ld, pm, pp = g_M, g_ld, g_mean, g_prec
                            for i in range(c):
                                p_mean[h, k, a, b, y, i] = pm[i]
                                for j in range(c):
                                    out[i, j] = pp[i, j]
                        p_const[h, k, a, b, y] = _log_prior(nn, nuy) - 0.5 * (c * LOG_2PI + ld)
                        if c > 1 and nn > 0.0 and not flag[h]:
                            flag[h] = _collinear(src, corr, inv, piv, work, tiny)
    return class_ll, ntot, flag


@jit(inline="always", error_model="numpy")
def _log_prior(nn, nuy):
    """``ln p(k | u, y) = ln(N_kuy / N_uy)``; -inf for an empty cell."""
    return log(nn / (nuy if nuy > 0.0 else 1.0)) if nn > 0.0 else -np.inf


@jit(inline="always", error_model="numpy")
def _class_table_ll(N):
    """``sum_{k, y} N_ky ln(N_ky / N_y)`` of the class table ``N`` (K, m): the
    log-likelihood of the factor without parents."""
    K, m = N.shape
    out = 0.0
    for y in range(m):
        ny = 0.0
        for k in range(K):
            ny += N[k, y]
        for k in range(K):
            if N[k, y] > 0.0:
                out += N[k, y] * log(N[k, y] / ny)
    return out
