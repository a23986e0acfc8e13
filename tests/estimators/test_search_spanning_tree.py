"""Kruskal / matroid greedy / union-find against independent computations."""

from itertools import combinations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from estimators.search.brute_force import brute_force_spanning_tree
from estimators.search.matroid import greedy_matroid_basis
from estimators.search.spanning_tree import maximum_spanning_tree


def simple_kruskal(W):
    """Textbook Kruskal with component labels; ties by (i, j)."""
    d = len(W)
    label = list(range(d))
    chosen = []
    for _, i, j in sorted((-W[i, j], i, j) for i, j in combinations(range(d), 2)):
        if label[i] != label[j]:
            old = label[j]
            label = [label[i] if x == old else x for x in label]
            chosen.append((i, j))
    return chosen


def random_matrix(seed, d, ties):
    rng = np.random.default_rng(seed)
    W = rng.normal(size=(d, d))
    if ties:
        W = np.round(W, 1)
    W = np.triu(W, 1)
    return W + W.T


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 14), st.booleans())
def test_weight_equals_networkx_and_order_is_kruskal(seed, d, ties):
    W = random_matrix(seed, d, ties)
    res = maximum_spanning_tree(W)
    G = nx.Graph()
    G.add_weighted_edges_from((i, j, W[i, j]) for i, j in combinations(range(d), 2))
    ref = nx.maximum_spanning_tree(G).size(weight="weight")
    assert res.weight == pytest.approx(ref, abs=1e-9)
    assert list(res.edges) == simple_kruskal(W)
    assert res.weights == tuple(W[i, j] for i, j in res.edges)


@pytest.mark.parametrize("seed", range(4))
def test_large_scipy_path_keeps_kruskal_order_with_ties(seed):
    W = random_matrix(seed, 90, ties=True)
    assert list(maximum_spanning_tree(W).edges) == simple_kruskal(W)


@pytest.mark.parametrize("d", [2, 3, 4, 5, 6])
def test_brute_force_spanning_tree(d):
    W = random_matrix(d, d, ties=False)
    brute = brute_force_spanning_tree(W)
    assert brute.n_structures == d ** (d - 2)
    assert brute.score == pytest.approx(maximum_spanning_tree(W).weight)
    assert set(brute.edges) == set(maximum_spanning_tree(W).edges)


def test_result_structures():
    W = random_matrix(3, 6, ties=False)
    res = maximum_spanning_tree(W, variables="abcdef")
    tree = res.ktree
    assert tree.k == 1 and tree.order[0] == res.edges[0][0] and res.structure == tree
    assert tree.skeleton() == {frozenset(e) for e in res.edges}
    jt = res.junction_tree(target="y")
    assert jt.edges == list(res.edges)
    assert jt.clusters == [frozenset({"y", a, b}) for a, b in res.edges]
    assert res.score == res.weight


def test_pair_score_callable_and_dataframe():
    import pandas as pd

    W = random_matrix(7, 5, ties=False)
    names = list("abcde")
    f = lambda v, ps: W[names.index(v), names.index(next(iter(ps)))]  # noqa: E731
    by_score = maximum_spanning_tree(f, variables=names)
    by_frame = maximum_spanning_tree(pd.DataFrame(W, columns=names))
    assert by_score.edges == by_frame.edges == tuple(
        (names[i], names[j]) for i, j in simple_kruskal(W))


@pytest.mark.parametrize("W, match", [
    (np.array([[0, 1], [2, 0.0]]), "must be symmetric"),
    (np.array([[0, np.nan], [np.nan, 0]]), r"pair \(0, 1\) is NaN"),
    (np.zeros((2, 3)), "must be square"),
    (np.zeros((1, 1)), "at least 2 variables"),
])
def test_bad_matrices(W, match):
    with pytest.raises(ValueError, match=match):
        maximum_spanning_tree(W)


def test_matroid_greedy_on_partition_matroid_equals_exhaustive():
    rng = np.random.default_rng(1)
    elements = list(range(9))
    block = {e: e % 3 for e in elements}
    weights = np.round(rng.normal(size=9), 1)
    indep = lambda s: all(sum(block[e] == b for e in s) <= 2 for b in range(3))  # noqa: E731
    res = greedy_matroid_basis(elements, weights, indep)
    best = max(sum(weights[list(s)]) for s in combinations(elements, 6) if indep(list(s)))
    assert res.score == pytest.approx(best) and indep(list(res.structure))
    assert list(res.weights) == sorted(res.weights, reverse=True)


def test_matroid_greedy_graphic_is_kruskal_and_rejects_nan():
    W = random_matrix(2, 6, ties=True)
    edges = list(combinations(range(6), 2))

    def forest(s):
        return nx.is_forest(nx.Graph(list(s)))

    res = greedy_matroid_basis(edges, lambda e: W[e], forest)
    assert list(res.structure) == simple_kruskal(W)
    with pytest.raises(ValueError, match="weight of element 'b' is NaN"):
        greedy_matroid_basis("ab", [1.0, np.nan], lambda s: True)
