"""The compiled conditional Gaussian kernels in numpy, the same operations in the same
order, over all hyperedges at once: a small table's score (helpmiss's TAN or kDB, ~0.3 ms a
call) then compiles no kernel (module docstring of :mod:`estimators.scores._cg_batch`,
"First runs in numpy").

* :func:`continuous_gains`: :func:`~estimators.scores._cg_continuous_kernel.continuous_gains`
  (a continuous v); the regressions on several continuous parents (kDB's ``k = 2``) solve
  their systems by the kernel's LU with partial pivoting elementwise;
* :func:`bayes_parameters` and :func:`bayes_row_sums`: the Bayes-rule factor
  (:func:`~estimators.scores._cg_bayes_kernel.bayes_parameters`,
  :func:`~estimators.scores._cg_kernel.bayes_row_sums`) for one or two continuous parents;
  a pooled level's singular covariance, where the kernel keeps a stale precision, is left to
  the kernel (``bayes_parameters`` returns None);
* :func:`gather_moments`: :func:`~estimators.scores._cg_kernel.gather_moments`.

The same numbers bit for bit on every CPU: the same ``log`` and ``exp`` (fdlibm's,
:func:`log`, written in numpy's integer and float operations: numpy's own ``log`` differs
from the C library's by 1 ulp on some inputs on CPUs with AVX-512); the sums of the
kernels' loops (Chan's merge of the cells, the log-likelihood over the cells) added one cell
at a time in the kernels' order, each cell's rows by numpy's pairwise sum as the kernel
reproduces it; everything else elementwise. ``max(a, b)`` is numba's (``b if b > a else
a``), and ``0.0 + x`` is kept where a kernel starts a sum at 0.0.
"""

from __future__ import annotations

import numpy as np

from estimators.scores import _cg_kernel as K_  # fdlibm's constants (no compilation)
from estimators.stats.gaussian import LOG_2PI

__all__ = ["bayes_parameters", "bayes_row_sums", "continuous_gains", "gather_moments"]


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
    stale coefficient). With ``ridge = 0`` the minimum-norm slopes (pseudo-inverse), which
    the kernel does not compute."""
    n1 = _max(n, 1.0)
    if c == 0:
        return None, mean[..., 0], _residual(M, None, 0), n1, np.zeros(n.shape, dtype=bool)
    A = M[..., :c, :c].copy()
    for i in range(c):
        A[..., i, i] = A[..., i, i] + ridge * n1 * scale[..., i]
    if ridge > 0:
        b, singular = _lu_solve(A, M[..., :c, c])
    else:
        b = np.einsum("...ij,...j->...i", np.linalg.pinv(A, hermitian=True), M[..., :c, c])
        singular = np.zeros(n.shape, dtype=bool)
    a = mean[..., c]
    for i in range(c):
        a = a - b[..., i] * mean[..., i]
    return b, a, _residual(M, b, c), n1, singular


def continuous_gains(n, mean, M, mcr, vs, ridge, tiny):
    """:func:`~estimators.scores._cg_continuous_kernel.continuous_gains` for ``c = s - 1``
    continuous parents; None where a regression's system that the kernel solves is
    singular (call the kernel). With ``ridge = 0`` (a path of its own: the kernel takes
    ``ridge > 0``) the slopes are the minimum-norm least-squares ones (pseudo-inverse).

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
    if c == 0:
        cell_b, cell_a, cell_rss = None, mean[..., 0], M[..., 0, 0]
    elif c == 1 and ridge > 0:  # the kernel's scalar branch for one parent: no 0.0 + in
        # its residual
        b0 = M[..., 0, 1] / (M[..., 0, 0] + ridge * _max(nn, 1.0) * scale[:, None, None, 0])
        cell_b, cell_a = b0[..., None], mean[..., 1] - b0 * mean[..., 0]
        cell_rss = (M[..., 1, 1] - 2.0 * (b0 * M[..., 0, 1])) + b0 * M[..., 0, 0] * b0
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


