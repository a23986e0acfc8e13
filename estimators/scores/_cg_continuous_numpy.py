"""The compiled :func:`~estimators.scores._cg_continuous_kernel.continuous_gains` in numpy,
the same operations in the same order and the same ``log`` (fdlibm's, :func:`log`, written
in numpy's integer and float operations: numpy's own ``log`` differs from the C library's
by 1 ulp on some inputs on CPUs with AVX-512), so the same numbers bit for bit on every
CPU, over all hyperedges at once: a
small table's score (helpmiss's TAN, ~0.3 ms a call) then needs no compilation of that
kernel (~3 s CPU of a first run). The regressions on several continuous parents (kDB's
``k = 2``) solve their systems by the kernel's LU with partial pivoting elementwise.

The sums of the kernel's loops (Chan's merge of the cells, the log-likelihood over the
cells) are added one cell at a time in the kernel's order; everything else is elementwise.
``max(a, b)`` is numba's (``b if b > a else a``), and ``0.0 + x`` is kept where the kernel
starts a sum at 0.0.
"""

from __future__ import annotations

import numpy as np

from estimators.scores import _cg_kernel as K_  # fdlibm's constants (no compilation)
from estimators.stats.gaussian import LOG_2PI

__all__ = ["continuous_gains"]


def _log(x):
    """The kernel's ``_log`` (fdlibm, positive normal x) elementwise."""
    bits = np.asarray(x, dtype=np.float64).view(np.int64)
    hx = bits >> 32
    k = (hx >> 20) - 1023
    hx = hx & 0x000FFFFF
    i = (hx + 0x95F64) & 0x100000
    m = (((hx | (i ^ 0x3FF00000)) << 32) | (bits & 0xFFFFFFFF)).view(np.float64)
    k = k + (i >> 20)
    f = m - 1.0
    s = f / (2.0 + f)
    dk = k.astype(np.float64)
    z = s * s
    w = z * z
    t1 = w * (K_._LG2 + w * (K_._LG4 + w * K_._LG6))
    t2 = z * (K_._LG1 + w * (K_._LG3 + w * (K_._LG5 + w * K_._LG7)))
    R = t2 + t1
    hfsq = 0.5 * f * f
    wide = dk * K_._LN2_HI - ((hfsq - (s * (hfsq + R) + dk * K_._LN2_LO)) - f)
    narrow = dk * K_._LN2_HI - ((s * (f - R) - dk * K_._LN2_LO) - f)
    return np.where(((hx - 0x6147A) | (0x6B851 - hx)) > 0, wide, narrow)


def log(x):
    """The kernels' total ``log`` (:func:`estimators.scores._cg_kernel.log`) elementwise:
    :func:`_log` on positive normal numbers, subnormals scaled by 2**54, numpy's value
    (exact) at 0, infinities, negatives and NaN."""
    x = np.asarray(x, dtype=np.float64)
    normal = (x >= K_._TINY_NORMAL) & (x <= 1.7976931348623157e308)
    sub = (x > 0.0) & (x < K_._TINY_NORMAL)
    with np.errstate(all="ignore"):
        safe = np.where(normal, x, np.where(sub, x * K_._TWO54, 1.0))
        return np.where(normal, _log(safe), np.where(sub, _log(safe) - K_._LN_TWO54,
                                                     np.log(np.where(normal | sub, 1.0, x))))


def _max(a, b):
    """numba's ``max(a, b)``: b where b > a, else a."""
    return np.where(b > a, b, a)


def _merge(cells: list[tuple]) -> tuple:
    """:func:`~estimators.scores._cell_merge.merge_cells` of the cells ``(n, mean, M)``
    (arrays (X,), (X, s), (X, s, s)) in their order: (rows, mean, M)."""
    tot = np.zeros_like(cells[0][0])
    for n, _, _ in cells:
        tot = tot + n
    t1 = _max(tot, 1.0)
    s = np.zeros_like(cells[0][1])
    for n, mean, _ in cells:
        s = s + n[..., None] * mean
    out_mean = s / t1[..., None]
    S = np.zeros_like(cells[0][2])
    for n, mean, M in cells:
        d = mean - out_mean
        S = S + (M + n[..., None, None] * (d[..., :, None] * d[..., None, :]))
    return tot, out_mean, S


