"""The Gaussian scores by positions (parent log-determinants shared, values cached) give
the item path's numbers bit for bit, on messy tables too."""

import warnings
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from estimators.learning.structure_learning import SearchedScore
from estimators.scores import GaussianCMI, GaussianCopulaCMI
from estimators.scores._correlation_blocks import gaussian_hyperedge_block, gaussian_pair_block
from estimators.search.backbone_dp import backbone_dp


def all_hyperedges(d: int, j: int):
    P = np.array(list(combinations(range(d), j)), dtype=np.int64).reshape(-1, j)
    V = np.repeat(np.arange(d), len(P))
    P = np.tile(P, (d, 1))
    keep = ~(P == V[:, None]).any(axis=1)
    return V[keep], P[keep]


def row_path(score, V, P) -> np.ndarray:
    """The values of the per-item blocks (eigenvalues; pairs by their own formula)."""
    if P.shape[1] == 1:
        return gaussian_pair_block(score.data_, np.sort(np.column_stack([V, P]), axis=1))
    items = list(zip(V.tolist(), map(tuple, P.tolist()), strict=True))
    return gaussian_hyperedge_block(score.data_, items)


def assert_same(new, old):
    assert np.array_equal(new, old)  # bit for bit (no NaN: the scores never give it)


def messy_table(seed: int, kind: int, n: int, d: int):
    """Random features with, by ``kind``, a copied column, an exact linear combination, a
    nearly collinear column, a column constant in one class, or a class smaller than the
    parent sets."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = rng.normal(size=(n, d)) @ rng.normal(size=(d, d))
    if kind == 1:
        X[:, d - 1] = X[:, 0]
    elif kind == 2:
        X[:, d - 1] = X[:, 0] - 2.0 * X[:, 1]
    elif kind == 3:
        X[:, d - 1] = X[:, 0] + 10.0 ** rng.uniform(-7, -2) * rng.normal(size=n)
    elif kind == 4:
        X[y == 1, d - 1] = 3.0
    elif kind == 5:
        y[:] = 0
        y[:3] = 1
    return X, y


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), kind=st.integers(0, 5), d=st.integers(4, 7),
       copula=st.booleans())
def test_positions_equal_the_eigenvalue_path(seed, kind, d, copula):
    X, y = messy_table(seed, kind, 40, d)
    score = (GaussianCopulaCMI() if copula else GaussianCMI())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # constant in a class, a small class
        score.fit(X, y)
    for j in (1, 2, 3):
        V, P = all_hyperedges(d, j)
        old = row_path(score, V, P)
        assert_same(score.score_positions(V, P), old)
        assert_same(score.score_positions(V[::-1], P[::-1]), old[::-1])  # from the cache


def test_score_many_and_calls_read_the_positions_values():
    X, y = messy_table(5, 0, 80, 5)
    score = GaussianCMI().fit(X, y)
    V, P = all_hyperedges(5, 2)
    vals = score.score_positions(V, P)
    items = [(v, set(p)) for v, p in zip(V.tolist(), P.tolist(), strict=True)]
    assert np.array_equal(score.score_many(items), vals)
    assert score(int(V[3]), P[3].tolist()) == vals[3]
    with pytest.raises(ValueError, match="strictly ascending positions"):
        score.score_positions([0], [[2, 1]])


def test_backbone_dp_by_positions_equals_the_eigenvalue_path():
    X, y = messy_table(7, 3, 120, 8)
    score = GaussianCMI().fit(X, y)

    def eigen(v, parents):  # a plain callable: the DP scores it item by item
        P = np.array([sorted(parents)], dtype=np.int64)
        return float(row_path(score, np.array([v]), P)[0]) if parents else 0.0

    fast, slow = SearchedScore(score), SearchedScore(eigen, range(8))
    order = list(range(8))
    for k in (2, 3):
        a, b = backbone_dp(fast, order, k), backbone_dp(slow, order, k)
        assert a.score == b.score
        assert a.structure == b.structure


def test_dense_and_sorted_caches_give_the_same_values(monkeypatch):
    """Key spaces above DENSE_KEYS are cached under sorted keys: the same numbers."""
    import estimators.scores._positions as positions

    X, y = messy_table(11, 3, 60, 6)
    V, P = all_hyperedges(6, 3)
    dense = GaussianCMI().fit(X, y).score_positions(V, P)
    monkeypatch.setattr(positions, "DENSE_KEYS", 0)
    score = GaussianCMI().fit(X, y)
    assert np.array_equal(score.score_positions(V, P), dense)
    assert np.array_equal(score.score_positions(V[::2], P[::2]), dense[::2])
    assert all(isinstance(k, int) or k[0] == "parents" for k in score._position_cache)
    assert score._position_cache[3][0].dtype == np.int64  # sorted keys, not a dense mask
