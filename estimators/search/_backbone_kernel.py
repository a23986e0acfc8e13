"""The backbone DP's levels, compiled: the states of each level in one pass of loops.

:class:`~estimators.search._backbone_solver.BackboneSolver` fills ``B``, ``W`` and ``C``
level by level (a level: the number of vertices in a state's region). Here each state's
candidates are looped over in the order the recursion defines -- top vertices ``v``
ascending (``B``), left-out slots ``j`` ascending (``W``), submasks ``P`` holding the
region's lowest slot ascending (``C``) -- keeping the first maximum (a NaN candidate, from
``inf - inf``, counts as ``-inf``): the same floating-point additions and the same ties as
the vectorised numpy levels they replace, without their (states, candidates) temporaries
or the sort of the 12 M states of a 3-tree over 60 variables (:func:`level_buckets` is a
counting sort).

``numba`` compiles on first use (~2 s) and caches the machine code beside this file, or,
where the package directory is read-only, in the user's cache directory; where neither is
writable, each process compiles again (:func:`estimators.base.numba_cache.jit`).
"""

from __future__ import annotations

import numpy as np

from estimators.base.numba_cache import jit

__all__ = ["b_level", "c_level", "level_buckets", "w_level"]


@jit()
def _level(sizes, r, mask):
    """The vertices in region ``mask`` of clique ``r`` (gap sizes ``sizes``), or -1 when
    the region holds an empty gap (not a state)."""
    level = 0
    for s in range(sizes.shape[1]):
        if (mask >> s) & 1:
            if sizes[r, s] == 0:
                return -1
            level += sizes[r, s]
    return level


@jit()
def level_buckets(left: np.ndarray, right: np.ndarray, n_levels: int):
    """The valid non-empty states ``rank * n_masks + mask`` of a clique table (gap slots
    ``left``/``right`` (cliques, slots)) grouped by level: ``(states, starts)`` with the
    states of level L at ``states[starts[L]:starts[L + 1]]`` (rank, then mask, ascending
    within a level)."""
    count, slots = left.shape
    n_masks = 1 << slots
    sizes = np.maximum(right - left + 1, 0)
    hist = np.zeros(n_levels + 2, np.int64)
    for r in range(count):
        for mask in range(1, n_masks):
            level = _level(sizes, r, mask)
            if level >= 0:
                hist[level + 1] += 1
    starts = np.cumsum(hist)
    fill = starts.copy()
    states = np.empty(starts[-1], np.int64)
    for r in range(count):
        for mask in range(1, n_masks):
            level = _level(sizes, r, mask)
            if level >= 0:
                states[fill[level]] = r * n_masks + mask
                fill[level] += 1
    return states, starts


@jit()
def b_level(states, left, right, low, high, binom, fk, C, B, Barg):
    """``B[t, R] = max_v fk[t, v] + C[t + v, R - v]`` over the top vertices v of region R
    (ascending; the region ``R - v`` as a mask over the slots of ``t + v``)."""
    slots = left.shape[1]
    n_masks = 1 << slots
    for i in range(states.size):
        t, mask = divmod(states[i], n_masks)
        best, arg, first = -np.inf, 0, True
        for s in range(slots):
            if (mask >> s) & 1:
                keep = mask & ((1 << s) - 1)
                above = (mask >> (s + 1)) << (s + 2)
                for v in range(left[t, s], right[t, s] + 1):
                    region = (keep | (int(v > left[t, s]) << s)
                              | (int(v < right[t, s]) << (s + 1)) | above)
                    d = low[t, s] + binom[v, s + 1] + high[t, s]
                    val = fk[t, v] + C[d, region]
                    if val != val:
                        val = -np.inf
                    if first or val > best:
                        best, arg, first = val, v, False
        B[t, mask] = best
        Barg[t, mask] = arg


@jit()
def w_level(states, n_masks, drop, B, W, Warg):
    """``W[d, P] = max_j B[d - d_j, P]`` over the slots j with neither slot j nor j + 1 in
    P (the others are ``-inf``), ascending j."""
    k1 = drop.shape[1]
    for i in range(states.size):
        d, m = divmod(states[i], n_masks)
        best, arg = -np.inf, 0
        for j in range(k1):
            val = -np.inf
            if ((m >> j) & 3) == 0:
                val = B[drop[d, j], (m & ((1 << j) - 1)) | ((m >> (j + 2)) << (j + 1))]
            if j == 0 or val > best:
                best, arg = val, j
        W[d, m] = best
        Warg[d, m] = arg


@jit()
def c_level(states, n_masks, W, C, Carg):
    """``C[d, R] = max_P W[d, P] + C[d, R - P]`` over the submasks P of R holding R's
    lowest slot, ascending."""
    for i in range(states.size):
        d, e = divmod(states[i], n_masks)
        lowest = e & -e
        rest = e ^ lowest
        sub = 0
        best, arg, first = -np.inf, 0, True
        while True:
            p = sub | lowest
            val = W[d, p] + C[d, e ^ p]
            if val != val:
                val = -np.inf
            if first or val > best:
                best, arg, first = val, p, False
            if sub == rest:
                break
            sub = (sub - rest) & rest
        C[d, e] = best
        Carg[d, e] = arg
