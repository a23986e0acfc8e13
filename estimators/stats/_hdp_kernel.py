"""The Gibbs sampler of :mod:`estimators.stats.hdp`, compiled, and its plain-Python form.

One call runs a block of sweeps over the tree's table counts ``t_jk`` (every node from the
deepest level up to the root, each value in turn, as the reference implementation does),
samples the tied concentrations every ``frequency`` sweeps and adds the node probabilities
of every sweep after the burn-in to a running sum. The state lives in arrays owned by the
caller, so blocks chain, and the compiled kernel and the Python form (the same code, its
helpers the Python functions: :data:`PYTHON`) give the same numbers: both take their random
numbers from the same generator (MRG32k3a, L'Ecuyer 1999, in integer arithmetic exact in
64 bits) and ``math``'s functions.

``numba`` compiles on first use and caches the machine code
(:func:`estimators.base.numba_cache.jit`).
"""

from __future__ import annotations

import math
from types import FunctionType

import numpy as np

from estimators.base.numba_cache import jit

__all__ = ["PYTHON", "WINDOW", "MAX_TABLES", "gibbs_block", "probabilities"]

#: candidate table counts either side of the current one (the reference's window)
WINDOW = 10
#: the largest table count sampled (the reference's cap)
MAX_TABLES = 10000
#: the largest concentration (the reference's cap)
MAX_CONCENTRATION = 4000.0

_M1 = 4294967087
_M2 = 4294944443
_NORM = 1.0 / (_M1 + 1)


@jit()
def _uniform(s):
    """The next uniform of MRG32k3a (state ``s``, six int64 in place), in (0, 1)."""
    p1 = (1403580 * s[1] - 810728 * s[0]) % _M1
    s[0] = s[1]
    s[1] = s[2]
    s[2] = p1
    p2 = (527612 * s[5] - 1370589 * s[3]) % _M2
    s[3] = s[4]
    s[4] = s[5]
    s[5] = p2
    d = p1 - p2
    if d <= 0:
        d += _M1
    return d * _NORM


@jit()
def _normal(s, spare):
    """A standard normal (Box-Muller: the pair's second kept in ``spare``, a flag and a
    value)."""
    if spare[0] > 0.0:
        spare[0] = 0.0
        return spare[1]
    r = math.sqrt(-2.0 * math.log(_uniform(s)))
    angle = 2.0 * math.pi * _uniform(s)
    spare[0] = 1.0
    spare[1] = r * math.sin(angle)
    return r * math.cos(angle)


@jit()
def _gamma(a, s, spare):
    """A Gamma(a, 1) variate (Marsaglia & Tsang 2000; ``a < 1`` boosted by ``U**(1/a)``)."""
    boost = 1.0
    if a < 1.0:
        boost = _uniform(s) ** (1.0 / a)
        a += 1.0
    d = a - 1.0 / 3.0
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        x = _normal(s, spare)
        v = 1.0 + c * x
        if v <= 0.0:
            continue
        v = v * v * v
        u = _uniform(s)
        if math.log(u) < 0.5 * x * x + d - d * v + d * math.log(v):
            return d * v * boost


@jit()
def _log_gamma_ratio(cache, valid, ci, c, n):
    """``ln Gamma(c + n) - ln Gamma(c)`` of concentration ``c`` (cache row ``ci``), from
    its cache (extended as the reference's is: ``sum_{i < n} ln(c + i)``)."""
    if n > valid[ci]:
        for i in range(valid[ci] + 1, n + 1):
            cache[ci, i] = cache[ci, i - 1] + math.log(i - 1 + c)
        valid[ci] = n
    return cache[ci, n]


@jit()
def _set_tables(j, k, t, tk, mt, nk, mn, parent):
    """``t_jk = t`` and the parent's ``n`` with it."""
    inc = t - tk[j, k]
    tk[j, k] = t
    mt[j] += inc
    p = parent[j]
    if p >= 0:
        nk[p, k] += inc
        mn[p] += inc


@jit()
def probabilities(nk, mn, parent, conc_of, conc, root_conc, pk):
    """Every node's ``p_jk = (n_jk + c_j p_parent(j),k) / (N_j + c_j)`` (the root's parent
    uniform, its concentration ``root_conc``), parents first (nodes in level order),
    renormalised (as the reference does: rounding only)."""
    K = nk.shape[1]
    for j in range(nk.shape[0]):
        p = parent[j]
        c = root_conc if p < 0 else conc[conc_of[j]]
        inv = 1.0 / (mn[j] + c)
        total = 0.0
        for k in range(K):
            base = 1.0 / K if p < 0 else pk[p, k]
            pk[j, k] = (nk[j, k] + c * base) * inv
            total += pk[j, k]
        inv = 1.0 / total
        for k in range(K):
            pk[j, k] *= inv


