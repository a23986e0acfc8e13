"""Acyclic k-trees: invariants of random creation sequences, conversions, bad input."""

from itertools import combinations

import networkx as nx
import pytest
from hypothesis import given, settings
from structure_strategies import ktree_sequences

from kgraph import AcyclicKTree, CherryJunctionTree

TARGET = "Y"


@settings(max_examples=100, deadline=None)
@given(ktree_sequences())
def test_ktree_invariants(seq):
    k, order, parents = seq
    t = AcyclicKTree(k, order, parents)
    n = len(order)
    assert len(t.edges) == k * (n - k) + k * (k - 1) // 2
    cliques = t.cliques()
    assert len(cliques) == n - k
    skeleton = t.skeleton()
    for c in cliques:
        assert len(c) == k + 1
        assert all(frozenset(p) in skeleton for p in combinations(c, 2))
    # the initial clique's vertices have 0..k-1 parents
    assert sorted(len(t.parents(v)) for v in order[:k]) == list(range(k))
    # tree representation: a tree whose adjacent cliques share k vertices
    rep = t.tree_representation()
    assert nx.is_tree(rep.to_networkx())
    for a, b, attrs in rep.edges(data=True):
        assert len(a & b) == k and attrs["separator"] == a & b
    # to_junction_tree: a valid cherry junction tree of order k + 2, class in every cluster
    jt = t.to_junction_tree(TARGET)
    assert isinstance(jt, CherryJunctionTree)
    assert jt.order == k + 2 and all(TARGET in c for c in jt.clusters)
    assert sum(nu - 1 for nu in jt.separators.values()) == n - k - 1
    # and back: the same parent sets (the same acyclic k-tree)
    back = AcyclicKTree.from_junction_tree(jt, TARGET, root_order=order[: k + 1])
    assert back == t and back.parent_map == t.parent_map
    # the DAG: class -> every vertex, parents -> child, acyclic
    dag = t.to_dag(TARGET).to_networkx()
    assert nx.is_directed_acyclic_graph(dag)
    assert dag.number_of_edges() == len(t.edges) + n


@settings(max_examples=40, deadline=None)
@given(ktree_sequences(max_k=2, max_extra=4))
def test_score_is_order_free_for_decomposable_scores(seq):
    """For f(v, P) = g(P ∪ {v}) − g(P) the score telescopes to the junction-tree weight."""
    k, order, parents = seq
    t = AcyclicKTree(k, order, parents)

    def g(s):
        return sum(hash((frozenset(s), i)) % 97 for i in range(2)) / 7.0

    score = t.score(lambda v, ps: g(ps | {v}) - g(ps))
    jt = t.to_junction_tree(TARGET)
    weight = jt.weight(lambda s: g(s - {TARGET}))
    assert score == pytest.approx(weight - g(frozenset()))


def test_tree_representation_uses_most_recent_clique():
    # c, d both attach to {a, b}: Δ_d joins the most recently created clique holding {a, b}
    t = AcyclicKTree(2, "abcd", {"c": "ab", "d": "ab"})
    rep = t.tree_representation()
    assert rep.has_edge(frozenset("abc"), frozenset("abd"))
    t2 = AcyclicKTree(2, "abcde", {"c": "ab", "d": "ab", "e": "ab"})
    rep2 = t2.tree_representation()
    assert rep2.has_edge(frozenset("abd"), frozenset("abe"))
    assert not rep2.has_edge(frozenset("abc"), frozenset("abe"))


@pytest.mark.parametrize(
    ("k", "order", "parents", "error", "message"),
    [
        (0, "abc", {}, ValueError, "k must be an int >= 1; got 0"),
        (1.5, "abc", {}, TypeError, "k must be an int"),
        (2, "ab", {}, ValueError, "at least k \\+ 1 = 3 vertices"),
        (1, "abca", {"b": "a", "c": "b"}, ValueError, "'a' appears twice"),
        (2, "abcd", {"c": "ab", "d": "ac", "x": "ab"}, ValueError, "not in the creation order"),
        (2, "abcd", {"c": "ab"}, ValueError, "'d' .* has no parent set"),
        (2, "abcd", {"c": "ab", "d": "a"}, ValueError, "has 1 vertices; a 2-tree needs 2"),
        (2, "abcd", {"c": "ab", "d": "ae"}, ValueError, "Parent 'e' of vertex 'd' is not in"),
        (2, "abcd", {"c": "ad", "d": "ab"}, ValueError, "Parent 'd' of vertex 'c' is created after"),
        (2, "abcde", {"c": "ab", "d": "bc", "e": "ad"}, ValueError,
         "not a 2-clique of the graph built so far: 'a' and 'd' are not adjacent"),
        (2, "abc", {"b": "", "c": "ab"}, ValueError, "initial 2-clique"),
    ],
)
def test_bad_ktrees_are_named(k, order, parents, error, message):
    with pytest.raises(error, match=message):
        AcyclicKTree(k, list(order), {v: list(p) for v, p in parents.items()})


def test_target_must_not_be_a_vertex():
    t = AcyclicKTree(1, [0, 1, 2], {1: [0], 2: [1]})
    with pytest.raises(ValueError, match="target 1 is a vertex"):
        t.to_junction_tree(1)
    with pytest.raises(ValueError, match="target 2 is a vertex"):
        t.to_dag(2)


def test_pgmpy_export_of_ktree():
    t = AcyclicKTree(2, "abcde", {"c": "ab", "d": "bc", "e": "bd"})
    bn = t.to_pgmpy(target="Y")
    assert set(bn.edges()) == set(t.edges) | {("Y", v) for v in "abcde"}
    assert set(bn.get_parents("e")) == {"Y", "b", "d"}