def _exp(x):
    """The kernel's ``_exp`` (fdlibm, x <= 0) elementwise."""
    xc = np.where(x > -708.0, x, -708.0)
    k = np.floor(xc * K_._INV_LN2 + 0.5)
    hi = xc - k * K_._LN2_HI
    lo = k * K_._LN2_LO
    r = hi - lo
    s = r * r
    c = r - s * (K_._P1 + s * (K_._P2 + s * (K_._P3 + s * (K_._P4 + s * K_._P5))))
    y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi)
    scale = ((k.astype(np.int64) + 1023) << 52).view(np.float64)
    return np.where(x > -708.0, y * scale, 0.0)


def _log1p(u):
    """The kernel's ``_log1p`` (u in [0, 1]) elementwise."""
    w = 1.0 + u
    return _log(w) - ((w - 1.0) - u) / w


def bayes_parameters(n, mean, M, mcr, vs, ridge, tiny):
    """:func:`~estimators.scores._cg_bayes_kernel.bayes_parameters` for one or two
    continuous parents: ``(p_mean, p_prec, p_const, class_ll, ntot, flag)``, the filled
    arrays returned; None where a pooled level's covariance is singular (the kernel then
    keeps a stale precision: call it).

    Examples
    --------
    >>> n = np.array([20.0, 30.0, 25.0, 25.0]).reshape(1, 1, 2, 1, 2)  # K = 2, m = 2
    >>> mean = np.arange(4.0).reshape(1, 1, 2, 1, 2, 1)
    >>> M = np.full((1, 1, 2, 1, 2, 1, 1), 10.0)
    >>> out = bayes_parameters(n, mean, M, 5, 1e-9, 1e-8, 1e-5)
    >>> [a.shape for a in out[:3]], out[4].tolist(), out[5].tolist()
    ([(1, 2, 1, 1, 2, 1), (1, 2, 1, 1, 2, 1, 1), (1, 2, 1, 1, 2)], [100.0], [False])
    """
    with np.errstate(all="ignore"):  # the cells' unused levels (the kernel's selects)
        if mean.shape[-1] == 1:
            return _parameters(n, mean, M, mcr, vs, ridge, tiny)
        return _parameters2(n, mean, M, mcr, vs, ridge, tiny)


def _levels(n, mean, M):
    """The kernel's merged levels: over u per (state, class), over the classes per state,
    over the states; each (rows, mean, M)."""
    _, A, K, B, m = n.shape
    cy = _merge([(n[:, a, :, b], mean[:, a, :, b], M[:, a, :, b])
                 for a in range(A) for b in range(B)])  # (H, K, m)
    cc = _merge([(cy[0][:, :, y], cy[1][:, :, y], cy[2][:, :, y]) for y in range(m)])
    return cy, cc, _merge([(cc[0][:, k], cc[1][:, k], cc[2][:, k]) for k in range(K)])


def _counts(n, cy_n):
    """The class table's log-likelihood (H,), each cell's ``ln p(k | u, y)`` and rows,
    (H, K, A, B, m) (the kernel's ``_class_table_ll`` and ``_log_prior``)."""
    H, A, K, B, m = n.shape
    class_ll = np.zeros(H)
    for y in range(m):
        ny = np.zeros(H)
        for k in range(K):
            ny = ny + cy_n[:, k, y]
        for k in range(K):
            N = cy_n[:, k, y]
            class_ll = np.where(N > 0.0, class_ll + N * log(N / ny), class_ll)
    nuy = np.zeros((H, A, B, m))
    for k in range(K):
        nuy = nuy + n[:, :, k]
    nn = n.transpose(0, 2, 1, 3, 4)
    nuy = nuy[:, None]
    return class_ll, np.where(nn > 0.0, log(nn / np.where(nuy > 0.0, nuy, 1.0)), -np.inf), nn


