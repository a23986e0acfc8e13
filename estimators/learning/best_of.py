"""The best of several classifiers, chosen on the training data alone (the inner loop of a
nested cross-validation): :class:`BestOfClassifier`.

Each candidate is scored by its mean held-out log-loss over a stratified inner
cross-validation of the training rows (the folds and the rule of the models' own ``"auto"``
options, :func:`estimators.learning.model_selection.select_by_cv`); the winner is refitted on all
the training rows. Scored on outer folds it did not choose on, it is an honest estimate of
"pick the best model for this table", not the best of the outer scores.
"""

from __future__ import annotations

from collections.abc import Sequence

from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.utils.validation import check_is_fitted

from estimators.learning.model_selection import select_by_cv

__all__ = ["BestOfClassifier"]


class _Candidate(MetaEstimatorMixin, ClassifierMixin, BaseEstimator):
    """One of ``estimators`` (its index ``choice``), for :func:`select_by_cv`."""

    def __init__(self, estimators=(), choice: int = 0):
        self.estimators = estimators
        self.choice = choice

    def fit(self, X, y):
        self.estimator_ = clone(self.estimators[self.choice][1]).fit(X, y)
        self.classes_ = self.estimator_.classes_
        return self

    def predict_proba(self, X):
        return self.estimator_.predict_proba(X)


class BestOfClassifier(MetaEstimatorMixin, ClassifierMixin, BaseEstimator):
    """The candidate with the lowest inner cross-validated log-loss, refitted.

    Parameters
    ----------
    estimators : sequence of (str, classifier)
        Named candidates with ``predict_proba``.
    random_state : int, default=0
        Seed of the inner folds (the same folds for every candidate).

    Attributes
    ----------
    best_name_ : str
        The chosen candidate.
    best_estimator_ : classifier
        It, fitted on all the training rows.
    cv_results_ : dict
        ``name``, ``mean_log_loss``, ``std_log_loss`` of every candidate and ``n_folds``.

    Examples
    --------
    >>> from sklearn import datasets, dummy, naive_bayes
    >>> X, y = datasets.load_wine(return_X_y=True)
    >>> candidates = [("prior", dummy.DummyClassifier()), ("gnb", naive_bayes.GaussianNB())]
    >>> best = BestOfClassifier(candidates).fit(X, y)
    >>> best.best_name_, best.cv_results_["name"], best.cv_results_["n_folds"]
    ('gnb', ['prior', 'gnb'], 5)
    """

    def __init__(self, estimators: Sequence = (), random_state: int = 0):
        self.estimators = estimators
        self.random_state = random_state

    def fit(self, X, y):
        names = [name for name, _ in self.estimators]
        if len(names) < 2:
            raise ValueError(f"BestOfClassifier needs at least 2 candidates; got {len(names)}.")
        candidates = [{"choice": i} for i in range(len(names))]
        best, table = select_by_cv(_Candidate(list(self.estimators)), X, y, candidates,
                                   random_state=self.random_state)
        self.best_name_ = names[best["choice"]]
        self.best_estimator_ = clone(self.estimators[best["choice"]][1]).fit(X, y)
        self.classes_ = self.best_estimator_.classes_
        self.cv_results_ = {"name": [names[c] for c in table["choice"]],
                            "mean_log_loss": table["mean_log_loss"],
                            "std_log_loss": table["std_log_loss"], "n_folds": table["n_folds"]}
        return self

    def predict_proba(self, X):
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict_proba(X)

    def predict(self, X):
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict(X)
