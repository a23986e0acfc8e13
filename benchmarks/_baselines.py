"""The baselines every real-table benchmark carries, on the same folds as the kgraph models:
those of ``kgraph compare`` (:func:`estimators.learning.baseline_classifiers.baselines`: logistic regression with
its penalty C chosen by inner cross-validation, histogram gradient boosting, the naive Bayes
that fits the column types), plus the one-hot GaussianNB pipeline that issue 11's goal is
stated against.

The benchmarks and ``kgraph compare`` build the very same estimators, so a number in
``benchmarks/results`` is the number a user's ``kgraph compare`` gives on that table.
"""

from __future__ import annotations

from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline

from estimators.learning.baseline_classifiers import (
           DESCRIPTIONS,
           NUMBERS,
           STRINGS,
           MixedNB,
           as_object,
           baselines,
           one_hot,
)

__all__ = ["BASELINES", "BOOSTING", "DESCRIPTION", "GAUSSIAN_NB", "LOGISTIC", "MIXED_NB",
           "NUMBERS", "SHORT", "STRINGS", "MixedNB", "as_object"]

GAUSSIAN_NB = "GaussianNB pipeline"
_COMPARE = baselines(random_state=0)
LOGISTIC, BOOSTING, MIXED_NB = "LR", "HGB", "mixed NB"
assert set(_COMPARE) == {LOGISTIC, BOOSTING, MIXED_NB}, "kgraph compare's baselines changed"

#: the baselines, each on the same folds as the kgraph models
BASELINES = {GAUSSIAN_NB: make_pipeline(one_hot(False), GaussianNB()),
             MIXED_NB: _COMPARE[MIXED_NB], LOGISTIC: _COMPARE[LOGISTIC],
             BOOSTING: _COMPARE[BOOSTING]}
#: short column heads of the baselines (their labels are short already)
SHORT = {label: label for label in BASELINES}

#: how each baseline is built, for the reports
DESCRIPTION = (
    "Baselines, on the same folds (the baselines of `kgraph compare`, "
    "`estimators.learning.baseline_classifiers.baselines`, plus the GaussianNB pipeline): "
    f"`{GAUSSIAN_NB}` (numeric columns median-imputed, string columns most-frequent-imputed "
    "and one-hot encoded, unknown categories ignored, then GaussianNB); "
    + "; ".join(f"`{label}` ({DESCRIPTIONS[label]})" for label in (MIXED_NB, LOGISTIC, BOOSTING))
    + ". LR's C is tuned by inner 5-fold CV on each training part, as the discriminative "
    "kgraph models tune their penalty.")
