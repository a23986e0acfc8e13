"""Shared base of the GNB-family classifiers over :class:`JointLogLikelihoodClassifier`.

The template validates input and writes ``predict*``; this base adds what GNB and k-GNB
share: numeric input with at least two features, enough rows per class (naming the class),
and the class vertex's name.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np

from estimators._joint import JointLogLikelihoodClassifier


class BaseGNB(JointLogLikelihoodClassifier):
    """Common validation of the GNB family; subclasses implement ``fit`` and
    ``_joint_log_likelihood``."""

    _min_features = 2

    def _min_rows_per_class(self) -> int:
        return 2

    def _model_label(self) -> str:
        return type(self).__name__

    def _target_name(self) -> Hashable:
        names = set(self.feature_names())
        return next(t for t in ("class", "y", "__class__") if t not in names)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False  # missing cells: not yet modelled by this family
        return tags

    def _validate_training(self, X, y) -> tuple[np.ndarray, np.ndarray]:
        """The template's training validation (numeric columns only, as floats), then
        enough rows in every class."""
        enc, codes = super()._validate_training(X, y)
        X = self._decoded(enc, numeric=True)
        need = self._min_rows_per_class()
        low = np.flatnonzero(self.class_count_ < need)
        if low.size:
            c = int(low[0])
            raise ValueError(
                f"Class {self.classes_[c]!r} has {self.class_count_[c]} training row(s); "
                f"{self._model_label()} needs at least {need} rows per class."
            )
        return X, codes

    def _check_X(self, X) -> np.ndarray:
        """The template's prediction input, as floats."""
        return self._decoded(super()._check_X(X), numeric=True)
