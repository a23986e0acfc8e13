"""Behaviour shared by every score: fitting, naming, caching, edge matrix, bad input."""

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import NotFittedError

from estimators.base.validation import DegenerateFeatureWarning

from .conftest import data_for, make


def test_not_fitted(kind):
    score = make(kind)
    for call in (lambda: score.score(0, {1}), score.edge_matrix, lambda: score.score_many([])):
        with pytest.raises(NotFittedError, match="not fitted yet"):
            call()


def test_fit_returns_self_and_names(kind):
    X, y = data_for(kind)
    score = make(kind)
    assert score.fit(X, y) is score
    assert score.variables_ == list(X.columns)
    assert score.classes_.tolist() == ["neg", "pos"]
    np.testing.assert_allclose(score.class_prior_, pd.Series(y).value_counts(normalize=True).sort_index())
    assert score.n_features_in_ == 5


def test_edge_matrix_matches_pair_scores(kind):
    X, y = data_for(kind)
    score = make(kind).fit(X, y)
    W = score.edge_matrix()
    assert W.shape == (5, 5)
    np.testing.assert_array_equal(W, W.T)
    np.testing.assert_array_equal(np.diag(W), 0.0)
    names = score.variables_
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i != j:
                assert score(a, {b}) == W[i, j]
    # neighbours in the chain carry more information than the ends of the chain
    assert W[0, 1] > W[0, 4] and W[2, 3] > 0.05


def test_score_many_cache_and_empty_parents(kind):
    X, y = data_for(kind)
    score = make(kind).fit(X, y)
    items = [("x0", ["x1"]), ("x3", ()), ("x1", frozenset({"x0"})), ("x2", ("x4",))]
    vals = score.score_many(items)
    assert vals[1] == 0.0 and vals[0] == vals[2]
    assert [score(v, p) for v, p in items] == vals.tolist()
    assert score.score("x3", set()) == 0.0


def test_unknown_variable_and_self_parent(kind):
    X, y = data_for(kind)
    score = make(kind).fit(X, y)
    with pytest.raises(ValueError, match=r"unknown variable 'nope'.*\['x0', 'x1'"):
        score("x0", {"nope"})
    with pytest.raises(ValueError, match="'x2' cannot be its own parent"):
        score("x2", {"x2"})


def test_within_class_constant_feature_warns_and_class_adds_nothing(kind):
    X, y = data_for(kind, n=600)
    X.loc[y == "pos", "x2"] = X.loc[y == "pos", "x2"].iloc[0]
    with pytest.warns(DegenerateFeatureWarning, match=r"\['x2'\] constant within class 'pos'"):
        score = make(kind).fit(X, y)
    base = score("x1", {"x2"})
    assert np.isfinite(base) and base > 0
    # the 'pos' class contributes nothing: changing x1 there leaves the score as it was
    X2 = X.copy()
    X2.loc[y == "pos", "x1"] = np.random.default_rng(5).permutation(X2.loc[y == "pos", "x1"])
    with pytest.warns(DegenerateFeatureWarning):
        other = make(kind).fit(X2, y)
    assert other("x1", {"x2"}) == pytest.approx(base, abs=1e-12)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_nonfinite_column_named(kind, bad):
    X, y = data_for(kind)
    X = X.astype(float)
    X.loc[3, "x3"] = bad
    msg = r"column 'x3'"
    with pytest.raises(ValueError, match=msg):
        make(kind).fit(X, y)


def test_constant_column_one_class_and_length(kind):
    X, y = data_for(kind)
    flat = X.assign(x4=X["x4"].iloc[0])
    with pytest.raises(ValueError, match=r"\['x4'\] of X are constant"):
        make(kind).fit(flat, y)
    with pytest.raises(ValueError, match="at least 2 classes"):
        make(kind).fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="y has 399 labels but X has 400 rows"):
        make(kind).fit(X, y[:-1])


def test_bad_n_jobs(kind):
    X, y = data_for(kind)
    with pytest.raises(ValueError, match="The 'n_jobs' parameter of .* must be an instance of 'int' or None. Got 'all'"):
        make(kind, n_jobs="all").fit(X, y)
