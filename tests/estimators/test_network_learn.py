"""estimators.learning.structure_learning: one structure learning, one policy for scores a search cannot use.

Values are checked against brute force over every structure (small d): with ineligible
hyperedges (-inf) the optimum is the best structure avoiding them whenever one exists; when
none does, the search still returns a structure and names the ineligible hyperedges it uses.
Undefined scores are recognised by their type (UndefinedScoreError), never by message text.
"""

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from estimators.base.validation import UndefinedScoreError
from estimators.gnb import KGNBClassifier
from estimators.learning.structure_learning import (
    INELIGIBLE,
    PERFECT,
    Constraints,
    SearchedScore,
    learn_structure,
)
from estimators.scores import GaussianCMI
from estimators.search import brute_force_ktree
from estimators.search._common import score_values


def matrix_score(W: np.ndarray):
    """f(v, P) = sum of W[p, v] over the parents (a decomposable score from pair weights)."""
    def f(v, parents):
        return float(sum(W[p, v] for p in parents))
    f.variables_ = list(range(len(W)))
    return f


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), d=st.integers(3, 5), k=st.integers(1, 2),
       holes=st.floats(0.0, 0.5), search=st.sampled_from(["backbone-dp", "greedy"]))
def test_with_ineligible_hyperedges_the_optimum_avoids_them(seed, d, k, holes, search):
    """The exact searcher under the policy equals brute force over the structures made of
    eligible hyperedges only (when there is one); the heuristic never picks an ineligible
    hyperedge when the brute-force optimum avoids them all and it could too."""
    if k >= d:
        k = d - 1
    rng = np.random.default_rng(seed)
    W = rng.uniform(0.0, 1.0, (d, d))
    W = (W + W.T) / 2
    W[rng.random((d, d)) < holes] = -np.inf
    W = np.minimum(W, W.T)  # symmetric: a hole in one direction is a hole in both
    np.fill_diagonal(W, 0.0)
    f = matrix_score(W)
    best = brute_force_ktree(f, k, variables=list(range(d)))
    backbone = "given" if search == "backbone-dp" and k > 1 else None
    fit = learn_structure(f, search, Constraints(k=k, backbone=backbone))
    if search == "backbone-dp":  # exact: the spanning tree (k = 1), the DP under the backbone
        exact = best if k == 1 else brute_force_ktree(f, k, backbone=list(range(d)))
        assert fit.search == ("spanning-tree" if k == 1 else "backbone-dp")
        if np.isfinite(exact.score):
            assert fit.score == pytest.approx(exact.score, abs=1e-12)
            assert fit.ineligible == ()
    if np.isfinite(fit.score):
        assert fit.ineligible == ()
        assert fit.score <= best.score + 1e-12
    else:  # every structure it could find uses an ineligible hyperedge: they are named
        assert fit.ineligible
        assert all(f(v, fit.structure.parents(v)) == -np.inf for v in fit.ineligible)


def test_without_any_eligible_tree_the_one_with_fewest_ineligible_arcs_is_returned():
    W = np.full((4, 4), -np.inf)
    W[0, 1] = W[1, 0] = 0.5
    W[1, 2] = W[2, 1] = 0.2
    np.fill_diagonal(W, 0.0)  # vertex 3 has no eligible partner
    fit = learn_structure(matrix_score(W), "spanning-tree", Constraints(k=1))
    assert len(fit.ineligible) == 1 and fit.score == -np.inf
    edges = {frozenset((v, p)) for v in fit.structure.order for p in fit.structure.parents(v)}
    assert {frozenset((0, 1)), frozenset((1, 2))} <= edges


def test_the_policy_maps_ineligible_undefined_and_perfect_values():
    def f(v, parents):
        parents = set(parents)
        if parents == {1, 2}:
            raise UndefinedScoreError("collinear parents")
        return {frozenset(): 0.0, frozenset({1}): np.inf, frozenset({2}): -np.inf}.get(
            frozenset(parents), 0.25)

    g = SearchedScore(f, [0, 1, 2])
    assert g(0, {1}) == PERFECT and g(0, {2}) == INELIGIBLE and g(0, {1, 2}) == INELIGIBLE
    assert g(0, set()) == 0.0 and g(1, {0}) == 0.25
    assert g.score_many([(0, {1}), (0, {1, 2}), (1, {0})]).tolist() == [PERFECT, INELIGIBLE,
                                                                         0.25]
    W = g.edge_matrix()
    assert W[1, 0] == PERFECT and W[2, 0] == INELIGIBLE and W[0, 1] == 0.25


def test_a_matrix_with_an_undefined_pair_is_scored_pair_by_pair():
    class Score:
        variables_ = ["a", "b", "c"]

        def __call__(self, v, parents):
            if set(parents) | {v} == {"a", "b"}:
                raise UndefinedScoreError("undefined")
            return 1.0 if parents else 0.0

        def edge_matrix(self):
            raise UndefinedScoreError("an undefined pair")

    W = SearchedScore(Score()).edge_matrix()
    assert W[0, 1] == W[1, 0] == INELIGIBLE and W[0, 2] == W[2, 1] == 1.0
    fit = learn_structure(Score(), "spanning-tree", Constraints(k=1))
    edges = {frozenset((v, p)) for v in fit.structure.order for p in fit.structure.parents(v)}
    assert edges == {frozenset("ac"), frozenset("bc")} and fit.score == 2.0


def test_a_nan_is_a_typed_error_naming_the_hyperedge():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(40, 3)), np.repeat([0, 1], 20)
    score = GaussianCMI().fit(X, y)
    score.data_.R[0, 0, 1] = score.data_.R[0, 1, 0] = np.nan  # an undefined correlation
    with pytest.raises(UndefinedScoreError, match=r"score of variable .* is NaN"):
        score(0, frozenset({1}))
    with pytest.raises(UndefinedScoreError, match=r"returned NaN for v='a' with parents=\['b'\]"):
        score_values(lambda v, p: np.nan, [("a", frozenset({"b"}))])
    assert issubclass(UndefinedScoreError, ValueError)


def test_kgnb_with_a_copied_column_learns_through_the_policy():
    """An exact copy makes pair scores +inf (searched at PERFECT) and hyperedges holding
    the original and its copy as parents collinear; the fit still succeeds, keeps the copy
    next to its original, and reports the raw pair scores."""
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1], 60)
    X = rng.normal(size=(120, 4)) + y[:, None]
    X = np.column_stack([X, X[:, 0]])
    clf = KGNBClassifier(order=4).fit(X, y)
    tree = clf.structure_
    assert "x0" in tree.parents("x4") or "x4" in tree.parents("x0")
    assert clf.edge_scores_[0, 4] == np.inf and clf.weight_ == np.inf  # the raw scores
    for i, j in combinations(range(5), 2):
        assert clf.edge_scores_[i, j] == clf.edge_scores_[j, i]
