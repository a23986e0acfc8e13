"""The GraphDB contract: every backend answers the same way."""

import igraph
import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgraph import GraphDB

KEYS = [0, 7, "x", ("a", 1), frozenset({0, 1, 2}), frozenset()]


def sample(backend, directed=False):
    g = GraphDB(directed=directed, backend=backend, attrs={"name": "sample"})
    g.add_node(0, kind="class")
    for key in KEYS[1:]:
        g.add_node(key, kind="variable", weight=1.5)
    g.add_edge(0, 7, kind="class-edge")
    g.add_edge(7, "x", kind="tree", weight=0.25)
    g.add_edge(("a", 1), frozenset({0, 1, 2}), kind="tree", weight=0.5)
    return g


def test_nodes_and_attributes(backend):
    g = sample(backend)
    assert set(g.nodes()) == set(KEYS)
    assert g.node_attrs(7) == {"kind": "variable", "weight": 1.5}
    g.set_node_attrs(7, weight=2.0, label="seven")
    assert g.node_attrs(7) == {"kind": "variable", "weight": 2.0, "label": "seven"}
    g.add_node(7, extra=True)  # adding again updates, never duplicates
    assert g.number_of_nodes() == len(KEYS)
    assert g.node_attrs(7)["extra"] is True
    returned = g.node_attrs(7)
    returned["kind"] = "changed"
    assert g.node_attrs(7)["kind"] == "variable"  # copies leave the graph unchanged


def test_queries_select_by_attribute(backend):
    g = sample(backend)
    assert g.nodes(kind="class") == [0]
    assert set(g.nodes(kind="variable")) == set(KEYS[1:])
    assert g.nodes(kind="variable", weight=lambda w: w > 10) == []
    assert {frozenset(e) for e in g.edges(kind="tree")} == {
        frozenset({7, "x"}), frozenset({("a", 1), frozenset({0, 1, 2})})}
    heavy = g.edges(data=True, weight=lambda w: w > 0.3)
    assert len(heavy) == 1 and heavy[0][2] == {"kind": "tree", "weight": 0.5}


def test_edges_neighbours_degree_undirected(backend):
    g = sample(backend)
    assert g.has_edge(7, 0) and g.has_edge(0, 7)
    assert set(g.neighbors(7)) == {0, "x"}
    assert g.degree(7) == 2 and g.degree(frozenset()) == 0
    assert g.edge_attrs("x", 7) == {"kind": "tree", "weight": 0.25}
    g.set_edge_attrs(7, "x", weight=1.0)
    assert g.edge_attrs(7, "x")["weight"] == 1.0
    g.remove_edge(7, "x")
    assert not g.has_edge(7, "x") and g.number_of_edges() == 2


def test_directed_successors_predecessors(backend):
    g = GraphDB(directed=True, backend=backend)
    g.add_edges_from([("y", "a"), ("y", "b"), ("a", "b", {"kind": "parent"})])
    assert g.has_edge("a", "b") and not g.has_edge("b", "a")
    assert sorted(g.successors("y")) == ["a", "b"]
    assert sorted(g.predecessors("b")) == ["a", "y"]
    assert sorted(g.neighbors("a")) == ["b", "y"]
    assert g.degree("b") == 2


def test_remove_node_removes_its_edges(backend):
    g = sample(backend)
    g.remove_node(7)
    assert 7 not in g and g.number_of_edges() == 1
    assert g.node_attrs("x") == {"kind": "variable", "weight": 1.5}
    assert g.edge_attrs(("a", 1), frozenset({0, 1, 2}))["weight"] == 0.5


def test_missing_nodes_and_edges_raise_keyerror(backend):
    g = sample(backend)
    with pytest.raises(KeyError, match="Node 'nope' is not in the graph"):
        g.node_attrs("nope")
    with pytest.raises(KeyError, match="Edge 0 - 'x' is not in the graph"):
        g.edge_attrs(0, "x")


def test_subgraph_and_copy_across_backends(backend):
    g = sample(backend)
    sub = g.subgraph([7, "x", 0])
    assert sub.backend == backend
    assert set(sub.nodes()) == {0, 7, "x"} and sub.number_of_edges() == 2
    other = "igraph" if backend == "networkx" else "networkx"
    moved = g.copy(backend=other)
    assert moved.backend == other and moved == g


def test_conversions_to_networkx_and_igraph(backend):
    g = sample(backend)
    nxg = g.to_networkx()
    assert isinstance(nxg, nx.Graph) and nxg.nodes[7] == {"kind": "variable", "weight": 1.5}
    assert GraphDB.from_networkx(nxg, backend=backend) == g
    ig = g.to_igraph()
    assert isinstance(ig, igraph.Graph)
    assert ig.vcount() == len(KEYS) and ig.ecount() == 3
    assert set(ig.vs["key"]) == set(KEYS)
    assert ig.vs.find(name="{0, 1, 2}")["key"] == frozenset({0, 1, 2})


def test_unknown_backend_and_multigraph():
    with pytest.raises(ValueError, match="valid backends are \\['igraph', 'networkx', 'sqlite'\\]"):
        GraphDB(backend="neo4j")
    with pytest.raises(ValueError, match="multigraph"):
        GraphDB.from_networkx(nx.MultiGraph([(1, 2), (1, 2)]))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=25),
       st.sampled_from(["networkx", "igraph", "sqlite"]), st.booleans())
def test_backends_agree_on_random_graphs(edges, backend, directed):
    """The same operations on both backends give equal graphs and equal answers."""
    graphs = [GraphDB(directed=directed, backend=b) for b in ("networkx", backend)]
    for g in graphs:
        for i, (u, v) in enumerate(edges):
            if u != v:
                g.add_edge(u, v, order=i)
    a, b = graphs
    assert a == b
    for v in a.nodes():
        assert sorted(a.neighbors(v)) == sorted(b.neighbors(v))
        assert a.degree(v) == b.degree(v)


def test_missing_igraph_names_the_extra(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "igraph", None)
    with pytest.raises(ImportError, match=r"pip install 'kgraph-bnc\[igraph\]'"):
        GraphDB(backend="igraph")
