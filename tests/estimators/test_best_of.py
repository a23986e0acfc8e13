"""BestOfClassifier: its choice is the candidate with the lowest mean log-loss of scikit-learn's
own cross-validation on the same shuffled stratified folds, refitted on all rows."""

import numpy as np
import pytest
from sklearn.datasets import load_wine
from sklearn.dummy import DummyClassifier
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from estimators.learning.best_of import BestOfClassifier


@pytest.mark.parametrize("seed", [0, 1])
def test_chooses_the_lowest_inner_log_loss_and_refits(seed):
    X, y = load_wine(return_X_y=True)
    X, y = X[::2], y[::2]
    candidates = [("prior", DummyClassifier()), ("nb", GaussianNB()),
                  ("tree", DecisionTreeClassifier(max_depth=2, random_state=0)),
                  ("knn", KNeighborsClassifier(n_neighbors=15))]
    best = BestOfClassifier(candidates, random_state=seed).fit(X, y)
    folds = StratifiedKFold(5, shuffle=True, random_state=seed)
    losses = {name: -cross_val_score(model, X, y, cv=folds, scoring="neg_log_loss").mean()
              for name, model in candidates}
    np.testing.assert_allclose(best.cv_results_["mean_log_loss"], list(losses.values()))
    assert best.best_name_ == min(losses, key=losses.get)
    refit = dict(candidates)[best.best_name_].fit(X, y)
    np.testing.assert_allclose(best.predict_proba(X), refit.predict_proba(X))


def test_needs_two_candidates():
    with pytest.raises(ValueError, match="at least 2 candidates; got 1"):
        BestOfClassifier([("nb", GaussianNB())]).fit([[0.0], [1.0]], [0, 1])
