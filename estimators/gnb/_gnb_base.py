"""Shared base of the GNB-family classifiers over :class:`JointLogLikelihoodClassifier`.

The template validates and encodes input (mixed columns, missing cells, constant columns
warned once) and writes ``predict*``; this base adds what GNB and k-GNB share: the columns
that enter the structure (not constant, at least two), one warning naming the classes with
fewer than two rows (smoothing and pooling keep them usable) and the class vertex's name.
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable
from contextlib import contextmanager, nullcontext

import numpy as np

from estimators.base.validation import DegenerateFeatureWarning, non_constant_columns
from estimators.columns import EncodedColumns
from estimators.template.joint_likelihood import JointLogLikelihoodClassifier


class BaseGNB(JointLogLikelihoodClassifier):
    """Common validation of the GNB family; subclasses implement ``fit`` and
    ``_joint_log_likelihood``."""

    _min_features = 2
    _learns_dependence = True

    def _model_label(self) -> str:
        return type(self).__name__

    def _target_name(self) -> Hashable:
        names = set(self.feature_names())
        return next(t for t in ("class", "y", "__class__") if t not in names)

    @staticmethod
    def _density_input(enc: EncodedColumns) -> np.ndarray:
        """The table the densities are fitted on (categorical columns zeroed)."""
        return enc.values if enc.continuous.all() else np.where(enc.continuous, enc.values, 0.0)

    def _structure_columns(self, enc: EncodedColumns) -> np.ndarray:
        """Column indices that enter the structure (not constant); warns once about classes
        with fewer than two training rows."""
        used = np.array(non_constant_columns(enc.types, 2, self.constant_features_),
                        dtype=np.intp)
        small = [self.classes_[c] for c in np.flatnonzero(self.class_count_ < 2)]
        if small:
            warnings.warn(f"{self._model_label()}: class(es) {small} have fewer than 2 training"
                          " rows; their densities are smoothed and pooled.", UserWarning,
                          stacklevel=3)
        return used

    def _one_warning(self):
        """A context in which the scores' per-class degeneracy warnings are silent when a
        class has fewer than two rows (the class warning above already names it)."""
        return _silent() if (self.class_count_ < 2).any() else nullcontext()


@contextmanager
def _silent():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateFeatureWarning)
        yield
