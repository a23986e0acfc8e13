"""Sparse candidate parents for k-trees on wide tables (Friedman, Nachman & Pe'er 1999).

Each vertex v gets a candidate set C(v): its top-m partners by edge score (ties by
variable order), closed under symmetry (u in C(v) iff v in C(u)), so that each pair is a
candidate pair for both ends. A hyperedge (v, P) is *allowed* when ``P <= C(v)``;
:class:`CandidateScore` wraps a score so that every other hyperedge is -inf **without
calling the wrapped score**. :func:`greedy_ktree_candidates` is the greedy k-tree
(:func:`~estimators.search.greedy.greedy_ktree`) for such a score, with the work per step
limited to the new cliques and the vertices whose candidates they are: it returns the same
k-tree as the dense greedy on the restricted score whenever an allowed attachment exists
at every step (it then never scores a forbidden hyperedge). If at some step no remaining
vertex has an allowed attachment, the first remaining vertex (variable order) is attached
to its best clique by the unrestricted score, and the step is counted in ``forced``.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from estimators.search._common import Score, check_k, score_values
from kgraph.ktree import AcyclicKTree

__all__ = ["CandidateScore", "top_candidates", "greedy_ktree_candidates",
           "CandidateGreedyResult", "restrict_search"]


def top_candidates(W: np.ndarray, m: int, variables: Sequence[Hashable],
                   include: Iterable[tuple[Hashable, Hashable]] = ()
                   ) -> dict[Hashable, frozenset]:
    """Each variable's top-``m`` partners by edge score ``W`` (ties: variable order),
    closed under symmetry, plus the pairs in ``include`` (e.g. the backbone edges a
    backbone DP must keep).

    Examples
    --------
    >>> import numpy as np
    >>> W = np.array([[0, 5, 1, 2], [5, 0, 3, 0], [1, 3, 0, 4], [2, 0, 4, 0]], float)
    >>> c = top_candidates(W, 1, "abcd")
    >>> {v: sorted(c[v]) for v in "abcd"}
    {'a': ['b'], 'b': ['a'], 'c': ['d'], 'd': ['c']}
    """
    W = np.asarray(W, dtype=float)
    d = len(W)
    if isinstance(m, bool) or not isinstance(m, int | np.integer) or m < 1:
        raise ValueError(f"The number of candidates m must be an int >= 1; got {m!r}.")
    m = min(int(m), d - 1)
    masked = W.copy()
    np.fill_diagonal(masked, -np.inf)
    top = np.argsort(-masked, axis=1, kind="stable")[:, :m]
    sets: list[set[int]] = [set() for _ in range(d)]
    for v in range(d):
        for u in top[v].tolist():
            sets[v].add(u)
            sets[u].add(v)
    out = {variables[v]: {variables[u] for u in sets[v]} for v in range(d)}
    for a, b in include:
        out[a].add(b)
        out[b].add(a)
    return {v: frozenset(c) for v, c in out.items()}


class CandidateScore:
    """A hyperedge score restricted to candidate parents: ``f(v, P)`` when ``P <= C(v)``,
    else -inf without calling ``f``. ``n_scored_`` counts the hyperedges passed to ``f``.

    Examples
    --------
    >>> f = CandidateScore(lambda v, ps: float(len(ps)), {0: frozenset({1}),
    ...                    1: frozenset({0}), 2: frozenset()})
    >>> f(0, frozenset({1})), f(2, frozenset({0})), f.n_scored_
    (1.0, -inf, 1)
    """

    def __init__(self, f: Score, candidates: Mapping[Hashable, frozenset]) -> None:
        self.f = f
        self.candidates_ = dict(candidates)
        self.variables_ = list(getattr(f, "variables_", None) or self.candidates_)
        self.n_scored_ = 0

    def allows(self, v: Hashable, parents: frozenset) -> bool:
        """Whether every parent is a candidate of v."""
        return parents <= self.candidates_[v]

    def __call__(self, v: Hashable, parents: frozenset) -> float:
        return float(self.score_many([(v, frozenset(parents))])[0])

    def score_many(self, items: Sequence[tuple[Hashable, frozenset]]) -> np.ndarray:
        """Scores of many items; forbidden ones are -inf and never reach ``f``."""
        ok = np.fromiter((self.allows(v, p) for v, p in items), dtype=bool, count=len(items))
        out = np.full(len(items), -np.inf)
        chosen = [items[i] for i in np.flatnonzero(ok)]
        self.n_scored_ += len(chosen)
        out[ok] = score_values(self.f, chosen)
        return out

    def unrestricted(self, items: Sequence[tuple[Hashable, frozenset]]) -> np.ndarray:
        """The wrapped score of the items, restriction ignored (counted too)."""
        self.n_scored_ += len(items)
        return score_values(self.f, items)


def restrict_search(f: Score, W: np.ndarray, m: int | None, variables: Sequence[Hashable], *,
                    k: int, search: str, backbone):
    """What a classifier hands to :func:`~estimators.search.search_structure` with ``m``
    candidate parents: ``(score, backbone, candidates)``.

    ``m=None``, and the dense exact spanning tree (k = 1 without a backbone, any searcher
    but greedy), leave ``f`` and ``backbone`` unchanged (``candidates`` None). For the
    backbone DP the backbone is resolved first (None is ``"mst-dfs"``) and every pair at
    most ``k`` apart along it joins the candidate pairs: the DP must keep the backbone
    edges, and with them the k-th power of the path (each vertex's parents its ``k``
    predecessors on the backbone) is an allowed k-tree, so the DP always has a feasible
    structure (with the backbone edges alone, a k >= 2 tree may need a parent pair that
    no vertex's candidates contain: "no feasible structure" on helpmiss and oj at m = 5).

    Examples
    --------
    >>> import numpy as np
    >>> W = np.array([[0, 5, 1, 2], [5, 0, 3, 0], [1, 3, 0, 4], [2, 0, 4, 0]], float)
    >>> f = lambda v, ps: float(sum(W[v, p] for p in ps))
    >>> g, order, cands = restrict_search(f, W, 1, range(4), k=2, search="backbone-dp",
    ...                                   backbone="given")
    >>> order, sorted(cands[1]), sorted(cands[0]), g(0, frozenset({1, 3}))
    ((0, 1, 2, 3), [0, 2, 3], [1, 2], -inf)
    """
    if m is None or (k == 1 and backbone is None and search != "greedy"):
        return f, backbone, None
    from estimators.search.registry import resolve_backbone  # the registry imports this module

    variables = list(variables)
    required: Iterable = ()
    if search == "backbone-dp":
        backbone = resolve_backbone("mst-dfs" if backbone is None else backbone, variables,
                                    W=W, f=f, k=k)
        required = [(a, b) for i, a in enumerate(backbone) for b in backbone[i + 1:i + 1 + k]]
    restricted = CandidateScore(f, top_candidates(W, m, variables, required))
    return restricted, backbone, restricted.candidates_


@dataclass(frozen=True)
class CandidateGreedyResult:
    """The greedy k-tree under candidate parents: ``structure``, ``score`` (of the
    unrestricted score: equal to the restricted one unless steps were forced), ``forced``
    (attachments made outside the candidates) and ``n_scored`` (hyperedges scored)."""

    structure: AcyclicKTree
    score: float
    forced: int
    n_scored: int


def _start(f: CandidateScore, variables: list, k: int) -> tuple[float, tuple]:
    """The best (k+1)-clique of the candidate graph in its best creation order (each vertex
    with the earlier ones as parents); ties: first clique in variable order."""
    index = {v: i for i, v in enumerate(variables)}
    cliques = []
    for v in variables:
        later = sorted((u for u in f.candidates_[v] if index[u] > index[v]), key=index.get)
        for rest in combinations(later, k):
            if all(b in f.candidates_[a] for a, b in combinations(rest, 2)):
                cliques.append((v, *rest))
    if not cliques:
        raise ValueError(f"No {k + 1} variables are pairwise candidates of each other: raise "
                         "the number of candidates.")
    items = sorted({(r, frozenset(s)) for q in cliques for r in q for j in range(k + 1)
                    for s in combinations([x for x in q if x != r], j)},
                   key=lambda it: (index[it[0]], sorted(index[x] for x in it[1])))
    value = dict(zip(items, score_values(f, items).tolist(), strict=True))
    best_score, best_order = -np.inf, None
    for q in cliques:
        best: dict[frozenset, tuple[float, tuple]] = {frozenset(): (0.0, ())}
        for j in range(1, k + 2):
            for sub in combinations(q, j):
                qs = frozenset(sub)
                best[qs] = max(((best[qs - {r}][0] + value[(r, qs - {r})],
                                 best[qs - {r}][1] + (r,)) for r in sub), key=lambda it: it[0])
        if best[frozenset(q)][0] > best_score or best_order is None:
            best_score, best_order = best[frozenset(q)]
    return best_score, best_order


def greedy_ktree_candidates(f: CandidateScore, k: int, *,
                            variables: Sequence[Hashable] | None = None
                            ) -> CandidateGreedyResult:
    """Greedy k-tree (best start clique, then best attachments) scoring only candidate
    hyperedges; see the module docstring.

    Examples
    --------
    >>> import numpy as np
    >>> W = np.abs(np.subtract.outer(np.arange(6), np.arange(6))) == 1
    >>> f = CandidateScore(lambda v, ps: sum(abs(v - p) == 1 for p in ps),
    ...                    top_candidates(W.astype(float), 2, list(range(6))))
    >>> res = greedy_ktree_candidates(f, 1, variables=range(6))
    >>> res.score, res.forced, sorted(res.structure.edges)
    (5.0, 0, [(1, 0), (1, 2), (2, 3), (3, 4), (4, 5)])
    """
    variables = list(variables if variables is not None else f.variables_)
    k = check_k(k, len(variables))
    index = {v: i for i, v in enumerate(variables)}
    score, order = _start(f, variables, k)
    order = list(order)
    parents = {order[k]: frozenset(order[:k])}
    rest = {v for v in variables if v not in set(order)}
    cliques: list[frozenset] = []
    heap: list[tuple[float, int, int, Hashable]] = []
    forced = 0

    def add_cliques(new: list[frozenset]) -> None:
        items, where = [], []
        for c in new:
            cliques.append(c)
            common = set.intersection(*(set(f.candidates_[x]) for x in c)) & rest
            for v in sorted(common, key=index.__getitem__):
                items.append((v, c))
                where.append((index[v], len(cliques) - 1))
        for value, (i, j) in zip(score_values(f, items).tolist(), where, strict=True):
            heapq.heappush(heap, (-value, i, j, variables[i]))

    add_cliques([frozenset(c) for c in combinations(order, k)])
    while rest:
        while heap and heap[0][3] not in rest:
            heapq.heappop(heap)
        if heap:
            neg, _, j, v = heapq.heappop(heap)
            value, c = -neg, cliques[j]
        else:  # no allowed attachment left: the first remaining vertex, unrestricted
            v = min(rest, key=index.get)
            values = f.unrestricted([(v, c) for c in cliques])
            j = int(np.argmax(values))
            value, c = float(values[j]), cliques[j]
            forced += 1
        score += value
        order.append(v)
        parents[v] = c
        rest.discard(v)
        # the dense greedy's clique order: in variable order (set order varies by process)
        add_cliques([c - {x} | {v} for x in sorted(c, key=index.__getitem__)])
    return CandidateGreedyResult(AcyclicKTree(k, order, parents), float(score), forced,
                                 f.n_scored_)
