"""The persistent sqlite3 backend of :class:`kgraph.GraphDB` (standard library, embedded).

One database file holds one graph: its direction and graph attributes in ``kgraph_meta``, its
nodes and edges with their typed-JSON keys and attribute dicts (see :mod:`kgraph._codec`).
Every statement binds keys and values as parameters; no name from the data is ever written
into SQL text. Each mutation is one transaction, so a crash never leaves half an edge.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Hashable, Iterator, MutableMapping
from contextlib import contextmanager
from os import PathLike, fspath
from typing import Any

from kgraph._codec import dumps, loads

_SCHEMA = """
CREATE TABLE IF NOT EXISTS kgraph_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS kgraph_nodes (
    id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL UNIQUE, attrs TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS kgraph_edges (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    u INTEGER NOT NULL REFERENCES kgraph_nodes(id) ON DELETE CASCADE,
    v INTEGER NOT NULL REFERENCES kgraph_nodes(id) ON DELETE CASCADE,
    attrs TEXT NOT NULL, UNIQUE (u, v));
CREATE INDEX IF NOT EXISTS kgraph_edges_v ON kgraph_edges(v);
"""


def connect(path: str | PathLike) -> sqlite3.Connection:
    """Open ``path`` in autocommit mode with WAL journaling, foreign keys and a busy timeout."""
    conn = sqlite3.connect(fspath(path), isolation_level=None, timeout=30.0)
    conn.execute("PRAGMA foreign_keys = ON")
    if fspath(path) != ":memory:":
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
    return conn


class Transactions:
    """Nestable transactions on an autocommit connection: the outermost is ``BEGIN
    IMMEDIATE`` (the write lock is taken at once), inner ones are savepoints."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._depth = 0

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        name = f"kgraph_sp{self._depth}"  # a counter, never data
        self.conn.execute("BEGIN IMMEDIATE" if self._depth == 0 else f"SAVEPOINT {name}")
        self._depth += 1
        try:
            yield self.conn
        except BaseException:
            self._depth -= 1
            if self._depth == 0:
                self.conn.execute("ROLLBACK")
            else:
                self.conn.execute(f"ROLLBACK TO {name}")
                self.conn.execute(f"RELEASE {name}")
            raise
        self._depth -= 1
        self.conn.execute("COMMIT" if self._depth == 0 else f"RELEASE {name}")


class _GraphAttrs(MutableMapping):
    """Graph attributes kept in the database: each assignment is written at once."""

    def __init__(self, store: SqliteStore) -> None:
        self._store = store

    def _load(self) -> dict[str, Any]:
        return self._store.meta("attrs", {})

    def _save(self, attrs: dict[str, Any]) -> None:
        self._store.set_meta("attrs", attrs)

    def __getitem__(self, name: str) -> Any:
        return self._load()[name]

    def __setitem__(self, name: str, value: Any) -> None:
        with self._store.tx.transaction():
            attrs = self._load()
            attrs[name] = value
            self._save(attrs)

    def __delitem__(self, name: str) -> None:
        with self._store.tx.transaction():
            attrs = self._load()
            del attrs[name]
            self._save(attrs)

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())

    def __repr__(self) -> str:
        return repr(self._load())


