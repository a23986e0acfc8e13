"""What only the persistent sqlite backend does: reopening, transactions, hostile names."""

import sqlite3

import pytest

from kgraph import GraphDB

HOSTILE = "x'); DROP TABLE kgraph_nodes; --"


def test_graph_survives_reopening(tmp_path):
    path = tmp_path / "g.db"
    g = GraphDB(directed=True, backend="sqlite", path=path, attrs={"structure": "demo"})
    g.add_edge(("a", 1), frozenset({2, 3}), kind="tree", weight=0.5)
    g.attrs["k"] = 2
    g.set_node_attrs(("a", 1), label="A")
    expected = g.copy(backend="networkx")
    g.close()
    back = GraphDB(backend="sqlite", path=path)  # direction read from the file
    assert back.directed and back == expected
    assert back.attrs == {"structure": "demo", "k": 2}
    assert back.node_attrs(("a", 1)) == {"label": "A"}


def test_reopening_with_the_other_direction_is_refused(tmp_path):
    path = tmp_path / "g.db"
    GraphDB(directed=False, backend="sqlite", path=path).close()
    with pytest.raises(ValueError, match="is undirected; got directed=True"):
        GraphDB(directed=True, backend="sqlite", path=path)


def test_path_on_an_in_memory_backend_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"'networkx' keeps graphs in memory.*\['sqlite'\]"):
        GraphDB(backend="networkx", path=tmp_path / "g.db")


def test_a_file_that_is_no_database_is_refused(tmp_path):
    path = tmp_path / "junk.db"
    path.write_bytes(b"not a database at all" * 100)
    with pytest.raises(ValueError, match="Cannot open .*junk.db.* as a kgraph sqlite graph"):
        GraphDB(backend="sqlite", path=path)


def test_names_from_data_stay_data(tmp_path):
    """Keys, attribute names and values that look like SQL are stored as they are."""
    path = tmp_path / "g.db"
    g = GraphDB(backend="sqlite", path=path)
    g.add_node(HOSTILE, **{HOSTILE: HOSTILE})
    g.add_edge(HOSTILE, "y", kind=HOSTILE)
    g.attrs[HOSTILE] = 1
    assert g.node_attrs(HOSTILE) == {HOSTILE: HOSTILE}
    assert g.edges(kind=HOSTILE) == [(HOSTILE, "y")]
    tables = {r[0] for r in sqlite3.connect(path).execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"kgraph_nodes", "kgraph_edges", "kgraph_meta"} <= tables


def test_a_failed_batch_keeps_nothing(tmp_path):
    g = GraphDB(backend="sqlite", path=tmp_path / "g.db")
    g.add_edge(1, 2)
    with pytest.raises(RuntimeError, match="midway"), g.batch():
        g.add_edge(2, 3)
        g.add_node(4)
        raise RuntimeError("midway")
    assert sorted(g.nodes()) == [1, 2] and g.edges() == [(1, 2)]
    with g.batch():  # nested batches are savepoints inside one transaction
        g.add_node(5)
        with g.batch():
            g.add_node(6)
    assert sorted(g.nodes()) == [1, 2, 5, 6]


def test_undirected_self_loop_and_orientation():
    g = GraphDB(backend="sqlite")
    g.add_edge("a", "a")
    g.add_edge("b", "a", w=1)
    g.add_edge("a", "b", w=2)  # the same undirected edge: updated, not duplicated
    assert g.number_of_edges() == 2 and g.edge_attrs("a", "b") == {"w": 2}
    assert sorted(g.neighbors("a")) == ["a", "b"]
    assert g.to_networkx().number_of_edges() == 2