def _picker(own, by_class, by_state):
    """``pick(own, class level, state level, all rows)``: per cell (H, K, A, B, m) the
    first level with enough rows."""
    lv_y, lv_c = by_class[:, :, None, None, :], by_state[:, :, None, None, None]

    def pick(own_v, y_v, c_v, g_v):
        return np.where(own, own_v, np.where(lv_y, y_v[:, :, None, None, :], np.where(
            lv_c, c_v[:, :, None, None, None], g_v[:, None, None, None, None])))

    return pick


def _gaussian(nn, M, scale, floor):
    """The kernel's ``_gaussian`` for c = 1: (precision, log-determinant)."""
    v = M[..., 0, 0] / _max(nn, 1.0) + floor * scale
    return 1.0 / v, log(v)


def _parameters(n, mean, M, mcr, vs, ridge, tiny):
    th = max(mcr, 3)
    floor = max(ridge, vs)
    cy, cc, (g_n, g_mean, g_M) = _levels(n, mean, M)
    var = g_M[:, 0, 0] / _max(g_n, 1.0)
    flag = (var != 0.0) & (var < tiny * (var + g_mean[:, 0] * g_mean[:, 0]))
    scale = np.where(var > 0.0, var, 1.0)
    g_prec, g_ld = _gaussian(g_n, g_M, scale, floor)
    cc_prec, cc_ld = _gaussian(cc[0], cc[2], scale[:, None], floor)
    cy_prec, cy_ld = _gaussian(cy[0], cy[2], scale[:, None, None], floor)
    class_ll, prior, nn = _counts(n, cy[0])
    v1 = M[..., 0, 0].transpose(0, 2, 1, 3, 4) / nn + floor * scale[:, None, None, None, None]
    pick = _picker(nn >= th, cy[0] >= th, cc[0] >= th)
    p_mean = pick(mean[..., 0].transpose(0, 2, 1, 3, 4), cy[1][..., 0], cc[1][..., 0],
                  g_mean[:, 0])
    p_prec = pick(1.0 / v1, cy_prec, cc_prec, g_prec)
    ld = pick(log(v1), cy_ld, cc_ld, g_ld)
    p_const = prior - 0.5 * (1 * LOG_2PI + ld)
    return p_mean[..., None], p_prec[..., None, None], p_const, class_ll, g_n, flag


def _inverse_2(a00, a01, a10, a11):
    """The kernel's ``lu_inverse_2`` elementwise: (log |det|, i00, i01, i10, i11); -inf
    and nan where singular."""
    swap = np.abs(a10) > np.abs(a00)
    a00, a01, a10, a11 = (np.where(swap, a10, a00), np.where(swap, a11, a01),
                          np.where(swap, a00, a10), np.where(swap, a01, a11))
    f = a10 / a00
    u11 = a11 - f * a01
    bad = (a00 == 0.0) | (u11 == 0.0)
    logdet = log(np.abs(a00)) + log(np.abs(u11))
    x0, x1 = np.where(swap, 0.0, 1.0), np.where(swap, 1.0, 0.0)
    x1 = (x1 - f * x0) / u11
    i00, i10 = (x0 - a01 * x1) / a00, x1
    x0, x1 = np.where(swap, 1.0, 0.0), np.where(swap, 0.0, 1.0)
    x1 = (x1 - f * x0) / u11
    i01, i11 = (x0 - a01 * x1) / a00, x1
    nan = np.nan
    return (np.where(bad, -np.inf, logdet), *(np.where(bad, nan, v) for v in (i00, i01, i10, i11)))


def _gaussian2(nn, M, scale, floor):
    """The kernel's ``_gaussian`` for c = 2 ((log |det|, i00, i01, i10, i11)), or None where
    singular."""
    n1 = _max(nn, 1.0)
    out = _inverse_2(M[..., 0, 0] / n1 + floor * scale[..., 0], M[..., 0, 1] / n1,
                     M[..., 1, 0] / n1, M[..., 1, 1] / n1 + floor * scale[..., 1])
    return None if np.any(out[0] == -np.inf) else out


