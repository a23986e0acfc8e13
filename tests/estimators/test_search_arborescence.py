"""Maximum spanning arborescence: brute force, Kruskal, -inf arcs; backbone DP on CG scores."""

from itertools import product

import numpy as np
import pandas as pd
import pytest

from estimators.scores import ConditionalGaussianScore
from estimators.search import (
    backbone_dp,
    brute_force_ktree,
    maximum_spanning_arborescence,
    maximum_spanning_tree,
)


def brute_force_arborescence(W, root_terms):
    """Best root + parent map by trying every map v -> parent (v itself: the root)."""
    d = len(W)
    best, best_parent = -np.inf, None
    for choice in product(range(d), repeat=d):
        roots = [v for v in range(d) if choice[v] == v]
        if len(roots) != 1:
            continue
        ok = True
        for v in range(d):  # every vertex must reach the root
            seen, u = set(), v
            while choice[u] != u and u not in seen:
                seen.add(u)
                u = choice[u]
            ok &= choice[u] == u
        if not ok:
            continue
        total = root_terms[roots[0]] + sum(W[choice[v], v] for v in range(d) if v != roots[0])
        if total > best:
            best, best_parent = total, choice
    return best, best_parent


@pytest.mark.parametrize("d", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("with_roots", [False, True])
def test_equals_brute_force_for_asymmetric_weights(d, seed, with_roots):
    rng = np.random.default_rng(seed * 10 + d)
    W = rng.normal(size=(d, d))
    roots = rng.normal(size=d) if with_roots else np.zeros(d)
    names = [f"v{i}" for i in range(d)]
    f = lambda v, ps: (roots[names.index(v)] if not ps else  # noqa: E731
                       W[names.index(next(iter(ps))), names.index(v)])
    res = maximum_spanning_arborescence(f, variables=names)
    best, choice = brute_force_arborescence(W, roots)
    assert res.score == pytest.approx(best, abs=1e-12)
    assert {(names[choice[v]], names[v]) for v in range(d) if choice[v] != v} == set(res.edges)
    assert res.structure.score(f) == pytest.approx(best, abs=1e-12)
    # the k = 1 brute force over acyclic 1-trees is the same optimum
    assert brute_force_ktree(f, 1, variables=names).score == pytest.approx(best, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_equals_kruskal_for_symmetric_weights(seed):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(7, 7))
    W = A + A.T
    arb = maximum_spanning_arborescence(W)
    mst = maximum_spanning_tree(W)
    assert arb.score == pytest.approx(mst.weight, abs=1e-12)
    assert {frozenset(e) for e in arb.edges} == {frozenset(e) for e in mst.edges}


def test_ineligible_arcs_are_never_chosen():
    W = np.array([[0, 1, 1], [5, 0, 5], [1, 1, 0]], float)
    W[1, :] = -np.inf  # vertex 1 may be no one's parent
    res = maximum_spanning_arborescence(W)
    assert all(parent != 1 for parent, _ in res.edges) and np.isfinite(res.score)
    W[:, 2] = -np.inf  # vertex 2 must be the root
    W[:, 0] = [0, -np.inf, -np.inf]
    with pytest.raises(ValueError, match="No spanning arborescence"):
        maximum_spanning_arborescence(W)


def test_bad_weights_are_named():
    W = np.zeros((3, 3))
    W[0, 2] = np.nan
    with pytest.raises(ValueError, match="arc 'a' -> 'c'"):
        maximum_spanning_arborescence(W, variables="abc")
    with pytest.raises(ValueError, match="square"):
        maximum_spanning_arborescence(np.zeros((2, 3)))


def _mixed(seed, n=250, d=6):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    cols = {}
    prev = rng.normal(size=n)
    for i in range(d):
        if i % 2:
            t = prev + rng.normal(size=n) * 0.7 - y
            cols[f"c{i}"] = np.array(list("abc"))[np.digitize(t, [-0.5, 0.5])]
            prev = (cols[f"c{i}"] == "b") + 2.0 * (cols[f"c{i}"] == "c")
        else:
            prev = (0.5 + y) * prev + rng.normal(size=n)
            cols[f"x{i}"] = prev
    X = pd.DataFrame(cols)
    X = X.mask(rng.random((n, d)) < 0.05)  # missing cells: available cases
    return X, y


@pytest.mark.parametrize("seed", [0, 1])
def test_arborescence_on_cg_scores_equals_brute_force(seed):
    X, y = _mixed(seed)
    f = ConditionalGaussianScore().fit(X, y)
    W = f.edge_matrix()
    assert not np.allclose(W, W.T, atol=1e-3)  # a directed score: Kruskal does not apply
    assert brute_force_ktree(f, 1).score == pytest.approx(
        maximum_spanning_arborescence(f).score, abs=1e-12)


@pytest.mark.parametrize("k", [1, 2])
def test_backbone_dp_with_cg_scores_equals_brute_force(k):
    X, y = _mixed(2)
    f = ConditionalGaussianScore().fit(X, y)
    backbone = list(X.columns)
    dp = backbone_dp(f, backbone, k)
    bf = brute_force_ktree(f, k, backbone=backbone)
    assert dp.score == pytest.approx(bf.score, abs=1e-10)
