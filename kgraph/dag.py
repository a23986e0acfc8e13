"""Parent-set DAGs over the features with a class vertex (MATH.md §9), and the protocol every
directed structure over the features answers.

:class:`ParentSets` is what a classifier's network needs from a structure: an ``order`` in
which parents come before their children and ``parents(v)``. Acyclic k-trees (trees are
k = 1), GNB trees and forests (a feature's mother is its one parent) and
:class:`ParentSetDAG` all satisfy it, so searchers and the network model take any of them.

A :class:`ParentSetDAG` is the structure of kDB, BAN and any other Bayesian-network
classifier whose feature graph is a DAG but not a k-tree: the class vertex ``target`` is a
parent of every feature (it is not listed in the parent sets), the feature parent sets are
given, and the object checks on construction that the parents exist, that no vertex is its
own ancestor, and (when ``max_in_degree`` is given) that no feature has more feature parents.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Protocol, runtime_checkable

import networkx as nx

from kgraph.graphdb import GraphDB
from kgraph.structure import Structure

__all__ = ["ParentSetDAG", "ParentSetMethods", "ParentSets"]


@runtime_checkable
class ParentSets(Protocol):
    """A directed structure over the features: ``order`` (parents before children) and
    ``parents(v)`` (the feature parents of ``v``; the class is implicit).

    Examples
    --------
    Any object with ``order`` and ``parents(v)`` is one (the protocol is runtime-checkable):

    >>> from kgraph import AcyclicKTree, ParentSetDAG, ParentSets
    >>> dag = ParentSetDAG({"a": [], "b": ["a"], "c": ["a", "b"]}, target="y")
    >>> isinstance(dag, ParentSets), isinstance(AcyclicKTree(1, "ab", {"b": "a"}), ParentSets)
    (True, True)
    >>> dag.order, sorted(dag.parents("c"))
    (('a', 'b', 'c'), ['a', 'b'])
    """

    @property
    def order(self) -> tuple: ...

    def parents(self, v: Hashable) -> frozenset: ...


class ParentSetMethods:
    """What a structure given by parent sets over an order derives from them: its directed
    edges, its score, its Bayesian-network DAG with a class vertex and its pgmpy model.

    A subclass sets ``_order`` (a tuple, parents before children) and ``_parents`` (vertex
    -> frozenset of its parents); :class:`ParentSetDAG` and
    :class:`~kgraph.ktree.AcyclicKTree` do.

    Examples
    --------
    >>> from kgraph import AcyclicKTree, ParentSetDAG
    >>> dag = ParentSetDAG({"a": [], "b": ["a"], "c": ["a", "b"]}, target="y")
    >>> dag.edges
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    >>> sorted(dag.to_dag().edges())[:2]
    [('a', 'b'), ('a', 'c')]
    >>> AcyclicKTree(1, "ab", {"b": "a"}).score(lambda v, ps: len(ps))
    1
    """

    _order: tuple
    _parents: Mapping[Hashable, frozenset]

    @property
    def edges(self) -> list[tuple[Hashable, Hashable]]:
        """The directed edges (parent, child), by child then parent, both in ``order``."""
        pos = {v: i for i, v in enumerate(self._order)}
        return [(p, v) for v in self._order for p in sorted(self._parents[v], key=pos.__getitem__)]

    def score(self, f: Callable[[Hashable, frozenset], float]) -> float:
        """``sum_v f(v, pa(v))`` over every vertex of ``order``."""
        return sum(f(v, self._parents[v]) for v in self._order)

    def _class_dag(self, target: Hashable | None, attrs: dict | None = None) -> GraphDB:
        """The DAG (parent -> child) with ``target``, unless None, a parent of every vertex."""
        g = GraphDB(directed=True, attrs=attrs)
        if target is not None:
            g.add_node(target, kind="class")
        for v in self._order:
            g.add_node(v, kind="variable")
            if target is not None:
                g.add_edge(target, v, kind="class-edge")
        for p, v in self.edges:
            g.add_edge(p, v, kind="parent")
        return g

    def to_pgmpy(self, target: Hashable | None = None):
        """A pgmpy ``DiscreteBayesianNetwork`` with the DAG of the subclass's ``to_dag``
        (structure only, no CPDs)."""
        from pgmpy.models import DiscreteBayesianNetwork

        dag = self.to_dag(target)
        model = DiscreteBayesianNetwork()
        model.add_nodes_from(dag.nodes())
        model.add_edges_from(dag.edges())
        return model


def _topological(vertices: tuple, parents: Mapping[Hashable, frozenset]) -> tuple:
    """Kahn's order, ties broken by position in ``vertices``; ValueError naming a cycle."""
    index = {v: i for i, v in enumerate(vertices)}
    graph = nx.DiGraph()
    graph.add_nodes_from(vertices)
    graph.add_edges_from((p, v) for v in vertices for p in parents[v])
    try:
        return tuple(nx.lexicographical_topological_sort(graph, key=index.__getitem__))
    except nx.NetworkXUnfeasible:
        cycle = [u for u, _ in nx.find_cycle(graph)]
    first = min(range(len(cycle)), key=lambda i: index[cycle[i]])
    raise ValueError(f"The parent sets have a directed cycle through "
                     f"{cycle[first:] + cycle[:first]!r}.")


