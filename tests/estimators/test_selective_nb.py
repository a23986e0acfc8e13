"""Selective naive Bayes (forward selection on cross-validated log-loss) and the template's
``feature_selection=``: the greedy path against refitting a NaiveBayesClassifier on every
candidate set, mixed columns with missing cells, and the selection on NB and k-TAN."""

import itertools

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import log_loss
from sklearn.model_selection import StratifiedKFold

from estimators.columns import MixedEncoder
from estimators.ktan import KTANClassifier, NaiveBayesClassifier
from estimators.learning.selective_nb import TOL, selective_nb


def _mixed(seed: int, n: int = 240) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = pd.DataFrame({
        "a": np.where(rng.random(n) < 0.7, y, rng.integers(0, 3, n)).astype(str),
        "b": rng.normal(y * 0.8, 1.0),
        "c": rng.integers(0, 2, n).astype(str),   # noise
        "d": rng.normal(size=n),                  # noise
        "e": rng.normal(y * 0.3, 1.0),
    })
    X.loc[rng.random(n) < 0.1, "b"] = np.nan
    X.loc[rng.random(n) < 0.1, "a"] = None
    return X, y


def _cv_log_loss(X, y, columns, seed=0):
    """Refit a NaiveBayesClassifier on the columns per fold (an independent computation of
    the criterion; the empty set is the class prior with the same smoothing)."""
    folds = StratifiedKFold(5, shuffle=True, random_state=seed)
    losses = np.zeros(len(y))
    for train, test in folds.split(X, y):
        counts = np.bincount(y[train], minlength=3) + 1.0
        if not columns:
            proba = np.tile(counts / counts.sum(), (len(test), 1))
        else:
            nb = NaiveBayesClassifier().fit(X.iloc[train][list(columns)], y[train])
            jll = nb._joint_log_likelihood(nb._check_X(X.iloc[test][list(columns)]))
            jll = jll - nb.class_log_prior_ + np.log(counts / counts.sum())
            proba = np.exp(jll - jll.max(axis=1, keepdims=True))
            proba /= proba.sum(axis=1, keepdims=True)
        losses[test] = -np.log(proba[np.arange(len(test)), y[test]])
    return losses.mean()


@pytest.mark.parametrize("seed", [0, 1])
def test_forward_path_equals_refitting_every_candidate_set(seed):
    X, y = _mixed(seed)
    enc = MixedEncoder().fit_transform(X)
    chosen = selective_nb(enc, y, range(5))
    names = list(X.columns)
    path, best = [], _cv_log_loss(X, y, [])
    while True:  # the greedy rule by brute refits
        rest = [c for c in names if c not in path]
        if not rest:
            break
        losses = [_cv_log_loss(X, y, path + [c]) for c in rest]
        i = int(np.argmin(losses))
        if not losses[i] < best - TOL:
            break
        path, best = path + [rest[i]], losses[i]
    assert [names[j] for j in chosen] == sorted(path, key=names.index)
    assert "a" in path and "b" in path


def test_naive_bayes_on_the_selection_is_naive_bayes_on_its_columns():
    X, y = _mixed(0)
    clf = NaiveBayesClassifier(feature_selection="selective-nb").fit(X, y)
    assert clf.feature_selection_ == "selective-nb"
    alone = NaiveBayesClassifier().fit(X[clf.selected_features_], y)
    np.testing.assert_allclose(clf.predict_proba(X), alone.predict_proba(X[clf.selected_features_]),
                               rtol=1e-12)
    assert NaiveBayesClassifier().fit(X, y).selected_features_ == list(X.columns)
    assert log_loss(y, clf.predict_proba(X)) == pytest.approx(
        log_loss(y, alone.predict_proba(X[clf.selected_features_])))


def test_ktan_takes_selective_nb_through_the_template():
    X, y = _mixed(1)
    clf = KTANClassifier(k=1, feature_selection="selective-nb").fit(X, y)
    enc = MixedEncoder().fit_transform(X)
    expected = [X.columns[j] for j in selective_nb(enc, y, range(5), min_features=2)]
    assert clf.selected_features_ == expected
    assert len(expected) >= 2


def test_selection_keeps_min_features_and_refuses_unknown_names():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    X = rng.normal(size=(200, 3))  # all noise: nothing improves the log-loss by TOL
    enc = MixedEncoder().fit_transform(X)
    assert len(selective_nb(enc, y, range(3), min_features=2)) == 2
    for cols in itertools.combinations(range(3), 1):
        assert set(selective_nb(enc, y, cols, min_features=1)) <= set(cols)
    with pytest.raises(ValueError, match="'feature_selection' parameter of NaiveBayesClassifier"):
        NaiveBayesClassifier(feature_selection="lasso").fit(X, y)
    with pytest.raises(ValueError, match=r"feature_selection='markov-blanket'.*\['x0', 'x1', 'x2'\]"):
        NaiveBayesClassifier(feature_selection="markov-blanket").fit(X, y)


@pytest.mark.parametrize("name", ["AODEClassifier", "KDBClassifier", "BANClassifier"])
def test_every_bnc_member_takes_the_selection(name):
    import estimators.bnc as bnc

    X, y = _mixed(1)
    cls = getattr(bnc, name)
    clf = cls(feature_selection="selective-nb").fit(X, y)
    enc = MixedEncoder().fit_transform(X)
    chosen = [X.columns[j] for j in selective_nb(enc, y, range(5), min_features=cls._min_features)]
    assert clf.feature_selection_ == "selective-nb" and clf.selected_features_ == chosen
    alone = cls().fit(X[chosen], y)
    np.testing.assert_allclose(clf.predict_proba(X), alone.predict_proba(X[chosen]), rtol=1e-9)
