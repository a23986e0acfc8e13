"""Acyclic k-trees (paper 2, defs. 2–4; MATH.md §4).

An acyclic k-tree starts from a k-clique C_1 = (v_1..v_k), each v_i with the earlier ones as
parents, and adds the other vertices one at a time, each joined to a k-clique of the graph so
far: its parent set π(v). Its (k+1)-cliques are Δ_v = {v} ∪ π(v) for the added vertices.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from itertools import combinations

from kgraph._codec import sorted_mixed
from kgraph.dag import ParentSetMethods
from kgraph.graphdb import GraphDB
from kgraph.junction import CherryJunctionTree
from kgraph.structure import Structure

__all__ = ["AcyclicKTree"]


def _check_k(k: object) -> int:
    if isinstance(k, bool) or not isinstance(k, int):
        raise TypeError(f"k must be an int >= 1; got {k!r} of type {type(k).__name__}.")
    if k < 1:
        raise ValueError(f"k must be an int >= 1; got {k}.")
    return k


class AcyclicKTree(ParentSetMethods, Structure):
    """An acyclic k-tree given by its creation order and parent sets.

    Parameters
    ----------
    k : int
        The width, k >= 1 (k = 1 is a tree).
    order : sequence
        The creation order of all n >= k + 1 vertices. The first k form the initial clique,
        each with the earlier ones as parents.
    parents : mapping, optional
        Vertex -> parent set, required for every vertex after the first k: a set of k vertices
        created before it that form a clique of the graph built so far. Parent sets of the
        first k vertices may be given; they must then be the earlier vertices.

    Examples
    --------
    A 2-tree on five vertices (paper 2, fig. 2 style):

    >>> from kgraph import AcyclicKTree
    >>> t = AcyclicKTree(2, "abcde", {"c": "ab", "d": "bc", "e": "bd"})
    >>> sorted(t.parents("e"))
    ['b', 'd']
    >>> len(t.edges), len(t.cliques())
    (7, 3)
    >>> t.score(lambda v, ps: len(ps))  # 0 + 1 + 2 + 2 + 2
    7
    """

    def __init__(self, k: int, order: Sequence[Hashable],
                 parents: Mapping[Hashable, Iterable[Hashable]] | None = None) -> None:
        self._k = _check_k(k)
        order = tuple(order)
        given = {v: frozenset(p) for v, p in (parents or {}).items()}
        position: dict[Hashable, int] = {}
        for i, v in enumerate(order):
            if v in position:
                raise ValueError(f"Vertex {v!r} appears twice in the creation order.")
            position[v] = i
        if len(order) < k + 1:
            raise ValueError(
                f"An acyclic {k}-tree needs at least k + 1 = {k + 1} vertices; got {len(order)}."
            )
        unknown = [v for v in given if v not in position]
        if unknown:
            raise ValueError(
                f"Parent sets are given for {unknown!r}, which are not in the creation order."
            )
        adjacency: dict[Hashable, set] = {v: set() for v in order}
        parent_map: dict[Hashable, frozenset] = {}
        for i, v in enumerate(order):
            if i < k:
                ps = frozenset(order[:i])
                if v in given and given[v] != ps:
                    raise ValueError(
                        f"Vertex {v!r} is in the initial {k}-clique, so its parents must be the "
                        f"vertices created before it, {sorted(ps, key=repr)}; got "
                        f"{sorted(given[v], key=repr)}."
                    )
            else:
                if v not in given:
                    raise ValueError(f"Vertex {v!r} (created at position {i}) has no parent set.")
                ps = given[v]
                self._check_parent_set(v, ps, position, adjacency)
            for p in ps:
                adjacency[p].add(v)
                adjacency[v].add(p)
            parent_map[v] = ps
        self._order = order
        self._parents = parent_map

    def _check_parent_set(self, v: Hashable, ps: frozenset, position: Mapping,
                          adjacency: Mapping) -> None:
        k = self._k
        if len(ps) != k:
            raise ValueError(
                f"The parent set of vertex {v!r} has {len(ps)} vertices; a {k}-tree needs {k}."
            )
        for p in ps:
            if p not in position:
                raise ValueError(
                    f"Parent {p!r} of vertex {v!r} is not in the creation order "
                    "(the order misses a vertex)."
                )
            if position[p] >= position[v]:
                raise ValueError(f"Parent {p!r} of vertex {v!r} is created after it.")
        for a, b in combinations(sorted(ps, key=position.__getitem__), 2):
            if b not in adjacency[a]:
                raise ValueError(
                    f"The parent set {sorted(ps, key=position.__getitem__)!r} of vertex {v!r} is "
                    f"not a {k}-clique of the graph built so far: {a!r} and {b!r} are not adjacent."
                )

    # -- facts ---------------------------------------------------------------------
    @property
    def k(self) -> int:
        """The width k."""
        return self._k

    @property
    def order(self) -> tuple:
        """The creation order of the vertices."""
        return self._order

    @property
    def n(self) -> int:
        """The number of vertices."""
        return len(self._order)

    def parents(self, v: Hashable) -> frozenset:
        """The parent set π(v)."""
        if v not in self._parents:
            raise KeyError(f"{v!r} is not a vertex of this k-tree.")
        return self._parents[v]

    @property
    def parent_map(self) -> dict[Hashable, frozenset]:
        """Vertex -> parent set, in creation order."""
        return dict(self._parents)

    def skeleton(self) -> frozenset[frozenset]:
        """The undirected edges as a set of 2-sets."""
        return frozenset(frozenset(e) for e in self.edges)

    def cliques(self) -> list[frozenset]:
        """The n − k (k+1)-cliques Δ_v = {v} ∪ π(v), in creation order."""
        return [self._parents[v] | {v} for v in self._order[self._k:]]

    # -- derived structures ----------------------------------------------------------
    def _tree_links(self) -> list[tuple[int, int]]:
        """Def. 4: Δ_{v_j} joins the most recently created Δ_{v_i}, i < j, containing π(v_j)."""
        cliques = self.cliques()
        links = []
        for j in range(1, len(cliques)):
            ps = self._parents[self._order[self._k + j]]
            i = max(i for i in range(j) if ps <= cliques[i])
            links.append((i, j))
        return links

    def tree_representation(self) -> GraphDB:
        """The tree of (k+1)-cliques (paper 2, def. 4): nodes are the cliques (frozensets,
        with the ``vertex`` that created each), edges carry the ``separator`` π(v_j)."""
        cliques = self.cliques()
        g = GraphDB(attrs={"k": self._k})
        for i, c in enumerate(cliques):
            g.add_node(c, kind="clique", vertex=self._order[self._k + i], index=i)
        for i, j in self._tree_links():
            g.add_edge(cliques[i], cliques[j], kind="tree", separator=cliques[i] & cliques[j])
        return g

    def to_junction_tree(self, target: Hashable) -> CherryJunctionTree:
        """The k-GNB junction tree of order k + 2: clusters {target} ∪ Δ_v (MATH.md §4)."""
        if target in self._parents:
            raise ValueError(f"The target {target!r} is a vertex of the k-tree.")
        clusters = [c | {target} for c in self.cliques()]
        return CherryJunctionTree(clusters, [(clusters[i], clusters[j])
                                             for i, j in self._tree_links()])

    @classmethod
    def from_junction_tree(cls, jt: CherryJunctionTree, target: Hashable,
                           root_order: Sequence[Hashable] | None = None) -> AcyclicKTree:
        """Invert :meth:`to_junction_tree`: the k-tree (k = order − 2) whose first (k+1)-clique
        is the first cluster without the target (in ``root_order``, default sorted) and whose
        other vertices follow the junction tree outwards in cluster order."""
        k = jt.order - 2
        if k < 1:
            raise ValueError(f"A k-GNB junction tree has order k + 2 >= 3; got order {jt.order}.")
        clusters = jt.clusters
        for c in clusters:
            if target not in c:
                raise ValueError(f"Cluster {sorted(c, key=repr)} does not contain the target {target!r}.")
        root = clusters[0] - {target}
        if root_order is None:
            root_order = sorted_mixed(root)
        if set(root_order) != root or len(root_order) != len(root):
            raise ValueError(f"root_order must order the first clique {sorted(root, key=repr)}.")
        order = list(root_order)
        parents = {order[k]: order[:k]}
        index = {c: i for i, c in enumerate(clusters)}
        neighbours: dict[frozenset, list] = {c: [] for c in clusters}
        for a, b in jt.junction_edges:
            neighbours[a].append(b)
            neighbours[b].append(a)
        seen, queue = {clusters[0]}, [clusters[0]]
        while queue:
            c = queue.pop(0)
            for d in sorted(neighbours[c], key=index.__getitem__):
                if d not in seen:
                    seen.add(d)
                    (v,) = d - c
                    order.append(v)
                    parents[v] = (c & d) - {target}
                    queue.append(d)
        return cls(k, order, parents)

    def to_dag(self, target: Hashable | None = None) -> GraphDB:
        """The Bayesian-network DAG (parent -> child); with a target, the class is a parent of
        every vertex."""
        if target is not None and target in self._parents:
            raise ValueError(f"The target {target!r} is a vertex of the k-tree.")
        return self._class_dag(target, {"k": self._k})

    # -- Structure -----------------------------------------------------------------
    def _identity(self) -> tuple:
        # Two creation orders with the same parent sets define the same acyclic k-tree.
        return self._k, frozenset(self._parents.items())

    def to_graph(self, backend: str = "networkx") -> GraphDB:
        g = self._new_graph(True, backend, k=self._k)
        for i, v in enumerate(self._order):
            g.add_node(v, kind="variable", position=i)
        for p, v in self.edges:
            g.add_edge(p, v, kind="parent")
        return g

    @classmethod
    def _from_graph(cls, graph: GraphDB) -> AcyclicKTree:
        order = [v for v, _ in sorted(graph.nodes(kind="variable", data=True),
                                       key=lambda item: item[1]["position"])]
        variables = set(order)  # a graph with the class node (kind "class") reads the same
        return cls(graph.attrs["k"], order,
                   {v: [p for p in graph.predecessors(v) if p in variables] for v in order})

    def __repr__(self) -> str:
        return f"AcyclicKTree(k={self._k}, n={self.n}, order={list(self._order)!r})"