class ParentSetDAG(ParentSetMethods, Structure):
    """A DAG over the features given by parent sets, with a class vertex that is a parent of
    every feature.

    Parameters
    ----------
    parents : mapping
        Feature -> its feature parents (any iterable; empty for a feature whose only parent
        is the class). The keys are the features, in the order given.
    target : hashable, default="class"
        The class vertex: a parent of every feature, named in no parent set.
    max_in_degree : int or None, default=None
        If given, the largest number of feature parents a feature may have (checked).

    Raises
    ------
    ValueError
        A parent that is not a feature, a feature that is its own parent or ancestor (the
        cycle is named), the target among the features or parents, an in-degree above
        ``max_in_degree``.

    Examples
    --------
    A kDB-like DAG (k = 2) that is not a 2-tree (``c`` and ``d`` share no clique):

    >>> from kgraph import ParentSetDAG
    >>> g = ParentSetDAG({"a": [], "b": ["a"], "c": ["a"], "d": ["b", "c"]}, target="y",
    ...                  max_in_degree=2)
    >>> sorted(g.parents("d")), g.order
    (['b', 'c'], ('a', 'b', 'c', 'd'))
    >>> g.score(lambda v, ps: len(ps))
    4
    >>> ParentSetDAG({"a": ["b"], "b": ["a"]})
    Traceback (most recent call last):
    ...
    ValueError: The parent sets have a directed cycle through ['a', 'b'].
    """

    def __init__(self, parents: Mapping[Hashable, Iterable[Hashable]], *,
                 target: Hashable = "class", max_in_degree: int | None = None) -> None:
        hash(target)
        if max_in_degree is not None and (isinstance(max_in_degree, bool)
                                          or not isinstance(max_in_degree, int)
                                          or max_in_degree < 0):
            raise ValueError(f"max_in_degree must be None or an int >= 0; got {max_in_degree!r}.")
        vertices = tuple(parents)
        if not vertices:
            raise ValueError("A ParentSetDAG needs at least one feature.")
        if target in parents:
            raise ValueError(f"The target {target!r} is also a feature; name the class apart.")
        sets = {v: frozenset(ps) for v, ps in parents.items()}
        for v, ps in sets.items():
            if v in ps:
                raise ValueError(f"Feature {v!r} is its own parent.")
            if target in ps:
                raise ValueError(f"Feature {v!r} lists the target {target!r} as a parent; the "
                                 "class is a parent of every feature without being listed.")
            unknown = sorted((p for p in ps if p not in sets), key=repr)
            if unknown:
                raise ValueError(f"Feature {v!r} has parent(s) {unknown!r} that are not "
                                 "features of the DAG.")
            if max_in_degree is not None and len(ps) > max_in_degree:
                raise ValueError(f"Feature {v!r} has {len(ps)} feature parents, more than "
                                 f"max_in_degree={max_in_degree}.")
        self._features = vertices
        self._parents = sets
        self._target = target
        self._max_in_degree = max_in_degree
        self._order = _topological(vertices, sets)

    @classmethod
    def from_structure(cls, structure: ParentSets, target: Hashable = "class",
                       max_in_degree: int | None = None) -> ParentSetDAG:
        """The DAG of any :class:`ParentSets` structure (an acyclic k-tree, a GNB forest).

        Examples
        --------
        >>> from kgraph import AcyclicKTree, ParentSetDAG
        >>> t = AcyclicKTree(1, "abc", {"b": "a", "c": "a"})
        >>> ParentSetDAG.from_structure(t, target="y").edges
        [('a', 'b'), ('a', 'c')]
        """
        return cls({v: structure.parents(v) for v in structure.order}, target=target,
                   max_in_degree=max_in_degree)

    # -- facts ---------------------------------------------------------------------
    @property
    def target(self) -> Hashable:
        """The class vertex."""
        return self._target

    @property
    def features(self) -> tuple:
        """The features in the order given."""
        return self._features

    @property
    def order(self) -> tuple:
        """A topological order (parents first; ties by the order given)."""
        return self._order

    @property
    def n(self) -> int:
        """The number of features."""
        return len(self._features)

    @property
    def max_in_degree(self) -> int | None:
        """The bound on feature parents checked on construction (None: unbounded)."""
        return self._max_in_degree

    def parents(self, v: Hashable) -> frozenset:
        """The feature parents of ``v`` (the class is a parent too, not listed)."""
        if v not in self._parents:
            raise KeyError(f"{v!r} is not a feature of this DAG.")
        return self._parents[v]

    @property
    def parent_map(self) -> dict[Hashable, frozenset]:
        """Feature -> feature parents, in topological order."""
        return {v: self._parents[v] for v in self._order}

    @property
    def in_degree(self) -> int:
        """The largest number of feature parents of a feature."""
        return max(len(ps) for ps in self._parents.values())

    def to_dag(self, target: Hashable | None = None) -> GraphDB:
        """The Bayesian-network DAG (parent -> child) with the class (``target``, default the
        DAG's own) a parent of every feature."""
        target = self._target if target is None else target
        if target in self._parents:
            raise ValueError(f"The target {target!r} is a feature of the DAG.")
        return self._class_dag(target)

    # -- Structure -----------------------------------------------------------------
    def _identity(self) -> tuple:
        return self._target, frozenset(self._parents.items()), self._max_in_degree

    def to_graph(self, backend: str = "networkx") -> GraphDB:
        attrs = {"target": self._target}
        if self._max_in_degree is not None:
            attrs["max_in_degree"] = self._max_in_degree
        g = self._new_graph(True, backend, **attrs)
        g.add_node(self._target, kind="class")
        for i, v in enumerate(self._features):
            g.add_node(v, kind="variable", position=i)
            g.add_edge(self._target, v, kind="class-edge")
        for p, v in self.edges:
            g.add_edge(p, v, kind="parent")
        return g

    @classmethod
    def _from_graph(cls, graph: GraphDB) -> ParentSetDAG:
        order = [v for v, _ in sorted(graph.nodes(kind="variable", data=True),
                                       key=lambda item: item[1]["position"])]
        features = set(order)
        return cls({v: [p for p in graph.predecessors(v) if p in features] for v in order},
                   target=graph.attrs["target"], max_in_degree=graph.attrs.get("max_in_degree"))

    def __repr__(self) -> str:
        return (f"ParentSetDAG(target={self._target!r}, n={self.n}, "
                f"in_degree={self.in_degree}, order={list(self._order)!r})")
