"""The compiled :func:`~estimators.scores._cg_continuous_kernel.continuous_gains` in numpy
for at most one continuous parent, the same operations in the same order (the same numbers
bit for bit; the C library's ``log`` and numpy's agree here, which the tests check), over
all hyperedges at once: a small table's score (helpmiss's TAN, ~0.3 ms a call) then needs
no compilation of that kernel (~3 s CPU of a first run).

The sums of the kernel's loops (Chan's merge of the cells, the log-likelihood over the
cells) are added one cell at a time in the kernel's order; everything else is elementwise.
``max(a, b)`` is numba's (``b if b > a else a``), and ``0.0 + x`` is kept where the kernel
starts a sum at 0.0.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["continuous_gains"]

_LOG_2PI = math.log(2.0 * math.pi)


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
    """The kernel's ``_residual``: ``M_vv - 2 b . M_Cv + b' M_CC b`` (c = 0 or 1)."""
    if c == 0:
        return (M[..., 0, 0] - 2.0 * 0.0) + 0.0
    return (M[..., 1, 1] - 2.0 * (0.0 + b * M[..., 0, 1])) + (0.0 + (b * M[..., 0, 0]) * b)


def _regression(n, mean, M, c: int, ridge: float, scale):
    """The kernel's ``_regression`` of one level: (b, intercept, rss, n1); None where its
    1 x 1 system is singular (the kernel then keeps a stale coefficient)."""
    n1 = _max(n, 1.0)
    if c == 0:
        return None, mean[..., 0], _residual(M, None, 0), n1
    a00 = M[..., 0, 0] + ridge * n1 * scale[..., 0]
    if np.any(a00 == 0.0):
        return None
    b = M[..., 0, 1] / a00
    return b, mean[..., 1] - b * mean[..., 0], _residual(M, b, 1), n1


def continuous_gains(n, mean, M, mcr, vs, ridge, tiny):
    """:func:`~estimators.scores._cg_continuous_kernel.continuous_gains` for ``c = s - 1 <=
    1`` continuous parents; None where a regression's system is singular (call the kernel).

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
    if glob is None or cls is None:
        return None
    # per cell the first level with th rows (the cell's own regression only where nn >= th)
    nn = n
    own, by_class = nn >= th, cl_n[:, None, :] >= th
    if c == 1:  # the kernel's scalar branch for one parent: no 0.0 + in its residual
        b0 = M[..., 0, 1] / (M[..., 0, 0] + ridge * _max(nn, 1.0) * scale[:, None, None, 0])
        cell_a = mean[..., 1] - b0 * mean[..., 0]
        cell_rss = (M[..., 1, 1] - 2.0 * (b0 * M[..., 0, 1])) + b0 * M[..., 0, 0] * b0
    else:
        b0, cell_a, cell_rss = None, mean[..., 0], M[..., 0, 0]
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
    if c == 1:
        bb = pick(b0, cls[0], glob[0])
        pdiag = pick(M[..., 0, 0], cl_M[:, :, 0, 0], g_M[:, 0, 0])
        dd = 0.0 + bb * bb * pdiag
        d = d - bb * mean[..., 0]
    else:
        bb, dd = None, 0.0
    flag |= ((nn > 0.0) & (rss < tiny * (pvv + dd))).any(axis=(1, 2))
    R = _residual(M, bb, c) + nn * d * d
    term = nn * (_LOG_2PI + np.log(s2)) + R / s2
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
    bterm = cl_n * (_LOG_2PI + np.log(s20)) + R0 / s20
    base = np.zeros(H)
    for y in range(m):
        base = np.where(cl_n[:, y] > 0.0, base + bterm[:, y], base)
    return (-0.5 * full + 0.5 * base) / _max(g_n, 1.0), g_n, flag
