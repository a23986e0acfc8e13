"""The baselines a reviewer asks a Naive-Bayes-family classifier to beat, as a user of
scikit-learn writes them for a mixed table with missing cells:

* ``LR``: numeric columns median-imputed and standardised, string columns most-frequent-imputed
  and one-hot encoded (unknown categories ignored), then ``LogisticRegressionCV`` choosing the
  inverse penalty ``C`` among 10 values by the log-loss of an inner stratified 5-fold
  cross-validation of the training data;
* ``HGB``: ``HistGradientBoostingClassifier`` (missing cells native, string columns as pandas
  categories);
* ``mixed NB``: :class:`MixedNB`, Gaussian naive Bayes on the continuous columns and
  categorical naive Bayes on the rest, the columns typed by the rule the kgraph models use.

:func:`baselines` returns them; the pieces (:func:`one_hot`, :func:`as_categories`) are shared
with the benchmark scripts.

Examples
--------
>>> from estimators.learning.baseline_classifiers import baselines
>>> sorted(baselines())
['HGB', 'LR', 'mixed NB']
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.compose import ColumnTransformer, make_column_selector
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegressionCV
from sklearn.naive_bayes import CategoricalNB, GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, OneHotEncoder, StandardScaler
from sklearn.utils.validation import check_is_fitted

from estimators.columns import infer_feature_types

__all__ = ["DESCRIPTIONS", "NUMBERS", "STRINGS", "MixedNB", "as_categories", "as_object", "baselines",
           "one_hot"]

#: the string-like columns of a DataFrame (one-hot encoded / categories)
STRINGS = make_column_selector(dtype_include=["object", "string", "category", "bool"])
#: the numeric columns of a DataFrame
NUMBERS = make_column_selector(dtype_exclude=["object", "string", "category", "bool"])


def as_object(X):
    """``X`` with object columns (so that an imputer keeps strings as strings)."""
    return X.astype(object)


def one_hot(scale: bool) -> ColumnTransformer:
    """Median-impute (and, with ``scale``, standardise) numeric columns; most-frequent-impute
    and one-hot the string columns (unknown categories ignored)."""
    numeric = [SimpleImputer(strategy="median")] + ([StandardScaler()] if scale else [])
    strings = [FunctionTransformer(as_object), SimpleImputer(strategy="most_frequent"),
               OneHotEncoder(handle_unknown="ignore", sparse_output=False)]
    return ColumnTransformer([("num", make_pipeline(*numeric), NUMBERS),
                              ("cat", make_pipeline(*strings), STRINGS)])


def as_categories(X: pd.DataFrame) -> pd.DataFrame:
    """``X`` with its string-like columns as pandas categories (for gradient boosting)."""
    out = X.copy()
    for column in STRINGS(out):
        out[column] = out[column].astype("category")
    return out


class MixedNB(ClassifierMixin, BaseEstimator):
    """Naive Bayes for a mixed table: scikit-learn's ``GaussianNB`` on the continuous
    columns and ``CategoricalNB(alpha)`` on the categorical ones, multiplied.

    Columns are typed on the training data by :func:`estimators.columns.infer_feature_types`
    (the rule of the kgraph models; constant columns are dropped). Missing cells are imputed
    with the training median (continuous) or the most frequent value (categorical). A
    category first seen at prediction gets a code of its own with zero training count (its
    likelihood is the smoothed ``alpha / (n_y + alpha * (m + 1))``).

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"colour": ["r", "g", "r", "g"], "size": [1.0, 2.5, 1.2, 2.2]})
    >>> MixedNB().fit(X, [0, 1, 0, 1]).predict(X).tolist()
    [0, 1, 0, 1]
    """

    def __init__(self, alpha: float = 1.0, var_smoothing: float = 1e-9):
        self.alpha = alpha
        self.var_smoothing = var_smoothing

    def fit(self, X, y):
        X = pd.DataFrame(X).reset_index(drop=True)
        types = infer_feature_types(X)
        self.continuous_ = [c for c, t in types.items() if t == "continuous"]
        self.categorical_ = [c for c, t in types.items() if t == "categorical"]
        self.classes_, codes = np.unique(np.asarray(y), return_inverse=True)
        counts = np.bincount(codes, minlength=len(self.classes_))
        self.class_log_prior_ = np.log(counts / counts.sum())
        if self.continuous_:
            numeric = X[self.continuous_].astype(float)
            self.medians_ = numeric.median()
            self.gaussian_ = GaussianNB(var_smoothing=self.var_smoothing).fit(
                numeric.fillna(self.medians_), codes)
        if self.categorical_:
            self.levels_ = {}
            for column in self.categorical_:
                values = X[column].dropna().map(str)
                self.levels_[column] = (values.mode().iloc[0], sorted(values.unique()))
            self.categorical_nb_ = CategoricalNB(
                alpha=self.alpha,
                min_categories=[len(levels) for _, levels in self.levels_.values()],
            ).fit(self._codes(X), codes)
        return self

    def _codes(self, X: pd.DataFrame) -> np.ndarray:
        """Ordinal codes of the categorical columns (unseen values: -1)."""
        out = np.empty((len(X), len(self.categorical_)), dtype=int)
        for j, column in enumerate(self.categorical_):
            mode, levels = self.levels_[column]
            index = {value: i for i, value in enumerate(levels)}
            values = X[column].map(lambda v, mode=mode: mode if pd.isna(v) else str(v))
            out[:, j] = values.map(lambda v, index=index: index.get(v, -1)).to_numpy()
        return out

    def predict_joint_log_proba(self, X) -> np.ndarray:
        """``ln p(y) + sum_j ln p(x_j | y)`` for every row and class."""
        check_is_fitted(self, "classes_")
        X = pd.DataFrame(X).reset_index(drop=True)
        joint = np.tile(self.class_log_prior_, (len(X), 1))
        if self.continuous_:
            numeric = X[self.continuous_].astype(float).fillna(self.medians_)
            joint += (self.gaussian_.predict_joint_log_proba(numeric)
                      - np.log(self.gaussian_.class_prior_))
        if self.categorical_:
            codes = self._codes(X)
            for j, table in enumerate(self.categorical_nb_.feature_log_prob_):
                seen = codes[:, j] >= 0
                joint[seen] += table[:, codes[seen, j]].T
        return joint

    def predict_proba(self, X) -> np.ndarray:
        joint = self.predict_joint_log_proba(X)
        joint -= joint.max(axis=1, keepdims=True)
        proba = np.exp(joint)
        return proba / proba.sum(axis=1, keepdims=True)

    def predict(self, X) -> np.ndarray:
        return self.classes_[self.predict_joint_log_proba(X).argmax(axis=1)]


#: how each baseline is built, in a few words (for reports)
DESCRIPTIONS = {
    "LR": "median-impute + standardise numeric, most-frequent-impute + one-hot strings, "
          "LogisticRegressionCV(Cs=10, cv=5, scoring='neg_log_loss')",
    "HGB": "HistGradientBoostingClassifier(categorical_features='from_dtype'), strings as "
           "categories, NaN native",
    "mixed NB": "MixedNB: GaussianNB on continuous + CategoricalNB(alpha=1) on categorical "
                "columns (kgraph's typing rule), median / most-frequent imputation",
}


def baselines(random_state: int = 0) -> dict:
    """The three baselines (see the module docstring), unfitted, under their short names.

    Parameters
    ----------
    random_state : int, default=0
        The seed of gradient boosting (its early-stopping split on large tables).

    Returns
    -------
    dict
        ``{"LR": ..., "HGB": ..., "mixed NB": ...}``.
    """
    logistic = LogisticRegressionCV(Cs=10, cv=5, scoring="neg_log_loss", l1_ratios=(0.0,),
                                    use_legacy_attributes=False, max_iter=2000)
    boosting = HistGradientBoostingClassifier(categorical_features="from_dtype",
                                              random_state=random_state)
    return {"LR": make_pipeline(one_hot(True), logistic),
            "HGB": make_pipeline(FunctionTransformer(as_categories), boosting),
            "mixed NB": MixedNB()}
