"""The level-by-level, vectorised dynamic program behind :func:`backbone_dp`.

Tables over backbone positions (see :mod:`._backbone_tables`):

* ``B[t, R]`` — best subtree hanging from k-set t whose vertex set is the region R (a union
  of t's gaps): its top vertex v gets parents t, then ``C[t + v, R - v]``.
* ``W[d, P]`` — best way to hang region P (a union of gaps of (k+1)-set d) from one k-subset
  ``d - u`` with u adjacent to no gap of P: ``max_u B[d - u, P]``.
* ``C[d, R]`` — best way to hang region R from the k-subsets of d: a partition of R's gaps
  into blocks P, each scored ``W[d, P]``.

The states are processed in order of the number of vertices in their region, so every value
read has been computed; each level is a handful of NumPy gathers and grouped maxima.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

from estimators.progress import progress
from estimators.search._backbone_tables import (
    BackboneTables,
    group_max,
    submask_pairs,
)
from estimators.search._common import colex_rank

NEG = -np.inf


def _finite_or_neg(values: np.ndarray) -> np.ndarray:
    """NaN (from inf - inf on infeasible states) counts as infeasible."""
    return np.where(np.isnan(values), NEG, values)


class BackboneSolver:
    """Fill the DP tables for score tables ``fk[t, v] = f(v, t)`` (|t| = k) and
    ``fsmall[j][r, v] = f(v, subset of rank r)`` (|subset| = j < k)."""

    def __init__(self, tables: BackboneTables, fk: np.ndarray, fsmall: list[np.ndarray]):
        self.tb, self.fk, self.fsmall = tables, fk, fsmall
        T, D = tables.T, tables.D
        self.B = np.full((len(T.rows), T.n_masks), NEG)
        self.Barg = np.zeros(self.B.shape, np.int64)
        self.W = np.full((len(D.rows), D.n_masks), NEG)
        self.Warg = np.zeros(self.W.shape, np.int64)
        self.C = np.full((len(D.rows), D.n_masks), NEG)
        self.C[:, 0] = 0.0
        self.Carg = np.zeros(self.C.shape, np.int64)

    # -- candidate lists, sorted by level -------------------------------------------------
    def _b_candidates(self):
        tb = self.tb
        T = tb.T
        n = tb.n
        in_t = (T.rows[:, :, None] == np.arange(n)).any(axis=1)
        t, v = np.nonzero(~in_t)
        s = tb.slot_of(t, v)
        masks = np.arange(T.n_masks)
        ok = T.valid[t][:, masks] & (((masks[None, :] >> s[:, None]) & 1) == 1)
        row, col = np.nonzero(ok)
        t, v, mask = t[row], v[row], masks[col]
        d, region = tb.add_vertex(t, v, mask)
        level = T.count[t, mask]
        group = t * T.n_masks + mask
        order = np.lexsort((v, group, level))
        return [a[order] for a in (level, group, t, mask, v, d, region)]

    def _w_states(self):
        tb = self.tb
        D = tb.D
        d, mask = np.nonzero(D.valid)
        keep = mask > 0
        d, mask = d[keep], mask[keep]
        level = D.count[d, mask]
        order = np.argsort(level, kind="stable")
        return level[order], d[order], mask[order]

    def _c_candidates(self):
        D = self.tb.D
        es, ps = submask_pairs(D.n_masks)
        d = np.repeat(np.arange(len(D.rows)), len(es))
        e, p = np.tile(es, len(D.rows)), np.tile(ps, len(D.rows))
        keep = D.valid[d, e]
        d, e, p = d[keep], e[keep], p[keep]
        level = D.count[d, e]
        group = d * D.n_masks + e
        order = np.lexsort((p, group, level))
        return [a[order] for a in (level, group, d, e, p)]

    # -- the levels ------------------------------------------------------------------------
    def run(self) -> None:
        tb = self.tb
        bl, bg, bt, bm, bv, bd, br = self._b_candidates()
        wl, wd, wm = self._w_states()
        cl, cg, cd, ce, cp = self._c_candidates()
        fb = self.fk[bt, bv]
        j = np.arange(tb.k + 1)
        for level in progress(range(1, tb.n - tb.k + 1), "backbone DP levels"):
            lo, hi = np.searchsorted(bl, [level, level + 1])
            if hi > lo:
                vals = _finite_or_neg(fb[lo:hi] + self.C[bd[lo:hi], br[lo:hi]])
                starts, gmax, first = group_max(vals, bg[lo:hi])
                t, m = bt[lo:hi][starts], bm[lo:hi][starts]
                self.B[t, m] = gmax
                self.Barg[t, m] = bv[lo:hi][first]
            lo, hi = np.searchsorted(wl, [level, level + 1])
            if hi > lo:
                d, m = wd[lo:hi, None], wm[lo:hi, None]
                allowed = ((m >> j) & 3) == 0           # slots j and j + 1 both outside m
                vals = np.where(allowed, self.B[tb.drop[d, j], tb.drop_mask(m, j)], NEG)
                best = np.argmax(vals, axis=1)
                self.W[d[:, 0], m[:, 0]] = vals[np.arange(len(best)), best]
                self.Warg[d[:, 0], m[:, 0]] = best
            lo, hi = np.searchsorted(cl, [level, level + 1])
            if hi > lo:
                d, e, p = cd[lo:hi], ce[lo:hi], cp[lo:hi]
                vals = _finite_or_neg(self.W[d, p] + self.C[d, e ^ p])
                starts, gmax, first = group_max(vals, cg[lo:hi])
                self.C[d[starts], e[starts]] = gmax
                self.Carg[d[starts], e[starts]] = p[first]

    # -- the top: the first k vertices ------------------------------------------------------
    def top(self):
        """Best (value, k-set rank, order of its vertices, partition of the rest)."""
        tb = self.tb
        T = tb.T
        nt = len(T.rows)
        A = np.full((nt, T.n_masks), NEG)
        A[:, 0] = 0.0
        Aarg = np.zeros(A.shape, np.int64)
        for e, p in zip(*submask_pairs(T.n_masks), strict=True):
            cand = _finite_or_neg(self.B[:, p] + A[:, e ^ p])
            better = cand > A[:, e]
            A[better, e] = cand[better]
            Aarg[better, e] = p
        root = np.full(nt, NEG)
        root_perm = np.zeros(nt, np.int64)
        perms = list(permutations(range(tb.k)))
        for index, perm in enumerate(perms):
            value = np.zeros(nt)
            for i in range(tb.k):
                prefix = np.sort(T.rows[:, list(perm[:i])], axis=1)
                value = value + self.fsmall[i][colex_rank(prefix, tb.binom), T.rows[:, perm[i]]]
            value = _finite_or_neg(value)
            better = value > root
            root[better] = value[better]
            root_perm[better] = index
        total = _finite_or_neg(root + A[np.arange(nt), T.nonempty])
        t = int(np.argmax(total))
        if total[t] == NEG:
            raise ValueError("Every backbone k-tree scores -inf under f: no feasible structure.")
        blocks, e = [], int(T.nonempty[t])
        while e:
            p = int(Aarg[t, e])
            blocks.append(p)
            e ^= p
        order = [int(T.rows[t, i]) for i in perms[root_perm[t]]]
        return float(total[t]), t, order, blocks

    # -- reconstruction ---------------------------------------------------------------------
    def subtree(self, t: int, mask: int):
        """The subtree of ``B[t, mask]`` as ``(v, [(u, child subtree), ...])``."""
        tb = self.tb
        v = int(self.Barg[t, mask])
        d, region = tb.add_vertex(np.array([t]), np.array([v]), np.array([mask]))
        d, region = int(d[0]), int(region[0])
        children = []
        while region:
            p = int(self.Carg[d, region])
            j = int(self.Warg[d, p])
            u = int(tb.D.rows[d, j])
            children.append((u, self.subtree(int(tb.drop[d, j]), int(tb.drop_mask(p, j)))))
            region ^= p
        return v, children