def _parameters2(n, mean, M, mcr, vs, ridge, tiny):
    H = n.shape[0]
    th = max(mcr, 4)
    floor = max(ridge, vs)
    cy, cc, (g_n, g_mean, g_M) = _levels(n, mean, M)
    flag = np.zeros(H, dtype=bool)
    scale = np.empty((H, 2))
    for i in range(2):
        var = g_M[:, i, i] / _max(g_n, 1.0)
        flag |= (var != 0.0) & (var < tiny * (var + g_mean[:, i] * g_mean[:, i]))
        scale[:, i] = np.where(var > 0.0, var, 1.0)
    g_inv = _gaussian2(g_n, g_M, scale, floor)
    cc_inv = _gaussian2(cc[0], cc[2], scale[:, None], floor)
    cy_inv = _gaussian2(cy[0], cy[2], scale[:, None, None], floor)
    if g_inv is None or cc_inv is None or cy_inv is None:
        return None
    class_ll, prior, nn = _counts(n, cy[0])
    own_M = M.transpose(0, 2, 1, 3, 4, 5, 6)
    own_mean = mean.transpose(0, 2, 1, 3, 4, 5)
    n1 = _max(nn, 1.0)
    sc = scale[:, None, None, None, None]
    own_inv = _inverse_2(own_M[..., 0, 0] / n1 + floor * sc[..., 0], own_M[..., 0, 1] / n1,
                         own_M[..., 1, 0] / n1, own_M[..., 1, 1] / n1 + floor * sc[..., 1])
    pick = _picker(nn >= th, cy[0] >= th, cc[0] >= th)

    ld = pick(own_inv[0], cy_inv[0], cc_inv[0], g_inv[0])
    p_prec = np.stack([pick(own_inv[q], cy_inv[q], cc_inv[q], g_inv[q]) for q in range(1, 5)],
                      axis=-1).reshape(*nn.shape, 2, 2)
    p_mean = np.stack([pick(own_mean[..., i], cy[1][..., i], cc[1][..., i], g_mean[:, i])
                       for i in range(2)], axis=-1)
    src = [pick(own_M[..., i, j], cy[2][..., i, j], cc[2][..., i, j], g_M[:, i, j])
           for i, j in ((0, 0), (0, 1), (1, 0), (1, 1))]
    p_const = prior - 0.5 * (2 * LOG_2PI + ld)
    s00, s01, s10, s11 = src
    sa, sb = np.sqrt(_max(s00, 1e-300)), np.sqrt(_max(s11, 1e-300))
    cld = _inverse_2(s00 / (sa * sa), s01 / (sa * sb), s10 / (sb * sa), s11 / (sb * sb))[0]
    flag |= ((nn > 0.0) & (cld < log(tiny))).any(axis=(1, 2, 3, 4))
    return p_mean, p_prec, p_const, class_ll, g_n, flag


def bayes_row_sums(X, obs, spos, rows, cv, starts, mean, prec, const):
    """:func:`~estimators.scores._cg_kernel.bayes_row_sums` for one or two continuous
    parents (``spos`` (H, 1) or (H, 2)): the sums per hyperedge (H,), returned.

    Examples
    --------
    >>> X, obs = np.array([[0.0], [1.0], [3.0]]), np.ones((3, 1), dtype=bool)
    >>> rows, cv, starts = np.arange(3), np.array([0, 1, 1]), np.array([0, 3])
    >>> mean = np.array([0.0, 2.0]).reshape(1, 2, 1, 1)  # H = 1, K = 2, G = 1
    >>> prec, const = np.ones((1, 2, 1, 1, 1)), np.full((1, 2, 1), -1.0)
    >>> out = bayes_row_sums(X, obs, np.zeros((1, 1), dtype=np.int64), rows, cv, starts,
    ...                      mean, prec, const)
    >>> bool(out[0] < 0)
    True
    """
    with np.errstate(all="ignore"):  # empty cells' -inf constants, as the kernel's
        return _row_sums(X, obs, spos, rows, cv, starts, mean, prec, const)


