"""Shared base of the GNB-family classifiers over :class:`JointLogLikelihoodClassifier`.

The template validates and encodes input (mixed columns, missing cells) and writes
``predict*``; this base adds what GNB and k-GNB share: the columns that enter the structure
(not constant, at least two), one warning naming the classes with fewer than two rows
(smoothing and pooling keep them usable) and the class vertex's name.
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable

import numpy as np

from estimators._joint import JointLogLikelihoodClassifier
from estimators.columns import EncodedColumns, MixedEncoder


class BaseGNB(JointLogLikelihoodClassifier):
    """Common validation of the GNB family; subclasses implement ``fit`` and
    ``_joint_log_likelihood``."""

    _min_features = 2

    def _model_label(self) -> str:
        return type(self).__name__

    def _target_name(self) -> Hashable:
        names = set(self.feature_names())
        return next(t for t in ("class", "y", "__class__") if t not in names)

    # -- input: mixed columns, missing cells ------------------------------------------------
    def _input_dtype(self):
        return None

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

    def _validate_training(self, X, y) -> tuple[EncodedColumns, np.ndarray]:
        """Validated and encoded training data: ``(enc, class codes)``."""
        Xv, codes = super()._validate_training(X, y)
        source = X if hasattr(X, "columns") else Xv
        self.encoder_ = MixedEncoder(getattr(self, "feature_types", "auto")).fit(source)
        self.feature_types_ = dict(self.encoder_.feature_types_)
        enc = self.encoder_.transform(source)
        self.constant_features_ = [n for n, t in zip(self.feature_names(), enc.types,
                                                     strict=True) if t == "constant"]
        if self.constant_features_:
            warnings.warn(f"{self._model_label()}: constant column(s) "
                          f"{self.constant_features_} leave the structure.", UserWarning,
                          stacklevel=3)
        return enc, codes

    def _check_X(self, X) -> EncodedColumns:
        Xv = super()._check_X(X)
        return self.encoder_.transform(X if hasattr(X, "columns") else Xv)

    def _structure_columns(self, enc: EncodedColumns) -> np.ndarray:
        """Column indices that enter the structure (not constant); warns once about classes
        with fewer than two training rows."""
        used = np.flatnonzero(np.array(enc.types) != "constant")
        if used.size < 2:
            raise ValueError(f"{self._model_label()} needs at least 2 non-constant feature "
                             f"columns; got {used.size} (constant: {self.constant_features_}).")
        small = [self.classes_[c] for c in np.flatnonzero(self.class_count_ < 2)]
        if small:
            warnings.warn(f"{self._model_label()}: class(es) {small} have fewer than 2 training"
                          " rows; their densities are smoothed and pooled.", UserWarning,
                          stacklevel=3)
        return used
