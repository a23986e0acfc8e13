"""SuperParentEnsemble: the union graph, file round trips and bad input."""

import pytest

from kgraph import SuperParentEnsemble, read_structure


def test_a2de_union_graph_and_round_trips(tmp_path):
    a2de = SuperParentEnsemble(["a", "b", "c", "d"], [("a", "b"), ("a", "c"), ("b", "c")], n=2)
    g = a2de.graph
    assert a2de.parents("b", ("a", "b")) == ("a",) and a2de.parents("d", ("a", "b")) == ("a", "b")
    # a -> b: in S = (a, b) (b's earlier member) and in S = (a, c) (b outside S)
    assert g.edge_attrs("a", "b")["spodes"] == 2 and g.edge_attrs("b", "a")["spodes"] == 1
    assert g.edge_attrs("a", "d")["spodes"] == 2
    assert not g.has_edge("d", "a")
    for name in ("s.graphml", "s.json"):
        a2de.write_graphml(tmp_path / name) if name.endswith("graphml") else a2de.write_json(
            tmp_path / name)
        assert read_structure(tmp_path / name) == a2de


def test_bad_input_is_named():
    with pytest.raises(ValueError, match=r"Super-parent set \('a', 'z'\) must hold 2"):
        SuperParentEnsemble(["a", "b"], [("a", "z")], n=2)
    with pytest.raises(ValueError, match="n must be an int >= 1"):
        SuperParentEnsemble(["a"], [], n=0)
    with pytest.raises(ValueError, match="class vertex 'a' is also a feature"):
        SuperParentEnsemble(["a"], [("a",)], n=1, target="a")
    with pytest.raises(ValueError, match="Feature 'a' is repeated"):
        SuperParentEnsemble(["a", "a"], [], n=1)
