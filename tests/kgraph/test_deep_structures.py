"""Structures deeper than Python's recursion limit: layout, files, pickling, equality."""

import pickle
import sys

import pytest

from kgraph import PBKT, AcyclicKTree, GNBJunctionTree, read_structure
from viz.layout import rooted_children, tidy_forest

CHAIN = 5000


@pytest.fixture(scope="module")
def chain():
    return GNBJunctionTree.from_tree([(f"x{i}", f"x{i + 1}") for i in range(CHAIN - 1)],
                                     target="class")


def test_chain_layout_is_one_column_one_row_per_vertex(chain):
    assert CHAIN > sys.getrecursionlimit()
    roots, children = rooted_children(chain.features, chain.edges)
    pos = tidy_forest(roots, children, row=1.5)
    assert roots == ["x0"]
    assert {x for x, _ in pos.values()} == {0.0}
    assert [pos[f"x{i}"][1] for i in (0, 1, CHAIN - 1)] == [0.0, -1.5, -1.5 * (CHAIN - 1)]


def test_tidy_forest_matches_the_recursive_definition_on_a_bushy_tree():
    # parent midway over first and last child, leaves consecutive, gap between trees
    children = {0: [1, 2], 1: [3, 4, 5], 2: [], 3: [], 4: [6], 5: [], 6: [], 7: [8], 8: []}
    pos = tidy_forest([0, 7], children, gap=2.0)
    assert pos[3] == (0.0, -2.0) and pos[6] == (1.0, -3.0) and pos[5] == (2.0, -2.0)
    assert pos[1] == (1.0, -1.0) and pos[2] == (3.0, -1.0) and pos[0] == (2.0, 0.0)
    assert pos[8] == (6.0, -1.0) and pos[7] == (6.0, 0.0)


@pytest.mark.parametrize("suffix", [".graphml", ".json"])
def test_chain_round_trips_through_files(chain, tmp_path, suffix):
    path = tmp_path / f"chain{suffix}"
    chain.write_graphml(path) if suffix == ".graphml" else chain.write_json(path)
    back = read_structure(path)
    assert back == chain and back.mother(f"x{CHAIN - 1}") == f"x{CHAIN - 2}"
    tan = chain.to_ktree()
    tan.write_graphml(tmp_path / "tan.graphml")
    assert read_structure(tmp_path / "tan.graphml") == tan


@pytest.fixture
def shallow_stack():
    """Allow only ~150 frames beyond the test's own: recursion per level would fail."""
    import inspect

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + 150)
    yield
    sys.setrecursionlimit(old)


def test_deep_pbkt_builds_compares_pickles_and_exports(tmp_path, shallow_stack):
    n = 400  # a 2-tree path: the pbkt nests n - 3 levels deep
    order = list(range(n))
    kt = AcyclicKTree(2, order, {v: [v - 2, v - 1] for v in range(2, n)})
    p = PBKT.from_ktree(kt, order)
    assert p.to_ktree(root_order=[0, 1, 2]) == kt
    again = pickle.loads(pickle.dumps(p))
    assert again == p and again.created == p.created
    p.write_graphml(tmp_path / "p.graphml")
    assert read_structure(tmp_path / "p.graphml") == p
    shorter = PBKT.from_ktree(AcyclicKTree(2, order[:-1], {v: [v - 2, v - 1]
                                                          for v in range(2, n - 1)}), order[:-1])
    assert shorter != p