@jit()
def gibbs_block(first, n_iter, burn_in, frequency, nk, tk, mn, mt, parent, level_start,
                conc_of, conc, sampled, tied_ptr, tied_nodes, root_conc, prior_rate,
                prior_shape, stirling, lgr, lgr_valid, state, spare, pk, psum, weights):
    """Sweeps ``first, ..., first + n_iter - 1`` (module docstring); returns the sweeps done
    and the number of them added to ``psum``: fewer than ``n_iter`` when the next sweep
    could need a table count beyond the columns of ``stirling`` (the caller extends it
    and calls again from there). ``lgr`` / ``lgr_valid``: the log-gamma-ratio caches, the
    root's concentration last."""
    K = nk.shape[1]
    n_levels = level_start.size - 1
    root_ci = conc.size  # the root's cache row
    added = 0
    for it in range(first, first + n_iter):
        # a sweep moves each t by at most WINDOW (a parent's t already moved: 2 WINDOW)
        highest = 0
        for j in range(tk.shape[0]):
            for k in range(K):
                if tk[j, k] > highest:
                    highest = tk[j, k]
        if highest + 2 * WINDOW + 1 >= stirling.shape[1] and stirling.shape[1] < stirling.shape[0]:
            return it - first, added
        for level in range(n_levels - 1, -1, -1):
            for j in range(level_start[level], level_start[level + 1]):
                p = parent[j]
                if p < 0:  # the root: one table per value seen
                    for k in range(K):
                        _set_tables(j, k, 1 if nk[j, k] > 0 else 0, tk, mt, nk, mn, parent)
                    continue
                cj = conc[conc_of[j]]
                logc = math.log(cj)
                if parent[p] < 0:
                    cpi = root_ci
                    cpv = root_conc
                else:
                    cpi = conc_of[p]
                    cpv = conc[cpi]
                for k in range(K):
                    n = nk[j, k]
                    t = tk[j, k]
                    if n <= 1:
                        if t != n:
                            _set_tables(j, k, n, tk, mt, nk, mn, parent)
                        continue
                    lo = max(1, t - WINDOW)
                    hi = min(t + WINDOW, n, MAX_TABLES)
                    others_n = nk[p, k] - t
                    others_N = mn[p] - t
                    ptk = tk[p, k]
                    lo = max(lo, ptk - others_n)  # the parent keeps n >= t
                    if lo > hi:
                        continue
                    best = -np.inf
                    for v in range(lo, hi + 1):
                        w = (stirling[n, v] + v * logc + stirling[others_n + v, ptk]
                             - _log_gamma_ratio(lgr, lgr_valid, cpi, cpv, others_N + v))
                        weights[v - lo] = w
                        if w > best:
                            best = w
                    if best == -np.inf:
                        continue
                    total = 0.0
                    for v in range(lo, hi + 1):  # exp(-60) adds nothing to the sum's bits
                        d = weights[v - lo] - best
                        weights[v - lo] = math.exp(d) if d > -60.0 else 0.0
                        total += weights[v - lo]
                    u = _uniform(state) * total
                    chosen = hi
                    acc = 0.0
                    for v in range(lo, hi + 1):
                        acc += weights[v - lo]
                        if u < acc:
                            chosen = v
                            break
                    if chosen != t:
                        _set_tables(j, k, chosen, tk, mt, nk, mn, parent)
        if frequency > 0 and (it + frequency // 2) % frequency == 0:
            for ci in range(conc.size):
                if not sampled[ci]:
                    continue
                rate = prior_rate
                total_t = 0
                for q in range(tied_ptr[ci], tied_ptr[ci + 1]):
                    j = tied_nodes[q]
                    x = _gamma(conc[ci], state, spare)
                    y = _gamma(float(mn[j]), state, spare)
                    b = x / (x + y) if x + y > 0.0 else 0.0
                    rate += -math.log(max(1e-75, b))
                    total_t += mt[j]
                c = _gamma(total_t + prior_shape, state, spare) / rate
                conc[ci] = min(MAX_CONCENTRATION, c)
                lgr_valid[ci] = 0
        if it >= burn_in:
            probabilities(nk, mn, parent, conc_of, conc, root_conc, pk)
            for j in range(pk.shape[0]):
                for k in range(K):
                    psum[j, k] += pk[j, k]
            added += 1
    return n_iter, added


def _python_forms() -> dict:
    """The kernels' plain-Python forms: the same code objects, their helpers the Python
    functions (no compilation)."""
    names = ["_uniform", "_normal", "_gamma", "_log_gamma_ratio", "_set_tables",
             "probabilities", "gibbs_block"]
    g = dict(globals())
    for name in names:
        fn = g[name].py_func
        g[name] = FunctionType(fn.__code__, g, name)
    return {name: g[name] for name in names}


#: ``{name: plain-Python form}`` of the kernels (module docstring)
PYTHON = _python_forms()
