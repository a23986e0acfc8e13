"""Storage backends of :class:`kgraph.GraphDB`: networkx (default), igraph and sqlite.

A backend stores topology, one attribute dict per node and per edge, and the graph attributes
(``attrs``, a mutable mapping). ``add_node``/``add_edge`` on an existing key update its
attributes. The in-memory backends return live attribute dicts from ``node_data`` and
``edge_data``; :class:`GraphDB` copies them before they leave it and never mutates them.
A backend class says whether it is ``persistent`` (takes a ``path``).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Any

import networkx as nx

from kgraph._sqlite import SqliteStore


class NetworkxStore:
    """Topology and attributes in a ``networkx.Graph`` or ``networkx.DiGraph``."""

    name = "networkx"
    persistent = False

    def __init__(self, directed: bool | None) -> None:
        self.directed = bool(directed)
        self.attrs: dict[str, Any] = {}
        self._g = nx.DiGraph() if directed else nx.Graph()

    def add_node(self, key: Hashable, attrs: dict[str, Any]) -> None:
        self._g.add_node(key, **attrs)

    def remove_node(self, key: Hashable) -> None:
        self._g.remove_node(key)

    def has_node(self, key: Hashable) -> bool:
        return key in self._g

    def node_keys(self) -> Iterator[Hashable]:
        return iter(self._g.nodes)

    def node_data(self, key: Hashable) -> dict[str, Any]:
        return self._g.nodes[key]

    def add_edge(self, u: Hashable, v: Hashable, attrs: dict[str, Any]) -> None:
        self._g.add_edge(u, v, **attrs)

    def remove_edge(self, u: Hashable, v: Hashable) -> None:
        self._g.remove_edge(u, v)

    def has_edge(self, u: Hashable, v: Hashable) -> bool:
        return self._g.has_edge(u, v)

    def edge_keys(self) -> Iterator[tuple[Hashable, Hashable]]:
        return iter(self._g.edges)

    def edge_data(self, u: Hashable, v: Hashable) -> dict[str, Any]:
        return self._g.edges[u, v]

    def successors(self, key: Hashable) -> list[Hashable]:
        return list(self._g.successors(key) if self.directed else self._g.neighbors(key))

    def predecessors(self, key: Hashable) -> list[Hashable]:
        return list(self._g.predecessors(key) if self.directed else self._g.neighbors(key))

    def number_of_nodes(self) -> int:
        return self._g.number_of_nodes()

    def number_of_edges(self) -> int:
        return self._g.number_of_edges()


class IgraphStore:
    """Topology in an ``igraph.Graph``; keys and attribute dicts as vertex and edge attributes."""

    name = "igraph"
    persistent = False

    def __init__(self, directed: bool | None) -> None:
        ig = import_igraph()
        self.directed = bool(directed)
        self.attrs: dict[str, Any] = {}
        self._g = ig.Graph(directed=self.directed)
        self._index: dict[Hashable, int] = {}

    def _reindex(self) -> None:
        self._index = {key: i for i, key in enumerate(self._g.vs["_key"])} if len(self._g.vs) else {}

    def _eid(self, u: Hashable, v: Hashable) -> int:
        if u not in self._index or v not in self._index:
            return -1
        return self._g.get_eid(self._index[u], self._index[v], directed=self.directed, error=False)

    def add_node(self, key: Hashable, attrs: dict[str, Any]) -> None:
        if key in self._index:
            self._g.vs[self._index[key]]["_attrs"].update(attrs)
            return
        self._g.add_vertex(_key=key, _attrs=dict(attrs))
        self._index[key] = len(self._g.vs) - 1

    def remove_node(self, key: Hashable) -> None:
        self._g.delete_vertices(self._index[key])
        self._reindex()

    def has_node(self, key: Hashable) -> bool:
        return key in self._index

    def node_keys(self) -> Iterator[Hashable]:
        return iter(self._g.vs["_key"] if len(self._g.vs) else [])

    def node_data(self, key: Hashable) -> dict[str, Any]:
        return self._g.vs[self._index[key]]["_attrs"]

    def add_edge(self, u: Hashable, v: Hashable, attrs: dict[str, Any]) -> None:
        for key in (u, v):
            if key not in self._index:
                self.add_node(key, {})
        eid = self._eid(u, v)
        if eid >= 0:
            self._g.es[eid]["_attrs"].update(attrs)
            return
        self._g.add_edge(self._index[u], self._index[v], _attrs=dict(attrs))

    def remove_edge(self, u: Hashable, v: Hashable) -> None:
        self._g.delete_edges(self._eid(u, v))

    def has_edge(self, u: Hashable, v: Hashable) -> bool:
        return self._eid(u, v) >= 0

    def edge_keys(self) -> Iterator[tuple[Hashable, Hashable]]:
        keys = self._g.vs["_key"] if len(self._g.vs) else []
        return ((keys[e.source], keys[e.target]) for e in self._g.es)

    def edge_data(self, u: Hashable, v: Hashable) -> dict[str, Any]:
        return self._g.es[self._eid(u, v)]["_attrs"]

    def _adjacent(self, key: Hashable, mode: str) -> list[Hashable]:
        keys = self._g.vs["_key"]
        return [keys[i] for i in self._g.neighbors(self._index[key], mode=mode)]

    def successors(self, key: Hashable) -> list[Hashable]:
        return self._adjacent(key, "out" if self.directed else "all")

    def predecessors(self, key: Hashable) -> list[Hashable]:
        return self._adjacent(key, "in" if self.directed else "all")

    def number_of_nodes(self) -> int:
        return len(self._g.vs)

    def number_of_edges(self) -> int:
        return len(self._g.es)


def import_igraph():
    """Import igraph, or raise an ``ImportError`` that names the extra to install."""
    try:
        import igraph
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "The igraph backend needs the 'igraph' package: pip install 'kgraph-bnc[igraph]'."
        ) from exc
    return igraph


BACKENDS = {"networkx": NetworkxStore, "igraph": IgraphStore, "sqlite": SqliteStore}
