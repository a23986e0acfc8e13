"""PBKT: the generalised def. 10, conversion to/from acyclic k-trees, files, equality."""

from itertools import permutations

import pytest
from hypothesis import given, settings

from kgraph.graphdb import GraphDB
from kgraph.ktree import AcyclicKTree
from kgraph.pbkt import PBKT
from tests.structure_strategies import ktree_sequences

BACKBONE = (1, 2, 3, 4, 5)
PATH = [(1, 2), (2, 3), (3, 4), (4, 5)]


def example() -> PBKT:
    """Root {1,2,4}; 3 with parents {2,4}; 5 with parents {3,4} (two intervals of the root)."""
    return PBKT.from_decomposition(2, BACKBONE, {1, 2, 4}, [(1, 3, [(2, 5, [])])])


def test_example_retains_edges_of_two_root_intervals():
    p = example()
    (u, v, child), = p.children
    assert (u, v, child.root) == (1, 3, frozenset({2, 3, 4}))
    # B({1,2,4}, 3) = {(2,3), (3,4)} (the paper's choice) is not enough: 5 sits in [4, 5].
    assert child.retained == {(2, 3), (3, 4), (4, 5)}
    assert p.retained == set(PATH)
    assert p.created == (3, 5) and p.vertices == set(BACKBONE)


def test_to_ktree_parents_and_root_order():
    t = example().to_ktree(root_order=[4, 2, 1])
    assert t.order[:3] == (4, 2, 1)
    assert t.parent_map == {4: frozenset(), 2: {4}, 1: {2, 4}, 3: {2, 4}, 5: {3, 4}}
    assert example().to_ktree().order[:3] == (1, 2, 4)  # default: backbone order
    with pytest.raises(ValueError, match="root_order must order the root clique"):
        example().to_ktree(root_order=[1, 2, 3])


def hamiltonian_path(t: AcyclicKTree):
    edges = t.skeleton()
    for perm in permutations(t.order):
        if all(frozenset(e) in edges for e in zip(perm, perm[1:], strict=False)):
            return perm
    return None


@settings(max_examples=60, deadline=None)
@given(ktree_sequences(max_k=3, max_extra=4))
def test_from_ktree_round_trip(seq):
    k, order, parents = seq
    t = AcyclicKTree(k, order, parents)
    backbone = hamiltonian_path(t)
    if backbone is None:
        with pytest.raises(ValueError):
            PBKT.from_ktree(t, order)  # not all of this order's "backbone" edges exist
        return
    p = PBKT.from_ktree(t, backbone)
    assert p.to_ktree(root_order=t.order[:k + 1]) == t
    assert p.vertices == set(order) and len(p.created) == len(order) - k - 1
    assert p.retained == {tuple(e) for e in zip(backbone, backbone[1:], strict=False)}


def test_not_a_backbone_ktree_is_rejected():
    star = AcyclicKTree(1, [0, 1, 2, 3], {1: [0], 2: [0], 3: [0]})
    with pytest.raises(ValueError, match="lies neither in the root"):
        PBKT.from_ktree(star, [1, 0, 2, 3])


@pytest.mark.parametrize("fmt", ["graphml", "json"])
def test_file_round_trip(tmp_path, backend, fmt):
    p = PBKT.from_decomposition(2, ["a", ("b", 1), 3, frozenset({"x"}), "e"],
                                {"a", ("b", 1), frozenset({"x"})},
                                [("a", 3, [(("b", 1), "e", [])])])
    path = tmp_path / f"p.{fmt}"
    getattr(p, f"write_{fmt}")(path, backend=backend)
    back = getattr(PBKT, f"read_{fmt}")(path, backend=backend)
    assert back == p and back.children[0][:2] == ("a", 3)


