"""GraphML and node-link JSON: exact round trips, files that plain networkx and igraph read."""

import json
import math

import igraph
import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgraph import GraphDB

FORMATS = ("graphml", "json")


def rich_graph(backend, directed=False):
    g = GraphDB(directed=directed, backend=backend,
                attrs={"structure": "demo", "k": 2, "weights": [0.5, (1, 2)], "none": None})
    g.add_node(0, kind="class")
    g.add_node(1, kind="variable", mother=None, score=math.inf)
    g.add_node("1", kind="variable", mother=1, score=0.25)
    g.add_node((1, "b"), kind="variable", mother="1", score=-1.0)
    g.add_node(frozenset({0, 1, 2}), kind="cluster", members=frozenset({0, 1, 2}), flag=True)
    g.add_edge(0, 1, kind="class-edge")
    g.add_edge(1, "1", kind="tree", order=0, endpoints=(1, "1"))
    g.add_edge((1, "b"), frozenset({0, 1, 2}), kind="tree", order=1, endpoints=((1, "b"), 2))
    return g


def write(g, path, fmt):
    (g.write_graphml if fmt == "graphml" else g.write_json)(path)


def read(path, fmt, backend):
    reader = GraphDB.read_graphml if fmt == "graphml" else GraphDB.read_json
    return reader(path, backend=backend)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("directed", [False, True])
def test_round_trip_is_exact_on_every_backend_pair(tmp_path, backend, fmt, directed):
    g = rich_graph(backend, directed)
    path = tmp_path / f"g.{fmt}"
    write(g, path, fmt)
    for target in ("networkx", "igraph"):
        back = read(path, fmt, target)
        assert back == g
        assert back.backend == target
        assert back.node_attrs((1, "b"))["mother"] == "1"  # str stays str, not int
        assert back.node_attrs(1)["mother"] is None
        assert type(next(k for k in back.nodes() if k == 1 and not isinstance(k, str))) is int


def test_graphml_opens_in_plain_networkx_and_igraph(tmp_path, backend):
    g = rich_graph(backend)
    path = tmp_path / "g.graphml"
    g.write_graphml(path)
    plain = nx.read_graphml(path)
    assert set(plain.nodes) == {"0", "1", "1#1", "(1, b)", "{0, 1, 2}"}
    assert plain.nodes["{0, 1, 2}"]["kind"] == "cluster"
    assert plain.edges["1", "1#1"]["order"] == 0
    ig = igraph.Graph.Read_GraphML(str(path))
    assert ig.vcount() == 5 and ig.ecount() == 3
    assert sorted(ig.vs["kind"]) == ["class", "cluster", "variable", "variable", "variable"]


def test_json_opens_in_plain_networkx(tmp_path, backend):
    g = rich_graph(backend)
    path = tmp_path / "g.json"
    g.write_json(path)
    with open(path) as fh:
        plain = nx.node_link_graph(json.load(fh), edges="edges")
    assert plain.number_of_nodes() == 5 and plain.number_of_edges() == 3
    assert plain.nodes["{0, 1, 2}"]["kind"] == "cluster"


def test_reserved_and_unencodable_attributes(tmp_path):
    g = GraphDB()
    g.add_node(1, kgraph_key="clash")
    with pytest.raises(ValueError, match="Node attribute name 'kgraph_key' is reserved"):
        g.write_graphml(tmp_path / "x.graphml")
    h = GraphDB()
    h.add_node(1, thing=object())
    with pytest.raises(TypeError, match="Cannot encode a value of type object"):
        h.write_json(tmp_path / "x.json")


keys = st.recursive(
    st.integers(-5, 5) | st.text(max_size=3),
    lambda inner: st.tuples(inner, inner) | st.frozensets(inner, max_size=3),
    max_leaves=4,
)
values = st.none() | st.booleans() | st.integers(-10, 10) | st.floats(allow_nan=False) | \
    st.text(max_size=4) | st.tuples(st.integers(), st.text(max_size=2)) | \
    st.frozensets(st.integers(0, 5), max_size=3)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(keys, st.dictionaries(st.sampled_from("abc"), values, max_size=3),
                       min_size=1, max_size=6),
       st.sampled_from(FORMATS), st.sampled_from(["networkx", "igraph", "sqlite"]))
def test_round_trip_of_random_keys_and_values(tmp_path_factory, nodes, fmt, backend):
    g = GraphDB(backend=backend)
    for key, attrs in nodes.items():
        g.add_node(key, **attrs)
    ordered = list(nodes)
    for u, v in zip(ordered, ordered[1:], strict=False):
        g.add_edge(u, v, w=len(str(u)))
    path = tmp_path_factory.mktemp("rt") / f"g.{fmt}"
    write(g, path, fmt)
    assert read(path, fmt, backend) == g


def _graphml_values(path):
    import xml.etree.ElementTree as ET

    ns = "{http://graphml.graphdrawing.org/xmlns}"
    return [d.text or "" for d in ET.parse(path).getroot().iter(f"{ns}data")]


def test_graphml_attributes_are_plain_for_people_and_tools(tmp_path, backend):
    g = rich_graph(backend)
    path = tmp_path / "g.graphml"
    g.write_graphml(path)
    values = _graphml_values(path)
    assert values and not any(v.startswith(('"', '{"__')) for v in values)
    assert "null" not in values
    plain = nx.read_graphml(path)
    cluster = plain.nodes["{0, 1, 2}"]
    assert cluster["label"] == "{0, 1, 2}" and cluster["members"] == "{0, 1, 2}"
    assert cluster["kgraph_members"] == "frozenset({0, 1, 2})"
    assert "mother" not in plain.nodes["1"]  # None is omitted, not written as 'null'
    assert plain.nodes["1"]["score"] == math.inf  # a float column stays numeric
    assert plain.edges["(1, b)", "{0, 1, 2}"]["endpoints"] == "((1, b), 2)"
    ig = igraph.Graph.Read_GraphML(str(path))
    assert sorted(ig.vs["label"]) == sorted(plain.nodes)
    assert {type(s) for s in ig.vs["score"]} == {float}


def test_graphml_of_a_foreign_file_keeps_its_labels_and_types(tmp_path):
    plain = nx.DiGraph()
    plain.add_node("a", label="Node A", weight=2)
    plain.add_edge("a", "b", weight=0.5)
    nx.write_graphml(plain, tmp_path / "f.graphml")
    g = GraphDB.read_graphml(tmp_path / "f.graphml")
    assert g.node_attrs("a") == {"label": "Node A", "weight": 2}
    assert g.edge_attrs("a", "b") == {"weight": 0.5}


def test_graphml_keeps_a_user_label():
    g = GraphDB()
    g.add_node((1, 2), label="pair")
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        g.write_graphml(Path(d) / "g.graphml")
        assert nx.read_graphml(Path(d) / "g.graphml").nodes["(1, 2)"]["label"] == "pair"
        assert GraphDB.read_graphml(Path(d) / "g.graphml") == g
