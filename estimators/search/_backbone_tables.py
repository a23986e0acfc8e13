"""Index tables of the backbone DP: cliques of backbone positions, their gaps and masks.

Positions ``0..n-1`` are the backbone order. A clique (a sorted set of m positions) leaves
m + 1 *gaps* (slots): the positions before its first vertex, between consecutive vertices and
after its last one (some may be empty). A *region* is a union of gaps, stored as a bit mask
over the slots. k-sets (``T``) and (k+1)-sets (``D``) are indexed by their colex rank.
"""

from __future__ import annotations

import numpy as np

from estimators.search._common import binomial_table, colex_rank, combination_table


class CliqueTable:
    """All m-subsets of ``range(n)`` with their gap slots and region masks."""

    def __init__(self, n: int, m: int, binom: np.ndarray) -> None:
        self.m = m
        self.rows = combination_table(n, m, binom)
        count = len(self.rows)
        self.left = np.concatenate([np.zeros((count, 1), np.int64), self.rows + 1], axis=1)
        self.right = np.concatenate([self.rows - 1, np.full((count, 1), n - 1)], axis=1)
        sizes = np.clip(self.right - self.left + 1, 0, None)
        self.n_masks = 1 << (m + 1)
        self.nonempty = ((sizes > 0) << np.arange(m + 1)).sum(axis=1)  # mask of non-empty gaps


class BackboneTables:
    """The k-set and (k+1)-set tables and the maps between them."""

    def __init__(self, n: int, k: int) -> None:
        self.n, self.k = n, k
        self.binom = binomial_table(n, k + 1)
        self.T = CliqueTable(n, k, self.binom)
        self.D = CliqueTable(n, k + 1, self.binom)
        # drop[d, j]: rank of the k-set left when the j-th vertex of (k+1)-set d is removed
        self.drop = np.stack([colex_rank(np.delete(self.D.rows, j, axis=1), self.binom)
                              for j in range(k + 1)], axis=1)
        # the colex rank of T_t + {v} with v in slot s: the vertices before v keep their
        # terms binom[r_i, i + 1], those after it move up one place (binom[r_i, i + 2])
        rows, b = self.T.rows, self.binom
        low = np.cumsum(b[rows, np.arange(1, k + 1)], axis=1)
        high = np.cumsum(b[rows, np.arange(2, k + 2)][:, ::-1], axis=1)[:, ::-1]
        zero = np.zeros((len(rows), 1), np.int64)
        self.low_terms = np.concatenate([zero, low], axis=1)      # (k-sets, slots)
        self.high_terms = np.concatenate([high, zero], axis=1)

    def add_vertex(self, t: np.ndarray, v: np.ndarray, mask: np.ndarray,
                   s: np.ndarray | None = None):
        """Add vertex ``v`` (in region ``mask`` of k-set ``t``) to the k-set.

        Returns the (k+1)-set rank and the region ``mask - {v}`` as a mask over its slots:
        the slot s holding v splits into slots s (left of v) and s + 1 (right of v); pass
        ``s`` when it is known.
        """
        s = self.slot_of(t, v) if s is None else s
        left_ne = (v > self.T.left[t, s]).astype(np.int64)
        right_ne = (v < self.T.right[t, s]).astype(np.int64)
        low = mask & ((1 << s) - 1)
        new = low | (left_ne << s) | (right_ne << (s + 1)) | ((mask >> (s + 1)) << (s + 2))
        return self.low_terms[t, s] + self.binom[v, s + 1] + self.high_terms[t, s], new

    @staticmethod
    def drop_mask(mask: np.ndarray, j: np.ndarray | int) -> np.ndarray:
        """A region of a (k+1)-set avoiding slots j, j + 1 as a region of the k-set without
        its j-th vertex (slots j and j + 1 merge, with that vertex, into slot j)."""
        return (mask & ((1 << j) - 1)) | ((mask >> (j + 2)) << (j + 1))

    def slot_of(self, t: np.ndarray, v: np.ndarray) -> np.ndarray:
        """The slot of k-set ``t`` that holds position ``v``."""
        return (self.T.rows[t] < v[:, None]).sum(axis=1)


def submask_pairs(n_masks: int) -> tuple[np.ndarray, np.ndarray]:
    """All (E, P) with P a submask of E holding E's lowest bit (set-partition steps)."""
    es, ps = [], []
    for e in range(1, n_masks):
        low = e & -e
        rest = e ^ low
        sub = rest
        while True:
            es.append(e)
            ps.append(sub | low)
            if sub == 0:
                break
            sub = (sub - 1) & rest
    return np.array(es, np.int64), np.array(ps, np.int64)
