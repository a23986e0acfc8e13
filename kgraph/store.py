"""A persistent store of learned structures and the runs that learned them (sqlite3).

Each run records what produced it (a hash of the data, the model, its parameters, a fold or a
seed, free-form metrics); each run holds structures (a kgraph :class:`~kgraph.Structure` or a
plain :class:`~kgraph.GraphDB`), kept exactly (typed keys and attributes) and with their
variable edges indexed, so that the store answers which runs contain an edge, how often each
edge occurs over a query, and what a run learned.

The database uses the WAL journal and one ``BEGIN IMMEDIATE`` transaction per run, so several
processes may write to one file at once (each waits for the write lock, up to a timeout) and a
run interrupted before its commit leaves no trace. Every value is bound as an SQL parameter;
names from the data never become SQL text.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Hashable, Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from os import PathLike, fspath
from typing import Any, NamedTuple

import numpy as np

from kgraph._codec import dumps, loads, sort_key
from kgraph._sqlite import Transactions, connect
from kgraph.graphdb import GraphDB
from kgraph.structure import Structure, structure_from_graph

__all__ = ["EdgeFrequency", "Run", "StructureStore", "data_hash"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL, label TEXT,
    data_hash TEXT, model TEXT, params TEXT NOT NULL, fold INTEGER, seed INTEGER,
    metrics TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS structures (
    structure_id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    role TEXT NOT NULL, replicate INTEGER, directed INTEGER NOT NULL, graph TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS structure_edges (
    structure_id INTEGER NOT NULL REFERENCES structures(structure_id) ON DELETE CASCADE,
    a TEXT NOT NULL, b TEXT NOT NULL, forward INTEGER NOT NULL, PRIMARY KEY (structure_id, a, b));
CREATE INDEX IF NOT EXISTS structure_edges_ab ON structure_edges(a, b);
CREATE INDEX IF NOT EXISTS structures_run ON structures(run_id);
"""

# The run columns a query may select on: a fixed table, so no name from a caller reaches SQL.
_RUN_FILTERS = {"run_id": "r.run_id", "label": "r.label", "data_hash": "r.data_hash",
                "model": "r.model", "fold": "r.fold", "seed": "r.seed"}


class Run(NamedTuple):
    """One stored run (``params`` and ``metrics`` decoded to their exact types)."""

    run_id: int
    created: str
    label: str | None
    data_hash: str | None
    model: str | None
    params: dict[str, Any]
    fold: int | None
    seed: int | None
    metrics: dict[str, Any]
    n_structures: int


class EdgeFrequency(NamedTuple):
    """How often the (undirected) edge ``u - v`` occurs among ``n_structures`` structures;
    ``forward`` counts the directed structures that orient it ``u -> v``."""

    u: Hashable
    v: Hashable
    count: int
    n_structures: int
    frequency: float
    forward: int


def data_hash(*tables: Any) -> str:
    """A short SHA-256 fingerprint of data tables (arrays, pandas frames or series), for
    :meth:`StructureStore.add_run`: equal tables give equal hashes, and any change of a
    value, the shape or a column name changes it; the row index of a pandas object is
    ignored.

    Examples
    --------
    >>> import numpy as np
    >>> data_hash(np.eye(2)) == data_hash(np.eye(2)), data_hash(np.eye(2)) == data_hash(np.eye(3))
    (True, False)
    """
    h = hashlib.sha256()
    for table in tables:
        if hasattr(table, "to_numpy"):  # pandas: hash values column-aware, without the index
            from pandas.util import hash_pandas_object

            names = list(getattr(table, "columns", [getattr(table, "name", None)]))
            h.update(dumps([str(n) for n in names]).encode())
            h.update(hash_pandas_object(table, index=False).to_numpy().tobytes())
            continue
        array = np.asarray(table)
        h.update(f"{array.dtype.str}{array.shape}".encode())
        h.update(repr(array.tolist()).encode() if array.dtype == object
                 else np.ascontiguousarray(array).tobytes())
    return h.hexdigest()[:16]


def _pair(u: Hashable, v: Hashable) -> tuple[str, str, bool]:
    """The stored (canonical) order of an edge's encoded ends, and whether ``u`` comes first."""
    a, b = dumps(u), dumps(v)
    return (a, b, True) if a <= b else (b, a, False)


def variable_edges(graph: GraphDB) -> list[tuple[Hashable, Hashable]]:
    """The edges a store indexes: those between two ``kind="variable"`` nodes (every edge of
    a graph whose nodes carry no ``kind``)."""
    kinds = {key: attrs.get("kind") for key, attrs in graph.nodes(data=True)}
    if all(kind is None for kind in kinds.values()):
        return graph.edges()
    return [(u, v) for u, v in graph.edges() if kinds[u] == kinds[v] == "variable"]