def _row_sums(X, obs, spos, rows, cv, starts, mean, prec, const):
    H, K, G = const.shape
    cols = spos[:, 0]
    g = np.repeat(np.arange(G), np.diff(starts))  # each row's cell
    xr = X[rows][:, cols]  # (T, H)
    ok = obs[rows][:, cols]
    lj = np.empty((K, rows.size, H))
    two = spos.shape[1] == 2
    if two:
        xr1 = X[rows][:, spos[:, 1]]
        ok = ok & obs[rows][:, spos[:, 1]]
    for k in range(K):
        r0 = xr - mean[:, k, g, 0].T
        acc = (prec[:, k, g, 0, 0].T * 1.0 * r0) * r0
        if two:
            r1 = xr1 - mean[:, k, g, 1].T
            acc = acc + (prec[:, k, g, 0, 1].T * 2.0 * r0) * r1
            acc = acc + (prec[:, k, g, 1, 1].T * 1.0 * r1) * r1
        lj[k] = acc * -0.5 + const[:, k, g].T
    s = cv[:, None]
    if K == 2:
        delta = (lj[1] - lj[0]) * np.where(s == 0, 1.0, -1.0)
        val = -(np.where(delta > 0.0, delta, 0.0) + _log1p(_exp(-np.abs(delta))))
    else:
        top = lj[0]
        for k in range(1, K):
            top = np.where(lj[k] > top, lj[k], top)
        top = np.where(np.isfinite(top), top, 0.0)
        total = _exp(lj[0] - top)
        for k in range(1, K):
            total = total + _exp(lj[k] - top)
        val = np.take_along_axis(lj, s[None], axis=0)[0] - (_log(total) + top)
    buf = np.ascontiguousarray(np.where(ok, val, 0.0).T)  # (H, T): each cell's run contiguous
    out = np.zeros(H)
    for c in range(G):
        lo, hi = starts[c], starts[c + 1]
        if hi > lo:
            out = out + np.add.reduce(buf[:, lo:hi], axis=1)
    return out


def gather_moments(comp, R1, R2, spos, ref, n):
    """:func:`~estimators.scores._cg_kernel.gather_moments` in numpy, the same operations in
    the same order (so the same numbers bit for bit): per hyperedge the raw sums of the
    patterns in which its columns are observed, added in pattern order from 0, then ``d =
    S1 / max(n, 1)``, ``mean = ref + d`` and ``M = S2 - (n d_i) d_k``; ``mean`` (H, G, s) and
    ``M`` (H, G, s, s)."""
    H, s = spos.shape
    G = R1.shape[2]
    cols = spos if R2.shape[2] > 1 else np.zeros_like(spos)  # one column: no cross products
    S1, S2 = np.zeros((H, s, G)), np.zeros((H, s, s, G))
    for q in range(R1.shape[0]):
        h = np.flatnonzero(comp[:, q])
        if h.size:
            S1[h] += R1[q][spos[h]]
            S2[h] += R2[q][spos[h][:, :, None], cols[h][:, None, :]]
    d = S1 / np.maximum(n, 1.0)[:, None, :]  # (H, s, G)
    mean = ref[:, spos].transpose(1, 0, 2) + d.transpose(0, 2, 1)
    nd = (n[:, None, :] * d).transpose(0, 2, 1)  # (H, G, s)
    M = S2.transpose(0, 3, 1, 2) - nd[:, :, :, None] * d.transpose(0, 2, 1)[:, :, None, :]
    return mean, M
