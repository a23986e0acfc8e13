"""Sparse candidate parents: forbidden hyperedges are never scored, and the candidate greedy
equals the dense greedy on the restricted score."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from estimators.ktan import KTANClassifier
from estimators.scores import GaussianCMI
from estimators.search import backbone_dp, backbone_order, greedy_ktree
from estimators.search.backbone_dp import check_dp_size
from estimators.search.candidates import (
    CandidateScore,
    greedy_ktree_candidates,
    top_candidates,
)


class Counting:
    """A score that records every hyperedge it is asked for."""

    def __init__(self, f):
        self.f, self.seen = f, []
        self.variables_ = f.variables_

    def __call__(self, v, ps):
        self.seen.append((v, frozenset(ps)))
        return self.f(v, ps)


def tree_data():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 400)
    X = rng.standard_normal((400, 12))
    for j in range(1, 12):
        X[:, j] += (0.3 + 0.6 * y) * X[:, rng.integers(0, j)]
    return X, y


@pytest.fixture(scope="module")
def gaussian_score():
    return GaussianCMI().fit(*tree_data())


def test_top_candidates_are_the_m_best_symmetrised_with_ties_by_order():
    W = np.array([[0, 1, 1, 1], [1, 0, 2, 0], [1, 2, 0, 0], [1, 0, 0, 0]], float)
    c = top_candidates(W, 1, "abcd")
    # a: tie among b, c, d -> b; b <-> c; d -> a (so a gets d too)
    assert c == {"a": {"b", "d"}, "b": {"a", "c"}, "c": {"b"}, "d": {"a"}}
    assert top_candidates(W, 1, "abcd", [("c", "d")])["d"] == {"a", "c"}
    with pytest.raises(ValueError, match="number of candidates m must be an int >= 1; got 0"):
        top_candidates(W, 0, "abcd")


@pytest.mark.parametrize(("k", "m"), [(1, 2), (2, 4), (2, 5), (3, 6)])
def test_candidate_greedy_equals_dense_greedy_and_scores_only_candidates(gaussian_score, k, m):
    cands = top_candidates(gaussian_score.edge_matrix(), m, gaussian_score.variables_)
    counted = Counting(gaussian_score)
    res = greedy_ktree_candidates(CandidateScore(counted, cands), k)
    assert all(ps <= cands[v] for v, ps in counted.seen)
    assert res.n_scored == len(counted.seen)
    assert res.forced == 0
    dense = greedy_ktree(lambda v, ps: gaussian_score(v, ps) if ps <= cands[v] else -np.inf, k,
                         variables=gaussian_score.variables_)
    assert res.structure == dense.structure
    assert res.score == pytest.approx(dense.score)
    assert res.score == pytest.approx(res.structure.score(gaussian_score))
    assert greedy_ktree(CandidateScore(gaussian_score, cands), k).structure == res.structure


def test_disconnected_candidates_force_an_unrestricted_attachment():
    f = lambda v, ps: -float(sum(abs(v - p) for p in ps))  # noqa: E731
    cands = {v: frozenset(u for u in range(6) if u != v and u // 3 == v // 3) for v in range(6)}
    res = greedy_ktree_candidates(CandidateScore(f, cands), 1, variables=range(6))
    assert res.forced == 1
    assert res.structure.skeleton() == {frozenset((i, i + 1)) for i in range(5)}
    assert res.score == -5.0


def test_backbone_dp_under_candidates_equals_restricted_dp_and_skips_the_rest(gaussian_score):
    names = gaussian_score.variables_
    W = gaussian_score.edge_matrix()
    cands = top_candidates(W, 7, names)
    names = list(backbone_order(W, "mst-dfs", variables=names))
    counted = Counting(gaussian_score)
    res = backbone_dp(CandidateScore(counted, cands), names, 2)
    ref = backbone_dp(lambda v, ps: gaussian_score(v, ps) if ps <= cands[v] else -np.inf,
                      names, 2, variables=names)
    assert res.structure == ref.structure and res.score == pytest.approx(ref.score)
    assert all(ps <= cands[v] for v, ps in counted.seen)
    full = backbone_dp(gaussian_score, names, 2)
    assert full.score >= res.score


def test_dp_refuses_what_it_cannot_finish_in_one_line():
    check_dp_size(247, 2)
    with pytest.raises(ValueError, match=r"k=2 on 300 variables needs 7\.1e\+07 table cells") as e:
        check_dp_size(300, 2)
    assert "\n" not in str(e.value) and "search='greedy'" in str(e.value)
    X = np.zeros((4, 300))
    X[:2] = 1.0
    with pytest.raises(ValueError, match="candidates=m"):
        KTANClassifier(k=2, features="gaussian").fit(X + np.arange(1200).reshape(4, 300) ** 0.5,
                                                     [0, 0, 1, 1])


def test_ktan_candidates_parameter(gaussian_score):
    X, y = tree_data()
    clf = KTANClassifier(k=2, search="greedy", features="gaussian", candidates=4).fit(X, y)
    assert all(clf.structure_.parents(v) <= clf.candidates_[v] for v in clf.structure_.order)
    assert KTANClassifier(k=2, features="gaussian").fit(X, y).candidates_ is None
    with pytest.raises(ValueError, match="'candidates' parameter of KTANClassifier must be"):
        KTANClassifier(candidates=0).fit(X, y)


@pytest.mark.parametrize("search", ["greedy", "backbone-dp"])
def test_kgnb_candidates_parameter_restricts_parents_and_matches_restricted_search(search):
    import pandas as pd

    from estimators import KGNBClassifier
    from estimators.search import canonical_order, search_structure
    from estimators.search.candidates import restrict_search

    X, y = tree_data()
    X = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])
    clf = KGNBClassifier(order=4, search=search, candidates=6).fit(X, y)
    assert all(clf.structure_.parents(v) <= clf.candidates_[v] for v in clf.structure_.order)
    score = GaussianCMI().fit(X, y)
    names = canonical_order(X.columns)  # the classifiers search in the names' order
    perm = [list(X.columns).index(v) for v in names]
    W = score.edge_matrix()[np.ix_(perm, perm)]
    f, backbone, cands = restrict_search(score, W, 6, names, k=2, search=search,
                                         backbone=None)
    ref = search_structure(search, f, names, 2, backbone=backbone, W=W)
    assert cands == clf.candidates_
    # orientations of one skeleton tie exactly (score equivalence): the classifier breaks
    # such ties on snapped scores (estimators.search.ties), so compare skeleton and score
    assert {frozenset(e) for e in ref.structure.edges} == \
        {frozenset(e) for e in clf.structure_.edges}
    assert ref.structure.score(score) == pytest.approx(clf.structure_.score(score), rel=1e-9)
    assert KGNBClassifier(order=4, search=search).fit(X, y).candidates_ is None


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(5, 9), st.integers(1, 3), st.integers(2, 3))
def test_backbone_dp_under_candidates_is_always_feasible(seed, d, m, k):
    """With the backbone pairs at most k apart among the candidates, the k-th power of the
    backbone path is allowed, so the DP finds a structure whatever m (it failed with
    "no feasible structure" when only the backbone edges were added)."""
    from estimators.search.candidates import restrict_search

    rng = np.random.default_rng(seed)
    W = rng.random((d, d))
    W = W + W.T
    names = list(range(d))
    f = lambda v, ps: float(sum(W[v, p] for p in ps))  # noqa: E731
    g, order, cands = restrict_search(f, W, m, names, k=k, search="backbone-dp",
                                      backbone="mst-dfs")
    for i, v in enumerate(order):  # the path power: each vertex with its k predecessors
        assert frozenset(order[max(0, i - k):i]) <= cands[v]
    res = backbone_dp(g, order, k)
    assert np.isfinite(res.score)
    assert all(res.structure.parents(v) <= cands[v] for v in order)


def test_candidates_with_the_backbone_dp_fit_helpmiss():
    """The table where ``--candidates 5`` stopped the DP ("Every backbone k-tree scores
    -inf"): it now fits, and every parent set is within the candidates."""
    from estimators.datasets import load_dataset
    from estimators.ktan import KTANClassifier

    X, y = load_dataset("helpmiss")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = KTANClassifier(k=3, candidates=5).fit(X, y)
    assert np.isfinite(clf.score_)
    s = clf.structure_
    assert all(frozenset(s.parents(v)) <= clf.candidates_[v] for v in s.order)
    np.testing.assert_allclose(clf.predict_proba(X.iloc[:20]).sum(axis=1), 1.0)