class StructureStore:
    """Learned structures with their runs, in one sqlite database file.

    Parameters
    ----------
    path : str or path-like, default=":memory:"
        The database file (created if missing).

    Examples
    --------
    >>> from kgraph import GNBJunctionTree
    >>> from kgraph.store import StructureStore
    >>> store = StructureStore()
    >>> a = GNBJunctionTree([("x1", "x2"), ("x2", "x3")], target="y")
    >>> b = GNBJunctionTree([("x1", "x2"), ("x1", "x3")], target="y")
    >>> r1 = store.add_run(model="gnb", data_hash="d0", seed=0, structures=[a])
    >>> r2 = store.add_run(model="gnb", data_hash="d0", seed=1, structures=[b],
    ...                    metrics={"f1": 0.9})
    >>> store.runs_with_edge("x2", "x1")
    [1, 2]
    >>> [(e.u, e.v, e.frequency) for e in store.edge_frequencies(model="gnb")]
    [('x1', 'x2', 1.0), ('x1', 'x3', 0.5), ('x2', 'x3', 0.5)]
    >>> store.structures(r2) == [b], store.run(r2).metrics
    (True, {'f1': 0.9})
    """

    def __init__(self, path: str | PathLike = ":memory:") -> None:
        self.path = fspath(path)
        try:
            self._conn = connect(self.path)
            self._conn.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise ValueError(f"Cannot open {self.path!r} as a kgraph structure store: {exc}.") \
                from exc
        self._tx = Transactions(self._conn)

    def close(self) -> None:
        """Close the database connection."""
        self._conn.close()

    def __enter__(self) -> StructureStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[StructureStore]:
        """Group writes: all of them are kept at the end of the block, or none if it raises
        (or the process dies inside it). Blocks nest."""
        with self._tx.transaction():
            yield self

    # -- writing -------------------------------------------------------------------------
    def add_run(self, *, model: str | None = None, data_hash: str | None = None,
                params: dict[str, Any] | None = None, fold: int | None = None,
                seed: int | None = None, metrics: dict[str, Any] | None = None,
                label: str | None = None,
                structures: Iterable[Structure | GraphDB] = (),
                role: str = "fitted") -> int:
        """Record a run and its structures in one transaction; return its ``run_id``.

        ``params`` and ``metrics`` may hold any value :mod:`kgraph._codec` encodes (numbers,
        strings, tuples, nested dicts, ...); they come back with their types.
        """
        for name, value in (("fold", fold), ("seed", seed)):
            if value is not None and not isinstance(value, int):
                raise TypeError(f"The run's {name} must be an int or None; got {value!r}.")
        with self._tx.transaction():
            cur = self._conn.execute(
                "INSERT INTO runs (created, label, data_hash, model, params, fold, seed, "
                "metrics) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (datetime.now(UTC).isoformat(timespec="seconds"), label, data_hash, model,
                 dumps(dict(params or {})), fold, seed, dumps(dict(metrics or {}))))
            run_id = cur.lastrowid
            for i, structure in enumerate(structures):
                self.add_structure(run_id, structure, role=role,
                                   replicate=i if role != "fitted" else None)
        return run_id

    def add_structure(self, run_id: int, structure: Structure | GraphDB,
                      role: str = "fitted", replicate: int | None = None) -> int:
        """Add one structure to run ``run_id`` (``role`` e.g. ``"fitted"``, ``"bootstrap"``,
        ``"fold"``; ``replicate`` its resample number); return its ``structure_id``."""
        graph = structure.to_graph() if isinstance(structure, Structure) else structure
        if not isinstance(graph, GraphDB):
            raise TypeError(
                f"A stored structure must be a kgraph Structure or a GraphDB; "
                f"got {type(structure).__name__}."
            )
        with self._tx.transaction():
            if self._conn.execute("SELECT 1 FROM runs WHERE run_id = ?", (run_id,)).fetchone() \
                    is None:
                raise KeyError(f"Run {run_id!r} is not in the store.")
            cur = self._conn.execute(
                "INSERT INTO structures (run_id, role, replicate, directed, graph) "
                "VALUES (?, ?, ?, ?, ?)",
                (run_id, role, replicate, int(graph.directed), dumps(graph._parts())))
            sid = cur.lastrowid
            rows = {}
            for u, v in variable_edges(graph):
                a, b, forward = _pair(u, v)
                rows[a, b] = (sid, a, b, int(forward or not graph.directed))
            self._conn.executemany(
                "INSERT INTO structure_edges (structure_id, a, b, forward) VALUES (?, ?, ?, ?)",
                list(rows.values()))
        return sid

    def delete_run(self, run_id: int) -> None:
        """Remove a run and its structures."""
        with self._tx.transaction():
            self._conn.execute("DELETE FROM runs WHERE run_id = ?", (run_id,))

    # -- reading -------------------------------------------------------------------------
    @staticmethod
    def _where(where: dict[str, Any], role: str | None = None) -> tuple[str, list]:
        unknown = sorted(set(where) - set(_RUN_FILTERS))
        if unknown:
            raise ValueError(
                f"Unknown run filter {unknown[0]!r}; runs are selected by {sorted(_RUN_FILTERS)}."
            )
        clauses = [f"{_RUN_FILTERS[name]} = ?" for name in where]
        args = list(where.values())
        if role is not None:
            clauses.append("s.role = ?")
            args.append(role)
        return (" AND ".join(clauses) or "1"), args

    def runs(self, **where: Any) -> list[Run]:
        """The runs whose columns (``run_id``, ``label``, ``data_hash``, ``model``, ``fold``,
        ``seed``) equal the given values, oldest first."""
        sql, args = self._where(where)
        rows = self._conn.execute(
            "SELECT r.run_id, r.created, r.label, r.data_hash, r.model, r.params, r.fold, "
            "r.seed, r.metrics, (SELECT COUNT(*) FROM structures s WHERE s.run_id = r.run_id) "
            f"FROM runs r WHERE {sql} ORDER BY r.run_id", args).fetchall()
        return [Run(*row[:5], loads(row[5]), row[6], row[7], loads(row[8]), row[9])
                for row in rows]

    def run(self, run_id: int) -> Run:
        """The run ``run_id`` (``KeyError`` if absent)."""
        found = self.runs(run_id=run_id)
        if not found:
            raise KeyError(f"Run {run_id!r} is not in the store.")
        return found[0]

    def structures(self, run_id: int, role: str | None = None,
                   as_graph: bool = False) -> list[Structure | GraphDB]:
        """The structures of a run in the order they were added, rebuilt as the kgraph
        structure their graph names (a :class:`GraphDB` when it names none, or with
        ``as_graph=True``)."""
        self.run(run_id)
        sql, args = "run_id = ?", [run_id]
        if role is not None:
            sql, args = sql + " AND role = ?", [*args, role]
        rows = self._conn.execute(
            f"SELECT graph FROM structures WHERE {sql} ORDER BY structure_id", args).fetchall()
        out = []
        for (text,) in rows:
            graph = GraphDB._from_parts(loads(text), "networkx")
            if as_graph or "structure" not in graph.attrs:
                out.append(graph)
            else:
                out.append(structure_from_graph(graph, where=f"Run {run_id}"))
        return out

    def runs_with_edge(self, u: Hashable, v: Hashable, directed: bool = False,
                       role: str | None = None, **where: Any) -> list[int]:
        """The ids of the runs (among those selected by ``where``) having a structure with
        the edge ``u - v``; with ``directed=True`` only ``u -> v`` in directed structures."""
        a, b, forward = _pair(u, v)
        sql, args = self._where(where, role)
        orient, first = "", [a, b]
        if directed:
            orient, first = " AND s.directed = 1 AND e.forward = ?", [a, b, int(forward)]
        rows = self._conn.execute(
            "SELECT DISTINCT r.run_id FROM structure_edges e "
            "JOIN structures s ON s.structure_id = e.structure_id "
            "JOIN runs r ON r.run_id = s.run_id "
            f"WHERE e.a = ? AND e.b = ?{orient} AND {sql} ORDER BY r.run_id", [*first, *args])
        return [row[0] for row in rows.fetchall()]

    def edge_frequencies(self, role: str | None = None, **where: Any) -> list[EdgeFrequency]:
        """Each variable edge's share of the structures of the selected runs (``role``
        restricts to e.g. ``"bootstrap"`` structures), most frequent first."""
        sql, args = self._where(where, role)
        base = ("FROM structures s JOIN runs r ON r.run_id = s.run_id "
                f"WHERE {sql}")
        total = self._conn.execute(f"SELECT COUNT(*) {base}", args).fetchone()[0]
        rows = self._conn.execute(
            "SELECT e.a, e.b, COUNT(*), SUM(CASE WHEN s.directed = 1 THEN e.forward ELSE 0 END) "
            f"FROM structure_edges e JOIN structures s ON s.structure_id = e.structure_id "
            f"JOIN runs r ON r.run_id = s.run_id WHERE {sql} GROUP BY e.a, e.b", args).fetchall()
        out = [EdgeFrequency(loads(a), loads(b), n, total, n / total, forward)
               for a, b, n, forward in rows]
        return sorted(out, key=lambda e: (-e.count, sort_key(e.u), sort_key(e.v)))
