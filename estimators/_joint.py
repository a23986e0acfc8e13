"""The classifier template of the Naive-Bayes family: ``predict*`` written once over the
joint log-likelihood ``ln p(y, x)`` (scikit-learn's ``_BaseNB`` pattern)."""

from __future__ import annotations

from abc import ABCMeta, abstractmethod

import numpy as np
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin

__all__ = ["JointLogLikelihoodClassifier"]


class JointLogLikelihoodClassifier(ClassifierMixin, BaseEstimator, metaclass=ABCMeta):
    """Base of the GNB, k-TAN and latent-CNB classifiers: a subclass supplies
    :meth:`_joint_log_likelihood`; prediction, posteriors and their logs follow from it."""

    @abstractmethod
    def _joint_log_likelihood(self, X) -> np.ndarray:
        """Check the model is fitted, validate ``X`` (``reset=False``) and return
        ``ln p(y, x)`` of shape (n_samples, n_classes), columns in ``classes_`` order."""

    def predict(self, X) -> np.ndarray:
        """The class with the largest joint log-likelihood ``ln p(y, x)`` for each row."""
        jll = self._joint_log_likelihood(X)  # first: it raises NotFittedError before fit
        return self.classes_[np.argmax(jll, axis=1)]

    def predict_log_proba(self, X) -> np.ndarray:
        """Log posterior ``ln p(y | x)``, shape (n_samples, n_classes)."""
        jll = self._joint_log_likelihood(X)
        return jll - logsumexp(jll, axis=1, keepdims=True)

    def predict_proba(self, X) -> np.ndarray:
        """Posterior ``p(y | x)``: the softmax over classes of ``ln p(y, x)``."""
        return np.exp(self.predict_log_proba(X))
