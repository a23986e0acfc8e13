"""The row work of the Bayes-rule factor (MATH.md §7, a categorical v with continuous
parents C), compiled: ``sum_rows ln p(x_v | x_C, d, y)`` of many hyperedges at once.

``ln p(c | x_C, d, y) = l_c - ln sum_k exp(l_k)`` with ``l_k = ln p(k | d, y) - ln|2 pi S_k|/2
- (x_C - mu_k)^T S_k^-1 (x_C - mu_k) / 2`` (the cell's pooled Gaussians), per row and per
hyperedge. :func:`bayes_row_sums` loops over the rows of each cell (rows sorted by cell)
and, innermost, over the hyperedges, whose parameters lie contiguous per (cell, state):
no temporaries per (row, hyperedge, state) triple, and the loops over hyperedges compile
to SIMD code. The arithmetic is the numpy path's it replaces, operation for operation --
the residuals, the quadratic form as ``sum_{i <= k} (w_ik P_ik r_i) r_k`` term by term
(``w`` 1 on the diagonal, 2 off it), the K = 2 normaliser as ``-logaddexp(0, delta)``
(numpy's formula), the K >= 3 one with the maximum taken out and the states added in
order, each cell's rows added by numpy's pairwise summation -- except ``exp`` and
``log``: :func:`_exp` and :func:`_log` are the algorithms of fdlibm (Sun Microsystems,
1993: "Permission to use, copy, modify, and distribute this software is freely granted,
provided that this notice is preserved"; ``e_exp.c``, ``e_log.c``) written without
branches, so that they vectorise (a call of the C library's ``exp`` per triple would cost
more than all the rest: ~6 ns here). Both are within 1 ulp, like the C library's and
numpy's; where their last bit differs from numpy's the scores move by ~1e-16.

``numba`` compiles on first use (~2 s) and caches the machine code beside this file, or,
where the package directory is read-only, in the user's cache directory (numba's own
fallback); where neither is writable, each process compiles again
(:func:`estimators.base.numba_cache.jit`).
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from estimators.base.numba_cache import jit

__all__ = ["bayes_row_sums", "gather_moments"]


def _jit(**options):
    """:func:`estimators.base.numba_cache.jit` with numpy's error model (no zero-division checks:
    they would stop the loops from vectorising) and ``options``."""
    return jit(error_model="numpy", **options)


@intrinsic
def _bits(typingctx, x):
    """The IEEE bits of a float64 as an int64 (a bitcast, vectorisable)."""
    if x != types.float64:
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))

    return types.int64(types.float64), codegen


@intrinsic
def _from_bits(typingctx, i):
    """The float64 of IEEE bits (inverse of :func:`_bits`)."""
    if i != types.int64:
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())

    return types.float64(types.int64), codegen


_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_INV_LN2 = 1.44269504088896338700e+00
_P1, _P2, _P3 = 1.66666666666666019037e-01, -2.77777777770155933842e-03, 6.61375632143793436117e-05
_P4, _P5 = -1.65339022054652515390e-06, 4.13813679705723846039e-08
_LG1, _LG2, _LG3 = 6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01
_LG4, _LG5 = 2.222219843214978396e-01, 1.818357216161805012e-01
_LG6, _LG7 = 1.531383769920937332e-01, 1.479819860511658591e-01


@_jit(inline="always")
def _exp(x):
    """exp(x) for x <= 0 (fdlibm's reduction ``x = k ln2 + r`` and rational approximation
    on ``|r| <= ln2 / 2``); 0 below -708 (where exp(x) < 4e-308) and for -inf."""
    xc = x if x > -708.0 else -708.0
    t = xc * _INV_LN2
    k = math.floor(t + 0.5)  # an int64 (no numpy ufunc to type)
    hi = xc - k * _LN2_HI
    lo = k * _LN2_LO
    r = hi - lo
    s = r * r
    c = r - s * (_P1 + s * (_P2 + s * (_P3 + s * (_P4 + s * _P5))))
    y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi)
    scale = _from_bits((k + 1023) << 52)
    return y * scale if x > -708.0 else 0.0


@_jit(inline="always")
def _log(x):
    """ln(x) for positive normal x (fdlibm: ``x = 2^k (1 + f)`` with ``1 + f`` in
    [sqrt(2)/2, sqrt(2)), ``s = f / (2 + f)`` and a polynomial in ``s^2``; both of its
    final forms computed, the one fdlibm picks selected)."""
    bits = _bits(x)
    hx = bits >> 32
    k = (hx >> 20) - 1023
    hx &= 0x000FFFFF
    i = (hx + 0x95F64) & 0x100000
    m = _from_bits(((hx | (i ^ 0x3FF00000)) << 32) | (bits & 0xFFFFFFFF))
    k += i >> 20
    f = m - 1.0
    s = f / (2.0 + f)
    dk = float(k)
    z = s * s
    w = z * z
    t1 = w * (_LG2 + w * (_LG4 + w * _LG6))
    t2 = z * (_LG1 + w * (_LG3 + w * (_LG5 + w * _LG7)))
    R = t2 + t1
    hfsq = 0.5 * f * f
    wide = dk * _LN2_HI - ((hfsq - (s * (hfsq + R) + dk * _LN2_LO)) - f)
    narrow = dk * _LN2_HI - ((s * (f - R) - dk * _LN2_LO) - f)
    return wide if ((hx - 0x6147A) | (0x6B851 - hx)) > 0 else narrow


#: the smallest positive normal float64, 2**54 and 54 ln 2 (subnormals scaled into range)
_TINY_NORMAL = 2.2250738585072014e-308
_TWO54 = 2.0 ** 54
_LN_TWO54 = 54.0 * 0.6931471805599453


@_jit(inline="always")
def log(x):
    """ln(x) for every float64 by :func:`_log`: the one ``log`` of the compiled kernels and
    of their numpy forms (``estimators.scores._cg_numpy.log``), so both give the
    same numbers on every CPU (numpy's own ``log`` and the C library's differ by 1 ulp on
    some inputs where numpy uses AVX-512). A subnormal is scaled by 2**54 first; 0 (a zero
    variance without a floor), infinities, negatives and NaN take the C library's value,
    which is exact there (-inf, inf, NaN)."""
    if x >= _TINY_NORMAL and x <= 1.7976931348623157e308:
        return _log(x)
    if x > 0.0 and x < _TINY_NORMAL:
        return _log(x * _TWO54) - _LN_TWO54
    return math.log(x)


@_jit(inline="always")
def _log1p(u):
    """ln(1 + u) for u in [0, 1]: ``ln w - ((w - 1) - u) / w`` with ``w = 1 + u`` rounded
    (the first-order correction for the rounding of w; u itself where w is 1)."""
    w = 1.0 + u
    return _log(w) - ((w - 1.0) - u) / w


@_jit()
def _pairwise_sum(a, n):
    """numpy's pairwise summation of ``a[:n]`` (``np.add.reduce`` of a contiguous run: 8
    accumulators per block of at most 128 entries, blocks halved recursively), bit for
    bit."""
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[i]
        return res
    if n <= 128:
        r0, r1, r2, r3 = a[0], a[1], a[2], a[3]
        r4, r5, r6, r7 = a[4], a[5], a[6], a[7]
        i = 8
        while i < n - (n % 8):
            r0 += a[i]
            r1 += a[i + 1]
            r2 += a[i + 2]
            r3 += a[i + 3]
            r4 += a[i + 4]
            r5 += a[i + 5]
            r6 += a[i + 6]
            r7 += a[i + 7]
            i += 8
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while i < n:
            res += a[i]
            i += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return _pairwise_sum(a, n2) + _pairwise_sum(a[n2:], n - n2)


@_jit(inline="always")
def _quad2(xr, mg, wg, cg, lj, K, H):
    """``lj[k, h]``, two continuous parents, one pass per state (the general loop's
    operations in its order)."""
    for k in range(K):
        for h in range(H):
            r0 = xr[0, h] - mg[0, k, h]
            r1 = xr[1, h] - mg[1, k, h]
            acc = (wg[0, k, h] * r0) * r0
            acc += (wg[1, k, h] * r0) * r1
            acc += (wg[2, k, h] * r1) * r1
            lj[k, h] = acc * -0.5 + cg[k, h]


@_jit(inline="always")
def _quad3(xr, mg, wg, cg, lj, K, H):
    """``lj[k, h]``, three continuous parents (as :func:`_quad2`)."""
    for k in range(K):
        for h in range(H):
            r0 = xr[0, h] - mg[0, k, h]
            r1 = xr[1, h] - mg[1, k, h]
            r2 = xr[2, h] - mg[2, k, h]
            acc = (wg[0, k, h] * r0) * r0
            acc += (wg[1, k, h] * r0) * r1
            acc += (wg[2, k, h] * r0) * r2
            acc += (wg[3, k, h] * r1) * r1
            acc += (wg[4, k, h] * r1) * r2
            acc += (wg[5, k, h] * r2) * r2
            lj[k, h] = acc * -0.5 + cg[k, h]


@_jit(inline="always")
def _quad1(xr, mg, wg, cg, lj, K, H):
    """``lj[k, h]``, one continuous parent (as :func:`_quad2`)."""
    for k in range(K):
        for h in range(H):
            r0 = xr[0, h] - mg[0, k, h]
            lj[k, h] = ((wg[0, k, h] * r0) * r0) * -0.5 + cg[k, h]


@_jit(inline="always")
def _quad(xr, mg, wg, cg, lj, r, K, H):
    """``lj[k, h] = const - (x - mu_k)^T P_k (x - mu_k) / 2`` of one row: the residuals,
    then ``sum_{i <= j} (w_ij P_ij r_i) r_j`` term by term, any number of parents."""
    c = xr.shape[0]
    for k in range(K):
        for i in range(c):
            for h in range(H):
                r[i, h] = xr[i, h] - mg[i, k, h]
        q = 0
        for i in range(c):
            for j in range(i, c):
                if q == 0:
                    for h in range(H):
                        lj[k, h] = (wg[q, k, h] * r[i, h]) * r[j, h]
                else:
                    for h in range(H):
                        lj[k, h] += (wg[q, k, h] * r[i, h]) * r[j, h]
                q += 1
        for h in range(H):
            lj[k, h] = lj[k, h] * -0.5 + cg[k, h]


@_jit()
def bayes_row_sums(X, obs, spos, rows, cv, starts, mean, prec, const, out):
    """Add to ``out[h]`` the sum over rows of ``ln p(cv | x, cell)`` of hyperedge h.

    Parameters
    ----------
    X : ndarray (n, p)
        The continuous columns (any finite value where missing).
    obs : ndarray of bool (n, p)
        Observed entries of ``X``; a row adds 0 to a hyperedge unless its parents are.
    spos : ndarray of int64 (H, c)
        The columns of ``X`` of each hyperedge's continuous parents.
    rows : ndarray of int64 (n',)
        The rows with v and the categorical parents observed, sorted by cell.
    cv : ndarray of int64 (n',)
        The state of v in each of ``rows``.
    starts : ndarray of int64 (G + 1,)
        ``rows[starts[g]:starts[g + 1]]`` are in cell g.
    mean : ndarray (H, K, G, c)
    prec : ndarray (H, K, G, c, c)
    const : ndarray (H, K, G)
        ``ln p(k | cell) - (c ln 2 pi + ln|S_k|) / 2``.
    out : ndarray (H,)
    """
    H, c = spos.shape
    K = const.shape[1]
    G = starts.size - 1
    q = c * (c + 1) // 2
    # unsigned column indices: numba emits no negative-index wraparound for them, and
    # ``&=`` (not ``and``) keeps the row's gather loop free of branches
    cols = np.ascontiguousarray(spos.T).astype(np.uint64)
    most = 0
    for g in range(G):
        most = max(most, starts[g + 1] - starts[g])
    buf = np.empty((max(most, 1), H))
    lj = np.empty((K, H))
    r = np.empty((c, H))
    xr = np.empty((c, H))
    ok = np.empty(H, dtype=np.bool_)
    top = np.empty(H)
    total = np.empty(H)
    # one cell's parameters, hyperedges last (contiguous for the innermost loops); the
    # precision entries i <= j row-major, times their weight in the quadratic form (1 on
    # the diagonal, 2 off it)
    mg = np.empty((c, K, H))
    wg = np.empty((q, K, H))
    cg = np.empty((K, H))
    for g in range(G):
        lo, hi = starts[g], starts[g + 1]
        if hi == lo:
            continue
        for h in range(H):
            for k in range(K):
                cg[k, h] = const[h, k, g]
                n = 0
                for i in range(c):
                    mg[i, k, h] = mean[h, k, g, i]
                    for j in range(i, c):
                        wg[n, k, h] = prec[h, k, g, i, j] * (1.0 if i == j else 2.0)
                        n += 1
        for t in range(lo, hi):
            row = rows[t]
            xrow = X[row]
            orow = obs[row]
            for h in range(H):
                ok[h] = True
            for i in range(c):
                for h in range(H):
                    a = cols[i, h]
                    xr[i, h] = xrow[a]
                    ok[h] &= orow[a]
            if c == 1:
                _quad1(xr, mg, wg, cg, lj, K, H)
            elif c == 2:
                _quad2(xr, mg, wg, cg, lj, K, H)
            elif c == 3:
                _quad3(xr, mg, wg, cg, lj, K, H)
            else:
                _quad(xr, mg, wg, cg, lj, r, K, H)
            s = cv[t]
            if K == 2:  # -logaddexp(0, delta), delta = l_other - l_chosen
                sign = 1.0 if s == 0 else -1.0
                for h in range(H):
                    delta = (lj[1, h] - lj[0, h]) * sign
                    val = -((delta if delta > 0.0 else 0.0)
                            + _log1p(_exp(-abs(delta))))
                    buf[t - lo, h] = val if ok[h] else 0.0
            else:
                for h in range(H):
                    top[h] = lj[0, h]
                for k in range(1, K):
                    for h in range(H):
                        top[h] = max(top[h], lj[k, h])
                for h in range(H):
                    top[h] = top[h] if math.isfinite(top[h]) else 0.0
                    total[h] = _exp(lj[0, h] - top[h])
                for k in range(1, K):
                    for h in range(H):
                        total[h] += _exp(lj[k, h] - top[h])
                for h in range(H):
                    val = lj[s, h] - (_log(total[h]) + top[h])
                    buf[t - lo, h] = val if ok[h] else 0.0
        for h in range(H):
            out[h] += _pairwise_sum(buf[:, h], hi - lo)


@_jit()
def gather_moments(comp, R1, R2, spos, ref, n, mean, M):
    """The cell means and centred cross products of the continuous columns ``spos`` of each
    hyperedge from a block's raw sums about the cells' reference points (the numpy
    expressions of :meth:`CGTables.gather <estimators.scores._cg_batch.CGTables.gather>`,
    element by element in their order: the patterns added in order from 0, then
    ``d = S1 / max(n, 1)``, ``mean = ref + d``, ``M = S2 - (n d_i) d_k``).

    Parameters
    ----------
    comp : ndarray of bool (H, r)
        The missingness patterns in which each hyperedge's columns are all observed.
    R1 : ndarray (r, p, G)
    R2 : ndarray (r, p, p, G) or, without cross products (one column), (r, p, 1, G)
    spos : ndarray of int64 (H, s)
    ref : ndarray (G, p)
    n : ndarray (H, G)
        The rows of each hyperedge in each cell.
    mean, M : ndarray (H, G, s), (H, G, s, s)
        Filled.
    """
    H, s = spos.shape
    r, G = R1.shape[0], R1.shape[2]
    cross = R2.shape[2] > 1
    S1 = np.empty((s, G))
    S2 = np.empty((s, s, G))
    for h in range(H):
        S1[:] = 0.0
        S2[:] = 0.0
        for q in range(r):
            if not comp[h, q]:
                continue
            for i in range(s):
                a = spos[h, i]
                for g in range(G):
                    S1[i, g] += R1[q, a, g]
                for k in range(s):
                    b = spos[h, k] if cross else 0
                    for g in range(G):
                        S2[i, k, g] += R2[q, a, b, g]
        for g in range(G):
            n1 = max(n[h, g], 1.0)
            for i in range(s):
                d = S1[i, g] / n1
                mean[h, g, i] = ref[g, spos[h, i]] + d
                S1[i, g] = d
            for i in range(s):
                for k in range(s):
                    M[h, g, i, k] = S2[i, k, g] - (n[h, g] * S1[i, g]) * S1[k, g]