def test_graph_kinds_equality_hash_repr():
    p = example()
    g = p.graph
    assert isinstance(g, GraphDB) and g.directed
    assert set(g.nodes(kind="clique")) == {frozenset({1, 2, 4}), frozenset({2, 3, 4}),
                                          frozenset({3, 4, 5})}
    assert g.edges(kind="child") == [(frozenset({1, 2, 4}), frozenset({2, 3, 4})),
                                     (frozenset({2, 3, 4}), frozenset({3, 4, 5}))]
    assert PBKT.from_graph(g) == p and hash(PBKT.from_graph(g)) == hash(p)
    other = PBKT.from_decomposition(2, BACKBONE, {1, 2, 4}, [(1, 3, [(2, 5, [])])],
                                    retained=PATH)
    assert other == p
    assert p != PBKT.from_decomposition(2, BACKBONE, {2, 3, 4},
                                        [(4, 1, []), (2, 5, [])])
    assert repr(p) == "PBKT(k=2, root=[1, 2, 4], n_vertices=5, n_cliques=3, n_retained=4)"


def leaf(root, retained=()):
    return PBKT(2, BACKBONE, root, retained)


@pytest.mark.parametrize("make, match", [
    (lambda: PBKT(2, BACKBONE, {1, 2}, []), r"\(k\+1\)-clique of 3 vertices; got 2"),
    (lambda: PBKT(2, BACKBONE, {1, 2, 9}, []), "Root vertex 9 is not on the backbone"),
    (lambda: PBKT(2, (1, 2), {1, 2}, []), "at least k \\+ 1 = 3 backbone vertices"),
    (lambda: PBKT(2, (1, 2, 2), {1, 2}, []), "Backbone vertex 2 is repeated"),
    (lambda: leaf({1, 2, 3}, [(1, 3)]), "not a backbone edge: 1 and 3 are not consecutive"),
    (lambda: leaf({1, 2, 3}, [(1, 7)]), "not a pair of backbone vertices"),
    (lambda: leaf({1, 2, 4}, [(3, 4)]), r"Retained backbone edge \(3, 4\) lies neither"),
    (lambda: PBKT(2, BACKBONE, {1, 2, 3}, [], [(5, 4, leaf({1, 2, 4}))]),
     "u must be a vertex of the root"),
    (lambda: PBKT(2, BACKBONE, {1, 2, 3}, [], [(1, 2, leaf({2, 3, 4}))]),
     "v must not be a vertex of the root"),
    (lambda: PBKT(2, BACKBONE, {1, 2, 3}, [], [(1, 4, leaf({1, 3, 4}))]),
     r"its root must be root - \{u\} \| \{v\} = \[2, 3, 4\]"),
    (lambda: PBKT(2, BACKBONE, {1, 2, 3}, [], [(1, 4, leaf({2, 3, 4})),
                                               (2, 4, leaf({1, 3, 4}))]),
     "creates vertex 4, which the child with v=4 has too"),
    (lambda: PBKT(2, BACKBONE, {1, 2, 3}, [(3, 4)], [(1, 4, leaf({2, 3, 4}))]),
     r"must retain the backbone edges touching the vertices it creates, \[\(3, 4\)\]"),
    (lambda: PBKT(2, BACKBONE, {1, 2, 3}, [],
                  [(1, 4, PBKT(2, BACKBONE, {2, 3, 4}, [], [(4, 1, leaf({1, 2, 3}))]))]),
     "creates vertex 1, which the root has too"),
    (lambda: PBKT(1, BACKBONE, {1, 2}, [], [(1, 3, leaf({2, 3, 4}))]),
     "another k or backbone"),
    (lambda: PBKT(0, BACKBONE, {1}, []), "k must be an int >= 1"),
])
def test_invalid_pbkts_name_the_fault(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_child_must_be_a_pbkt():
    with pytest.raises(TypeError, match="is a dict, not a PBKT"):
        PBKT(2, BACKBONE, {1, 2, 3}, [], [(1, 4, {})])
    with pytest.raises(ValueError, match=r"A child is a triple \(u, v, PBKT\)"):
        PBKT(2, BACKBONE, {1, 2, 3}, [], [(1, 4)])


def test_children_order_does_not_change_identity():
    kids = [(3, 4, []), (1, 5, [])]
    backbone = (4, 1, 2, 3, 5)
    a = PBKT.from_decomposition(2, backbone, {1, 2, 3}, kids)
    b = PBKT.from_decomposition(2, backbone, {1, 2, 3}, kids[::-1])
    assert a == b and a.children != b.children
