"""The encoder of mixed tables: floats for continuous columns, codes for categorical ones.

Fitted once on the training data (types by :func:`infer_feature_types`, categories of each
categorical column), it turns any table with the same columns into an
:class:`EncodedColumns`: a float matrix (continuous columns, NaN where missing) and an integer
matrix (categorical and constant columns, ``-1`` where missing), both indexed by the original
column position.

**Unseen categories** at prediction get the code ``-1``: they are treated as missing, and the
classifiers marginalise them out (MATH.md §8), so a value never seen in training carries no
evidence. A reserved "unseen" level would instead be scored by the CPT smoothing as
``alpha / (N_{d,y} + K alpha)``, a number that depends on the class counts only (it favours
the smallest class) and says nothing about the value; marginalising is the exact answer
under the fitted model. ``EncodedColumns.n_unseen`` counts them per column, for a warning.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from estimators.columns._types import (
    check_no_infinity,
    column_values,
    infer_feature_types,
    missing_mask,
    numeric_values,
)

__all__ = ["EncodedColumns", "MixedEncoder"]


@dataclass(frozen=True, eq=False)
class EncodedColumns:
    """A mixed table in numbers.

    Attributes
    ----------
    values : ndarray of float, shape (n, d)
        Continuous columns (NaN where missing); NaN in the other columns.
    codes : ndarray of int64, shape (n, d)
        Categorical and constant columns: ``0 .. K_j - 1``, ``-1`` where missing or unseen;
        ``-1`` in continuous columns.
    types : tuple of str
        ``"continuous"``, ``"categorical"`` or ``"constant"`` per column.
    n_levels : ndarray of int64, shape (d,)
        ``K_j`` for categorical/constant columns, 0 for continuous ones.
    names : tuple
        Column names.
    n_unseen : ndarray of int64, shape (d,)
        Cells whose category was not seen in training (coded ``-1``).

    Examples
    --------
    What :class:`MixedEncoder` returns:

    >>> import numpy as np, pandas as pd
    >>> from estimators.columns import MixedEncoder
    >>> train = pd.DataFrame({"sex": ["m", "f", "f", "m"], "mass": [3.5, np.nan, 4.0, 4.25]})
    >>> enc = MixedEncoder({"mass": "continuous"}).fit_transform(train)  # 3 numbers: "auto"
    >>> enc.types, enc.n_levels.tolist()  # would make the column categorical
    (('categorical', 'continuous'), [2, 0])
    >>> enc.codes[:, 0].tolist(), enc.values[:, 1].tolist()
    ([1, 0, 0, 1], [3.5, nan, 4.0, 4.25])
    """

    values: np.ndarray
    codes: np.ndarray
    types: tuple
    n_levels: np.ndarray
    names: tuple
    n_unseen: np.ndarray

    @cached_property
    def continuous(self) -> np.ndarray:
        """Boolean mask of the continuous columns (computed once per table, read-only:
        callers index it per column)."""
        out = np.array([t == "continuous" for t in self.types], dtype=bool)
        out.flags.writeable = False
        return out

    @cached_property
    def observed(self) -> np.ndarray:
        """Boolean (n, d): the cell is observed (not missing, not unseen); computed once
        per table (scores ask for it once per hyperedge)."""
        out = np.where(self.continuous, ~np.isnan(self.values), self.codes >= 0)
        out.flags.writeable = False
        return out

    def take(self, rows) -> EncodedColumns:
        """The same table restricted to ``rows`` (index or mask)."""
        return EncodedColumns(self.values[rows], self.codes[rows], self.types, self.n_levels,
                              self.names, self.n_unseen)


def _python(value):
    """A cell as a plain Python scalar (``np.int64(1)`` -> ``1``, ``np.str_`` -> ``str``)."""
    return value.item() if isinstance(value, np.generic) else value


def _label_array(values: list) -> np.ndarray:
    """Category labels in an array of their own type: bool, int64 or float64 when every
    label is one (so ``tolist()`` gives them back as Python ``bool``/``int``/``float``),
    object otherwise (strings, mixed types)."""
    kinds = {type(v) for v in values}
    for kind, dtype in ((bool, bool), (int, np.int64), (float, np.float64)):
        if kinds == {kind}:
            try:
                return np.array(values, dtype=dtype)
            except OverflowError:  # an int beyond int64
                break
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _first_labels(keys: np.ndarray, observed_keys: np.ndarray, originals: np.ndarray
                  ) -> np.ndarray:
    """The user's value behind each key: the first observed cell with that key (``"1"``
    and ``1.0`` share the key 1.0; the one seen first names the category)."""
    idx = pd.Index(keys).get_indexer(observed_keys)
    _, first = np.unique(idx, return_index=True)  # idx covers every key, in key order
    return _label_array([_python(v) for v in originals[first]])


def _sorted_levels(observed: np.ndarray) -> np.ndarray:
    """The distinct values of ``observed``, sorted; values that do not order among
    themselves (``str`` and ``int`` in one object column) by their ``repr``.

    Examples
    --------
    >>> import numpy as np
    >>> _sorted_levels(np.array([3, 1, 3])).tolist()
    [1, 3]
    >>> _sorted_levels(np.array(["b", 2, "a", 2], dtype=object)).tolist()
    ['a', 'b', 2]
    """
    levels = np.asarray(pd.unique(observed), dtype=object if observed.dtype == object else None)
    try:
        return np.sort(levels)
    except TypeError:  # values that do not order (e.g. str and int): sort by their text
        return levels[np.argsort([repr(v) for v in levels], kind="stable")]


class MixedEncoder(BaseEstimator):
    """Decide the column types once and encode mixed tables as numbers.

    Parameters
    ----------
    feature_types : "auto" or mapping, default="auto"
        See :func:`infer_feature_types`.

    Attributes
    ----------
    feature_types_ : dict
        Column -> ``"continuous" | "categorical" | "constant"``, by the rule of
        :mod:`estimators.columns` unless ``feature_types`` names the column: a numeric
        column with at most 3 distinct values is categorical whatever they are, as is
        one of at most 10 integers.
    categories_ : dict
        Column -> ndarray of its training categories (code ``c`` is ``categories_[col][c]``)
        for categorical and constant columns, each the value the user gave, of its type:
        ``int`` stays ``int``, ``str`` stays ``str`` (digit strings included, whatever the
        pandas dtype: object, ``string``, ``category``), ``bool`` stays ``bool``, a float
        stays a float (an int64, bool or float64 array when every label is of that type,
        else an object array). The codes follow :attr:`category_keys_`.
    category_keys_ : dict
        Column -> ndarray (sorted) that cells are matched by, in code order: floats when
        every category is a number or numeric text (so ``1``, ``1.0`` and ``"1"`` are one
        category, in numeric order), else the categories themselves (ordered as given
        types allow, by text for mixed types).
    feature_names_in_ : list
        The column names (integers for arrays).
    n_features_in_ : int

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> train = pd.DataFrame({"sex": ["m", "f", "f", "", "m"],
    ...                       "mass": [3.5, np.nan, 4.0, 3.75, 4.25]})
    >>> enc = MixedEncoder().fit(train)
    >>> enc.feature_types_
    {'sex': 'categorical', 'mass': 'continuous'}
    >>> out = enc.transform(pd.DataFrame({"sex": ["f", "x", None], "mass": [1.0, 2.0, np.nan]}))
    >>> out.codes[:, 0].tolist(), out.values[:, 1].tolist(), out.n_unseen.tolist()
    ([0, -1, -1], [1.0, 2.0, nan], [1, 0])
    """

    def __init__(self, feature_types: str | Mapping[Hashable, str] = "auto"):
        self.feature_types = feature_types

    def fit(self, X, y=None) -> MixedEncoder:
        """Decide the types and record the categories of ``X`` (training data)."""
        names, cols = column_values(X)
        if not names:
            raise ValueError("X needs at least one column.")
        self.feature_types_ = infer_feature_types(X, self.feature_types)
        self.feature_names_in_ = names
        self.n_features_in_ = len(names)
        self.categories_, self.category_keys_ = {}, {}
        for name, (col, _) in zip(names, cols, strict=True):
            if self.feature_types_[name] != "continuous":
                miss = missing_mask(col)
                num = numeric_values(col, miss) if col.dtype.kind != "b" else None
                observed = col[~miss] if num is None else num[~miss]
                keys = _sorted_levels(observed)
                user = X[name].to_numpy(dtype=object) if isinstance(X, pd.DataFrame) else col
                self.category_keys_[name] = keys
                self.categories_[name] = _first_labels(keys, observed, user[~miss])
        return self

    def transform(self, X) -> EncodedColumns:
        """Encode a table with the training columns (by name for DataFrames)."""
        check_is_fitted(self, "feature_types_")
        if isinstance(X, pd.DataFrame):
            absent = [c for c in self.feature_names_in_ if c not in X.columns]
            if absent:
                raise ValueError(f"X lacks the training column {absent[0]!r}; the columns "
                                 f"are {self.feature_names_in_}.")
            X = X[self.feature_names_in_]
        names, cols = column_values(X)
        if len(names) != self.n_features_in_:
            raise ValueError(f"X has {len(names)} features, but MixedEncoder was fitted with "
                             f"{self.n_features_in_}.")
        n, d = len(cols[0][0]), len(names)
        codes = np.full((n, d), -1, dtype=np.int64)
        n_levels = np.zeros(d, dtype=np.int64)
        n_unseen = np.zeros(d, dtype=np.int64)
        cont = np.array([self.feature_types_[c] == "continuous" for c in self.feature_names_in_])
        fast = isinstance(X, np.ndarray) and X.dtype.kind in "fiu"
        if fast:  # a numeric array: its continuous columns in one pass
            values = np.array(X, dtype=float)
            values[:, ~cont] = np.nan
            infinite = np.isinf(values).any(axis=0)
            if infinite.any():
                j = int(np.argmax(infinite))
                check_no_infinity(self.feature_names_in_[j], values[:, j])
        else:
            values = np.full((n, d), np.nan)
        for j, name in enumerate(self.feature_names_in_):  # per column, vectorised
            if fast and cont[j]:
                continue
            col = cols[j][0]
            miss = missing_mask(col)
            text = self.feature_types_[name] != "continuous" and (
                self.category_keys_[name].dtype == object)  # categories as given: no numbers
            num = numeric_values(col, miss) if col.dtype.kind != "b" and not text else None
            if self.feature_types_[name] == "continuous":
                if num is None:
                    bad = col[~miss][pd.to_numeric(pd.Series(col[~miss], dtype=object),
                                                   errors="coerce").isna().to_numpy()]
                    raise ValueError(f"Column {name!r} is continuous but holds the non-numeric"
                                     f" value {bad[0] if bad.size else col[~miss][0]!r}.")
                check_no_infinity(name, num)
                values[:, j] = num
                continue
            levels = self.category_keys_[name]
            n_levels[j] = levels.size
            observed = col[~miss] if num is None or levels.dtype == object else num[~miss]
            idx = pd.Index(levels).get_indexer(observed)
            codes[~miss, j] = idx
            n_unseen[j] = int((idx < 0).sum())
        types = tuple(self.feature_types_[c] for c in self.feature_names_in_)
        return EncodedColumns(values, codes, types, n_levels, tuple(self.feature_names_in_),
                              n_unseen)

    def fit_transform(self, X, y=None) -> EncodedColumns:
        """``fit(X).transform(X)``."""
        return self.fit(X).transform(X)