class SqliteStore:
    """Topology and attributes in a sqlite3 database (``":memory:"`` when no path is given).

    Opening an existing file reopens its graph; its stored direction must match the one asked
    for. Attribute dicts returned by ``node_data``/``edge_data`` are decoded copies, not live.
    """

    name = "sqlite"
    persistent = True

    def __init__(self, directed: bool | None, path: str | PathLike | None = None) -> None:
        self.path = ":memory:" if path is None else fspath(path)
        try:
            self.conn = connect(self.path)
            self.conn.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise ValueError(
                f"Cannot open {self.path!r} as a kgraph sqlite graph: {exc}."
            ) from exc
        self.tx = Transactions(self.conn)
        with self.tx.transaction():
            stored = self.meta("directed", None)
            if stored is None:
                self.set_meta("directed", bool(directed))
                self.set_meta("attrs", {})
            elif directed is not None and bool(directed) != stored:
                raise ValueError(
                    f"The graph in {self.path!r} is {'directed' if stored else 'undirected'}; "
                    f"got directed={bool(directed)}."
                )
        self.directed = bool(self.meta("directed"))
        self.attrs = _GraphAttrs(self)

    # -- metadata ------------------------------------------------------------------------
    def meta(self, name: str, default: Any = None) -> Any:
        row = self.conn.execute("SELECT value FROM kgraph_meta WHERE name = ?", (name,)).fetchone()
        return default if row is None else loads(row[0])

    def set_meta(self, name: str, value: Any) -> None:
        self.conn.execute("INSERT OR REPLACE INTO kgraph_meta (name, value) VALUES (?, ?)",
                          (name, dumps(value)))

    def close(self) -> None:
        self.conn.close()

    def batch(self):
        return self.tx.transaction()

    # -- nodes ---------------------------------------------------------------------------
    def _node_row(self, key: Hashable) -> tuple[int, str] | None:
        return self.conn.execute("SELECT id, attrs FROM kgraph_nodes WHERE key = ?",
                                 (dumps(key),)).fetchone()

    def _ensure_node(self, key: Hashable, attrs: dict[str, Any]) -> int:
        row = self._node_row(key)
        if row is None:
            cur = self.conn.execute("INSERT INTO kgraph_nodes (key, attrs) VALUES (?, ?)",
                                    (dumps(key), dumps(dict(attrs))))
            return cur.lastrowid
        if attrs:
            merged = {**loads(row[1]), **attrs}
            self.conn.execute("UPDATE kgraph_nodes SET attrs = ? WHERE id = ?",
                              (dumps(merged), row[0]))
        return row[0]

    def add_node(self, key: Hashable, attrs: dict[str, Any]) -> None:
        with self.tx.transaction():
            self._ensure_node(key, attrs)

    def remove_node(self, key: Hashable) -> None:
        with self.tx.transaction():
            self.conn.execute("DELETE FROM kgraph_nodes WHERE key = ?", (dumps(key),))

    def has_node(self, key: Hashable) -> bool:
        hash(key)
        return self._node_row(key) is not None

    def node_keys(self) -> Iterator[Hashable]:
        rows = self.conn.execute("SELECT key FROM kgraph_nodes ORDER BY id").fetchall()
        return (loads(key) for (key,) in rows)

    def node_data(self, key: Hashable) -> dict[str, Any]:
        return loads(self._node_row(key)[1])

    # -- edges ---------------------------------------------------------------------------
    def _edge_row(self, u: Hashable, v: Hashable) -> tuple[int, str] | None:
        a, b = self._node_row(u), self._node_row(v)
        if a is None or b is None:
            return None
        if self.directed:
            sql, args = "u = ? AND v = ?", (a[0], b[0])
        else:
            sql, args = "(u = ? AND v = ?) OR (u = ? AND v = ?)", (a[0], b[0], b[0], a[0])
        return self.conn.execute(f"SELECT id, attrs FROM kgraph_edges WHERE {sql}",
                                 args).fetchone()

    def add_edge(self, u: Hashable, v: Hashable, attrs: dict[str, Any]) -> None:
        with self.tx.transaction():
            iu, iv = self._ensure_node(u, {}), self._ensure_node(v, {})
            row = self._edge_row(u, v)
            if row is None:
                self.conn.execute("INSERT INTO kgraph_edges (u, v, attrs) VALUES (?, ?, ?)",
                                  (iu, iv, dumps(dict(attrs))))
            elif attrs:
                self.conn.execute("UPDATE kgraph_edges SET attrs = ? WHERE id = ?",
                                  (dumps({**loads(row[1]), **attrs}), row[0]))

    def remove_edge(self, u: Hashable, v: Hashable) -> None:
        with self.tx.transaction():
            self.conn.execute("DELETE FROM kgraph_edges WHERE id = ?", (self._edge_row(u, v)[0],))

    def has_edge(self, u: Hashable, v: Hashable) -> bool:
        return self._edge_row(u, v) is not None

    def edge_keys(self) -> Iterator[tuple[Hashable, Hashable]]:
        rows = self.conn.execute(
            "SELECT a.key, b.key FROM kgraph_edges e JOIN kgraph_nodes a ON a.id = e.u "
            "JOIN kgraph_nodes b ON b.id = e.v ORDER BY e.id").fetchall()
        return ((loads(u), loads(v)) for u, v in rows)

    def edge_data(self, u: Hashable, v: Hashable) -> dict[str, Any]:
        return loads(self._edge_row(u, v)[1])

    def _adjacent(self, key: Hashable, out: bool) -> list[Hashable]:
        me = self._node_row(key)[0]
        heads = ("SELECT b.key, e.id FROM kgraph_edges e JOIN kgraph_nodes b ON b.id = e.v "
                 "WHERE e.u = ?")
        tails = ("SELECT a.key, e.id FROM kgraph_edges e JOIN kgraph_nodes a ON a.id = e.u "
                 "WHERE e.v = ?")
        if self.directed:
            sql, args = (heads if out else tails), (me,)
        else:
            sql, args = f"{heads} UNION {tails}", (me, me)  # a self-loop once
        rows = self.conn.execute(f"SELECT key FROM ({sql}) ORDER BY id", args).fetchall()
        return [loads(k) for (k,) in rows]

    def successors(self, key: Hashable) -> list[Hashable]:
        return self._adjacent(key, out=True)

    def predecessors(self, key: Hashable) -> list[Hashable]:
        return self._adjacent(key, out=False)

    def number_of_nodes(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM kgraph_nodes").fetchone()[0]

    def number_of_edges(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM kgraph_edges").fetchone()[0]
