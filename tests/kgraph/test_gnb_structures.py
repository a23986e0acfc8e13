"""GNB junction trees and forests: paper 1's example, invariants, bad input."""

import pytest
from hypothesis import given, settings
from structure_strategies import spanning_trees

from kgraph import CherryJunctionTree, GNBForest, GNBJunctionTree

PAPER_EDGES = [(1, 2), (2, 3), (1, 4), (1, 5)]


def sets(items):
    return [frozenset(c) for c in items]


def test_paper1_example():
    gnb = GNBJunctionTree.from_tree(PAPER_EDGES, target=0)
    assert gnb.clusters == sets([{0, 1, 2}, {0, 2, 3}, {0, 1, 4}, {0, 1, 5}])
    assert gnb.separators == {frozenset({0, 1}): 3, frozenset({0, 2}): 2}
    # p = p012 p023 p014 p015 / (p01^2 p02): the exponents of the log-density
    exponents = {}
    gnb.log_density(lambda c: exponents.__setitem__(c, exponents.get(c, 0) + 1) or 0.0,
                    lambda s: exponents.__setitem__(s, exponents.get(s, 0) - 1) or 0.0)
    assert exponents == {frozenset({0, 1, 2}): 1, frozenset({0, 2, 3}): 1,
                         frozenset({0, 1, 4}): 1, frozenset({0, 1, 5}): 1,
                         frozenset({0, 1}): -1, frozenset({0, 2}): -1}
    assert [gnb.mother(v) for v in (1, 2, 3, 4, 5)] == [None, 1, 2, 1, 1]


def test_log_density_applies_multiplicities():
    gnb = GNBJunctionTree.from_tree(PAPER_EDGES, target=0)
    value = gnb.log_density(lambda c: 10.0, lambda s: {frozenset({0, 1}): 1.0,
                                                         frozenset({0, 2}): 3.0}[s])
    assert value == pytest.approx(4 * 10.0 - 2 * 1.0 - 1 * 3.0)


def test_junction_tree_forms():
    gnb = GNBJunctionTree.from_tree(PAPER_EDGES, target=0)
    tree = gnb.junction_tree("tree")
    assert tree.number_of_nodes() == 4 and tree.number_of_edges() == 3
    seps = sorted(sorted(a["separator"]) for _, _, a in tree.edges(data=True))
    assert seps == [[0, 1], [0, 1], [0, 2]]
    compact = gnb.junction_tree("compact")
    separators = dict(compact.nodes(kind="separator", data=True))
    assert {s: a["multiplicity"] for s, a in separators.items()} == gnb.separators
    assert compact.degree(frozenset({0, 1})) == 3
    with pytest.raises(ValueError, match="Unknown junction-tree form 'round'"):
        gnb.junction_tree("round")


@settings(max_examples=80, deadline=None)
@given(spanning_trees())
def test_gnb_invariants_on_random_spanning_trees(tree):
    features, edges = tree
    d = len(features)
    gnb = GNBJunctionTree.from_tree(edges, target=0, features=features)
    assert len(gnb.clusters) == d - 1
    assert sum(nu - 1 for nu in gnb.separators.values()) == d - 2
    for s, nu in gnb.separators.items():
        assert nu == sum(s <= c for c in gnb.clusters)
    # running intersection: the cherry junction tree validates it, and we recheck it here
    jt = gnb.to_cherry_junction_tree()
    assert jt.order == 3 and jt.separators == gnb.separators
    for v in [0, *features]:
        holding = {c for c in jt.clusters if v in c}
        links = [e for e in jt.junction_edges if set(e) <= holding]
        assert len(links) == len(holding) - 1
    # mothers follow the tree towards the root
    root = edges[0][0]
    assert gnb.mother(root) is None
    tree_edges = {frozenset(e) for e in edges}
    assert all(frozenset((v, gnb.mother(v))) in tree_edges for v in features if v != root)
    # the same structure as a 1-tree
    ktree = gnb.to_ktree()
    assert ktree.skeleton() == tree_edges


