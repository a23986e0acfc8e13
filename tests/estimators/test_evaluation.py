"""Paper 1's evaluation protocol: reproduces cells of the paper's table 5 that BENCHMARKS.md
identified, binary metrics use the given positive class, bad positive label."""

import numpy as np
import pytest
from sklearn.datasets import load_wine
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.preprocessing import minmax_scale

from estimators.learning.evaluation import cross_validated_metrics, split_metrics


def test_reproduces_the_papers_wine_baselines():
    X, y = load_wine(return_X_y=True)
    X = minmax_scale(X)
    assert cross_validated_metrics(GaussianNB(), X, y)["f1"] == pytest.approx(0.9926, abs=1e-3)
    lr = cross_validated_metrics(LogisticRegression(C=1000), X, y)
    assert lr["f1"] == pytest.approx(0.9740, abs=1e-3)


def test_binary_metrics_use_the_positive_class():
    y_true = np.array(["M", "M", "M", "R", "R"])
    y_pred = np.array(["M", "R", "M", "M", "R"])
    m = split_metrics(y_true, y_pred, positive="R")
    assert m["precision_binary"] == pytest.approx(1 / 2)  # one of two predicted R is right
    assert m["recall_binary"] == pytest.approx(1 / 2)
    m = split_metrics(y_true, y_pred, positive="M")
    assert m["precision_binary"] == pytest.approx(2 / 3)
    assert m["recall_binary"] == pytest.approx(2 / 3)
    assert "f1_binary" not in split_metrics(y_true, y_pred)


def test_unknown_positive_label():
    X, y = load_wine(return_X_y=True)
    with pytest.raises(ValueError, match="positive=7 is not a class of y"):
        cross_validated_metrics(GaussianNB(), X, y, positive=7)


def _brute_metrics(y, proba, classes):
    """The same metrics from their definitions, without scikit-learn."""
    y = np.asarray(y)
    onehot = (y[:, None] == np.asarray(classes)[None, :]).astype(float)
    pred = np.asarray(classes)[proba.argmax(1)]
    recalls = [np.mean(pred[y == c] == c) for c in classes if np.any(y == c)]

    def auc(score, positive):
        pos, neg = score[positive], score[~positive]
        wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
        return wins / (pos.size * neg.size)

    aucs = [auc(proba[:, k], y == c) for k, c in enumerate(classes) if 0 < np.sum(y == c) < y.size]
    return {"accuracy": np.mean(pred == y), "balanced_accuracy": np.mean(recalls),
            "log_loss": -np.mean(np.log(np.clip((proba * onehot).sum(1), 1e-15, None))),
            "brier": np.mean(((proba - onehot) ** 2).sum(1)), "roc_auc_ovr": np.mean(aucs)}


@pytest.mark.parametrize("absent", [False, True])
def test_classification_metrics_match_their_definitions(absent):
    from estimators.learning.evaluation import classification_metrics

    rng = np.random.default_rng(0)
    classes = np.array(["a", "b", "c"])
    y = rng.choice(classes[:2] if absent else classes, size=40)
    proba = rng.dirichlet(np.ones(3), size=40)
    got = classification_metrics(y, proba, classes)
    for name, value in _brute_metrics(y, proba, classes).items():
        assert got[name] == pytest.approx(value, abs=1e-12), name
    if not absent:
        from sklearn.metrics import roc_auc_score

        assert got["roc_auc_ovr"] == pytest.approx(
            roc_auc_score(y, proba, multi_class="ovr", labels=classes))


def test_fold_metrics_with_a_class_absent_from_folds_and_in_parallel():
    from estimators.learning.evaluation import fold_metrics, summarise

    X, y = load_wine(return_X_y=True)
    X, y = np.vstack([X, X[:2]]), np.concatenate([y, [3, 3]])  # class 3: only two rows
    folds = fold_metrics(GaussianNB(), X, y, n_splits=3, random_state=0)
    assert len(folds) == 3 and np.isfinite(folds.to_numpy()).all()
    parallel = fold_metrics(GaussianNB(), X, y, n_splits=3, random_state=0, n_jobs=2)
    assert np.allclose(parallel.to_numpy(), folds.to_numpy())
    summary = summarise(folds)
    assert summary["log_loss"]["mean"] == pytest.approx(folds["log_loss"].mean())
    assert set(summary) == {"accuracy", "balanced_accuracy", "f1_macro", "f1_weighted",
                            "log_loss", "brier", "roc_auc_ovr"}


@pytest.mark.parametrize("n_jobs, expected", [(None, True), (1, True), (2, False)])
def test_parallel_folds_switch_the_models_own_bars_off(monkeypatch, n_jobs, expected):
    """Bars of folds fitted side by side in worker processes would overwrite each other."""
    import estimators.learning.evaluation as evaluation
    from estimators.ktan import TANClassifier

    seen = {}

    def fake_cross_validate(model, *args, **kwargs):
        seen["verbose"] = model.verbose
        return {"test_accuracy": np.array([1.0])}

    monkeypatch.setattr(evaluation, "cross_validate", fake_cross_validate)
    X, y = load_wine(return_X_y=True)
    model = TANClassifier(verbose=True)
    evaluation.fold_metrics(model, X, y, n_splits=2, n_jobs=n_jobs)
    assert seen["verbose"] is expected and model.verbose is True  # the caller's is kept


def test_a_class_absent_from_a_part_gives_no_sklearn_warning():
    import warnings

    from estimators.learning.evaluation import classification_metrics

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = classification_metrics(["a", "a", "b"], [[0.9, 0.1, 0.0], [0.1, 0.2, 0.7],
                                                     [0.2, 0.7, 0.1]], ["a", "b", "c"])
    # recalls over the classes present: a 1/2, b 1/1
    assert m["balanced_accuracy"] == 0.75


def test_a_part_holding_one_class_gives_no_sklearn_warning():
    """A test fold of a tiny table may hold one class only (and the model predict it)."""
    import warnings

    from sklearn.metrics import balanced_accuracy_score

    from estimators.learning.evaluation import classification_metrics

    y, proba = ["a", "a"], [[0.9, 0.1], [0.3, 0.7]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = classification_metrics(y, proba, ["a", "b"])
        all_a = classification_metrics(y, [[0.9, 0.1], [0.8, 0.2]], ["a", "b"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert m["balanced_accuracy"] == balanced_accuracy_score(y, ["a", "b"]) == 0.5
        assert all_a["balanced_accuracy"] == balanced_accuracy_score(y, ["a", "a"]) == 1.0
