"""Ways to choose a backbone (a Hamiltonian path order of the variables) for the DP."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import numpy as np
from networkx.utils import UnionFind

from estimators.search._common import Score, check_backbone
from estimators.search.backbone_dp import BackboneDPResult, backbone_dp
from estimators.search.spanning_tree import maximum_spanning_tree, weight_matrix
from kgraph.ktree import AcyclicKTree

__all__ = ["BACKBONE_METHODS", "LocalSearchResult", "backbone_order", "local_search_backbone"]


def _given(W: np.ndarray, variables: tuple, **_) -> tuple:
    return variables


def _mst_dfs(W: np.ndarray, variables: tuple, **_) -> tuple:
    """Depth-first preorder of the maximum spanning tree from its first leaf (in variable
    order), heavier branches first; a tree that is a path gives that path."""
    tree = maximum_spanning_tree(W)
    below: dict[int, list] = {i: [] for i in range(len(W))}
    for a, b in tree.edges:
        below[a].append(b)
        below[b].append(a)
    leaf = min(i for i in below if len(below[i]) == 1)
    order, stack, seen = [], [leaf], set()
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        order.append(v)
        nxt = sorted((w for w in below[v] if w not in seen), key=lambda w: (W[v, w], -w))
        stack.extend(nxt)  # the heaviest (then lowest index) is popped first
    return tuple(variables[i] for i in order)


def _greedy_path(W: np.ndarray, variables: tuple, **_) -> tuple:
    """Greedy maximum-weight Hamiltonian path: edges by decreasing weight (ties in variable
    order), kept if both ends have degree < 2 and they join two path pieces."""
    d = len(W)
    iu = np.triu_indices(d, 1)
    degree, uf = np.zeros(d, int), UnionFind(range(d))
    nbrs: dict[int, list] = {i: [] for i in range(d)}
    kept = 0
    for e in np.argsort(-W[iu], kind="stable"):
        a, b = int(iu[0][e]), int(iu[1][e])
        if degree[a] < 2 and degree[b] < 2 and uf[a] != uf[b]:
            uf.union(a, b)
            degree[a] += 1
            degree[b] += 1
            nbrs[a].append(b)
            nbrs[b].append(a)
            kept += 1
            if kept == d - 1:
                break
    start = min(i for i in range(d) if degree[i] <= 1)
    order = [start]
    while len(order) < d:
        order.append(next(w for w in nbrs[order[-1]] if w not in order[-2:]))
    return tuple(variables[i] for i in order)


@dataclass(frozen=True)
class LocalSearchResult:
    """The outcome of :func:`local_search_backbone`.

    Attributes
    ----------
    structure : AcyclicKTree
        The DP optimum under the final backbone.
    score : float
        Its score (never below the start backbone's).
    backbone : tuple
        The final backbone.
    n_evaluations : int
        DP runs made.
    n_moves : int
        Improving moves accepted.

    Examples
    --------
    >>> from estimators.search import local_search_backbone
    >>> f = lambda v, ps: float(sum(abs(v - p) == 2 for p in ps))
    >>> res = local_search_backbone(f, 1, [0, 1, 2, 3, 4], max_iter=10)
    >>> type(res).__name__, res.score, res.n_moves, res.n_evaluations
    ('LocalSearchResult', 3.0, 3, 22)
    """

    structure: AcyclicKTree
    score: float
    backbone: tuple
    n_evaluations: int
    n_moves: int


def _neighbours(order: tuple):
    """Adjacent swaps, then 2-opt segment reversals, in a fixed order."""
    n = len(order)
    for i in range(n - 1):
        yield order[:i] + (order[i + 1], order[i]) + order[i + 2:]
    for i in range(n - 2):
        for j in range(i + 3, n + 1):
            yield order[:i] + order[i:j][::-1] + order[j:]


def local_search_backbone(f: Score, k: int, start: Sequence[Hashable], *,
                          max_iter: int = 20) -> LocalSearchResult:
    """Improve a backbone by first-improvement local search, re-running the exact DP.

    Neighbours are the adjacent swaps and the 2-opt reversals of the current order (a path
    and its reverse are the same backbone, so full reversal is skipped). The search stops at a
    local optimum or after ``max_iter`` accepted moves. Scores are cached across DP runs.

    Examples
    --------
    >>> from estimators.search.backbone_order import local_search_backbone
    >>> f = lambda v, ps: float(sum(abs(v - p) == 2 for p in ps))
    >>> res = local_search_backbone(f, 1, [0, 1, 2, 3, 4], max_iter=10)
    >>> res.score > 0.0, res.n_moves >= 1
    (True, True)
    """
    if isinstance(max_iter, bool) or not isinstance(max_iter, int) or max_iter < 0:
        raise ValueError(f"max_iter must be an int >= 0; got {max_iter!r}.")
    cache: dict = {}

    def cached(v: Hashable, ps: frozenset) -> float:
        if (v, ps) not in cache:
            cache[(v, ps)] = float(f(v, ps))
        return cache[(v, ps)]

    current = tuple(check_backbone(start, getattr(f, "variables_", None)))
    best: BackboneDPResult = backbone_dp(cached, current, k)
    evaluations, moves, improved = 1, 0, True
    while improved and moves < max_iter:
        improved = False
        for candidate in _neighbours(current):
            result = backbone_dp(cached, candidate, k)
            evaluations += 1
            if result.score > best.score + 1e-12:
                best, current, improved = result, candidate, True
                moves += 1
                break
    return LocalSearchResult(best.structure, best.score, current, evaluations, moves)


def _local_search(W: np.ndarray, variables: tuple, *, f: Score | None, k: int | None,
                  start: str, max_iter: int) -> tuple:
    if f is None or k is None:
        raise ValueError("method='local-search' needs the score f and the width k "
                         "(backbone_order(W, 'local-search', f=score, k=2)).")
    if start == "local-search" or start not in BACKBONE_METHODS:
        valid = [m for m in BACKBONE_METHODS if m != "local-search"]
        raise ValueError(f"Unknown start method {start!r}; valid ones are {valid}.")
    first = BACKBONE_METHODS[start](W, variables)
    return local_search_backbone(f, k, first, max_iter=max_iter).backbone


BACKBONE_METHODS: dict[str, Callable[..., tuple]] = {
    "given": _given,
    "mst-dfs": _mst_dfs,
    "greedy-path": _greedy_path,
    "local-search": _local_search,
}


def backbone_order(W, method: str = "given", *, f: Score | None = None, k: int | None = None,
                   start: str = "greedy-path", max_iter: int = 20,
                   variables: Sequence[Hashable] | None = None) -> tuple:
    """A backbone order of the variables.

    Parameters
    ----------
    W : array-like of shape (d, d), DataFrame or pair score
        Symmetric pair weights (as for :func:`maximum_spanning_tree`).
    method : {"given", "mst-dfs", "greedy-path", "local-search"}
        ``"given"``: the variable order; ``"mst-dfs"``: depth-first order of the maximum
        spanning tree from its first leaf; ``"greedy-path"``: greedy maximum-weight Hamiltonian path;
        ``"local-search"``: start from ``start`` and improve by :func:`local_search_backbone`
        (needs ``f`` and ``k``).
    f, k, start, max_iter :
        Used by ``"local-search"`` only.
    variables : sequence, optional
        Names (default: DataFrame columns, score ``variables_`` or 0..d-1).

    Returns
    -------
    tuple
        The variables in backbone order.

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.search.backbone_order import backbone_order
    >>> W = np.array([[0, 1, 5, 0], [1, 0, 0, 4], [5, 0, 0, 3], [0, 4, 3, 0]], float)
    >>> backbone_order(W, "greedy-path"), backbone_order(W, "mst-dfs")
    ((0, 2, 3, 1), (0, 2, 3, 1))
    """
    if method not in BACKBONE_METHODS:
        raise ValueError(f"Unknown backbone method {method!r}; valid ones are "
                         f"{list(BACKBONE_METHODS)}.")
    W, variables = weight_matrix(W, variables)
    if method == "local-search":
        return _local_search(W, variables, f=f, k=k, start=start, max_iter=max_iter)
    return BACKBONE_METHODS[method](W, variables)
