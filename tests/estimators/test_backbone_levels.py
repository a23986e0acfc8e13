"""The compiled levels of the backbone DP against the recursion written state by state in
Python (sets of positions, no masks or ranks), ties and infinities included: every table
cell and every choice equal."""

from itertools import combinations

import numpy as np
import pytest

from estimators.search._backbone_solver import BackboneSolver
from estimators.search._backbone_tables import BackboneTables
from estimators.search._common import combination_table

NEG = -np.inf


def gaps(clique: tuple, n: int) -> list[tuple]:
    """The slots of a sorted clique: the runs of positions before, between and after it."""
    cuts = (-1, *clique, n)
    return [tuple(range(a + 1, b)) for a, b in zip(cuts[:-1], cuts[1:], strict=True)]


def reference(n: int, k: int, fk: dict):
    """B, W, C by the recursion's definitions (first maximum; NaN counts as -inf)."""
    B, W, C = {}, {}, {}

    def first_max(cands):
        best, arg = None, None
        for val, choice in cands:
            val = NEG if np.isnan(val) else val
            if best is None or val > best:
                best, arg = val, choice
        return best, arg

    def masks(slots):
        for mask in range(1, 1 << len(slots)):
            if all(slots[s] for s in range(len(slots)) if mask >> s & 1):
                yield mask, sorted(v for s in range(len(slots)) if mask >> s & 1 for v in slots[s])

    states = [(len(R), "B", t, mask, R) for t in combinations(range(n), k)
              for mask, R in masks(gaps(t, n))]
    states += [(len(R), kind, d, mask, R) for d in combinations(range(n), k + 1)
               for mask, R in masks(gaps(d, n)) for kind in ("W", "C")]
    states.sort(key=lambda s: (s[0], "BWC".index(s[1])))
    for _, kind, q, mask, R in states:
        if kind == "B":
            def cand(v, q=q, R=R):
                d = tuple(sorted((*q, v)))
                rest = set(R) - {v}
                sub = sum(1 << s for s, g in enumerate(gaps(d, n)) if set(g) & rest)
                return fk[q][v] + (C[d, sub][0] if sub else 0.0), v
            B[q, mask] = first_max(cand(v) for v in R)
        elif kind == "W":
            def wcand(j, q=q, mask=mask, R=R):
                if (mask >> j) & 3:
                    return NEG, j
                t = q[:j] + q[j + 1:]
                sub = sum(1 << s for s, g in enumerate(gaps(t, n)) if set(g) & set(R))
                return B[t, sub][0], j
            W[q, mask] = first_max(wcand(j) for j in range(k + 1))
        else:
            low = mask & -mask
            parts = sorted(p | low for p in range(1 << (k + 2)) if p & (mask ^ low) == p)
            C[q, mask] = first_max((W[q, p][0] + (C[q, mask ^ p][0] if mask ^ p else 0.0), p)
                                   for p in parts)
    return B, W, C


@pytest.mark.parametrize("n,k,seed", [(5, 1, 0), (7, 1, 1), (7, 2, 2), (8, 2, 3), (8, 3, 4)])
def test_levels_equal_the_recursion_state_by_state(n, k, seed):
    rng = np.random.default_rng(seed)
    tb = BackboneTables(n, k)
    rows = tb.T.rows
    fk_table = rng.integers(0, 3, size=(len(rows), n)).astype(float)  # many ties
    fk_table[rng.random(fk_table.shape) < 0.15] = NEG
    fk_table[rng.random(fk_table.shape) < 0.03] = np.inf  # inf - inf: NaN candidates
    fsmall = [np.zeros((len(combination_table(n, j, tb.binom)), n)) for j in range(k)]
    solver = BackboneSolver(tb, fk_table, fsmall)
    with np.errstate(invalid="ignore"):
        solver.run()
    with np.errstate(invalid="ignore"):
        B, W, C = reference(n, k, {tuple(r): fk_table[i] for i, r in enumerate(rows.tolist())})
    rank = {tuple(r): i for i, r in enumerate(tb.D.rows.tolist())}
    trank = {tuple(r): i for i, r in enumerate(rows.tolist())}
    for (t, mask), (val, v) in B.items():
        assert (solver.B[trank[t], mask], solver.Barg[trank[t], mask]) == (val, v)
    for (d, mask), (val, j) in W.items():
        assert (solver.W[rank[d], mask], solver.Warg[rank[d], mask]) == (val, j)
    for (d, mask), (val, p) in C.items():
        assert (solver.C[rank[d], mask], solver.Carg[rank[d], mask]) == (val, p)
