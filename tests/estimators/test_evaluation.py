"""Paper 1's evaluation protocol: reproduces cells of the paper's table 5 that BENCHMARKS.md
identified, binary metrics use the given positive class, bad positive label."""

import numpy as np
import pytest
from sklearn.datasets import load_wine
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.preprocessing import minmax_scale

from estimators.evaluation import cross_validated_metrics, split_metrics


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
