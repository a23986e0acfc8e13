"""backbone_dp against the exhaustive oracle on arbitrary scores; its certificate; errors."""

import numpy as np
import pytest

from estimators.search.backbone_dp import backbone_dp
from estimators.search.brute_force import brute_force_ktree
from kgraph.pbkt import PBKT


def random_score(rng):
    """An arbitrary score: an independent N(0, 1) value per (v, parent set)."""
    table = {}

    def f(v, parents):
        key = (v, frozenset(parents))
        if key not in table:
            table[key] = float(rng.normal())
        return table[key]

    return f


def instance(seed):
    rng = np.random.default_rng(seed)
    n = 2 + seed % 6                       # n in 2..7
    k = 1 + int(rng.integers(min(3, n - 1)))
    names = [f"x{i}" for i in range(n)]
    backbone = [names[i] for i in rng.permutation(n)]
    return random_score(rng), backbone, k


@pytest.mark.parametrize("seed", range(120))
def test_dp_equals_brute_force_on_random_scores(seed):
    f, backbone, k = instance(seed)
    res = backbone_dp(f, backbone, k)
    oracle = brute_force_ktree(f, k, backbone=backbone)
    assert res.score == pytest.approx(oracle.score, abs=1e-9)
    tree = res.structure
    assert tree.k == k and set(tree.order) == set(backbone)
    assert tree.score(f) == pytest.approx(res.score, abs=1e-9)
    assert {frozenset(e) for e in zip(backbone, backbone[1:], strict=False)} <= tree.skeleton()
    pbkt = res.pbkt
    pbkt.validate()
    assert pbkt.to_ktree(root_order=tree.order[:k + 1]) == tree
    assert pbkt.retained == set(zip(backbone, backbone[1:], strict=False))
    assert res.backbone == tuple(backbone) and res.k == k


def test_a_child_may_need_several_root_intervals():
    """Paper 2 lets a child keep only B(root, v); this optimum needs two intervals."""
    target = {1: frozenset(), 2: frozenset({1}), 4: frozenset({1, 2}),
              3: frozenset({2, 4}), 5: frozenset({3, 4})}

    def f(v, parents):
        return 1.0 if target[v] == parents else 0.0

    res = backbone_dp(f, [1, 2, 3, 4, 5], 2)
    assert res.score == 5.0 and res.structure.parent_map == target
    (u, v, child), = res.pbkt.children
    assert (res.pbkt.root, u, v) == ({1, 2, 4}, 1, 3)
    # B({1,2,4}, 3) = {(2,3),(3,4)}; the child must also keep (4,5) from interval [4, 5].
    assert child.retained == {(2, 3), (3, 4), (4, 5)}


def test_orientation_matters_and_is_optimised():
    """A score that only rewards the last vertex of the first clique picks that order."""
    def f(v, parents):
        return 10.0 if (v, parents) == ("c", frozenset("ab")) else 0.0

    res = backbone_dp(f, "abc", 2)
    assert res.score == 10.0 and res.structure.parents("c") == {"a", "b"}


def test_k_path_optimum_for_parent_count_score():
    """f = number of parents: every k-tree scores k(n-k) + k(k-1)/2 (paper 2 §5.1)."""
    for k in (1, 2, 3):
        res = backbone_dp(lambda v, ps: float(len(ps)), range(9), k)
        assert res.score == k * (9 - k) + k * (k - 1) // 2


def test_certificate_is_a_pbkt_spanning_the_tree():
    f, backbone, k = instance(5)
    res = backbone_dp(f, backbone, k)
    assert isinstance(res.pbkt, PBKT)
    assert PBKT.from_graph(res.pbkt.graph) == res.pbkt


def test_uses_score_variables():
    class Fitted:
        variables_ = ["a", "b", "c"]

        def __call__(self, v, parents):
            return float(len(parents))

    assert backbone_dp(Fitted(), ["c", "a", "b"], 1).score == 2.0
    with pytest.raises(ValueError, match=r"misses variable\(s\) \['c'\]"):
        backbone_dp(Fitted(), ["a", "b"], 1)


@pytest.mark.parametrize("backbone, variables, match", [
    ([0, 1, 1, 2], None, r"repeats variable\(s\) \[1\]"),
    ([0, 1, 7], [0, 1, 2], r"has 7, which is neither a variable nor a column index in \[0, 2\]"),
    ([0, 1], [0, 1, 2], r"misses variable\(s\) \[2\]"),
])
def test_bad_backbone(backbone, variables, match):
    with pytest.raises(ValueError, match=match):
        backbone_dp(lambda v, ps: 0.0, backbone, 1, variables=variables)


@pytest.mark.parametrize("k", [0, -1, 4, 5])
def test_k_out_of_range(k):
    with pytest.raises(ValueError, match=r"k must be an int in \[1, 3\]"):
        backbone_dp(lambda v, ps: 0.0, range(4), k)


def test_k_not_int():
    with pytest.raises(TypeError, match="k must be an int"):
        backbone_dp(lambda v, ps: 0.0, range(4), 1.5)


def test_nan_score_names_vertex_and_parents():
    def f(v, parents):
        return float("nan") if (v, parents) == (2, frozenset({0, 1})) else 0.0

    with pytest.raises(ValueError, match=r"NaN for v=2 with parents=\[0, 1\]"):
        backbone_dp(f, range(4), 2)


def test_minus_inf_forbids_and_all_forbidden_is_an_error():
    def f(v, parents):
        return -np.inf if (v, parents) == (2, frozenset({0})) else 1.0

    res = backbone_dp(f, [1, 0, 2], 1)
    assert res.score == 3.0 and res.structure.parent_map == {2: set(), 0: {2}, 1: {0}}
    with pytest.raises(ValueError, match="scores -inf"):
        backbone_dp(lambda v, ps: -np.inf if ps else 0.0, range(3), 1)


def test_positions_path_gives_the_tables_of_the_items_path():
    """A score answering positions (SearchedScore of the conditional Gaussian score) fills
    the DP's tables with the values the per-item path reads: same optimum, same score."""
    import pandas as pd

    from estimators.learning.structure_learning import SearchedScore
    from estimators.scores import ConditionalGaussianScore

    rng = np.random.default_rng(3)
    n = 200
    y = rng.integers(0, 2, n)
    X = pd.DataFrame({"a": rng.normal(y, 1.0, n), "b": rng.choice(["p", "q", "r"], n),
                      "c": rng.normal(size=n), "d": rng.choice(["s", "t"], n),
                      "e": rng.normal(y, 2.0, n)})
    X.loc[rng.random(n) < 0.1, "c"] = np.nan
    score = ConditionalGaussianScore().fit(X, y)
    fast = SearchedScore(score)
    slow = SearchedScore(ConditionalGaussianScore().fit(X, y))
    slow.score_positions = None  # not callable: the items path
    order = list(X.columns)
    a, b = backbone_dp(fast, order, 2), backbone_dp(slow, order, 2)
    assert a.score == b.score
    assert {v: a.structure.parents(v) for v in order} == {v: b.structure.parents(v) for v in order}
