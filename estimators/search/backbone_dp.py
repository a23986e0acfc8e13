"""The exact maximum-score acyclic k-tree containing a backbone (MATH.md §5).

Why the recursion is exact (for ANY score f)
--------------------------------------------
Take an acyclic k-tree G containing the backbone path b_1..b_n, with first k vertices K.

1. *Parents are fixed by the shape and K.* For a vertex v outside K, π(v) separates v from
   K \\ π(v); the set v ∪ {its descendants} is the connected component of v in G - π(v)
   (descendants: vertices whose parent set meets v or a descendant of v). These components are
   disjoint for distinct children of a clique and cover everything below it.
2. *Components are unions of gaps.* If x is in the component R of v in G - π(v), its backbone
   neighbours are adjacent to x, so they lie in R ∪ π(v). Hence R is a union of *gaps* of
   π(v): maximal runs of backbone positions not in π(v) (at most k + 1 of them). A component
   of a vertex created with parents Δ - u never contains a gap next to u (u's backbone
   neighbour there would be adjacent to u, which is outside the component and its separator).
3. *The recursion.* ``B(T, R)`` = best subtree with vertex set R hanging from k-clique T:
   choose its top vertex v ∈ R (parents T), then the rest R - {v} is a union of gaps of
   Δ = T ∪ {v}; ``C(Δ, R')`` partitions those gaps into blocks, each block P hung from one
   k-subset Δ - u with u next to no gap of P (``W``, taking the best u), recursively by B.
   The answer is the best ordered K (the first k vertices, parents 0..k-1) plus the best
   partition of all gaps of K into blocks B(K, ·).
   *Complete:* by 1–2 every acyclic k-tree containing the backbone decomposes exactly this
   way (blocks = components, grouped by the vertex u their separator leaves out).
   *Sound:* every choice builds an acyclic k-tree (each new vertex joins a k-clique that
   exists) containing every backbone edge: an edge leaving the region of B(T, R) ends in T
   (a gap's neighbours are T vertices), an edge at v ends in T or in a gap next to v, which
   goes to a block whose separator keeps v; induction does the rest.
   Paper 2's recurrence lets each child cover only the interval B(Δ, v) of the root that holds
   v; a child component can need several intervals (see :mod:`kgraph.pbkt`), so with a
   direction-dependent f its optimum can be missed. The tests check this DP against
   :func:`brute_force_ktree` on random scores.

Cost: O(n^{k+1} 2^{k+1}) B-candidates and O(n^{k+1} 3^{k+2}) C-candidates, i.e. O(n^{k+1})
for fixed k, plus n·C(n-1, k) score evaluations (made once, through ``score_many`` if the
score has it).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from math import comb

import numpy as np

from estimators.search._backbone_solver import BackboneSolver
from estimators.search._backbone_tables import BackboneTables
from estimators.search._common import (
    Score,
    check_backbone,
    check_k,
    combination_table,
    nan_score_error,
    score_values,
)
from kgraph.ktree import AcyclicKTree
from kgraph.pbkt import PBKT

__all__ = ["BackboneDPResult", "backbone_dp"]


@dataclass(frozen=True)
class BackboneDPResult:
    """The optimum of :func:`backbone_dp`.

    Attributes
    ----------
    structure : AcyclicKTree
        The optimal acyclic k-tree (it contains every backbone edge).
    score : float
        Its objective ``Σ_v f(v, π(v))``.
    pbkt : PBKT
        The certificate: the decomposition the DP chose, spanning ``structure``.
    backbone : tuple
        The backbone kept.
    k : int
        The width.

    Examples
    --------
    >>> from estimators.search import backbone_dp
    >>> f = lambda v, ps: float(len(ps)) if v != "c" else 3.0 * ("e" in ps)
    >>> res = backbone_dp(f, "abcde", 2)
    >>> type(res).__name__, res.k, res.backbone, res.score
    ('BackboneDPResult', 2, ('a', 'b', 'c', 'd', 'e'), 9.0)
    """

    structure: AcyclicKTree
    score: float
    pbkt: PBKT
    backbone: tuple
    k: int


def _score_tables(f: Score, backbone: tuple, tables: BackboneTables):
    """``fk[t, v] = f(v, T_t)`` for k-sets and ``fsmall[j][r, v]`` for j-sets, j < k."""
    n, k = tables.n, tables.k
    # a score answering positions (SearchedScore of a ConditionalGaussianScore): arrays of
    # positions in its variables, no frozenset per hyperedge
    positions = getattr(f, "score_positions", None)
    index = None
    if callable(positions):
        where = {name: i for i, name in enumerate(getattr(f, "variables_", ()))}
        if all(b in where for b in backbone):
            index = np.array([where[b] for b in backbone], dtype=np.int64)
    out = []
    for j in range(k + 1):
        rows = tables.T.rows if j == k else combination_table(n, j, tables.binom)
        member = (rows[:, :, None] == np.arange(n)).any(axis=1)
        r, v = np.nonzero(~member)
        table = np.full((len(rows), n), -np.inf)
        if index is not None and j > 0:
            values = np.asarray(positions(index[v], np.sort(index[rows[r]], axis=1)), dtype=float)
            bad = np.flatnonzero(np.isnan(values))
            if bad.size:
                b = bad[0]
                raise nan_score_error(backbone[v[b]], [backbone[x] for x in rows[r[b]]])
            table[r, v] = values
        else:
            sets = [frozenset(map(backbone.__getitem__, row)) for row in rows.tolist()]
            items = list(zip(map(backbone.__getitem__, v.tolist()),
                             map(sets.__getitem__, r.tolist()), strict=True))
            table[r, v] = score_values(f, items)
        out.append(table)
    return out[k], out[:k]


#: largest DP table (cells C(n, k+1) * 2^(k+2)) backbone_dp accepts. Set when a cell cost
#: ~3 us (benchmarks/results/backbone_dp.md: k = 2, n = 200 took 77 s); the compiled levels
#: (search._backbone_kernel) fill the 15.6 M cells of a 3-tree over 60 variables in ~1.6 s
#: (~0.1 us per cell), so the limit now bounds the tables' memory more than the time
MAX_DP_CELLS = 4 * 10**7


def check_dp_size(n: int, k: int) -> None:
    """Refuse, in one line, a DP whose tables (``C(n, k+1) * 2^(k+2)`` cells) exceed
    :data:`MAX_DP_CELLS`; k = 1 passes up to n = 3162, k = 2 up to 247, k = 3 up to 75."""
    cells = comb(n, k + 1) * 2 ** (k + 2)
    if cells > MAX_DP_CELLS:
        raise ValueError(
            f"backbone_dp with k={k} on {n} variables needs {cells:.2g} table cells "
            f"(C(n, k+1) * 2^(k+2)), over the {MAX_DP_CELLS:.0e} it can finish; use "
            "search='greedy' (with candidates=m to score only candidate parents) or fewer "
            "features.")


def backbone_dp(f: Score, backbone: Iterable[Hashable], k: int, *,
                variables: Sequence[Hashable] | None = None) -> BackboneDPResult:
    """The maximum-score acyclic k-tree containing every edge between consecutive backbone
    vertices (exact for any score; paper 2 §5, corrected, see the module docstring).

    Parameters
    ----------
    f : callable
        Hyperedge score ``f(v, parents: frozenset) -> float`` (a fitted score object works).
        Called for every v with every k-set of parents and, for the first k vertices, every
        smaller set. NaN is an error; -inf forbids a parent set.
    backbone : sequence
        The vertices in backbone order: a permutation of the variables.
    k : int
        The width, ``1 <= k < len(backbone)``.
    variables : sequence, optional
        The variables the backbone must be a permutation of (default: ``f.variables_`` when
        the score has it, else the backbone itself).

    Returns
    -------
    BackboneDPResult
        ``.structure`` (AcyclicKTree), ``.score``, ``.pbkt`` (the certificate).

    Raises
    ------
    ValueError
        If the backbone repeats, misses or adds a vertex, k is out of range, f returns NaN,
        or every backbone k-tree scores -inf.

    Examples
    --------
    >>> from estimators.search.backbone_dp import backbone_dp
    >>> f = lambda v, ps: float(len(ps)) if v != "c" else 3.0 * ("e" in ps)
    >>> res = backbone_dp(f, "abcde", 2)
    >>> res.score, res.structure.order
    (9.0, ('e', 'c', 'a', 'b', 'd'))
    >>> from estimators.search.brute_force import brute_force_ktree
    >>> brute_force_ktree(f, 2, backbone="abcde").score
    9.0
    >>> res.pbkt.to_ktree(root_order=res.structure.order[:3]) == res.structure
    True
    """
    known = variables if variables is not None else getattr(f, "variables_", None)
    backbone = check_backbone(backbone, known)
    k = check_k(k, len(backbone))
    check_dp_size(len(backbone), k)
    tables = BackboneTables(len(backbone), k)
    fk, fsmall = _score_tables(f, backbone, tables)
    solver = BackboneSolver(tables, fk, fsmall)
    with np.errstate(invalid="ignore"):  # +inf and -inf scores meet: NaN counts as infeasible
        solver.run()
        value, t, first, blocks = solver.top()
    (v1, grand), *others = [solver.subtree(t, p) for p in blocks]
    name = backbone.__getitem__

    def nest(children: list) -> list:  # names in, explicit stack (no recursion over depth)
        top: list = []
        stack = [(children, top)]
        while stack:
            spec, into = stack.pop()
            for u, (v, c) in spec:
                into.append((name(u), name(v), []))
                stack.append((c, into[-1][2]))
        return top

    children = nest(grand) + nest([(v1, node) for node in others])
    root_order = [name(x) for x in first] + [name(v1)]
    pbkt = PBKT.from_decomposition(k, backbone, root_order, children)
    return BackboneDPResult(pbkt.to_ktree(root_order), value, pbkt, backbone, k)
