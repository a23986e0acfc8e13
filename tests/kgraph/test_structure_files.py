"""Every structure: GraphML and JSON round trips on both backends, equality, repr."""

import pytest

from kgraph import (
    AcyclicKTree,
    CherryJunctionTree,
    EnsembleStructure,
    GNBForest,
    GNBJunctionTree,
    ParentSetDAG,
    read_structure,
)

F = [("f", 1), frozenset({"g", 2}), "h", 4, ("i", ("j",))]  # awkward but hashable keys


def structures():
    gnb = GNBJunctionTree.from_tree([(F[0], F[1]), (F[1], F[2]), (F[0], F[3]), (F[0], F[4])],
                                    target="class")
    ktree = AcyclicKTree(2, F, {F[2]: F[:2], F[3]: [F[1], F[2]], F[4]: [F[1], F[3]]})
    c1, c2 = {0, ("a", 1), 2}, {0, 2, frozenset({3})}
    return {
        "gnb": gnb,
        "forest": gnb.prefix(2),
        "ktree": ktree,
        "cherry": CherryJunctionTree([c1, c2], [(c1, c2)]),
        "kgnb": ktree.to_junction_tree("class"),
        "dag": ParentSetDAG({F[0]: [], F[1]: [F[0]], F[2]: [F[0]], F[3]: [F[1], F[2]],
                             F[4]: [F[3]]}, target=("class", 1), max_in_degree=2),
        "dag-unbounded": ParentSetDAG({F[2]: [F[4]], F[4]: []}),
        "ensemble": EnsembleStructure(
            [ParentSetDAG({F[0]: [], F[1]: [F[0]], F[2]: [F[1]]}, target=("class", 1)),
             ParentSetDAG({F[2]: [], F[1]: [F[2]], F[0]: [F[1], F[2]]}, target=("class", 1),
                          max_in_degree=2), ktree], target=("class", 1)),
    }


@pytest.mark.parametrize("name", sorted(structures()))
@pytest.mark.parametrize("fmt", ["graphml", "json"])
def test_round_trip(tmp_path, backend, name, fmt):
    s = structures()[name]
    path = tmp_path / f"s.{fmt}"
    (s.write_graphml if fmt == "graphml" else s.write_json)(path, backend=backend)
    reader = type(s).read_graphml if fmt == "graphml" else type(s).read_json
    for target in ("networkx", "igraph"):
        back = reader(path, backend=target)
        assert back == s and hash(back) == hash(s)
        assert back.to_graph() == s.to_graph()
        assert read_structure(path, backend=target) == s


def test_structures_are_typed_graphs_and_compare_structurally():
    s = structures()
    g = s["gnb"].graph
    assert g.nodes(kind="class") == ["class"]
    assert len(g.nodes(kind="variable")) == 5 and len(g.edges(kind="tree")) == 4
    assert len(s["ktree"].graph.edges(kind="parent")) == 7
    assert s["gnb"] != GNBJunctionTree.from_tree(list(reversed(s["gnb"].edges)), target="class")
    assert s["forest"] == GNBForest(s["gnb"].edges[:2], target="class")
    same_dag = AcyclicKTree(2, [F[1], F[0], F[2], F[3], F[4]],
                            {F[0]: [F[1]], F[2]: F[:2], F[3]: [F[1], F[2]], F[4]: [F[1], F[3]]})
    assert same_dag != s["ktree"]  # a different orientation of the initial clique
    assert repr(s["ktree"]).startswith("AcyclicKTree(k=2, n=5")
    assert repr(s["gnb"]) == "GNBJunctionTree(target='class', features=5, clusters=4, trees=1)"


def test_graph_is_a_copy():
    gnb = structures()["gnb"]
    g = gnb.graph
    g.remove_node("class")
    assert "class" in gnb.graph


def test_reading_the_wrong_structure(tmp_path):
    s = structures()
    s["gnb"].write_json(tmp_path / "g.json")
    with pytest.raises(ValueError, match="holds a 'GNBJunctionTree' structure, not a 'AcyclicKTree'"):
        AcyclicKTree.read_json(tmp_path / "g.json")
    with pytest.raises(ValueError, match="expected a .graphml or .json file"):
        read_structure(tmp_path / "g.txt")
