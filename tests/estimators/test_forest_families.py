"""`forest_families` orders a forest's families parents first, as repeated passes over the
vertices (in order of first appearance) place each vertex once its mother is placed."""

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from estimators.gnb._log_linear import forest_families


def _by_passes(edges, mother_of):
    """The reference: sweep the pending vertices until every one is placed."""
    order, placed = [], set()
    pending = list(dict.fromkeys(v for e in edges for v in e))
    while pending:
        for v in list(pending):
            if v not in mother_of or mother_of[v] in placed:
                order.append((v, (mother_of[v],) if v in mother_of else ()))
                placed.add(v)
                pending.remove(v)
    return order


@st.composite
def forests(draw):
    n = draw(st.integers(2, 12))
    labels = draw(st.permutations(range(n)))
    edges = [(labels[draw(st.integers(0, v - 1))], labels[v]) for v in range(1, n)
             if draw(st.booleans()) or v < 2]
    return [tuple(draw(st.permutations(e))) for e in draw(st.permutations(edges))]


@settings(max_examples=150, deadline=None)
@given(forests(), st.booleans())
def test_forest_families_equals_repeated_passes(edges, rooted):
    if rooted:  # each edge's first vertex is the mother, when that is a rooted forest
        mother_of = {b: a for a, b in edges}
        if len(mother_of) < len(edges) or not nx.is_forest(nx.DiGraph(edges)):
            return
    else:
        graph, mother_of = nx.Graph(edges), {}
        for start in dict.fromkeys(v for e in edges for v in e):
            if start not in mother_of.values() and start not in mother_of:
                mother_of.update((w, v) for v, w in nx.bfs_edges(graph, start))
    families = forest_families(edges, mother_of if rooted else None)
    assert families == _by_passes(edges, mother_of)
    position = {v: i for i, (v, _) in enumerate(families)}
    assert all(position[p] < position[v] for v, ps in families for p in ps)


def test_forest_families_children_in_a_later_pass():
    # 1's mother 2 comes after it, so 1 waits for the second pass
    assert forest_families([(1, 0), (2, 1)], {1: 2, 0: 1}) == [(2, ()), (1, (2,)), (0, (1,))]
    assert forest_families([(0, 1), (1, 2)], {1: 0, 2: 1}) == [(0, ()), (1, (0,)), (2, (1,))]