def _residual(M, b, c: int):
    """The kernel's ``_residual``: ``M_vv - 2 b . M_Cv + b' M_CC b``, its sums from 0.0 in
    its order (``b`` (..., c); None for c = 0)."""
    bv = 0.0
    for i in range(c):
        bv = bv + b[..., i] * M[..., i, c]
    q = 0.0
    for i in range(c):
        for j in range(c):
            q = q + b[..., i] * M[..., i, j] * b[..., j]
    return (M[..., c, c] - 2.0 * bv) + q


def _lu_solve(A, rhs):
    """:func:`~estimators.scores._small_linalg.lu_solve` elementwise over the leading axes
    of ``A`` (..., c, c) and ``rhs`` (..., c): LU with partial pivoting, then forward and
    back substitution, operation for operation; (x, singular) -- ``x`` is undefined where
    ``singular`` (the kernel then leaves its output as it was)."""
    c = A.shape[-1]
    work = A.copy()
    piv = np.broadcast_to(np.arange(c), A.shape[:-1]).copy()
    singular = np.zeros(A.shape[:-2], dtype=bool)
    for col in range(c):
        best, at = np.abs(work[..., col, col]), np.full(A.shape[:-2], col)
        for r in range(col + 1, c):
            bigger = np.abs(work[..., r, col]) > best
            best, at = np.where(bigger, np.abs(work[..., r, col]), best), np.where(bigger, r, at)
        singular |= best == 0.0
        row = work[..., col, :].copy()
        other = np.take_along_axis(work, at[..., None, None], axis=-2)
        work[..., col, :] = other[..., 0, :]
        np.put_along_axis(work, at[..., None, None], row[..., None, :], axis=-2)
        pc = piv[..., col].copy()
        piv[..., col] = np.take_along_axis(piv, at[..., None], axis=-1)[..., 0]
        np.put_along_axis(piv, at[..., None], pc[..., None], axis=-1)
        p = work[..., col, col]
        for r in range(col + 1, c):
            f = work[..., r, col] / p
            work[..., r, col] = f
            for j in range(col + 1, c):
                work[..., r, j] = work[..., r, j] - f * work[..., col, j]
    x = np.take_along_axis(rhs, piv, axis=-1)
    for i in range(c):  # forward (unit L), then back substitution
        t = x[..., i]
        for j in range(i):
            t = t - work[..., i, j] * x[..., j]
        x[..., i] = t
    for i in range(c - 1, -1, -1):
        t = x[..., i]
        for j in range(i + 1, c):
            t = t - work[..., i, j] * x[..., j]
        x[..., i] = t / work[..., i, i]
    return x, singular


def _regression(n, mean, M, c: int, ridge: float, scale):
    """The kernel's ``_regression`` of one level: (b, intercept, rss, n1, singular), ``b``
    (..., c) (None for c = 0); ``singular`` where its system is (the kernel then keeps a
    stale coefficient)."""
    n1 = _max(n, 1.0)
    if c == 0:
        return None, mean[..., 0], _residual(M, None, 0), n1, np.zeros(n.shape, dtype=bool)
    A = M[..., :c, :c].copy()
    for i in range(c):
        A[..., i, i] = A[..., i, i] + ridge * n1 * scale[..., i]
    b, singular = _lu_solve(A, M[..., :c, c])
    a = mean[..., c]
    for i in range(c):
        a = a - b[..., i] * mean[..., i]
    return b, a, _residual(M, b, c), n1, singular


def continuous_gains(n, mean, M, mcr, vs, ridge, tiny):
    """:func:`~estimators.scores._cg_continuous_kernel.continuous_gains` for ``c = s - 1``
    continuous parents; None where a regression's system that the kernel solves is
    singular (call the kernel).

    Parameters
    ----------
    n, mean, M : ndarray (H, U, m), (H, U, m, s), (H, U, m, s, s)
    mcr : int
    vs, ridge, tiny : float

    Returns
    -------
    gain, ntot : ndarray (H,)
    flag : ndarray of bool (H,)

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=(1, 2, 2, 40, 2))  # 1 hyperedge, 2 x 2 cells of 40 rows
    >>> n = np.full((1, 2, 2), 40.0)
    >>> mean = x.mean(axis=3)
    >>> d = x - mean[:, :, :, None]
    >>> M = np.einsum("hurti,hurtj->hurij", d, d)
    >>> gain, ntot, flag = continuous_gains(n, mean, M, 5, 1e-9, 1e-8, 1e-5)
    >>> ntot.tolist(), flag.tolist(), bool(np.isfinite(gain[0]))
    ([160.0], [False], True)
    """
    with np.errstate(all="ignore"):  # empty cells' terms (not added), as the kernel's
        return _gains(n, mean, M, mcr, vs, ridge, tiny)


