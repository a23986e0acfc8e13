"""Maximum spanning tree by Kruskal's algorithm (the graphic-matroid greedy; paper 1 §4.2).

Edges are taken by decreasing weight, ties broken by variable order (pairs (i, j), i < j, in
row-major order), and kept when they join two components. The selection order is the GNB
cluster order. Small problems run the union-find loop directly; large ones let scipy find the
same tree on the edges' ranks (all distinct, so the tree is unique and equals Kruskal's) and
then order its edges by rank, which is Kruskal's selection order.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from networkx.utils import UnionFind
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import minimum_spanning_tree

from estimators.search._common import score_values
from kgraph.gnb import GNBJunctionTree
from kgraph.ktree import AcyclicKTree

__all__ = ["SpanningTreeResult", "maximum_spanning_tree", "square_matrix", "weight_matrix"]

_SCIPY_FROM = 64  # variables; below this the plain union-find loop is as fast


@dataclass(frozen=True)
class SpanningTreeResult:
    """A maximum spanning tree.

    Attributes
    ----------
    edges : tuple of (a, b)
        The tree edges in Kruskal's selection order (a before b in variable order).
    weights : tuple of float
        Their weights, in the same order.
    variables : tuple
        The vertices.
    """

    edges: tuple[tuple[Hashable, Hashable], ...]
    weights: tuple[float, ...]
    variables: tuple

    @property
    def weight(self) -> float:
        """The total weight."""
        return float(sum(self.weights))

    @property
    def score(self) -> float:
        """The objective (the total weight)."""
        return self.weight

    @property
    def ktree(self) -> AcyclicKTree:
        """The tree as an acyclic 1-tree rooted at the first selected edge's first vertex,
        vertices created breadth first with children in selection order."""
        adjacent: dict[Hashable, list] = {v: [] for v in self.variables}
        for a, b in self.edges:
            adjacent[a].append(b)
            adjacent[b].append(a)
        root = self.edges[0][0]
        order, parents = [root], {}
        for v in order:
            for w in adjacent[v]:
                if w not in parents and w != root:
                    parents[w] = [v]
                    order.append(w)
        return AcyclicKTree(1, order, parents)

    @property
    def structure(self) -> AcyclicKTree:
        """Same as :attr:`ktree`."""
        return self.ktree

    def junction_tree(self, target: Hashable = 0) -> GNBJunctionTree:
        """The GNB junction tree of the tree for class vertex ``target`` (clusters in
        selection order)."""
        return GNBJunctionTree.from_tree(self.edges, target=target, features=self.variables)


def square_matrix(W, variables: Sequence[Hashable] | None) -> tuple[np.ndarray, tuple]:
    """``W`` (array-like or DataFrame) as a float array checked square with at least 2 rows,
    and its variable names (default: the DataFrame columns, else 0..d-1)."""
    if variables is None and hasattr(W, "columns"):
        variables = list(W.columns)
    W = np.array(W, dtype=float)
    if W.ndim != 2 or W.shape[0] != W.shape[1] or W.shape[0] < 2:
        raise ValueError(f"The weight matrix must be square with at least 2 variables; "
                         f"got shape {W.shape}.")
    d = len(W)
    variables = tuple(range(d)) if variables is None else tuple(variables)
    if len(variables) != d:
        raise ValueError(f"{len(variables)} variables for a {d} x {d} weight matrix.")
    return W, variables


def weight_matrix(W_or_score, variables: Sequence[Hashable] | None = None):
    """A checked symmetric weight matrix and its variable names, from a matrix (array or
    DataFrame) or a pair score (``edge_matrix()`` if it has one, else ``f(j, {i})``)."""
    if callable(W_or_score) or hasattr(W_or_score, "edge_matrix"):
        score = W_or_score
        if variables is None:
            variables = getattr(score, "variables_", None)
        if hasattr(score, "edge_matrix"):
            W = np.asarray(score.edge_matrix(), dtype=float)
        else:
            if variables is None:
                raise ValueError("Pass variables=[...] to score pairs with a plain callable.")
            pairs = list(combinations(range(len(variables)), 2))
            items = [(variables[j], frozenset([variables[i]])) for i, j in pairs]
            items += [(variables[i], frozenset([variables[j]])) for i, j in pairs]
            vals = score_values(score, items)
            W = np.zeros((len(variables), len(variables)))
            if pairs:
                ii, jj = np.array(pairs).T
                W[ii, jj], W[jj, ii] = vals[: len(pairs)], vals[len(pairs):]
    else:
        W = W_or_score
    W, variables = square_matrix(W, variables)
    d = len(W)
    off = ~np.eye(d, dtype=bool)
    nan = np.argwhere(np.isnan(W) & off)
    if len(nan):
        i, j = nan[0]
        raise ValueError(f"The weight of pair ({variables[i]!r}, {variables[j]!r}) is NaN.")
    asym = np.argwhere(~np.isclose(W, W.T, rtol=1e-9, atol=1e-12) & off)
    if len(asym):
        i, j = asym[0]
        raise ValueError(f"The weights must be symmetric: W[{variables[i]!r}, {variables[j]!r}]"
                         f" = {W[i, j]} but W[{variables[j]!r}, {variables[i]!r}] = {W[j, i]}.")
    return W, variables


def _kruskal_order(W: np.ndarray) -> np.ndarray:
    """Indices into the row-major upper-triangle pairs of the tree edges, selection order."""
    d = len(W)
    iu = np.triu_indices(d, 1)
    order = np.argsort(-W[iu], kind="stable")
    if d < _SCIPY_FROM:
        uf, chosen = UnionFind(range(d)), []
        for e in order:
            a, b = int(iu[0][e]), int(iu[1][e])
            if uf[a] != uf[b]:
                uf.union(a, b)
                chosen.append(e)
                if len(chosen) == d - 1:
                    break
        return np.array(chosen, dtype=np.int64)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    # distinct positive weights (ranks + 1): the minimum tree is unique
    R = csr_matrix((rank + 1.0, iu), shape=(d, d))
    tree = minimum_spanning_tree(R).tocoo()
    tree_rank = np.sort(tree.data.astype(np.int64) - 1)
    return order[tree_rank]


def maximum_spanning_tree(W_or_score, variables: Sequence[Hashable] | None = None
                          ) -> SpanningTreeResult:
    """The maximum-weight spanning tree by Kruskal's algorithm, edges in selection order.

    Parameters
    ----------
    W_or_score : array-like of shape (d, d), DataFrame or score
        Symmetric weights (the diagonal is ignored), or a pair score: a fitted score's
        ``edge_matrix()``, or a callable ``f(v, {u})`` (then ``variables`` is needed unless
        it has ``variables_``).
    variables : sequence, optional
        Vertex names (default: the DataFrame columns, the score's ``variables_`` or 0..d-1).

    Returns
    -------
    SpanningTreeResult
        ``.edges`` (selection order), ``.weight``, ``.ktree``, ``.junction_tree(target)``.

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.search.spanning_tree import maximum_spanning_tree
    >>> W = np.array([[0, 3, 1, 0], [3, 0, 2, 2], [1, 2, 0, 1], [0, 2, 1, 0]], float)
    >>> res = maximum_spanning_tree(W, variables="abcd")
    >>> res.edges, res.weight
    ((('a', 'b'), ('b', 'c'), ('b', 'd')), 7.0)
    >>> res.junction_tree(target="y").clusters[0] == {"y", "a", "b"}
    True
    """
    W, variables = weight_matrix(W_or_score, variables)
    iu = np.triu_indices(len(W), 1)
    chosen = _kruskal_order(W)
    edges = tuple((variables[i], variables[j]) for i, j in zip(iu[0][chosen].tolist(),
                                                               iu[1][chosen].tolist(), strict=True))
    return SpanningTreeResult(edges, tuple(W[iu][chosen].tolist()), variables)
