"""Hypothesis strategies for random structures (shared by the kgraph tests)."""

from itertools import combinations

from hypothesis import strategies as st


@st.composite
def spanning_trees(draw, min_d=2, max_d=9):
    """(features, edges in a random selection order) of a random labelled spanning tree."""
    d = draw(st.integers(min_d, max_d))
    features = list(range(1, d + 1))
    perm = draw(st.permutations(features))
    edges = []
    for i in range(1, d):
        j = draw(st.integers(0, i - 1))
        edge = (perm[i], perm[j]) if draw(st.booleans()) else (perm[j], perm[i])
        edges.append(edge)
    order = draw(st.permutations(range(d - 1)))
    return features, [edges[i] for i in order]


@st.composite
def ktree_sequences(draw, max_k=3, max_extra=6):
    """(k, order, parents) of a random acyclic k-tree creation sequence."""
    k = draw(st.integers(1, max_k))
    n = k + 1 + draw(st.integers(0, max_extra))
    order = draw(st.permutations(list(range(n))))
    kcliques = [frozenset(order[:k])]
    parents = {}
    for v in order[k:]:
        ps = draw(st.sampled_from(kcliques))
        parents[v] = ps
        clique = ps | {v}
        kcliques.extend(frozenset(c) for c in combinations(clique, k) if v in c)
    return k, order, parents
