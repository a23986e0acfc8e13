"""Column kinds and the encoding of discrete features for the (k-)TAN classifiers.

The rule that ``features="auto"`` follows, column by column, on the training data:

* a column is **categorical** if its values are not all numbers: strings, pandas
  ``category`` or ``bool`` columns (an ``object`` column whose every value converts to a
  float is numeric, as scikit-learn treats it);
* a numeric column is **small-integer** if all its values are integers and it has at most
  :data:`AUTO_MAX_INTEGER_LEVELS` distinct values;
* any other numeric column is **continuous**.

k-TAN has one family of conditional models per fit, so the data set is then modelled as
``"discrete"`` when every column is categorical or small-integer, as ``"gaussian"`` when no
column is categorical (small-integer columns are then Gaussian too), and a mix of
categorical and continuous columns is a ``ValueError`` naming both groups.

With ``features="discrete"`` a numeric column may have at most :data:`MAX_DISCRETE_LEVELS`
distinct values; more is taken as continuous data and rejected with a message that
suggests discretising it or ``features="gaussian"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

#: A numeric integer-valued column with at most this many values is discrete under "auto".
AUTO_MAX_INTEGER_LEVELS = 10
#: A numeric column with more distinct values than this is refused by features="discrete".
MAX_DISCRETE_LEVELS = 32

FEATURE_FAMILIES = ("auto", "discrete", "gaussian")


def _as_float(column: np.ndarray) -> np.ndarray | None:
    """The column as floats, or None when some value is not a number (a string)."""
    if column.dtype.kind in "biuf":
        return column.astype(float)
    if column.dtype.kind in "OUS":
        try:
            return np.asarray(column, dtype=float)
        except ValueError:
            return None
    return None


def _raw_columns(X) -> list[tuple[np.ndarray, bool]]:
    """Columns of the training input before scikit-learn's conversion, each with a flag
    telling whether its dtype alone makes it categorical (pandas ``category``, ``bool``)."""
    if isinstance(X, pd.DataFrame):
        out = []
        for name in X.columns:
            col = X[name]
            flagged = isinstance(col.dtype, pd.CategoricalDtype) or col.dtype == bool
            out.append((np.asarray(col.astype(object) if flagged else col), flagged))
        return out
    X = np.asarray(X)
    return [(X[:, j], X.dtype == bool) for j in range(X.shape[1])] if X.ndim == 2 else []


def column_kinds(X) -> list[str]:
    """Kind of each column: ``"categorical"``, ``"small-integer"`` or ``"continuous"``.

    Parameters
    ----------
    X : array-like or pandas.DataFrame of shape (n_samples, n_features)
        Training data (NaN must have been rejected before).

    Returns
    -------
    list of str
        One kind per column, by the rule of this module's docstring.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"a": ["x", "y", "x"], "b": [1, 2, 1], "c": [0.5, 1.5, 2.25],
    ...                    "d": [True, False, True]})
    >>> column_kinds(df)
    ['categorical', 'small-integer', 'continuous', 'categorical']
    """
    kinds = []
    for col, flagged in _raw_columns(X):
        values = None if flagged else _as_float(col)
        if values is None:
            kinds.append("categorical")
        elif np.all(values == np.round(values)) and np.unique(values).size <= AUTO_MAX_INTEGER_LEVELS:
            kinds.append("small-integer")
        else:
            kinds.append("continuous")
    return kinds


def resolve_family(X, features: str, names: Sequence[str], estimator: str) -> str:
    """The family (``"discrete"`` or ``"gaussian"``) used to model ``X``.

    Parameters
    ----------
    X : array-like or pandas.DataFrame
        Training data.
    features : {"auto", "discrete", "gaussian"}
        The estimator's ``features`` parameter.
    names : sequence of str
        Column names, used in error messages.
    estimator : str
        The estimator's class name, used in error messages.

    Returns
    -------
    str
        ``"discrete"`` or ``"gaussian"``.

    Raises
    ------
    ValueError
        A continuous column under ``"discrete"``, a non-numeric column under ``"gaussian"``,
        or categorical and continuous columns mixed under ``"auto"``.

    Examples
    --------
    >>> import numpy as np
    >>> resolve_family(np.array([[0, 1], [1, 1]]), "auto", ["a", "b"], "TANClassifier")
    'discrete'
    """
    kinds = column_kinds(X)
    columns = _raw_columns(X)
    if features == "gaussian":
        for name, kind in zip(names, kinds, strict=True):
            if kind == "categorical":
                raise ValueError(
                    f"Column {name!r} is not numeric, but {estimator} was given "
                    "features='gaussian', which needs numbers; use features='discrete' "
                    "(or 'auto') for categorical columns."
                )
        return "gaussian"
    if features == "discrete":
        for name, kind, (col, _) in zip(names, kinds, columns, strict=True):
            if kind == "categorical":
                continue
            n_values = np.unique(_as_float(col)).size
            if n_values > MAX_DISCRETE_LEVELS:
                raise ValueError(
                    f"Column {name!r} has {n_values} distinct numeric values, more than the "
                    f"{MAX_DISCRETE_LEVELS} that {estimator}(features='discrete') accepts for a "
                    "numeric column: it looks continuous. Discretise it first (for example "
                    "with sklearn.preprocessing.KBinsDiscretizer) or use features='gaussian'."
                )
        return "discrete"
    categorical = [n for n, k in zip(names, kinds, strict=True) if k == "categorical"]
    continuous = [n for n, k in zip(names, kinds, strict=True) if k == "continuous"]
    if categorical and continuous:
        raise ValueError(
            f"{estimator}(features='auto') found categorical columns {categorical} and "
            f"continuous columns {continuous}; one model family is fitted per data set. "
            "Discretise the continuous columns and use features='discrete', or encode the "
            "categorical ones as numbers and use features='gaussian'."
        )
    return "gaussian" if continuous else "discrete"


@dataclass(frozen=True)
class DiscreteEncoding:
    """Training categories of each discrete column and the map from values to codes.

    A value seen in training gets its index in ``categories[j]`` (sorted when the values
    are orderable, else in order of first appearance); a value not seen in training gets
    the extra code ``len(categories[j])``, which the CPTs score by their smoothing.

    Examples
    --------
    >>> import numpy as np
    >>> enc = DiscreteEncoding.fit(np.array([["b", 1], ["a", 2], ["b", 2]], dtype=object))
    >>> enc.n_levels.tolist()
    [2, 2]
    >>> enc.transform(np.array([["a", 2], ["c", 1]], dtype=object)).tolist()
    [[0, 1], [2, 0]]
    """

    categories: tuple[np.ndarray, ...]

    @classmethod
    def fit(cls, X: np.ndarray) -> DiscreteEncoding:
        """Record the categories of each column of a 2-d array."""
        cats = []
        for j in range(X.shape[1]):
            values = np.asarray(pd.unique(X[:, j]))
            try:
                values = np.sort(values)
            except TypeError:  # values that do not order (e.g. str and int): first appearance
                pass
            cats.append(values)
        return cls(tuple(cats))

    @property
    def n_levels(self) -> np.ndarray:
        """Number of training categories of each column."""
        return np.array([c.size for c in self.categories], dtype=np.intp)

    def transform(self, X: np.ndarray) -> np.ndarray:
        """Integer codes of shape ``X.shape``; unseen values get ``n_levels[j]``."""
        codes = np.empty(X.shape, dtype=np.intp)
        for j, cats in enumerate(self.categories):
            idx = pd.Index(cats).get_indexer(X[:, j])
            codes[:, j] = np.where(idx < 0, cats.size, idx)
        return codes
