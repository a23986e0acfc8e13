"""The common base of kgraph's structure objects: graph view, files, equality."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable
from os import PathLike
from pathlib import Path
from typing import Any, Self

from kgraph.graphdb import GraphDB

__all__ = ["Structure", "read_structure"]

_REGISTRY: dict[str, type[Structure]] = {}


class Structure(ABC):
    """An immutable graph structure that validates itself and lives in a :class:`GraphDB`.

    Subclasses define :meth:`to_graph`, :meth:`from_graph` and :meth:`_identity` (the data
    that defines the structure); equality, hashing and the GraphML/JSON files follow.

    Examples
    --------
    Every structure class derives from it, so all share equality and the file round trip:

    >>> from kgraph import AcyclicKTree, Structure
    >>> t = AcyclicKTree(1, "abc", {"b": "a", "c": "b"})
    >>> isinstance(t, Structure), AcyclicKTree.from_graph(t.to_graph()) == t
    (True, True)
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _REGISTRY[cls.__name__] = cls

    @abstractmethod
    def _identity(self) -> tuple:
        """Hashable data that defines the structure (used by ``==`` and ``hash``)."""

    @abstractmethod
    def to_graph(self, backend: str = "networkx") -> GraphDB:
        """The structure as a new :class:`GraphDB` with typed (``kind``) nodes and edges."""

    @classmethod
    @abstractmethod
    def _from_graph(cls, graph: GraphDB) -> Self:
        """Rebuild the structure from the graph :meth:`to_graph` made."""

    @classmethod
    def from_graph(cls, graph: GraphDB) -> Self:
        """Rebuild a structure from a graph written by :meth:`to_graph` (or read from a file)."""
        name = graph.attrs.get("structure")
        if name != cls.__name__:
            raise ValueError(
                f"The graph holds a {name!r} structure, not a {cls.__name__!r} "
                "(graph attribute 'structure')."
            )
        return cls._from_graph(graph)

    @property
    def graph(self) -> GraphDB:
        """A fresh networkx-backed :class:`GraphDB` of the structure (changing it changes
        nothing here)."""
        return self.to_graph()

    def _new_graph(self, directed: bool, backend: str, **attrs: Any) -> GraphDB:
        return GraphDB(directed=directed, backend=backend,
                       attrs={"structure": type(self).__name__, **attrs})

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._identity()))

    def write_graphml(self, path: str | PathLike, backend: str = "networkx") -> None:
        """Write the structure's graph as GraphML (readable by plain networkx and igraph)."""
        self.to_graph(backend).write_graphml(path)

    def write_json(self, path: str | PathLike, backend: str = "networkx") -> None:
        """Write the structure's graph as node-link JSON."""
        self.to_graph(backend).write_json(path)

    @classmethod
    def read_graphml(cls, path: str | PathLike, backend: str = "networkx") -> Self:
        """Read a structure written by :meth:`write_graphml`."""
        return cls.from_graph(GraphDB.read_graphml(path, backend=backend))

    @classmethod
    def read_json(cls, path: str | PathLike, backend: str = "networkx") -> Self:
        """Read a structure written by :meth:`write_json`."""
        return cls.from_graph(GraphDB.read_json(path, backend=backend))


def read_structure(path: str | PathLike, backend: str = "networkx") -> Structure:
    """Read any kgraph structure from a ``.graphml`` or ``.json`` file.

    The graph attribute ``structure`` names the class to rebuild.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from kgraph import AcyclicKTree, read_structure
    >>> t = AcyclicKTree(2, "abcd", {"c": "ab", "d": "bc"})
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     t.write_graphml(Path(folder) / "t.graphml")
    ...     back = read_structure(Path(folder) / "t.graphml")
    >>> type(back).__name__, back == t
    ('AcyclicKTree', True)
    """
    suffix = Path(path).suffix.lower()
    if suffix not in (".graphml", ".json"):
        raise ValueError(f"Cannot tell the format of {path}: expected a .graphml or .json file.")
    reader = GraphDB.read_graphml if suffix == ".graphml" else GraphDB.read_json
    return structure_from_graph(reader(path, backend=backend), where=str(path))


def structure_from_graph(graph: GraphDB, where: str = "The graph") -> Structure:
    """Rebuild whichever kgraph structure the graph attribute ``structure`` names."""
    name = graph.attrs.get("structure")
    if name not in _REGISTRY:
        raise ValueError(
            f"{where} holds no kgraph structure (graph attribute 'structure' is {name!r}); "
            f"known structures: {sorted(_REGISTRY)}."
        )
    return _REGISTRY[name].from_graph(graph)


def check_distinct(items: Iterable[Hashable], what: str) -> list:
    """Return ``items`` as a list, raising ``ValueError`` naming the first repeated one."""
    seen: set = set()
    out = []
    for item in items:
        if item in seen:
            raise ValueError(f"{what} {item!r} is repeated.")
        seen.add(item)
        out.append(item)
    return out
