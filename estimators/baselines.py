"""The public path of the baseline classifiers (``kgraph compare --models
estimators.baselines:MixedNB``, as the comparison tutorial writes it): the code lives on the
learning floor, :mod:`estimators.learning.baseline_classifiers`."""

from estimators.learning.baseline_classifiers import (
    DESCRIPTIONS,
    NUMBERS,
    STRINGS,
    MixedNB,
    as_categories,
    as_object,
    baselines,
    one_hot,
)

__all__ = ["DESCRIPTIONS", "NUMBERS", "STRINGS", "MixedNB", "as_categories", "as_object",
           "baselines", "one_hot"]
