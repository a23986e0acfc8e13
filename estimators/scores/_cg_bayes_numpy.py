"""The compiled Bayes-rule factor (:func:`~estimators.scores._cg_bayes_kernel.bayes_parameters`
and :func:`~estimators.scores._cg_kernel.bayes_row_sums`) in numpy for one or two
continuous parents, the same operations in the same order (the same numbers bit for bit: fdlibm's
``exp`` and ``log`` of the kernel written in numpy's integer and float operations, each
cell's rows added by numpy's pairwise sum as the kernel reproduces it), over all hyperedges
at once: a small table's score (helpmiss's TAN or kDB) then compiles neither kernel
(~8 s CPU of a first run). A pooled level's singular covariance, where the kernel keeps a
stale precision, is left to the kernel (``bayes_parameters`` returns None). ``max(a, b)`` is numba's (``b if b > a else a``).
"""

from __future__ import annotations

import numpy as np

from estimators.scores import _cg_kernel as K_  # fdlibm's constants (no compilation)
from estimators.scores._cg_continuous_numpy import _log, _max, _merge, log
from estimators.stats.gaussian import LOG_2PI

__all__ = ["bayes_parameters", "bayes_row_sums"]


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
