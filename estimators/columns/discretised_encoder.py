"""The encoder of the ``discretize=`` option: continuous columns become their intervals.

:class:`DiscretisingEncoder` decides the column types as :class:`MixedEncoder` does, then
cuts every continuous column at its supervised MDL cut points, fitted on the training rows
and their classes (:mod:`estimators.columns.mdl_discretisation`). Such a column is from then
on categorical: its categories are the interval names (``"-inf..2.45"``, ``"2.45..4.75"``,
..., each ``a < x <= b``), which the exports write as its states; a new value is coded by ``np.searchsorted`` on the training
cut points (a value on a cut falls in the interval below it); a missing cell stays missing
(code ``-1``, marginalised). A column with no accepted cut is one interval: ``"constant"``,
as a column of one value is, and it leaves the model.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted

from estimators.columns._encoder import EncodedColumns, MixedEncoder
from estimators.columns.mdl_discretisation import (
    interval_codes,
    interval_labels,
    mdl_cut_points,
)

__all__ = ["DISCRETIZERS", "DiscretisingEncoder"]

#: the values of ``discretize=`` (None: continuous columns stay continuous)
DISCRETIZERS = ("mdl",)


class DiscretisingEncoder(MixedEncoder):
    """A :class:`MixedEncoder` whose continuous columns are cut into intervals, fitted on
    the training rows and their classes (module docstring).

    Parameters
    ----------
    feature_types : "auto" or mapping, default="auto"
        The column types before discretisation (:class:`MixedEncoder`).
    method : {"mdl"}, default="mdl"
        Fayyad and Irani's entropy split with the MDL stopping rule.

    Attributes
    ----------
    cut_points_ : dict
        Discretised column -> its cut points (sorted ndarray, empty for one interval).
    values_encoder_ : MixedEncoder
        The encoder of the values before discretisation.
    feature_types_, categories_, category_keys_, feature_names_in_, n_features_in_
        As :class:`MixedEncoder`'s, after discretisation: a discretised column is
        ``"categorical"`` (``"constant"`` with one interval), its categories and keys the
        interval names.

    Examples
    --------
    A column that separates the classes, one that does not (noise) and a categorical one:

    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], 30)
    >>> X = pd.DataFrame({"x": rng.normal(4.0 * y, 1.0).round(2), "noise": rng.normal(size=60),
    ...                   "c": rng.choice(["a", "b"], 60)})
    >>> X.loc[0, "x"] = np.nan
    >>> encoder = DiscretisingEncoder().fit(X, y)
    >>> encoder.cut_points_["x"], encoder.cut_points_["noise"].size
    (array([2.04]), 0)
    >>> encoder.feature_types_
    {'x': 'categorical', 'noise': 'constant', 'c': 'categorical'}
    >>> encoder.categories_["x"].tolist()
    ['-inf..2.04', '2.04..inf']
    >>> new = pd.DataFrame({"x": [2.04, 2.05, np.nan], "noise": 0.0, "c": "a"})
    >>> encoder.transform(new).codes[:, 0].tolist(), encoder.transform(X).codes[0].tolist()
    ([0, 1, -1], [-1, 0, 1])
    """

    def __init__(self, feature_types="auto", method: str = "mdl"):
        super().__init__(feature_types)
        self.method = method

    def fit(self, X, y=None) -> DiscretisingEncoder:
        """Decide the types of ``X`` and cut its continuous columns by the classes ``y``."""
        if self.method not in DISCRETIZERS:
            raise ValueError(f"method must be one of {DISCRETIZERS}; got {self.method!r}.")
        if y is None:
            raise ValueError("DiscretisingEncoder is supervised: fit it with the class "
                             "labels y.")
        values = MixedEncoder(self.feature_types).fit(X)
        enc = values.transform(X)
        classes = np.unique(np.asarray(y), return_inverse=True)[1].reshape(-1)
        self.values_encoder_ = values
        self.feature_names_in_ = values.feature_names_in_
        self.n_features_in_ = values.n_features_in_
        self.feature_types_ = dict(values.feature_types_)
        self.categories_ = dict(values.categories_)
        self.category_keys_ = dict(values.category_keys_)
        self.cut_points_ = {}
        for j, name in enumerate(self.feature_names_in_):
            if enc.types[j] != "continuous":
                continue
            cuts = mdl_cut_points(enc.values[:, j], classes)
            labels = np.empty(cuts.size + 1, dtype=object)
            labels[:] = interval_labels(cuts)
            self.cut_points_[name] = cuts
            self.categories_[name] = self.category_keys_[name] = labels
            self.feature_types_[name] = "categorical" if cuts.size else "constant"
        return self

    def transform(self, X) -> EncodedColumns:
        """Encode a table with the training columns, the discretised ones as the codes of
        their intervals."""
        check_is_fitted(self, "cut_points_")
        enc = self.values_encoder_.transform(X)
        values, codes, n_levels = enc.values.copy(), enc.codes.copy(), enc.n_levels.copy()
        for j, name in enumerate(self.feature_names_in_):
            cuts = self.cut_points_.get(name)
            if cuts is not None:
                codes[:, j] = interval_codes(values[:, j], cuts)
                values[:, j] = np.nan
                n_levels[j] = cuts.size + 1
        types = tuple(self.feature_types_[c] for c in self.feature_names_in_)
        return EncodedColumns(values, codes, types, n_levels, enc.names, enc.n_unseen)

    def states(self, X) -> pd.DataFrame:
        """``X`` (a DataFrame with the training columns) with each discretised column's
        values replaced by the names of their intervals (missing cells stay missing): the
        evidence an exported network takes for these rows.

        Examples
        --------
        >>> X = pd.DataFrame({"x": [0.1, 0.2, 0.3, 5.1, 5.2, 5.3]})
        >>> encoder = DiscretisingEncoder().fit(X, [0, 0, 0, 1, 1, 1])
        >>> encoder.states(pd.DataFrame({"x": [0.5, None]}))["x"].tolist()
        ['-inf..2.7', nan]
        """
        codes = self.transform(X).codes
        out = X[list(self.feature_names_in_)].copy()
        for j, name in enumerate(self.feature_names_in_):
            if name in self.cut_points_:
                labels = np.append(self.categories_[name], np.nan).astype(object)
                out[name] = labels[codes[:, j]]  # code -1: the appended NaN
        return out

    def fit_transform(self, X, y=None) -> EncodedColumns:
        """``fit(X, y).transform(X)``."""
        return self.fit(X, y).transform(X)
