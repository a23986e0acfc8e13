"""The level-by-level, vectorised dynamic program behind :func:`backbone_dp`.

Tables over backbone positions (see :mod:`._backbone_tables`):

* ``B[t, R]`` — best subtree hanging from k-set t whose vertex set is the region R (a union
  of t's gaps): its top vertex v gets parents t, then ``C[t + v, R - v]``.
* ``W[d, P]`` — best way to hang region P (a union of gaps of (k+1)-set d) from one k-subset
  ``d - u`` with u adjacent to no gap of P: ``max_u B[d - u, P]``.
* ``C[d, R]`` — best way to hang region R from the k-subsets of d: a partition of R's gaps
  into blocks P, each scored ``W[d, P]``.

The states are processed in order of the number of vertices in their region, so every value
read has been computed; each level's states are looped over by compiled code
(:mod:`._backbone_kernel`).
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

from estimators.base.progress import progress
from estimators.search._backbone_kernel import b_level, c_level, level_buckets, w_level
from estimators.search._backbone_tables import BackboneTables, submask_pairs
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
        self.Barg = np.zeros(self.B.shape, np.min_scalar_type(tables.n))
        self.W = np.full((len(D.rows), D.n_masks), NEG)
        self.Warg = np.zeros(self.W.shape, np.int8)
        self.C = np.full((len(D.rows), D.n_masks), NEG)
        self.C[:, 0] = 0.0
        self.Carg = np.zeros(self.C.shape, np.min_scalar_type(D.n_masks))

    # -- the levels ------------------------------------------------------------------------
    def run(self) -> None:
        """Fill B, W and C level by level (a level: the number of vertices in the region;
        the compiled loops of :mod:`._backbone_kernel`): every value read has been
        computed, and memory stays at the tables' size plus one state index per cell; ties
        go to the lowest top vertex v, slot j and submask P."""
        tb = self.tb
        T, D = tb.T, tb.D
        levels = tb.n - tb.k
        bstates, bstarts = level_buckets(T.left, T.right, levels)
        dstates, dstarts = level_buckets(D.left, D.right, levels)
        for level in progress(range(1, levels + 1), "backbone DP levels"):
            b_level(bstates[bstarts[level]:bstarts[level + 1]], T.left, T.right, tb.low_terms,
                    tb.high_terms, tb.binom, self.fk, self.C, self.B, self.Barg)
            at = dstates[dstarts[level]:dstarts[level + 1]]
            w_level(at, D.n_masks, tb.drop, self.B, self.W, self.Warg)
            c_level(at, D.n_masks, self.W, self.C, self.Carg)

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
