"""GNB junction trees and GNB forests (paper 1, §2.1 and def. 22; MATH.md §2–3).

A spanning tree T over the features, its edges in selection order e_1..e_{d−1}, gives the
clusters ``{0, i, j}`` (0 the class) and the separators ``{0, s}`` with multiplicity
``deg_T(s)``. A GNB forest is the structure of the first m clusters: a forest over the features
it covers, whose r trees are joined through the class alone (separator ``{0}`` of multiplicity
r, eq. 42 of paper 1).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

import numpy as np
from networkx.utils import UnionFind

from kgraph._codec import sorted_mixed
from kgraph.graphdb import GraphDB
from kgraph.junction import (
    CherryJunctionTree,
    SetFunction,
    decomposable_log_density,
    decomposable_weight,
)
from kgraph.ktree import AcyclicKTree
from kgraph.structure import Structure, check_distinct

__all__ = ["GNBJunctionTree", "GNBForest"]

Edge = tuple[Hashable, Hashable]


def _components(edges: Sequence[Edge], target: Hashable) -> list[list[Edge]]:
    """Validate a forest of feature edges; return its trees as edge lists (selection order)."""
    find = UnionFind()
    for edge in edges:
        if len(edge) != 2:
            raise ValueError(f"A tree edge is a pair of features; got {edge!r}.")
        u, v = edge
        if u == v:
            raise ValueError(f"Tree edge ({u!r}, {v!r}) repeats feature {u!r}.")
        if target in (u, v):
            raise ValueError(
                f"The target {target!r} is among the features (edge ({u!r}, {v!r})); the class "
                "joins every cluster by itself and must not appear in the tree edges."
            )
        if find[u] == find[v]:
            raise ValueError(f"Tree edge ({u!r}, {v!r}) closes a cycle: the edges are not a forest.")
        find.union(u, v)
    trees: dict[Hashable, list[Edge]] = {}
    for u, v in edges:
        trees.setdefault(find[u], []).append((u, v))
    return list(trees.values())


class _GNBStructure(Structure):
    """Clusters ``{target, i, j}`` of feature edges in selection order (shared by both)."""

    def __init__(self, edges: Iterable[Edge], target: Hashable = 0) -> None:
        self._edges = tuple(tuple(e) for e in edges)
        hash(target)
        self._target = target
        self._trees = _components(self._edges, target)
        self._degree: dict[Hashable, int] = {}
        for u, v in self._edges:
            self._degree[u] = self._degree.get(u, 0) + 1
            self._degree[v] = self._degree.get(v, 0) + 1

    @property
    def target(self) -> Hashable:
        """The class vertex (0 in the paper)."""
        return self._target

    @property
    def edges(self) -> list[Edge]:
        """The feature edges in selection order."""
        return list(self._edges)

    @property
    def features(self) -> list:
        """The features the clusters cover, in order of first appearance."""
        return list(dict.fromkeys(v for e in self._edges for v in e))

    @property
    def clusters(self) -> list[frozenset]:
        """``{target, i, j}`` for each edge, in selection order."""
        return [frozenset((self._target, u, v)) for u, v in self._edges]

    @property
    def trees(self) -> list[list[Edge]]:
        """The trees (components) of the feature forest, as edge lists in selection order."""
        return [list(t) for t in self._trees]

    @property
    def n_trees(self) -> int:
        """r, the number of trees."""
        return len(self._trees)

    def degree(self, feature: Hashable) -> int:
        """Degree of ``feature`` in the feature tree (forest)."""
        if feature not in self._degree:
            raise KeyError(f"{feature!r} is not a feature of this structure.")
        return self._degree[feature]

    @property
    def separators(self) -> dict[frozenset, int]:
        """Separator -> multiplicity: ``{target, s}`` -> deg(s) for deg(s) >= 2, and
        ``{target}`` -> r when the forest has r >= 2 trees."""
        seps = {frozenset((self._target, s)): d for s, d in self._degree.items() if d >= 2}
        if self.n_trees >= 2:
            seps[frozenset((self._target,))] = self.n_trees
        return seps

    def weight(self, info: SetFunction) -> float:
        """``Σ_C info(C) − Σ_S (ν_S − 1) info(S)`` (eq. 8 of paper 1 with ``info`` the
        multi-information)."""
        return decomposable_weight(self.clusters, self.separators, info)

    def log_density(self, cluster_logpdf: SetFunction,
                    separator_logpdf: SetFunction) -> np.ndarray:
        """The log of eq. 1 (eq. 42 for a forest) from per-cluster and per-separator
        log-densities (callables of the variable set or mappings, arrays over rows)."""
        return decomposable_log_density(self.clusters, self.separators,
                                        cluster_logpdf, separator_logpdf)

    def junction_tree(self, form: str = "tree") -> GraphDB:
        """Paper 1 fig. 2: ``"tree"`` joins the clusters sharing a separator in a chain
        (selection order); ``"compact"`` draws each separator once as a node, with its
        multiplicity, joined to the clusters that contain it."""
        if form not in ("tree", "compact"):
            raise ValueError(f"Unknown junction-tree form {form!r}; valid forms: 'compact', 'tree'.")
        g = GraphDB(attrs={"form": form, "target": self._target})
        clusters = self.clusters
        for i, c in enumerate(clusters):
            g.add_node(c, kind="cluster", index=i)
        for sep, nu in self.separators.items():
            holding = [c for c in clusters if sep <= c]
            if sep == frozenset((self._target,)):
                holding = [frozenset((self._target, *t[0])) for t in self._trees]
            if form == "compact":
                g.add_node(sep, kind="separator", multiplicity=nu)
                for c in holding:
                    g.add_edge(sep, c, kind="contains")
            else:
                for a, b in zip(holding, holding[1:], strict=False):
                    g.add_edge(a, b, kind="junction", separator=sep)
        return g

    def _identity(self) -> tuple:
        return self._target, self._edges

    def to_graph(self, backend: str = "networkx") -> GraphDB:
        """The GNB graph (paper 1 fig. 1): class vertex, features, tree edges."""
        g = self._new_graph(False, backend, target=self._target)
        g.add_node(self._target, kind="class")
        mothers = self._mothers()
        for f in self.features:
            g.add_node(f, kind="variable", mother=mothers[f])
            g.add_edge(self._target, f, kind="class-edge")
        for i, (u, v) in enumerate(self._edges):
            g.add_edge(u, v, kind="tree", order=i, endpoints=(u, v))
        return g

    @classmethod
    def _from_graph(cls, graph: GraphDB):
        tree = sorted(graph.edges(kind="tree", data=True), key=lambda e: e[2]["order"])
        return cls([e[2]["endpoints"] for e in tree], target=graph.attrs["target"])

    def _mothers(self) -> dict[Hashable, Hashable | None]:
        """Mother of each feature: its neighbour towards the first vertex of its tree's
        first edge (None for that root). Computed once (the structure is immutable; do not
        mutate the dict returned)."""
        cached = self.__dict__.get("_mother_map")
        if cached is not None:
            return cached
        adjacency: dict[Hashable, list] = {}
        for u, v in self._edges:
            adjacency.setdefault(u, []).append(v)
            adjacency.setdefault(v, []).append(u)
        mothers: dict[Hashable, Hashable | None] = {}
        for tree in self._trees:
            root = tree[0][0]
            mothers[root] = None
            stack = [root]
            while stack:
                x = stack.pop()
                for y in adjacency[x]:
                    if y not in mothers:
                        mothers[y] = x
                        stack.append(y)
        self._mother_map = mothers
        return mothers

    @property
    def order(self) -> tuple:
        """The features with every mother before its daughters (tree by tree, each from its
        root): the order of :class:`kgraph.ParentSets`."""
        return tuple(self._mothers())

    def parents(self, feature: Hashable) -> frozenset:
        """The feature parents of ``feature`` as a directed structure
        (:class:`kgraph.ParentSets`): its mother, none for a root."""
        mother = self.mother(feature)
        return frozenset() if mother is None else frozenset((mother,))

    def mother(self, feature: Hashable) -> Hashable | None:
        """The mother μ(v) of a feature (paper 1 def. 1): its neighbour on the path to the
        first cluster of its tree; None for the first vertex of that cluster."""
        mothers = self._mothers()
        if feature not in mothers:
            raise KeyError(f"{feature!r} is not a feature of this structure.")
        return mothers[feature]

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(target={self._target!r}, features={len(self.features)}, "
                f"clusters={len(self._edges)}, trees={self.n_trees})")


class GNBForest(_GNBStructure):
    """A GNB forest (paper 1, def. 22): the clusters of a set of feature edges forming a forest.

    Usually obtained as ``GNBJunctionTree.prefix(m)``: the first m clusters in selection order.

    Examples
    --------
    >>> from kgraph import GNBJunctionTree
    >>> gnb = GNBJunctionTree.from_tree([(1, 2), (3, 4), (2, 3)], target=0)
    >>> forest = gnb.prefix(2)
    >>> forest.trees
    [[(1, 2)], [(3, 4)]]
    >>> {tuple(sorted(s)): nu for s, nu in forest.separators.items()}
    {(0,): 2}
    """


class GNBJunctionTree(_GNBStructure):
    """The GNB junction tree (paper 1, §2.1): order 3, the class in every cluster.

    Parameters
    ----------
    edges : sequence of pairs
        The edges of a spanning tree over the features, in selection order (the order the
        searcher chose them: Kruskal's order gives paper 1's cluster order).
    target : hashable, default=0
        The class vertex.
    features : sequence, optional
        The features; when given the tree must span exactly these.

    Examples
    --------
    Paper 1's example:

    >>> from kgraph import GNBJunctionTree
    >>> gnb = GNBJunctionTree.from_tree([(1, 2), (2, 3), (1, 4), (1, 5)], target=0)
    >>> [sorted(c) for c in gnb.clusters]
    [[0, 1, 2], [0, 2, 3], [0, 1, 4], [0, 1, 5]]
    >>> {tuple(sorted(s)): nu for s, nu in gnb.separators.items()}
    {(0, 1): 3, (0, 2): 2}
    >>> gnb.mother(3), gnb.mother(1)
    (2, None)
    """

    def __init__(self, edges: Iterable[Edge], target: Hashable = 0,
                 features: Sequence[Hashable] | None = None) -> None:
        super().__init__(edges, target)
        covered = self.features
        if features is not None:
            features = check_distinct(features, "Feature")
            if target in features:
                raise ValueError(f"The target {target!r} is among the features.")
            missing = [f for f in features if f not in self._degree]
            wanted = set(features)
            extra = [f for f in covered if f not in wanted]
            if extra:
                raise ValueError(f"Tree edges use {extra!r}, which are not among the features.")
            if missing:
                raise ValueError(
                    f"The tree does not span the features: {missing!r} are on no edge."
                )
        if not self._edges:
            raise ValueError("A GNB junction tree needs at least two features (one tree edge).")
        if self.n_trees > 1:
            parts = [sorted_mixed({v for e in t for v in e}) for t in self._trees]
            raise ValueError(
                f"The tree edges are not connected: they form {len(parts)} components {parts}."
            )

    @classmethod
    def from_tree(cls, edges: Iterable[Edge], target: Hashable = 0,
                  features: Sequence[Hashable] | None = None) -> GNBJunctionTree:
        """Build from spanning-tree edges over the features in selection order."""
        return cls(edges, target=target, features=features)

    @property
    def feature_tree(self) -> GraphDB:
        """The spanning tree over the features (edges carry their selection ``order``)."""
        g = GraphDB(attrs={"target": self._target})
        for f in self.features:
            g.add_node(f, kind="variable")
        for i, (u, v) in enumerate(self._edges):
            g.add_edge(u, v, kind="tree", order=i)
        return g

    def prefix(self, m: int) -> GNBForest:
        """The GNB forest of the first ``m`` clusters (1 <= m <= d − 1)."""
        if not isinstance(m, int | np.integer) or not 1 <= m <= len(self._edges):
            raise ValueError(
                f"The number of clusters m must be an int in [1, {len(self._edges)}]; got {m!r}."
            )
        return GNBForest(self._edges[: int(m)], target=self._target)

    def to_cherry_junction_tree(self) -> CherryJunctionTree:
        """The order-3 cherry junction tree (tree-like form of fig. 2)."""
        g = self.junction_tree("tree")
        return CherryJunctionTree(self.clusters, g.edges(kind="junction"))

    def to_ktree(self) -> AcyclicKTree:
        """The same structure as an acyclic 1-tree (TAN) rooted at the first vertex."""
        mothers = self._mothers()
        order = [self._edges[0][0]]
        children: dict[Hashable, list] = {}
        for v, m in mothers.items():
            if m is not None:
                children.setdefault(m, []).append(v)
        for v in order:
            order.extend(children.get(v, []))
        return AcyclicKTree(1, order, {v: [m] for v, m in mothers.items() if m is not None})

    def to_pgmpy(self):
        """A pgmpy ``DiscreteBayesianNetwork`` (structure only): the class is a parent of every
        feature and each mother a parent of her children."""
        return self.to_ktree().to_pgmpy(target=self._target)