def _gains(n, mean, M, mcr, vs, ridge, tiny):
    """:func:`continuous_gains` (numpy's floating-point warnings off)."""
    H, U, m = n.shape
    s = mean.shape[-1]
    c = s - 1
    th, th0 = max(mcr, c + 2), max(mcr, 2)
    cl_n, cl_mean, cl_M = _merge([(n[:, u], mean[:, u], M[:, u]) for u in range(U)])
    g_n, g_mean, g_M = _merge([(cl_n[:, y], cl_mean[:, y], cl_M[:, y]) for y in range(m)])
    flag = np.zeros(H, dtype=bool)
    scale = np.empty((H, s))
    for i in range(s):
        var = g_M[:, i, i] / _max(g_n, 1.0)
        flag |= (var != 0.0) & (var < tiny * (var + g_mean[:, i] * g_mean[:, i]))
        scale[:, i] = np.where(var > 0.0, var, 1.0)
    floor = vs * scale[:, c]
    glob = _regression(g_n, g_mean, g_M, c, ridge, scale)
    cls = _regression(cl_n, cl_mean, cl_M, c, ridge, scale[:, None])
    if glob[4].any() or cls[4].any():
        return None
    # per cell the first level with th rows (the cell's own regression only where nn >= th)
    nn = n
    own, by_class = nn >= th, cl_n[:, None, :] >= th
    if c == 1:  # the kernel's scalar branch for one parent: no 0.0 + in its residual
        b0 = M[..., 0, 1] / (M[..., 0, 0] + ridge * _max(nn, 1.0) * scale[:, None, None, 0])
        cell_b, cell_a = b0[..., None], mean[..., 1] - b0 * mean[..., 0]
        cell_rss = (M[..., 1, 1] - 2.0 * (b0 * M[..., 0, 1])) + b0 * M[..., 0, 0] * b0
    elif c == 0:
        cell_b, cell_a, cell_rss = None, mean[..., 0], M[..., 0, 0]
    else:  # the kernel's _regression per cell
        cell_b, cell_a, cell_rss, _, singular = _regression(nn, mean, M, c, ridge,
                                                            scale[:, None, None])
        if (singular & own).any():
            return None
    cell_n1 = _max(nn, 1.0)

    def pick(own_v, class_v, glob_v):
        return np.where(own, own_v, np.where(by_class, class_v[:, None, :],
                                             glob_v[:, None, None]))

    a = pick(cell_a, cls[1], glob[1])
    rss = pick(cell_rss, cls[2], glob[2])
    n1 = pick(cell_n1, cls[3], glob[3])
    pvv = pick(M[..., c, c], cl_M[:, :, c, c], g_M[:, c, c])
    s2 = _max(_max(rss / n1, 0.0), floor[:, None, None])
    d = mean[..., c] - a
    dd = 0.0
    bb = np.empty(nn.shape + (c,))
    for i in range(c):
        bb[..., i] = pick(cell_b[..., i], cls[0][..., i], glob[0][..., i])
        pdiag = pick(M[..., i, i], cl_M[:, :, i, i], g_M[:, i, i])
        dd = dd + bb[..., i] * bb[..., i] * pdiag
        d = d - bb[..., i] * mean[..., i]
    flag |= ((nn > 0.0) & (rss < tiny * (pvv + dd))).any(axis=(1, 2))
    R = _residual(M, bb, c) + nn * d * d
    term = nn * (LOG_2PI + log(s2)) + R / s2
    full = np.zeros(H)
    for u in range(U):
        for y in range(m):
            full = np.where(nn[:, u, y] > 0.0, full + term[:, u, y], full)
    small = cl_n < th0
    qn = np.where(small, g_n[:, None], cl_n)
    qmean = np.where(small, g_mean[:, None, c], cl_mean[:, :, c])
    qM = np.where(small, g_M[:, None, c, c], cl_M[:, :, c, c])
    s20 = _max(_max(qM / _max(qn, 1.0), 0.0), floor[:, None])
    R0 = cl_M[:, :, c, c] + cl_n * (cl_mean[:, :, c] - qmean) ** 2
    bterm = cl_n * (LOG_2PI + log(s20)) + R0 / s20
    base = np.zeros(H)
    for y in range(m):
        base = np.where(cl_n[:, y] > 0.0, base + bterm[:, y], base)
    return (-0.5 * full + 0.5 * base) / _max(g_n, 1.0), g_n, flag
