"""Shared base of the GNB-family classifiers (the template of scikit-learn's ``_BaseNB``).

``predict``, ``predict_proba`` and ``predict_log_proba`` are written once over the abstract
``_joint_log_likelihood(X)`` -> ln p(y, x) of shape (n_rows, n_classes); ``_validate_training``
does the input checks every member needs (finite values naming the column, at least two
classes, enough rows per class naming the class).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Hashable

import numpy as np
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from estimators._joint import JointLogLikelihoodClassifier
from estimators._validation import check_finite_columns


class BaseGNB(JointLogLikelihoodClassifier):
    """Common prediction and validation code; subclasses implement ``fit`` and
    ``_joint_log_likelihood``."""

    def _min_rows_per_class(self) -> int:
        return 2

    def _model_label(self) -> str:
        return type(self).__name__

    def feature_names(self) -> list[str]:
        """Variable names of the fitted features (pandas columns, else ``x0, x1, ...``)."""
        if hasattr(self, "feature_names_in_"):
            return [str(c) for c in self.feature_names_in_]
        return [f"x{j}" for j in range(self.n_features_in_)]

    def _target_name(self) -> Hashable:
        names = set(self.feature_names())
        return next(t for t in ("class", "y", "__class__") if t not in names)

    def _validate_training(self, X, y) -> tuple[np.ndarray, np.ndarray]:
        """Validate (X, y); set ``classes_`` and ``class_log_prior_``; return X and class codes."""
        X, y = validate_data(
            self, X, y, dtype=np.float64, ensure_all_finite=False, ensure_min_features=2
        )
        check_finite_columns(X, self.feature_names(), type(self).__name__)
        check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        if self.classes_.size < 2:
            raise ValueError(
                f"{type(self).__name__} needs at least two classes; y has one class only "
                f"({self.classes_[0]!r})."
            )
        counts = np.bincount(codes, minlength=self.classes_.size)
        need = self._min_rows_per_class()
        low = np.flatnonzero(counts < need)
        if low.size:
            c = int(low[0])
            raise ValueError(
                f"Class {self.classes_[c]!r} has {counts[c]} training row(s); {self._model_label()} "
                f"needs at least {need} rows per class."
            )
        self.class_log_prior_ = np.log(counts / counts.sum())
        return X, codes

    def _validate_predict(self, X) -> np.ndarray:
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64, ensure_all_finite=False)
        check_finite_columns(X, self.feature_names(), type(self).__name__)
        return X

    def _joint_log_likelihood(self, X) -> np.ndarray:
        return self._log_joint(self._validate_predict(X))

    @abstractmethod
    def _log_joint(self, X: np.ndarray) -> np.ndarray:
        """``ln p(y, x)`` of already validated rows, shape (n_samples, n_classes)."""

