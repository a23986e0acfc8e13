"""The structure-learning registry of :mod:`estimators.search`, checked against brute force."""

import warnings

import numpy as np
import pytest

from estimators.search import (
    BACKBONE_METHODS,
    SEARCHERS,
    backbone_order,
    brute_force_ktree,
    brute_force_spanning_tree,
    check_k,
    get_searcher,
    register_searcher,
    resolve_backbone,
    search_structure,
)

VARIABLES = ["a", "b", "c", "d", "e"]


def pair_score(seed):
    """A symmetric pair score over VARIABLES (edge score: one parent) and its matrix."""
    rng = np.random.default_rng(seed)
    W = rng.random((5, 5))
    W = W + W.T
    index = {v: i for i, v in enumerate(VARIABLES)}

    def f(v, parents):
        return float(sum(W[index[v], index[p]] for p in parents))

    return f, W


@pytest.mark.parametrize("seed", range(3))
def test_spanning_tree_and_default_backbone_dp_at_k1_are_the_brute_force_optimum(seed):
    f, W = pair_score(seed)
    best = brute_force_spanning_tree(W)
    for name in ("spanning-tree", "backbone-dp"):
        res = search_structure(name, f, VARIABLES, 1, W=W)
        assert res.score == pytest.approx(best.score)
        assert res.score == pytest.approx(res.structure.score(f))
        assert res.backbone is None


@pytest.mark.parametrize("seed", range(3))
def test_backbone_dp_is_the_brute_force_optimum_under_its_backbone(seed):
    f, W = pair_score(seed)
    for method in ("given", "mst-dfs", "greedy-path"):
        res = search_structure("backbone-dp", f, VARIABLES, 2, backbone=method, W=W)
        assert res.backbone == backbone_order(W, method, variables=VARIABLES)
        ref = brute_force_ktree(f, 2, backbone=list(res.backbone))
        assert res.score == pytest.approx(ref.score)
        assert res.certificate.to_ktree(res.structure.order[:3]) == res.structure


def test_greedy_reaches_its_structure_score_and_refuses_a_backbone():
    f, W = pair_score(0)
    res = search_structure("greedy", f, VARIABLES, 2, W=W)
    assert res.score == pytest.approx(res.structure.score(f))
    assert res.score <= brute_force_ktree(f, 2, variables=VARIABLES).score + 1e-12
    with pytest.raises(ValueError, match=r"^search='greedy' learns without a backbone"):
        search_structure("greedy", f, VARIABLES, 2, backbone="given")


def test_spanning_tree_needs_k1():
    f, W = pair_score(0)
    with pytest.raises(ValueError, match=r"^search='spanning-tree' learns a tree \(k = 1\); got k=2"):
        search_structure("spanning-tree", f, VARIABLES, 2, W=W)


def test_arborescence_searcher_is_registered_and_exact_for_k1():
    f, W = pair_score(0)
    res = search_structure("arborescence", f, VARIABLES, 1)
    assert res.score == pytest.approx(brute_force_ktree(f, 1, variables=VARIABLES).score)
    with pytest.raises(ValueError, match=r"^search='arborescence' learns a tree \(k = 1\); got k=2"):
        search_structure("arborescence", f, VARIABLES, 2)


def test_unknown_and_duplicate_searchers():
    with pytest.raises(ValueError, match=r"Unknown searcher 'bogus'; valid ones are \['arborescence', 'backbone-dp', 'greedy', 'hill-climbing', 'spanning-tree'\]"):
        get_searcher("bogus")
    with pytest.raises(ValueError, match="'greedy' is registered already"):
        register_searcher("greedy", SEARCHERS["greedy"])
    with pytest.raises(TypeError, match="must be callable"):
        register_searcher("broken", 3)


def test_a_registered_searcher_is_used_by_the_classifiers():
    from estimators.ktan import KTANClassifier

    calls = []

    def reverse_dp(f, variables, k, *, backbone=None, W=None):
        calls.append((tuple(variables), k))
        return SEARCHERS["backbone-dp"](f, variables, k, backbone=list(variables)[::-1], W=W)

    register_searcher("reverse-dp", reverse_dp)
    try:
        rng = np.random.default_rng(0)
        y = rng.integers(0, 2, 200)
        X = (rng.random((200, 4)) < 0.3 + 0.4 * y[:, None]).astype(int)
        clf = KTANClassifier(k=2, search="reverse-dp").fit(X, y)
    finally:
        del SEARCHERS["reverse-dp"]
    assert calls == [(("x0", "x1", "x2", "x3"), 2)]
    assert clf.backbone_ == ("x3", "x2", "x1", "x0")


def test_resolve_backbone_names_indices_and_methods():
    _, W = pair_score(1)
    assert resolve_backbone(None, VARIABLES) is None
    assert resolve_backbone([4, "a", 2, "b", 3], VARIABLES) == ("e", "a", "c", "b", "d")
    for method in BACKBONE_METHODS:
        if method != "local-search":
            assert resolve_backbone(method, VARIABLES, W=W) == backbone_order(
                W, method, variables=VARIABLES)
    with pytest.raises(ValueError, match=r"Unknown backbone method 'zigzag'; valid ones are \['given'"):
        resolve_backbone("zigzag", VARIABLES, W=W)
    with pytest.raises(ValueError, match=r"^The backbone misses variable\(s\) \['e'\]"):
        resolve_backbone(["a", "b", "c", "d"], VARIABLES)


def test_check_k_lowers_for_classifiers_with_one_warning_and_raises_for_searchers():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert check_k(7, 4, owner="Demo") == 3
    assert [str(w.message) for w in caught] == [
        "Demo(k=7) needs at least 8 features; X has 4, so k=3 is used."]
    with pytest.raises(ValueError, match=r"k must be an int in \[1, 3\].*got 7"):
        check_k(7, 4)
    with pytest.raises(ValueError, match=r"got 0"):
        check_k(0, 4, owner="Demo")
    with pytest.raises(TypeError, match="k must be an int"):
        check_k(2.0, 4)
