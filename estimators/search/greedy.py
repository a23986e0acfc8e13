"""The greedy k-tree heuristic (no backbone): best start clique, then best attachments."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import combinations

from estimators.search._common import Score, check_k, resolve_variables, score_values
from estimators.search.candidates import CandidateScore, greedy_ktree_candidates
from kgraph.ktree import AcyclicKTree

__all__ = ["GreedyKTreeResult", "greedy_ktree", "best_clique_order"]


@dataclass(frozen=True)
class GreedyKTreeResult:
    """The greedy k-tree: ``structure`` (AcyclicKTree) and its ``score`` Σ_v f(v, π(v)).

    Examples
    --------
    >>> from estimators.search import greedy_ktree
    >>> f = lambda v, ps: sum(abs(v - p) == 1 for p in ps)
    >>> res = greedy_ktree(f, 1, variables=range(5))
    >>> type(res).__name__, res.score, res.structure.order
    ('GreedyKTreeResult', 4.0, (1, 0, 2, 3, 4))
    """

    structure: AcyclicKTree
    score: float


def best_clique_order(f: Score, variables: Sequence[Hashable], size: int):
    """For every ``size``-subset Q of the variables, the best creation order of Q as an
    initial clique (each vertex with the earlier ones as parents), by a DP over subsets.

    Returns ``{frozenset(Q): (score, order)}``.
    """
    items = [(v, frozenset(ps)) for j in range(size) for ps in combinations(variables, j)
             for v in variables if v not in ps]
    value = dict(zip(items, score_values(f, items).tolist(), strict=True))
    best: dict[frozenset, tuple[float, tuple]] = {frozenset(): (0.0, ())}
    for j in range(1, size + 1):
        for q in combinations(variables, j):
            qs = frozenset(q)
            best[qs] = max(((best[qs - {r}][0] + value[(r, qs - {r})], best[qs - {r}][1] + (r,))
                            for r in q), key=lambda item: item[0])
    return {q: best[q] for q in best if len(q) == size}


def greedy_ktree(f: Score, k: int, *, variables: Sequence[Hashable] | None = None
                 ) -> GreedyKTreeResult:
    """A heuristic maximum-score acyclic k-tree without a backbone.

    Start from the best (k+1)-clique in its best creation order, then repeatedly add the
    best (vertex, existing k-clique) attachment ``f(v, clique)``. Ties: first in variable
    order, then clique creation order. No optimality guarantee (the problem is NP-hard for
    k >= 2, paper 2 thm 2).

    Parameters
    ----------
    f : callable
        Hyperedge score ``f(v, parents: frozenset) -> float``.
    k : int
        The width, ``1 <= k < n``.
    variables : sequence, optional
        The vertices (default: ``f.variables_``).

    Examples
    --------
    >>> from estimators.search.greedy import greedy_ktree
    >>> f = lambda v, ps: sum(abs(v - p) == 1 for p in ps)
    >>> res = greedy_ktree(f, 1, variables=range(5))
    >>> res.score, len(res.structure.edges)
    (4.0, 4)
    """
    if isinstance(f, CandidateScore):  # score only candidate hyperedges
        return greedy_ktree_candidates(f, k, variables=variables)
    variables = resolve_variables(f, variables)
    k = check_k(k, len(variables))
    starts = best_clique_order(f, variables, k + 1)
    score, order = max(starts.values(), key=lambda item: item[0])
    order = list(order)
    parents = {order[k]: frozenset(order[:k])}
    cliques = [frozenset(c) for c in combinations(order, k)]
    rest = [v for v in variables if v not in set(order)]
    rank = {v: i for i, v in enumerate(variables)}
    cache: dict = {}
    while rest:
        todo = [(v, c) for v in rest for c in cliques if (v, c) not in cache]
        cache.update(zip(todo, score_values(f, todo).tolist(), strict=True))
        value, v, c = max(((cache[(v, c)], v, c) for v in rest for c in cliques),
                          key=lambda item: item[0])
        score += value
        order.append(v)
        parents[v] = c
        rest.remove(v)
        # in variable order, not set order (string hashes vary between processes)
        cliques.extend(c - {x} | {v} for x in sorted(c, key=rank.__getitem__))
    return GreedyKTreeResult(AcyclicKTree(k, order, parents), float(score))
