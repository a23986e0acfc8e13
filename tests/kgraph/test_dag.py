"""ParentSetDAG: validation, order, the ParentSets protocol across structures."""

import itertools

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgraph import AcyclicKTree, GNBJunctionTree, ParentSetDAG, ParentSets


@pytest.mark.parametrize("parents, kwargs, message", [
    ({"a": ["b"], "b": ["c"], "c": ["a"]}, {}, "directed cycle through ['a', 'c', 'b']"),
    ({"a": ["a"]}, {}, "'a' is its own parent"),
    ({"a": ["z"]}, {}, "parent(s) ['z'] that are not features"),
    ({"a": [], "b": ["a"], "c": ["a", "b"]}, {"max_in_degree": 1},
     "'c' has 2 feature parents, more than max_in_degree=1"),
    ({"a": [], "y": ["a"]}, {"target": "y"}, "target 'y' is also a feature"),
    ({"a": ["y"]}, {"target": "y"}, "lists the target 'y' as a parent"),
    ({}, {}, "at least one feature"),
    ({"a": []}, {"max_in_degree": -1}, "max_in_degree must be None or an int >= 0"),
])
def test_bad_parent_sets_are_refused(parents, kwargs, message):
    with pytest.raises(ValueError) as err:
        ParentSetDAG(parents, **kwargs)
    assert message in str(err.value)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 7).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=12))))
def test_order_is_topological_and_cycles_are_found_like_networkx(case):
    n, arcs = case
    parents = {v: {a for a, b in arcs if b == v and a != v} for v in range(n)}
    g = nx.DiGraph([(a, b) for b, ps in parents.items() for a in ps])
    g.add_nodes_from(range(n))
    if not nx.is_directed_acyclic_graph(g):
        with pytest.raises(ValueError, match="directed cycle"):
            ParentSetDAG(parents)
        return
    dag = ParentSetDAG(parents, target="y")
    pos = {v: i for i, v in enumerate(dag.order)}
    assert sorted(dag.order) == list(range(n))
    assert all(pos[p] < pos[v] for p, v in dag.edges)
    assert set(dag.edges) == set(g.edges)
    assert dag.in_degree == max(len(p) for p in parents.values())
    assert set(dag.to_dag().edges()) == set(g.edges) | {("y", v) for v in range(n)}


def test_every_structure_family_is_parent_sets():
    ktree = AcyclicKTree(2, "abcd", {"c": "ab", "d": "bc"})
    gnb = GNBJunctionTree.from_tree([("a", "b"), ("b", "c"), ("a", "d")], target="y")
    dag = ParentSetDAG.from_structure(ktree, target="y", max_in_degree=2)
    for s in (ktree, gnb, gnb.prefix(2), dag):
        assert isinstance(s, ParentSets)
        pos = {v: i for i, v in enumerate(s.order)}
        assert all(pos[p] < pos[v] for v in s.order for p in s.parents(v))
    assert {v: dag.parents(v) for v in "abcd"} == ktree.parent_map
    assert gnb.parents("c") == {"b"} and gnb.parents("a") == frozenset()
    assert dag == ParentSetDAG.from_structure(ktree, target="y", max_in_degree=2)
    assert dag != ParentSetDAG.from_structure(ktree, target="z", max_in_degree=2)


def test_pgmpy_dag_has_the_class_as_a_parent_of_every_feature():
    dag = ParentSetDAG({"a": [], "b": ["a"], "c": ["a", "b"]}, target="y")
    model = dag.to_pgmpy()
    assert sorted(model.get_parents("c")) == ["a", "b", "y"]
    assert sorted(model.edges()) == sorted(itertools.chain(
        [("y", v) for v in "abc"], [("a", "b"), ("a", "c"), ("b", "c")]))
    with pytest.raises(KeyError, match="'q' is not a feature"):
        dag.parents("q")
