"""The benchmark helpers behind real_tables.md and the leaderboard: MixedNB against
scikit-learn's naive Bayes and a hand-made product, NestedBest against its inner CV written
out, and the code-version cache."""

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.dummy import DummyClassifier
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import CategoricalNB, GaussianNB
from sklearn.preprocessing import OrdinalEncoder

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import _tables  # noqa: E402
from _baselines import MixedNB  # noqa: E402
from _models import SAME_AS, NestedBest, kgraph_classifiers  # noqa: E402

from estimators.datasets import load_dataset  # noqa: E402


def test_mixed_nb_is_categorical_nb_on_categorical_and_gaussian_nb_on_continuous():
    X, y = load_dataset("car")
    codes = OrdinalEncoder().fit_transform(X.astype(str))
    np.testing.assert_allclose(MixedNB().fit(X, y).predict_proba(X),
                               CategoricalNB().fit(codes, y).predict_proba(codes), atol=1e-12)
    X, y = load_dataset("wine")
    np.testing.assert_allclose(MixedNB().fit(X, y).predict_proba(X),
                               GaussianNB().fit(X, y).predict_proba(X), atol=1e-12)


def test_mixed_nb_multiplies_the_two_and_skips_unseen_categories():
    rng = np.random.default_rng(0)
    n = 200
    y = rng.integers(0, 2, n)
    X = pd.DataFrame({"c": np.where(rng.random(n) < 0.3 + 0.4 * y, "a", "b"),
                      "x": rng.normal(size=n) + y})
    model = MixedNB().fit(X, y)
    new = pd.DataFrame({"c": ["a", "zzz"], "x": [0.5, 0.5]})
    g = GaussianNB().fit(X[["x"]], y)
    gauss = g.predict_joint_log_proba(new[["x"]]) - np.log(g.class_prior_)
    counts = pd.crosstab(y, X["c"]).to_numpy()
    cat = np.log((counts[:, 0] + 1) / (counts.sum(axis=1) + 2))  # p(c = a | y), alpha = 1
    prior = np.log(np.bincount(y) / n)
    expected = np.vstack([prior + gauss[0] + cat, prior + gauss[1]])  # unseen: left out
    expected = np.exp(expected - expected.max(axis=1, keepdims=True))
    np.testing.assert_allclose(model.predict_proba(new),
                               expected / expected.sum(axis=1, keepdims=True), atol=1e-12)


def test_nested_best_chooses_by_inner_cv_on_the_training_rows_only():
    X, y = load_dataset("wine")
    candidates = {"prior": DummyClassifier(), "nb": GaussianNB(),
                  "nb again": GaussianNB()}
    train = np.arange(0, len(y), 2)
    best = NestedBest(candidates, inner_folds=3, random_state=1).fit(X.iloc[train], y.iloc[train])
    Xt, yt = X.iloc[train].reset_index(drop=True), y.iloc[train].reset_index(drop=True)
    folds = StratifiedKFold(3, shuffle=True, random_state=1).split(Xt, yt)
    inner = {k: [] for k in candidates}
    for a, b in folds:
        for k, model in candidates.items():
            inner[k].append(model.fit(Xt.iloc[a], yt.iloc[a]).score(Xt.iloc[b], yt.iloc[b]))
    assert best.inner_scores_ == pytest.approx({k: np.mean(v) for k, v in inner.items()})
    assert best.chosen_ == "nb"  # ties: the earlier candidate
    np.testing.assert_allclose(best.predict_proba(X),
                               GaussianNB().fit(Xt, yt).predict_proba(X))


def test_registry_holds_every_exported_classifier_and_command_line_model():
    from sklearn.base import ClassifierMixin

    import estimators
    from viz.cli.learn import MODELS

    board = kgraph_classifiers()
    assert set(MODELS) <= set(board)
    exported = {getattr(estimators, n) for n in estimators.__all__}
    exported = {c for c in exported if isinstance(c, type) and issubclass(c, ClassifierMixin)}
    assert {c for c in exported if c.__name__ not in SAME_AS} <= {type(m) for m in board.values()}
    # a left-out class is a duplicate of a board row: the same predictions
    X, y = load_dataset("votes")
    for name in SAME_AS:
        left_out = getattr(estimators, name)().fit(X, y)
        twin = next(m for m in board.values() if isinstance(m, type(left_out)))
        assert np.allclose(left_out.predict_proba(X), clone(twin).fit(X, y).predict_proba(X))


def test_cache_refuses_results_of_another_code_version(tmp_path):
    calls = []
    entry = _tables.cached(tmp_path, "t", lambda: calls.append(1) or {"acc": 1.0})
    again = _tables.cached(tmp_path, "t", lambda: calls.append(1) or {"acc": 2.0})
    assert calls == [1] and again == entry and entry["code_version"] == _tables.version()
    assert _tables.one_version([entry, again]) == _tables.version()
    other = _tables.cached(tmp_path, "t", lambda: {"acc": 3.0}, code="0ld")
    assert other["result"] == {"acc": 3.0}  # another version is another key
    with pytest.raises(RuntimeError, match="refusing to report results of code versions"):
        _tables.one_version([entry, other])


def test_code_version_covers_the_helper_files():
    from _common import code_version

    assert code_version() != code_version(("benchmarks/_tables.py",))
    assert code_version() == code_version()
