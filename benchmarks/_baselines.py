"""The baselines every real-table benchmark carries, on the same folds as the kgraph models:
the scikit-learn pipelines a user would write for a mixed table, and the naive Bayes that
fits such a table (:class:`MixedNB`: Gaussian for continuous columns, categorical for the
rest, the columns typed by the rule the kgraph models use)."""

from __future__ import annotations

from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer

from estimators.baselines import NUMBERS, STRINGS, MixedNB, as_categories, as_object, one_hot

__all__ = ["BASELINES", "NUMBERS", "STRINGS", "MixedNB", "as_object"]


#: the baselines, each on the same folds as the kgraph models (HGB reads string columns as
#: categories and NaN natively)
BASELINES = {
    "sk: impute+onehot+GaussianNB": make_pipeline(one_hot(False), GaussianNB()),
    "mixed NB (GaussianNB + CategoricalNB)": MixedNB(),
    "sk: impute+onehot+scaled LR": make_pipeline(one_hot(True),
                                                 LogisticRegression(max_iter=2000)),
    "sk: HistGradientBoosting": make_pipeline(
        FunctionTransformer(as_categories),
        HistGradientBoostingClassifier(categorical_features="from_dtype", random_state=0)),
}
GAUSSIAN_NB, MIXED_NB, LOGISTIC, BOOSTING = BASELINES
#: short column heads of the baselines
SHORT = {GAUSSIAN_NB: "GaussianNB pipeline", MIXED_NB: "mixed NB", LOGISTIC: "LR pipeline",
         BOOSTING: "HGB"}

#: how each baseline is built, for the reports
DESCRIPTION = (
    "Baselines, on the same folds: `sk: impute+onehot+GaussianNB` (numeric columns "
    "median-imputed, string columns most-frequent-imputed and one-hot encoded, unknown "
    "categories ignored, then GaussianNB); `mixed NB (GaussianNB + CategoricalNB)` "
    "(`estimators.baselines.MixedNB`: GaussianNB on the continuous columns, "
    "CategoricalNB(alpha=1) on the categorical ones, typed by the kgraph rule "
    "`infer_feature_types`, median / most-frequent imputation; CategoricalNB alone on an "
    "all-categorical table); `sk: impute+onehot+scaled LR` (the one-hot pipeline, numeric "
    "columns standardised, LogisticRegression(max_iter=2000)); `sk: HistGradientBoosting` "
    "(HistGradientBoostingClassifier(random_state=0), NaN native, string columns as pandas "
    "categories).")
