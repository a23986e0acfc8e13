"""Maximum spanning tree by Kruskal's algorithm (the graphic-matroid greedy; paper 1 §4.2).

Edges are taken by decreasing weight, ties broken by variable order (pairs (i, j), i < j, in
row-major order), and kept when they join two components. The selection order is the GNB
cluster order. The tree is found by a dense Prim pass over the weight matrix under the same
strict order (weight descending, then pair (i, j) ascending): under a strict order the maximum
spanning tree is unique, so Prim's tree is Kruskal's; its d - 1 edges are then sorted into
Kruskal's selection order. O(d^2) time, O(d) extra memory, no per-edge Python objects.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from estimators.search._common import own_edge_matrix, score_values
from kgraph.gnb import GNBJunctionTree
from kgraph.ktree import AcyclicKTree

__all__ = ["SpanningTreeResult", "maximum_spanning_tree", "square_matrix", "weight_matrix"]

_CHECK_ROWS = 512  # rows per block when checking a weight matrix (bounded temporaries)


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

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.search import maximum_spanning_tree
    >>> W = np.array([[0, 3, 1], [3, 0, 2], [1, 2, 0]], float)
    >>> res = maximum_spanning_tree(W, variables="abc")
    >>> type(res).__name__, res.edges, res.weights, res.variables
    ('SpanningTreeResult', (('a', 'b'), ('b', 'c')), (3.0, 2.0), ('a', 'b', 'c'))
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
            W = own_edge_matrix(score, variables) if variables is not None else \
                np.asarray(score.edge_matrix(), dtype=float)
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
    for lo in range(0, d, _CHECK_ROWS):  # row blocks: no d x d temporaries
        block, mirror = W[lo:lo + _CHECK_ROWS], W[:, lo:lo + _CHECK_ROWS].T
        off = np.ones(block.shape, dtype=bool)
        off[np.arange(len(block)), np.arange(lo, lo + len(block))] = False
        nan = np.argwhere(np.isnan(block) & off)
        if len(nan):
            i, j = nan[0]
            raise ValueError(f"The weight of pair ({variables[lo + i]!r}, {variables[j]!r}) "
                             "is NaN.")
        if np.array_equal(block, mirror):  # the usual, exactly symmetric case: cheap
            continue
        asym = np.argwhere(~np.isclose(block, mirror, rtol=1e-9, atol=1e-12) & off)
        if len(asym):
            i, j = asym[0]
            i += lo
            raise ValueError(f"The weights must be symmetric: W[{variables[i]!r}, "
                             f"{variables[j]!r}] = {W[i, j]} but W[{variables[j]!r}, "
                             f"{variables[i]!r}] = {W[j, i]}.")
    return W, variables


def _prim(W: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tree edges ``(i, j)``, ``i < j``, in Kruskal's selection order, by a dense Prim pass.

    Edges compare by weight (larger first), then by pair key ``i * d + j`` (smaller first),
    a strict order; each vertex outside the tree keeps its best edge into the tree.
    """
    d = len(W)
    worst = np.iinfo(np.int64).max
    idx = np.arange(d, dtype=np.int64)
    outside = np.ones(d, dtype=bool)
    outside[0] = False
    best = W[0].astype(float, copy=True)
    key = idx.copy()  # pair (0, v) has key v
    src = np.zeros(d, dtype=np.int64)
    best[0], key[0] = -np.inf, worst
    tail, head = np.empty(d - 1, dtype=np.int64), np.empty(d - 1, dtype=np.int64)
    for step in range(d - 1):
        top = np.flatnonzero(best == best.max())
        v = int(top[np.argmin(key[top])]) if len(top) > 1 else int(top[0])
        tail[step], head[step] = src[v], v
        outside[v] = False
        best[v], key[v] = -np.inf, worst
        row = W[v]
        pair = np.where(idx < v, idx * d + v, v * d + idx)
        better = ((row > best) | ((row == best) & (pair < key))) & outside
        best[better], key[better], src[better] = row[better], pair[better], v
    i, j = np.minimum(tail, head), np.maximum(tail, head)
    order = np.lexsort((i * d + j, -W[i, j]))
    return i[order], j[order]


def maximum_spanning_tree(W_or_score, variables: Sequence[Hashable] | None = None, *,
                          check: bool = True) -> SpanningTreeResult:
    """The maximum-weight spanning tree by Kruskal's algorithm, edges in selection order.

    Parameters
    ----------
    W_or_score : array-like of shape (d, d), DataFrame or score
        Symmetric weights (the diagonal is ignored), or a pair score: a fitted score's
        ``edge_matrix()``, or a callable ``f(v, {u})`` (then ``variables`` is needed unless
        it has ``variables_``).
    variables : sequence, optional
        Vertex names (default: the DataFrame columns, the score's ``variables_`` or 0..d-1).

    check : bool, default=True
        Validate the matrix (square, no NaN, symmetric) as given by a user; False for an
        array known to be so by construction (a closed-form CMI matrix computed in place),
        which skips the checks' passes over the d^2 entries and the copy.

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
    if check:
        W, variables = weight_matrix(W_or_score, variables)
    else:
        W = np.asarray(W_or_score, dtype=float)
        variables = tuple(range(len(W))) if variables is None else tuple(variables)
    i, j = _prim(W)
    edges = tuple((variables[a], variables[b]) for a, b in zip(i.tolist(), j.tolist(), strict=True))
    return SpanningTreeResult(edges, tuple(W[i, j].tolist()), variables)