@settings(max_examples=60, deadline=None)
@given(spanning_trees(min_d=3))
def test_prefix_forests(tree):
    features, edges = tree
    gnb = GNBJunctionTree.from_tree(edges, target=0)
    for m in range(1, len(edges) + 1):
        forest = gnb.prefix(m)
        assert isinstance(forest, GNBForest)
        assert forest.clusters == gnb.clusters[:m]
        covered = {v for e in edges[:m] for v in e}
        assert set(forest.features) == covered
        r = forest.n_trees
        assert r == len(covered) - m  # a forest: vertices − edges = components
        assert sum(len(t) for t in forest.trees) == m
        seps = forest.separators
        assert seps.get(frozenset({0}), 1) == r
        # eq. 42: ln p(y, x_D') = Σ_C ln p(y, x_C) − Σ_s (deg − 1) ln p(y, x_s) − (r − 1) ln p(y)
        assert sum(nu - 1 for nu in seps.values()) == 2 * m - len(covered) + (r - 1)
    assert gnb.prefix(len(edges)).separators == gnb.separators


@pytest.mark.parametrize(
    ("edges", "kwargs", "message"),
    [
        ([(1, 2), (2, 3), (3, 1)], {}, "closes a cycle"),
        ([(1, 2), (3, 4)], {}, "not connected: they form 2 components"),
        ([(1, 2), (2, 2)], {}, "repeats feature 2"),
        ([(1, 2), (2, 3)], {"features": [1, 2, 2, 3]}, "Feature 2 is repeated"),
        ([(1, 2), (0, 3)], {}, "The target 0 is among the features"),
        ([(1, 2), (2, 3)], {"features": [0, 1, 2, 3]}, "target 0 is among the features"),
        ([(1, 2)], {"features": [1, 2, 3]}, r"does not span the features: \[3\]"),
        ([(1, 2), (2, 3)], {"features": [1, 2]}, r"use \[3\], which are not among"),
        ([], {}, "at least two features"),
        ([(1, 2, 3)], {}, "pair of features"),
    ],
)
def test_bad_trees_are_named(edges, kwargs, message):
    with pytest.raises(ValueError, match=message):
        GNBJunctionTree.from_tree(edges, target=0, **kwargs)


def test_prefix_out_of_range():
    gnb = GNBJunctionTree.from_tree(PAPER_EDGES, target=0)
    with pytest.raises(ValueError, match=r"must be an int in \[1, 4\]; got 5"):
        gnb.prefix(5)


def test_cherry_junction_tree_bad_input():
    a, b, c = {0, 1, 2}, {0, 2, 3}, {0, 3, 4}
    with pytest.raises(ValueError, match="same size k"):
        CherryJunctionTree([a, {0, 1}], [(a, {0, 1})])
    with pytest.raises(ValueError, match="separator .* of size 1"):
        CherryJunctionTree([a, c], [(a, c)])
    with pytest.raises(ValueError, match="do not form a tree"):
        CherryJunctionTree([a, b, c], [(a, b)])
    with pytest.raises(ValueError, match="Running intersection fails for variable 1"):
        d = {0, 1, 3}
        CherryJunctionTree([a, b, d], [(a, b), (b, d)])
    with pytest.raises(ValueError, match="Cluster .* is repeated"):
        CherryJunctionTree([a, a], [(a, a)])


def test_pgmpy_exports():
    gnb = GNBJunctionTree.from_tree(PAPER_EDGES, target=0)
    bn = gnb.to_pgmpy()
    assert set(bn.edges()) == {(0, v) for v in range(1, 6)} | {(1, 2), (2, 3), (1, 4), (1, 5)}
    jt = gnb.to_cherry_junction_tree().to_pgmpy()
    assert set(jt.nodes()) == {(0, 1, 2), (0, 2, 3), (0, 1, 4), (0, 1, 5)}
    assert jt.number_of_edges() == 3
    assert all(len(set(a) & set(b)) == 2 for a, b in jt.edges())
