"""Maximum spanning arborescence (Chu–Liu/Edmonds): the best TAN tree for a directed score.

For a directed score (MATH.md §7: the conditional Gaussian f(x, {z}) != f(z, {x})) the best
tree-augmented structure is the spanning arborescence maximising

    f(r, ∅) + Σ_{v ≠ r} f(v, {π(v)})

over roots r and parent maps π, i.e. the maximum spanning arborescence of the complete
digraph with ``W[u, v] = f(v, {u})``. Edmonds' algorithm (networkx's
``maximum_spanning_arborescence``) solves it exactly. When the root terms ``f(v, ∅)`` are not
all equal, a super-root s with arcs ``s -> v`` of weight ``f(v, ∅) - M`` is added, M larger
than any possible gain of a second child of s, so the optimum has s with exactly one child:
the best root. For a symmetric f the optimum weight equals Kruskal's maximum spanning tree
(any spanning tree can be oriented away from any root), and so does the tree when it is
unique.

Pairs scored ``-inf`` (not eligible, MATH.md §8) are left out of the digraph. Ties: networkx
breaks them by the order in which arcs are inserted (row-major ``(u, v)`` in variable order),
so the result is deterministic; the returned score is recomputed from the weights.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import networkx as nx
import numpy as np

from estimators.search._common import own_edge_matrix, score_values
from estimators.search.spanning_tree import square_matrix
from kgraph.ktree import AcyclicKTree

__all__ = ["ArborescenceResult", "directed_weights", "maximum_spanning_arborescence"]


@dataclass(frozen=True)
class ArborescenceResult:
    """A maximum spanning arborescence.

    Attributes
    ----------
    structure : AcyclicKTree
        The tree as an acyclic 1-tree: the root, then every other vertex with its parent
        (created breadth first, children in variable order).
    score : float
        ``f(root, ∅) + Σ_v f(v, {π(v)})``.
    edges : tuple of (parent, child)
        The arcs, in creation order of the children.
    weights : tuple of float
        ``f(child, {parent})`` for each arc.

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.search import maximum_spanning_arborescence
    >>> W = np.array([[0, 5, 1], [1, 0, 1], [4, 6, 0]], float)  # W[u, v]: arc u -> v
    >>> res = maximum_spanning_arborescence(W, variables="abc")
    >>> type(res).__name__, res.edges, res.weights
    ('ArborescenceResult', (('c', 'a'), ('c', 'b')), (4.0, 6.0))
    """

    structure: AcyclicKTree
    score: float
    edges: tuple
    weights: tuple

    @property
    def ktree(self) -> AcyclicKTree:
        """Same as :attr:`structure`."""
        return self.structure

    @property
    def root(self) -> Hashable:
        """The vertex without a parent."""
        return self.structure.order[0]


def directed_weights(W_or_score, variables: Sequence[Hashable] | None = None
                     ) -> tuple[np.ndarray, np.ndarray, tuple]:
    """``W[u, v] = f(v, {u})``, the root terms ``f(v, ∅)`` and the variable names.

    From a square matrix (DataFrame or array; root terms 0), a fitted score with
    ``edge_matrix()`` (directed for :class:`ConditionalGaussianScore`), or a callable
    ``f(v, parents)`` (``variables`` needed unless it has ``variables_``). NaN is an error.
    """
    root = None
    if callable(W_or_score) or hasattr(W_or_score, "edge_matrix"):
        f = W_or_score
        variables = variables if variables is not None else getattr(f, "variables_", None)
        if variables is None:
            raise ValueError("Pass variables=[...] to score pairs with a plain callable.")
        variables = tuple(variables)
        d = len(variables)
        root = score_values(f, [(v, frozenset()) for v in variables])
        if hasattr(f, "edge_matrix"):
            W = own_edge_matrix(f, variables)
        else:
            ii, jj = np.nonzero(~np.eye(d, dtype=bool))
            W = np.zeros((d, d))
            W[ii, jj] = score_values(f, [(variables[j], frozenset([variables[i]]))
                                         for i, j in zip(ii, jj, strict=True)])
    else:
        W = W_or_score
    W, variables = square_matrix(W, variables)
    d = len(W)
    root = np.zeros(d) if root is None else root
    off = ~np.eye(d, dtype=bool)
    bad = np.argwhere(off & (np.isnan(W) | (W == np.inf)))
    if len(bad):
        i, j = bad[0]
        raise ValueError(f"The weight of arc {variables[i]!r} -> {variables[j]!r} is "
                         f"{W[i, j]}; weights must be finite or -inf (not eligible).")
    if np.isinf(root).any():
        v = variables[int(np.flatnonzero(np.isinf(root))[0])]
        raise ValueError(f"The root term f({v!r}, ∅) must be finite; got {root[np.isinf(root)][0]}.")
    np.fill_diagonal(W, 0.0)
    return W, root, variables


def maximum_spanning_arborescence(W_or_score, variables: Sequence[Hashable] | None = None
                                  ) -> ArborescenceResult:
    """The maximum spanning arborescence of a directed score (Chu–Liu/Edmonds, exact).

    Parameters
    ----------
    W_or_score : array-like (d, d), DataFrame, fitted score or callable
        ``W[u, v]`` is the weight of the arc u -> v, i.e. ``f(v, {u})``; ``-inf`` forbids
        the arc. A score is asked for ``f(v, {u})`` and the root terms ``f(v, ∅)``.
    variables : sequence, optional
        Vertex names (default: the DataFrame columns, ``variables_`` or ``0 .. d-1``).

    Returns
    -------
    ArborescenceResult

    Raises
    ------
    ValueError
        NaN or +inf weights, or no spanning arborescence through eligible arcs.

    Examples
    --------
    >>> import numpy as np
    >>> W = np.array([[0, 5, 1], [1, 0, 1], [4, 6, 0]], float)  # W[u, v]: arc u -> v
    >>> res = maximum_spanning_arborescence(W, variables="abc")
    >>> res.edges, res.score, res.root
    ((('c', 'a'), ('c', 'b')), 10.0, 'c')
    """
    W, root, variables = directed_weights(W_or_score, variables)
    d = len(W)
    G = nx.DiGraph()
    G.add_nodes_from(range(d))
    ii, jj = np.nonzero(~np.eye(d, dtype=bool) & np.isfinite(W))
    G.add_weighted_edges_from(zip(ii.tolist(), jj.tolist(), W[ii, jj].tolist(), strict=True))
    if np.ptp(root) > 0:  # a super-root d with one child: the best root term
        finite = np.concatenate([W[ii, jj], root])
        M = 1.0 + 2.0 * float(finite.max() - finite.min())
        G.add_weighted_edges_from((d, v, float(root[v] - M)) for v in range(d))
    try:
        B = nx.maximum_spanning_arborescence(G, attr="weight")
    except nx.NetworkXException:
        raise ValueError(
            "No spanning arborescence uses only eligible arcs (finite weights): some vertex "
            "cannot be reached; check the -inf scores (too few complete rows?)."
        ) from None
    parent = {v: u for u, v in B.edges() if u != d}
    roots = [v for v in range(d) if v not in parent]
    order = [roots[0]]
    children: dict[int, list] = {v: [] for v in range(d)}
    for v in sorted(parent):
        children[parent[v]].append(v)
    for v in order:
        order.extend(children[v])
    edges = tuple((variables[parent[v]], variables[v]) for v in order[1:])
    weights = tuple(float(W[parent[v], v]) for v in order[1:])
    structure = AcyclicKTree(1, [variables[v] for v in order],
                             {variables[v]: [variables[parent[v]]] for v in order[1:]})
    return ArborescenceResult(structure, float(root[order[0]] + sum(weights)), edges, weights)
