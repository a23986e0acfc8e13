"""Exhaustive searchers for small n: the test oracles (public, to check new heuristics).

Acyclic k-trees are enumerated as parent maps, independently of the backbone DP: every
creation sequence is generated in which each vertex is the smallest one whose parents all
exist (the lexicographically least creation order of its parent map), so each acyclic k-tree
comes out exactly once. There are ``C(n, k)(k(n-k)+1)^(n-k-2)`` labelled k-trees, each with
``(k(n-k)+1)·k!`` orientations (an ordered initial k-clique). With a backbone, a vertex may
only be created if its already created backbone neighbours are among its parents.
The enumeration is cached per (n, k, backbone or not); the objective is one gather-and-sum.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product

import networkx as nx
import numpy as np

from estimators.search._common import (
    Score,
    check_backbone,
    check_k,
    resolve_variables,
    score_values,
)
from kgraph.ktree import AcyclicKTree

__all__ = ["BruteForceResult", "SpanningTreeBruteForceResult", "brute_force_ktree",
           "brute_force_spanning_tree", "enumerate_acyclic_ktrees"]

MAX_N = 8


@dataclass(frozen=True)
class BruteForceResult:
    """The optimum of :func:`brute_force_ktree`.

    Attributes
    ----------
    structure : AcyclicKTree
        A best acyclic k-tree (the first in enumeration order among equal scores).
    score : float
        Its objective ``Σ_v f(v, π(v))``.
    n_structures : int
        How many acyclic k-trees were scored.

    Examples
    --------
    >>> from estimators.search import brute_force_ktree
    >>> f = lambda v, ps: float(len(ps)) if v != "c" else 3.0 * ("e" in ps)
    >>> res = brute_force_ktree(f, 2, backbone="abcde")
    >>> type(res).__name__, res.score, res.n_structures
    ('BruteForceResult', 9.0, 154)
    """

    structure: AcyclicKTree
    score: float
    n_structures: int


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


@lru_cache(maxsize=16)
def enumerate_acyclic_ktrees(n: int, k: int, backbone: bool = False) -> np.ndarray:
    """Every acyclic k-tree on vertices ``0..n-1`` as a row of codes ``v * 2**n + mask(π(v))``.

    Parameters
    ----------
    n, k : int
        Vertices and width, ``1 <= k < n <= 8``.
    backbone : bool
        Only those containing the path 0-1-...-(n-1).

    Returns
    -------
    ndarray of shape (count, n), dtype uint16 (read-only, cached)

    Examples
    --------
    >>> from estimators.search.brute_force import enumerate_acyclic_ktrees
    >>> len(enumerate_acyclic_ktrees(4, 1))  # rooted labelled trees: n ** (n - 1)
    64
    """
    if not 1 <= k < n <= MAX_N:
        raise ValueError(f"Enumeration needs 1 <= k < n <= {MAX_N}; got n={n}, k={k}.")
    rows: list[list[int]] = []
    order: list[int] = []
    step = [0] * n
    pmask = [0] * n

    def neighbours_ok(y: int, parents: int, created: int) -> bool:
        if not backbone:
            return True
        near = ((1 << (y - 1)) if y > 0 else 0) | ((1 << (y + 1)) if y + 1 < n else 0)
        return near & created & ~parents == 0

    def add(y: int, parents: int, created: int, cliques: list[int]) -> None:
        step[y], pmask[y] = len(order), parents
        order.append(y)
        grow(created | 1 << y, cliques)
        order.pop()

    def grow(created: int, cliques: list[int]) -> None:
        t = len(order)
        if t == n:
            rows.append([v << n | pmask[v] for v in range(n)])
            return
        free = [y for y in range(n) if not created >> y & 1]
        if t < k:  # the initial clique: parents are all earlier vertices
            for y in free:
                if neighbours_ok(y, created, created):
                    add(y, created, created, [created | 1 << y] if t + 1 == k else [])
            return
        for parents in cliques:
            members = _bits(parents)
            since = max(step[p] for p in members) + 1
            ceiling = max(order[since:], default=-1)
            new = [(parents ^ 1 << p) for p in members]
            for y in free:
                if y > ceiling and neighbours_ok(y, parents, created):
                    add(y, parents, created, cliques + [c | 1 << y for c in new])

    grow(0, [])
    out = np.array(rows, dtype=np.uint16).reshape(len(rows), n)
    out.flags.writeable = False
    return out


def _score_vector(f: Score, variables: Sequence[Hashable], k: int) -> np.ndarray:
    """``f`` on every (v, P), |P| <= k, v not in P, at index ``v * 2**n + mask(P)``."""
    n = len(variables)
    items, index = [], []
    for size in range(k + 1):
        for ps in combinations(range(n), size):
            mask = sum(1 << p for p in ps)
            for v in range(n):
                if v not in ps:
                    items.append((variables[v], frozenset(variables[p] for p in ps)))
                    index.append(v << n | mask)
    table = np.full(n << n, np.nan)
    table[index] = score_values(f, items)
    return table


def _decode(row: np.ndarray, n: int, variables: Sequence[Hashable], k: int) -> AcyclicKTree:
    parents = {int(c) >> n: _bits(int(c) & ((1 << n) - 1)) for c in row}
    graph = nx.DiGraph()
    graph.add_nodes_from(parents)
    graph.add_edges_from((p, v) for v, ps in parents.items() for p in ps)
    rank = {v: i for i, v in enumerate(parents)}  # parents first; ties by the row's order
    order = list(nx.lexicographical_topological_sort(graph, key=rank.__getitem__))
    return AcyclicKTree(k, [variables[v] for v in order],
                        {variables[v]: [variables[p] for p in ps] for v, ps in parents.items()})


def brute_force_ktree(f: Score, k: int, backbone: Sequence[Hashable] | None = None, *,
                      variables: Sequence[Hashable] | None = None) -> BruteForceResult:
    """The maximum-score acyclic k-tree by scoring every one (n <= 8).

    Parameters
    ----------
    f : callable
        Hyperedge score ``f(v, parents: frozenset) -> float``.
    k : int
        The width, ``1 <= k < n``.
    backbone : sequence, optional
        Keep only k-trees containing every edge between consecutive backbone vertices; the
        backbone then also gives the variables.
    variables : sequence, optional
        The vertices (default: the backbone, else ``f.variables_``).

    Returns
    -------
    BruteForceResult

    Examples
    --------
    >>> from estimators.search.brute_force import brute_force_ktree
    >>> f = lambda v, ps: float(len(ps)) if v != "c" else 3.0 * ("e" in ps)
    >>> res = brute_force_ktree(f, 2, backbone="abcde")
    >>> res.score, res.n_structures
    (9.0, 154)
    """
    if backbone is not None:
        known = variables if variables is not None else getattr(f, "variables_", None)
        variables = list(check_backbone(backbone, known))
    else:
        variables = resolve_variables(f, variables)
    n = len(variables)
    if n > MAX_N:
        raise ValueError(f"brute_force_ktree scores every k-tree: n <= {MAX_N}; got n={n}.")
    k = check_k(k, n)
    codes = enumerate_acyclic_ktrees(n, k, backbone is not None)
    totals = _score_vector(f, variables, k)[codes].sum(axis=1)
    best = int(np.argmax(totals))
    return BruteForceResult(_decode(codes[best], n, variables, k), float(totals[best]),
                            len(codes))


@dataclass(frozen=True)
class SpanningTreeBruteForceResult:
    """The optimum of :func:`brute_force_spanning_tree`: ``edges`` (pairs of indices i < j,
    sorted), ``score`` (total weight) and ``n_structures`` (trees scored, d ** (d - 2)).

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.search import brute_force_spanning_tree
    >>> res = brute_force_spanning_tree(np.array([[0, 3, 1], [3, 0, 2], [1, 2, 0]], float))
    >>> type(res).__name__, res.edges, res.score, res.n_structures
    ('SpanningTreeBruteForceResult', ((0, 1), (1, 2)), 5.0, 3)
    """

    edges: tuple[tuple[int, int], ...]
    score: float
    n_structures: int


def _pruefer_edges(seq: Sequence[int], d: int) -> list[tuple[int, int]]:
    degree = [1] * d
    for x in seq:
        degree[x] += 1
    leaves = [i for i in range(d) if degree[i] == 1]
    heapq.heapify(leaves)
    edges = []
    for x in seq:
        leaf = heapq.heappop(leaves)
        edges.append((min(leaf, x), max(leaf, x)))
        degree[x] -= 1
        if degree[x] == 1:
            heapq.heappush(leaves, x)
    a, b = heapq.heappop(leaves), heapq.heappop(leaves)
    return sorted([*edges, (a, b)])


def brute_force_spanning_tree(W) -> SpanningTreeBruteForceResult:
    """The maximum-weight spanning tree of a symmetric d x d matrix by scoring all d^(d-2)
    labelled trees (Prüfer sequences; d <= 8).

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.search.brute_force import brute_force_spanning_tree
    >>> W = np.array([[0, 3, 1], [3, 0, 2], [1, 2, 0]], float)
    >>> res = brute_force_spanning_tree(W)
    >>> res.edges, res.score, res.n_structures
    (((0, 1), (1, 2)), 5.0, 3)
    """
    W = np.asarray(W, dtype=float)
    if W.ndim != 2 or W.shape[0] != W.shape[1] or not 2 <= len(W) <= MAX_N:
        raise ValueError(f"W must be a square matrix with 2 <= d <= {MAX_N}; got shape {W.shape}.")
    d = len(W)
    trees = [_pruefer_edges(seq, d) for seq in product(range(d), repeat=d - 2)]
    idx = np.array(trees, dtype=np.int64)
    totals = W[idx[:, :, 0], idx[:, :, 1]].sum(axis=1)
    best = int(np.argmax(totals))
    return SpanningTreeBruteForceResult(tuple(trees[best]), float(totals[best]), len(trees))
