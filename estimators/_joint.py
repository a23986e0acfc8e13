"""The classifier template of the Naive-Bayes family (scikit-learn's ``_BaseNB`` pattern).

The template owns input validation and prediction; a family writes only
:meth:`~JointLogLikelihoodClassifier._joint_log_likelihood` on validated input (and calls
:meth:`~JointLogLikelihoodClassifier._validate_training` first thing in ``fit``). So the
same bad input gets the same error in every family:

- X is converted in one place, :meth:`~JointLogLikelihoodClassifier._validate_X`, which a
  family parametrises by :meth:`~JointLogLikelihoodClassifier._input_dtype` (``float64``
  for numeric models, ``None`` to keep any values) and ``_min_features``; NaN (unless the
  family's ``allow_nan`` tag is set) and infinity are refused naming the column;
- training needs at least two rows and at least two classes; ``y`` must match X's rows;
- prediction checks the model is fitted and that X has the training features.
"""

from __future__ import annotations

from abc import ABCMeta, abstractmethod

import numpy as np
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from estimators._dask import is_dask
from estimators._validation import check_finite_columns

__all__ = ["JointLogLikelihoodClassifier"]


class JointLogLikelihoodClassifier(ClassifierMixin, BaseEstimator, metaclass=ABCMeta):
    """Base of the GNB, k-GNB, TAN, k-TAN and latent-CNB classifiers: a subclass supplies
    :meth:`_joint_log_likelihood`; validation, prediction, posteriors and their logs are
    written here once."""

    #: the fewest feature columns the family can model
    _min_features: int = 1

    # -- the one place X is converted -------------------------------------------------------
    def _input_dtype(self):
        """The dtype X is converted to: ``np.float64`` (numeric models) or ``None``."""
        return np.float64

    def feature_names(self) -> list[str]:
        """Variable names of the fitted features (pandas columns, else ``x0, x1, ...``)."""
        if hasattr(self, "feature_names_in_"):
            return [str(c) for c in self.feature_names_in_]
        return [f"x{j}" for j in range(self.n_features_in_)]

    def _validate_X(self, X, y=None, *, reset: bool):
        """Validated ``(X, y)`` (``y`` None when predicting): scikit-learn's checks, then
        NaN and infinity refused naming the column."""
        if is_dask(X):  # the families that fit from Dask dispatch before they get here
            raise TypeError(f"{type(self).__name__} cannot be fitted from a Dask collection; "
                            "TANClassifier and GNBClassifier(dependence='gaussian') can. "
                            "Compute a sample into memory for the others.")
        dtype = self._input_dtype()
        kwargs = dict(reset=reset, dtype=dtype, ensure_all_finite=False,
                      ensure_min_features=self._min_features if reset else 1,
                      ensure_min_samples=2 if reset else 1)
        if reset:
            X, y = validate_data(self, X, y, **kwargs)
        else:
            X = validate_data(self, X, **kwargs)
        check_finite_columns(X, self.feature_names(), type(self).__name__,
                             numeric=dtype is not None,
                             allow_nan=self.__sklearn_tags__().input_tags.allow_nan)
        return X, y

    def _validate_training(self, X, y) -> tuple[np.ndarray, np.ndarray]:
        """Validate a training set; set ``classes_``, ``class_count_`` and
        ``class_log_prior_``; return the validated X and the class codes ``0 .. m - 1``."""
        X, y = self._validate_X(X, y, reset=True)
        check_classification_targets(y)
        self.classes_, codes, counts = np.unique(y, return_inverse=True, return_counts=True)
        if self.classes_.size < 2:
            raise ValueError(
                f"{type(self).__name__} needs samples of at least 2 classes in y; got one "
                f"class only ({self.classes_.tolist()[0]!r})."
            )
        self.class_count_ = counts
        self.class_log_prior_ = np.log(counts / counts.sum())
        return X, codes

    def _check_X(self, X) -> np.ndarray:
        """Prediction input: the model must be fitted, X validated with ``reset=False``."""
        check_is_fitted(self)
        return self._validate_X(X, reset=False)[0]

    # -- what a family writes ---------------------------------------------------------------
    @abstractmethod
    def _joint_log_likelihood(self, X: np.ndarray) -> np.ndarray:
        """``ln p(y, x)`` of rows already validated by :meth:`_check_X`, shape
        (n_samples, n_classes), columns in ``classes_`` order."""

    # -- prediction, written once -----------------------------------------------------------
    def predict(self, X) -> np.ndarray:
        """The class with the largest joint log-likelihood ``ln p(y, x)`` for each row."""
        if is_dask(X):  # a Dask collection: mapped over its partitions, lazily
            from estimators.distributed import predict_dask

            return predict_dask(self, X, "predict")
        jll = self._joint_log_likelihood(self._check_X(X))
        return self.classes_[np.argmax(jll, axis=1)]

    def predict_log_proba(self, X) -> np.ndarray:
        """Log posterior ``ln p(y | x)``, shape (n_samples, n_classes)."""
        if is_dask(X):  # a Dask collection: mapped over its partitions, lazily
            from estimators.distributed import predict_dask

            return predict_dask(self, X, "predict_log_proba")
        jll = self._joint_log_likelihood(self._check_X(X))
        return jll - logsumexp(jll, axis=1, keepdims=True)

    def predict_proba(self, X) -> np.ndarray:
        """Posterior ``p(y | x)``: the softmax over classes of ``ln p(y, x)``."""
        if is_dask(X):  # a Dask collection: mapped over its partitions, lazily
            from estimators.distributed import predict_dask

            return predict_dask(self, X, "predict_proba")
        return np.exp(self.predict_log_proba(X))
