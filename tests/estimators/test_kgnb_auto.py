"""KGNBClassifier(order="auto"): the order chosen by inner cross-validated log-loss."""

import numpy as np
import pytest
from sklearn.datasets import load_wine
from sklearn.metrics import log_loss
from sklearn.model_selection import StratifiedKFold

from estimators.gnb import KGNBClassifier


def test_kgnb_auto_order_equals_a_manual_cross_validation():
    X, y = load_wine(return_X_y=True)
    X = X[:, :6]
    clf = KGNBClassifier(order="auto").fit(X, y)
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    for row, order in enumerate(clf.cv_results_["order"]):
        losses = [log_loss(y[te], KGNBClassifier(order=order).fit(X[tr], y[tr]).predict_proba(X[te]),
                           labels=np.unique(y)) for tr, te in folds.split(X, y)]
        assert clf.cv_results_["mean_log_loss"][row] == pytest.approx(np.mean(losses), rel=1e-10)
    assert clf.cv_results_["order"] == [3, 4, 5]
    assert clf.order_ == clf.cv_results_["order"][int(np.argmin(clf.cv_results_["mean_log_loss"]))]
    assert clf.structure_.k == clf.order_ - 2
    assert KGNBClassifier(order=4).fit(X, y).cv_results_ is None


def test_kgnb_bad_order_list():
    X, y = np.random.default_rng(0).normal(size=(40, 3)), np.repeat([0, 1], 20)
    with pytest.raises(ValueError, match=r"'order' parameter of KGNBClassifier must be .*Got \[2, 4\]"):
        KGNBClassifier(order=[2, 4]).fit(X, y)
