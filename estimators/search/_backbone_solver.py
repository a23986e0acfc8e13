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
from estimators.search._backbone_tables import BackboneTables, submask_pairs
from estimators.search._common import colex_rank

NEG = -np.inf


def _finite_or_neg(values: np.ndarray) -> np.ndarray:
    """NaN (from inf - inf on infeasible states) counts as infeasible."""
    return np.where(np.isnan(values), NEG, values)


#: candidate values a level step holds at once (bounds the working memory: a few arrays of
#: this many 8-byte cells)
CHUNK_CELLS = 1 << 20


def _chunks(lo: int, hi: int, per_state: int):
    """Slices of the states lo..hi holding at most CHUNK_CELLS candidates each (states of
    one level and group are independent: they read only lower levels)."""
    step = max(1, CHUNK_CELLS // max(per_state, 1))
    for start in range(int(lo), int(hi), step):
        yield start, min(start + step, int(hi))


class BackboneSolver:
    """Fill the DP tables for score tables ``fk[t, v] = f(v, t)`` (|t| = k) and
    ``fsmall[j][r, v] = f(v, subset of rank r)`` (|subset| = j < k)."""

    def __init__(self, tables: BackboneTables, fk: np.ndarray, fsmall: list[np.ndarray]):
        self.tb, self.fk, self.fsmall = tables, fk, fsmall
        T, D = tables.T, tables.D
        self.B = np.full((len(T.rows), T.n_masks), NEG)
        self.Barg = np.zeros(self.B.shape, np.min_scalar_type(tables.n))
        self.W = np.full((len(D.rows), D.n_masks), NEG)
        self.Warg = np.zeros(self.W.shape, np.int8)
        self.C = np.full((len(D.rows), D.n_masks), NEG)
        self.C[:, 0] = 0.0
        self.Carg = np.zeros(self.C.shape, np.min_scalar_type(D.n_masks))

    # -- states, sorted by level -----------------------------------------------------------
    @staticmethod
    def _states(table, key_extra=None):
        """Non-empty valid (clique, mask) states in order of (level, key_extra), with the
        boundaries of each run of equal keys (a stable radix sort of small integer keys)."""
        pieces = []  # nonzero in row blocks: its int64 output stays small
        for lo in range(0, table.valid.shape[0], 1 << 16):
            r, m = np.nonzero(table.valid[lo:lo + (1 << 16), 1:])
            pieces.append(((r + lo).astype(np.int32), m.astype(np.int32)))
        rank = np.concatenate([p[0] for p in pieces]) if pieces else np.zeros(0, np.int32)
        mask = np.concatenate([p[1] for p in pieces]) if pieces else np.zeros(0, np.int32)
        del pieces
        mask += 1
        level = table.count[rank, mask]
        key = level if key_extra is None else level * 64 + key_extra[mask]
        key = key.astype(np.min_scalar_type(key.max(initial=0)))
        order = np.argsort(key, kind="stable")
        rank, mask, key = rank[order], mask[order], key[order]
        del order
        bounds = np.flatnonzero(np.r_[True, key[1:] != key[:-1], True]) if key.size else [0]
        return rank, mask, key, bounds

    def _b_level(self, t: np.ndarray, mask: np.ndarray, level: int) -> None:
        """B for states (t, mask) whose region holds ``level`` vertices: every one of them
        as the top vertex (a (states, level) array of candidates, ascending v)."""
        tb = self.tb
        T = tb.T
        bits = (mask[:, None] >> np.arange(tb.k + 1)) & 1
        sizes = np.clip(T.right[t] - T.left[t] + 1, 0, None) * bits
        ends = np.cumsum(sizes, axis=1)                  # (states, k + 1)
        w = np.arange(level)
        slot = (w[None, :, None] >= ends[:, None, :]).sum(axis=2)     # (states, level)
        rows = np.arange(len(t))[:, None]
        v = T.left[t[:, None], slot] + w[None, :] - (ends - sizes)[rows, slot]
        tt, vv = np.broadcast_to(t[:, None], v.shape).ravel(), v.ravel()
        d, region = tb.add_vertex(tt, vv, np.broadcast_to(mask[:, None], v.shape).ravel(),
                                  slot.ravel())
        vals = _finite_or_neg(self.fk[tt, vv] + self.C[d, region]).reshape(v.shape)
        best = np.argmax(vals, axis=1)
        self.B[t, mask] = vals[rows[:, 0], best]
        self.Barg[t, mask] = v[rows[:, 0], best]

    def _w_level(self, d: np.ndarray, m: np.ndarray) -> None:
        tb = self.tb
        j = np.arange(tb.k + 1)
        d, m = d[:, None], m[:, None]
        allowed = ((m >> j) & 3) == 0           # slots j and j + 1 both outside m
        vals = np.where(allowed, self.B[tb.drop[d, j], tb.drop_mask(m, j)], NEG)
        best = np.argmax(vals, axis=1)
        self.W[d[:, 0], m[:, 0]] = vals[np.arange(len(best)), best]
        self.Warg[d[:, 0], m[:, 0]] = best

    def _c_level(self, d: np.ndarray, e: np.ndarray, parts: np.ndarray) -> None:
        """C for states (d, e) whose masks have the same number of bits: ``parts[e]`` lists
        the submasks P of e holding e's lowest bit, ascending (a (states, 2^(bits-1))
        array of candidates)."""
        p = parts[e]
        vals = _finite_or_neg(self.W[d[:, None], p] + self.C[d[:, None], e[:, None] ^ p])
        best = np.argmax(vals, axis=1)
        rows = np.arange(len(d))
        self.C[d, e] = vals[rows, best]
        self.Carg[d, e] = p[rows, best]

    # -- the levels ------------------------------------------------------------------------
    def run(self) -> None:
        """Fill B, W and C level by level (a level: the number of vertices in the region).

        Candidates are generated per level, never all at once, so memory stays at the
        tables' size; ties go to the lowest top vertex v, slot j and submask P."""
        tb = self.tb
        n_masks = tb.D.n_masks
        popcount = np.array([bin(x).count("1") for x in range(n_masks)])
        es, ps = submask_pairs(n_masks)
        by_bits = {}
        for bits in range(1, tb.k + 3):
            parts = np.zeros((n_masks, 1 << (bits - 1)), np.int64)
            for e in np.flatnonzero(popcount == bits):
                parts[e] = np.sort(ps[es == e])
            by_bits[bits] = parts
        bt, bm, bkey, bb = self._states(tb.T)
        wd, wm, wkey, wb = self._states(tb.D)
        cd, ce, ckey, cb = self._states(tb.D, popcount)
        bi = wi = ci = 0
        for level in progress(range(1, tb.n - tb.k + 1), "backbone DP levels"):
            while bi < len(bb) - 1 and bkey[bb[bi]] == level:
                for lo, hi in _chunks(bb[bi], bb[bi + 1], level):
                    self._b_level(bt[lo:hi].astype(np.int64), bm[lo:hi].astype(np.int64),
                                  level)
                bi += 1
            while wi < len(wb) - 1 and wkey[wb[wi]] == level:
                for lo, hi in _chunks(wb[wi], wb[wi + 1], tb.k + 1):
                    self._w_level(wd[lo:hi].astype(np.int64), wm[lo:hi].astype(np.int64))
                wi += 1
            while ci < len(cb) - 1 and ckey[cb[ci]] // 64 == level:
                parts = by_bits[int(ckey[cb[ci]] % 64)]
                for lo, hi in _chunks(cb[ci], cb[ci + 1], parts.shape[1]):
                    self._c_level(cd[lo:hi].astype(np.int64), ce[lo:hi].astype(np.int64),
                                  parts)
                ci += 1

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
        """The subtree of ``B[t, mask]`` as ``[v, [(u, child subtree), ...]]`` (built with an
        explicit stack: no recursion over the depth)."""
        tb = self.tb
        top: list = [None, []]
        stack = [(t, mask, top)]
        while stack:
            t, mask, node = stack.pop()
            v = int(self.Barg[t, mask])
            d, region = tb.add_vertex(np.array([t]), np.array([v]), np.array([mask]))
            d, region = int(d[0]), int(region[0])
            node[0] = v
            while region:
                p = int(self.Carg[d, region])
                j = int(self.Warg[d, p])
                child: list = [None, []]
                node[1].append((int(tb.D.rows[d, j]), child))
                stack.append((int(tb.drop[d, j]), int(tb.drop_mask(p, j)), child))
                region ^= p
        return top
