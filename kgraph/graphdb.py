"""The graph DB abstraction: a property graph over interchangeable backends."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, MutableMapping
from contextlib import nullcontext
from os import PathLike
from typing import Any

import networkx as nx

from kgraph import _files
from kgraph._backends import BACKENDS, import_igraph
from kgraph._codec import display

__all__ = ["GraphDB"]


def _matches(attrs: dict[str, Any], where: dict[str, Any]) -> bool:
    for name, wanted in where.items():
        if name not in attrs:
            return False
        value = attrs[name]
        if callable(wanted) and not isinstance(wanted, type):
            if not wanted(value):
                return False
        elif value != wanted:
            return False
    return True


class GraphDB:
    """A property graph, directed or undirected, on a networkx, igraph or sqlite backend.

    Nodes are hashable keys (int, str, tuple, frozenset, ...); nodes and edges carry attribute
    dicts. A ``kind`` attribute conventionally says what a node or edge is (``variable``,
    ``class``, ``cluster``, ``separator``, ``clique``). Graph-level attributes live in
    :attr:`attrs`.

    Parameters
    ----------
    directed : bool, optional
        Whether edges are directed (default False). Reopening a sqlite file takes the
        file's direction; a different explicit value is a ``ValueError``.
    backend : {"networkx", "igraph", "sqlite"}, default="networkx"
        Where topology is stored. igraph needs the ``igraph`` extra. ``sqlite`` keeps the
        graph in a database file (standard library sqlite3, WAL journal, one transaction per
        change; keys and values are always bound as SQL parameters).
    attrs : dict, optional
        Graph-level attributes (merged into a reopened sqlite graph's attributes).
    path : str or path-like, optional
        The sqlite database file; ``None`` keeps it in memory (``":memory:"``). Only for
        persistent backends.

    Examples
    --------
    >>> from kgraph import GraphDB
    >>> g = GraphDB()
    >>> g.add_node("Y", kind="class")
    >>> g.add_edge("Y", "X1", kind="class-edge")
    >>> g.set_node_attrs("X1", kind="variable")
    >>> g.nodes(kind="variable")
    ['X1']
    >>> g.edges(kind="class-edge")
    [('Y', 'X1')]
    >>> g.copy(backend="igraph") == g
    True

    A persistent graph survives the process (here in memory):

    >>> db = g.copy(backend="sqlite")
    >>> db.backend, db == g, db.nodes(kind="variable")
    ('sqlite', True, ['X1'])
    """

    def __init__(
        self,
        directed: bool | None = None,
        backend: str = "networkx",
        attrs: dict[str, Any] | None = None,
        path: str | PathLike | None = None,
    ) -> None:
        if backend not in BACKENDS:
            raise ValueError(
                f"Unknown GraphDB backend {backend!r}; valid backends are {sorted(BACKENDS)}."
            )
        store = BACKENDS[backend]
        if store.persistent:
            self._store = store(directed, path)
        elif path is not None:
            persistent = sorted(name for name, b in BACKENDS.items() if b.persistent)
            raise ValueError(
                f"The GraphDB backend {backend!r} keeps graphs in memory and takes no path; "
                f"got path={path!r}. Backends with a path: {persistent}."
            )
        else:
            self._store = store(directed)
        if attrs:
            self._store.attrs.update(attrs)

    @property
    def attrs(self) -> MutableMapping[str, Any]:
        """Graph-level attributes (written to the database at once on the sqlite backend)."""
        return self._store.attrs

    @attrs.setter
    def attrs(self, value: dict[str, Any]) -> None:
        self._store.attrs.clear()
        self._store.attrs.update(value)

    # -- basic facts -------------------------------------------------------------------
    @property
    def backend(self) -> str:
        """Name of the storage backend."""
        return self._store.name

    @property
    def directed(self) -> bool:
        """Whether edges are directed."""
        return self._store.directed

    def __len__(self) -> int:
        return self._store.number_of_nodes()

    def __contains__(self, key: Hashable) -> bool:
        return self.has_node(key)

    def number_of_nodes(self) -> int:
        """Number of nodes."""
        return self._store.number_of_nodes()

    def number_of_edges(self) -> int:
        """Number of edges."""
        return self._store.number_of_edges()

    def __repr__(self) -> str:
        return (
            f"GraphDB(backend={self.backend!r}, directed={self.directed}, "
            f"nodes={self.number_of_nodes()}, edges={self.number_of_edges()})"
        )

    # -- mutation ----------------------------------------------------------------------
    def add_node(self, key: Hashable, **attrs: Any) -> None:
        """Add ``key`` (or update its attributes if it exists)."""
        hash(key)
        self._store.add_node(key, attrs)

    def add_nodes_from(self, nodes: Iterable[Hashable | tuple[Hashable, dict]]) -> None:
        """Add nodes given as keys or ``(key, attrs)`` pairs."""
        for item in nodes:
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], dict):
                self.add_node(item[0], **item[1])
            else:
                self.add_node(item)

    def remove_node(self, key: Hashable) -> None:
        """Remove ``key`` and its edges."""
        self._require_node(key)
        self._store.remove_node(key)

    def add_edge(self, u: Hashable, v: Hashable, **attrs: Any) -> None:
        """Add the edge ``u - v`` (``u -> v`` when directed), adding missing end nodes."""
        hash(u), hash(v)
        self._store.add_edge(u, v, attrs)

    def add_edges_from(self, edges: Iterable[tuple]) -> None:
        """Add edges given as ``(u, v)`` or ``(u, v, attrs)``."""
        for edge in edges:
            self.add_edge(edge[0], edge[1], **(edge[2] if len(edge) > 2 else {}))

    def remove_edge(self, u: Hashable, v: Hashable) -> None:
        """Remove the edge ``u - v``."""
        self._require_edge(u, v)
        self._store.remove_edge(u, v)

    def set_node_attrs(self, key: Hashable, **attrs: Any) -> None:
        """Set attributes of an existing node."""
        self._require_node(key)
        self._store.add_node(key, attrs)

    def set_edge_attrs(self, u: Hashable, v: Hashable, **attrs: Any) -> None:
        """Set attributes of an existing edge."""
        self._require_edge(u, v)
        self._store.add_edge(u, v, attrs)

    # -- queries -----------------------------------------------------------------------
    def has_node(self, key: Hashable) -> bool:
        """Whether ``key`` is a node."""
        try:
            return self._store.has_node(key)
        except TypeError:
            return False

    def has_edge(self, u: Hashable, v: Hashable) -> bool:
        """Whether the edge ``u - v`` (``u -> v`` when directed) exists."""
        return self.has_node(u) and self.has_node(v) and self._store.has_edge(u, v)

    def node_attrs(self, key: Hashable) -> dict[str, Any]:
        """A copy of the attributes of node ``key``."""
        self._require_node(key)
        return dict(self._store.node_data(key))

    def edge_attrs(self, u: Hashable, v: Hashable) -> dict[str, Any]:
        """A copy of the attributes of edge ``u - v``."""
        self._require_edge(u, v)
        return dict(self._store.edge_data(u, v))

    def nodes(self, data: bool = False, **where: Any) -> list:
        """Nodes whose attributes equal (or satisfy, for callables) every ``where`` value.

        With ``data=True`` returns ``(key, attrs)`` pairs.
        """
        out = []
        for key in self._store.node_keys():
            attrs = self._store.node_data(key)
            if _matches(attrs, where):
                out.append((key, dict(attrs)) if data else key)
        return out

    def edges(self, data: bool = False, **where: Any) -> list:
        """Edges ``(u, v)`` whose attributes match ``where``; ``(u, v, attrs)`` with ``data``."""
        out = []
        for u, v in self._store.edge_keys():
            attrs = self._store.edge_data(u, v)
            if _matches(attrs, where):
                out.append((u, v, dict(attrs)) if data else (u, v))
        return out

    def neighbors(self, key: Hashable) -> list:
        """Adjacent nodes (in either direction when directed)."""
        self._require_node(key)
        found = self._store.successors(key)
        if self.directed:
            found += [p for p in self._store.predecessors(key) if p not in found]
        return found

    def successors(self, key: Hashable) -> list:
        """Heads of edges leaving ``key`` (the neighbours when undirected)."""
        self._require_node(key)
        return self._store.successors(key)

    def predecessors(self, key: Hashable) -> list:
        """Tails of edges entering ``key`` (the neighbours when undirected)."""
        self._require_node(key)
        return self._store.predecessors(key)

    def degree(self, key: Hashable) -> int:
        """Number of edges at ``key`` (in plus out when directed)."""
        self._require_node(key)
        if self.directed:
            return len(self._store.successors(key)) + len(self._store.predecessors(key))
        return len(self._store.successors(key))

    def subgraph(self, nodes: Iterable[Hashable]) -> GraphDB:
        """The induced subgraph on ``nodes``, as a new graph on the same backend."""
        keep = set(nodes)
        for key in keep:
            self._require_node(key)
        return self._filtered_copy(self.backend, lambda key: key in keep)

    def copy(self, backend: str | None = None, path: str | PathLike | None = None) -> GraphDB:
        """A deep-enough copy (attribute dicts copied), optionally on another backend
        (``path``: the database file of a persistent one)."""
        return self._filtered_copy(backend or self.backend, lambda key: True, path)

    def _filtered_copy(self, backend: str, keep: Callable[[Hashable], bool],
                       path: str | PathLike | None = None) -> GraphDB:
        nodes = [(key, attrs) for key, attrs in self.nodes(data=True) if keep(key)]
        edges = [(u, v, attrs) for u, v, attrs in self.edges(data=True) if keep(u) and keep(v)]
        return self._from_parts((self.directed, dict(self.attrs), nodes, edges), backend, path)

    def batch(self):
        """A context manager grouping changes into one transaction on the sqlite backend
        (all or none of them are kept); it does nothing on in-memory backends."""
        batch = getattr(self._store, "batch", None)
        return nullcontext() if batch is None else batch()

    # -- equality ----------------------------------------------------------------------
    def _canonical(self) -> tuple:
        nodes = {key: attrs for key, attrs in self.nodes(data=True)}
        pair = tuple if self.directed else frozenset
        edges = {pair((u, v)): attrs for u, v, attrs in self.edges(data=True)}
        return self.directed, dict(self.attrs), nodes, edges

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GraphDB):
            return NotImplemented
        return self._canonical() == other._canonical()

    __hash__ = None  # mutable

    # -- conversion --------------------------------------------------------------------
    def to_networkx(self) -> nx.Graph:
        """A networkx ``Graph``/``DiGraph`` copy with the same keys and attributes."""
        g = nx.DiGraph() if self.directed else nx.Graph()
        g.graph.update(self.attrs)
        g.add_nodes_from(self.nodes(data=True))
        g.add_edges_from(self.edges(data=True))
        return g

    @classmethod
    def from_networkx(cls, graph: nx.Graph, backend: str = "networkx") -> GraphDB:
        """A :class:`GraphDB` holding a copy of a networkx graph (multigraphs refused)."""
        if graph.is_multigraph():
            raise ValueError("GraphDB does not hold multigraphs; got a networkx multigraph.")
        return cls._from_parts((graph.is_directed(), dict(graph.graph),
                                list(graph.nodes(data=True)), list(graph.edges(data=True))),
                               backend)

    def to_igraph(self):
        """An ``igraph.Graph`` copy: vertex attribute ``key`` holds the node key, ``name``
        its label, and every node or edge attribute becomes an igraph attribute."""
        ig = import_igraph()
        keys = self.nodes()
        index = {key: i for i, key in enumerate(keys)}
        g = ig.Graph(directed=self.directed)
        g.add_vertices(len(keys))
        for name, value in self.attrs.items():
            g[name] = value
        if keys:
            g.vs["key"] = keys
            g.vs["name"] = [display(k) for k in keys]
        for i, key in enumerate(keys):
            for name, value in self._store.node_data(key).items():
                g.vs[i][name] = value
        edges = self.edges(data=True)
        g.add_edges([(index[u], index[v]) for u, v, _ in edges])
        for eid, (_, _, attrs) in enumerate(edges):
            for name, value in attrs.items():
                g.es[eid][name] = value
        return g

    # -- files -------------------------------------------------------------------------
    def _parts(self) -> tuple:
        return self.directed, dict(self.attrs), self.nodes(data=True), self.edges(data=True)

    @classmethod
    def _from_parts(cls, parts: tuple, backend: str,
                    path: str | PathLike | None = None) -> GraphDB:
        directed, attrs, nodes, edges = parts
        out = cls(directed=directed, backend=backend, attrs=attrs, path=path)
        with out.batch():
            out.add_nodes_from(nodes)
            out.add_edges_from(edges)
        return out

    def write_graphml(self, path: str | PathLike) -> None:
        """Write GraphML that plain networkx and igraph read; :meth:`read_graphml` restores
        every key and attribute exactly."""
        _files.write_graphml(*self._parts(), path)

    @classmethod
    def read_graphml(cls, path: str | PathLike, backend: str = "networkx") -> GraphDB:
        """Read a file written by :meth:`write_graphml` (or any simple GraphML graph)."""
        return cls._from_parts(_files.read_graphml(path), backend)

    def write_json(self, path: str | PathLike) -> None:
        """Write node-link JSON; :meth:`read_json` restores every key and attribute exactly."""
        _files.write_json(*self._parts(), path)

    @classmethod
    def read_json(cls, path: str | PathLike, backend: str = "networkx") -> GraphDB:
        """Read a file written by :meth:`write_json`."""
        return cls._from_parts(_files.read_json(path), backend)

    # -- helpers -----------------------------------------------------------------------
    def close(self) -> None:
        """Release the backend's resources (the sqlite connection); a no-op in memory."""
        close = getattr(self._store, "close", None)
        if close is not None:
            close()

    def _require_node(self, key: Hashable) -> None:
        if not self.has_node(key):
            raise KeyError(f"Node {key!r} is not in the graph.")

    def _require_edge(self, u: Hashable, v: Hashable) -> None:
        if not self.has_edge(u, v):
            arrow = "->" if self.directed else "-"
            raise KeyError(f"Edge {u!r} {arrow} {v!r} is not in the graph.")
