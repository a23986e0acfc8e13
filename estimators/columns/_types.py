"""Column types, decided once: continuous, categorical or constant (MATH.md §7).

The rule of ``feature_types="auto"``, column by column, on the training data. Missing cells
(NaN, None, pandas NA/NaT, empty or blank strings) are set aside first: they are never a
category and never decide a type.

1. A column with fewer than two distinct observed values is ``"constant"`` (whatever a
   mapping says: it carries no information to model).
2. It is ``"categorical"`` when its dtype says so (pandas ``category``, ``bool``) or when
   some observed value is not a number (strings, mixed objects). An ``object`` or string
   column whose every observed value converts to a float ("1.5") is numeric, as
   scikit-learn treats it.
3. A numeric column with at most :data:`MAX_NUMERIC_LEVELS` (= 3) distinct observed values
   is ``"categorical"``, whatever the values: 0/1 indicators, but also 0.5/1.0 (yeast's
   ``erl``; UCI ecoli's ``lip`` and ``chg``) and 0/0.5/0.83 (yeast's ``pox``). Typed
   continuous, such a column is a Gaussian per class with a near-zero variance in every
   class where it takes one value, and that density then decides the class alone; a
   categorical distribution over at most 3 values has no more parameters per class (2)
   than the Gaussian and cannot degenerate so.
4. A numeric column is ``"categorical"`` when every observed value is an integer and it has
   at most :data:`MAX_INTEGER_LEVELS` (= 10) distinct values: 1-5 codes (balance_scale),
   small counts. Integer columns with more values are quantities (abalone's ``Rings``, 28
   values; ages; ejection fractions): ``"continuous"``.
5. Any other numeric column is ``"continuous"``; an infinite value there is an error.

The evidence for 3 (``benchmarks/typing_rule.py``, results in
``benchmarks/results/typing_rule.md``: stratified 5-fold CV repeated 3 times, thresholds 1,
2, 3, 5 and 10 for the non-integer columns, GNB, TAN and 2-TAN on the same folds). Of the
shared and built-in tables only yeast has a non-integer column with at most 5 values, and
oj the only ones with 6-10. On yeast (1484 rows, 10 classes) accuracy / log-loss go
GNB 0.155 / 7.82 (never categorical, the rule before) -> 0.431 / 4.38 (``erl``, threshold
2) -> 0.569 / 1.42 (``erl`` and ``pox``, threshold 3); TAN 0.548 / 1.71 -> 0.551 / 1.46 ->
0.568 / 1.34; 2-TAN 0.549 / 1.72 -> 0.554 / 1.48 -> 0.564 / 1.39. Thresholds 5 and 10
type no further column of yeast; 10 would also type oj's prices and discounts (6-10 values
each) categorical (the results file has those numbers). The rule stops at 3: up to there a
categorical column has no more parameters per class than the Gaussian it replaces.

A mapping ``{column: "continuous" | "categorical"}`` overrides the rule for the columns it
names (the others stay automatic); a column forced to ``"continuous"`` must hold numbers.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

import numpy as np
import pandas as pd

__all__ = ["FEATURE_TYPES", "MAX_INTEGER_LEVELS", "MAX_NUMERIC_LEVELS", "auto_column_type",
           "check_no_infinity", "column_values", "infer_feature_types", "missing_mask",
           "numeric_values"]

#: an integer-valued numeric column with at most this many distinct values is categorical
MAX_INTEGER_LEVELS = 10
#: a numeric column with at most this many distinct values is categorical, whatever they are
MAX_NUMERIC_LEVELS = 3
#: the types a column can get (a mapping may only ask for the first two)
FEATURE_TYPES = ("continuous", "categorical", "constant")


def column_values(X, contiguous: bool = False) -> tuple[list, list[tuple[np.ndarray, bool]]]:
    """The column names and, per column, its values as a 1-d array and whether its dtype
    alone makes it categorical (pandas ``category``, ``bool``); ``contiguous``: the columns
    of a numeric array are copied into one Fortran-ordered array first (for callers that
    read every column whole, several times).

    Examples
    --------
    >>> import pandas as pd
    >>> names, cols = column_values(pd.DataFrame({"a": [1.0, 2.0], "b": [True, False]}))
    >>> names, [flag for _, flag in cols]
    (['a', 'b'], [False, True])
    """
    if isinstance(X, pd.DataFrame):
        names = list(X.columns)
        if len(set(names)) != len(names):
            dup = sorted({str(c) for c in names if names.count(c) > 1})
            raise ValueError(f"Column names of X must be unique; repeated: {dup}.")
        cols = []
        for name in names:
            s = X[name]
            flagged = isinstance(s.dtype, pd.CategoricalDtype) or pd.api.types.is_bool_dtype(
                s.dtype)
            numeric = pd.api.types.is_numeric_dtype(s.dtype) and not flagged
            arr = s.to_numpy(dtype=float, na_value=np.nan) if numeric else s.to_numpy(dtype=object)
            cols.append((arr, bool(flagged)))
        return names, cols
    arr = np.asarray(X)
    if arr.ndim != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features); got {arr.ndim} dimension(s).")
    if contiguous and arr.dtype.kind in "fiub":
        arr = np.asfortranarray(arr)
    return list(range(arr.shape[1])), [(arr[:, j], arr.dtype == bool) for j in range(arr.shape[1])]


def missing_mask(col: np.ndarray) -> np.ndarray:
    """True where a cell is missing: NaN, None, pandas NA/NaT, or an empty/blank string.

    Examples
    --------
    >>> import numpy as np
    >>> missing_mask(np.array([1.0, np.nan])).tolist()
    [False, True]
    >>> missing_mask(np.array(["a", "", "  ", None], dtype=object)).tolist()
    [False, True, True, True]
    """
    if col.dtype.kind in "fc":
        return np.isnan(col)
    if col.dtype.kind in "biu":
        return np.zeros(col.shape, dtype=bool)
    miss = np.asarray(pd.isna(col), dtype=bool)
    if col.dtype.kind in "OUS":
        codes, uniques = pd.factorize(pd.Series(col, dtype=object), use_na_sentinel=True)
        blank = np.array([isinstance(u, str) and not u.strip() for u in uniques] + [False])
        miss |= blank[codes]  # one test per distinct value; NA has code -1 (the False)
    return miss


#: values of a column tried as numbers before the whole column is converted
_HEAD = 16


def _to_float(values: np.ndarray) -> np.ndarray:
    """The values as floats, NaN where one is not a number."""
    return pd.to_numeric(pd.Series(values, dtype=object), errors="coerce").to_numpy(float)


def numeric_values(col: np.ndarray, missing: np.ndarray) -> np.ndarray | None:
    """The column as floats (NaN where missing), or None when an observed value is not a
    number (or is a bool, which is a category).

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.columns import missing_mask, numeric_values
    >>> col = np.array(["1.5", "", "3"], dtype=object)
    >>> numeric_values(col, missing_mask(col)).tolist()
    [1.5, nan, 3.0]
    >>> col = np.array(["1.5", "x"], dtype=object)
    >>> numeric_values(col, missing_mask(col)) is None  # a text: not a numeric column
    True
    """
    if col.dtype == np.float64:
        return col  # its missing cells are its NaN already (a view: callers only read it)
    if col.dtype.kind in "fiu":
        out = col.astype(float)
        out[missing] = np.nan
        return out
    if col.dtype.kind == "b":
        return None
    observed = col[~missing]
    # a text among the first values settles it without converting the whole column (the
    # conversion is per value: a value that is no number here is none in the whole column;
    # ~2 ms per 3,000-row column of text, twice per column in a fit)
    if np.isnan(_to_float(observed[:_HEAD])).any():
        return None
    if any(isinstance(v, bool | np.bool_) for v in observed[:1000]):
        return None
    out = np.full(col.shape, np.nan)
    conv = _to_float(observed)
    if np.isnan(conv).any():
        return None
    out[~missing] = conv
    return out


def check_no_infinity(name: Hashable, values: np.ndarray) -> None:
    """Raise a ValueError naming column ``name`` when ``values`` hold an infinity."""
    if np.isinf(values).any():
        raise ValueError(f"Column {name!r} holds infinite values ({int(np.isinf(values).sum())}"
                         " rows); continuous columns need finite numbers or missing cells.")


def _integral(observed: np.ndarray) -> bool:
    """Whether every observed number is an integer (a non-integer among the first 64
    values settles it without a pass over the column)."""
    head = observed[:64]
    if not np.all(head == np.round(head)):
        return False
    return bool(np.all(observed == np.round(observed)))


def _distinct_count(observed: np.ndarray, numeric: bool, integral: bool = False) -> int:
    """The number of distinct observed values where the rule needs it: exact for text and
    for integer-valued numbers (``integral``: :func:`_integral` of ``observed``); for other
    numbers exact up to ``MAX_NUMERIC_LEVELS``, else some count above it (the first 64
    values settle most continuous columns without hashing the whole column)."""
    if not numeric or observed.size == 0:
        return pd.unique(observed).size
    if observed.min() == observed.max():
        return 1
    if integral:
        return pd.unique(observed).size
    head = pd.unique(observed[:64]).size
    return head if head > MAX_NUMERIC_LEVELS else pd.unique(observed).size


def _plainly_continuous(X) -> np.ndarray | None:
    """For a float array: the columns the rule makes continuous on their first 64 values
    alone -- finite everywhere, a non-integer and more than ``MAX_NUMERIC_LEVELS``
    distinct values among the first 64 (what the per-column path concludes from the same
    values: :func:`_integral` and :func:`_distinct_count` stop at that head), found in
    whole-array operations; None for other inputs (every column takes the per-column
    path).

    Examples
    --------
    >>> X = np.column_stack([np.linspace(0, 1, 20), np.arange(20) % 2 + 0.5, np.arange(20.0)])
    >>> _plainly_continuous(X).tolist()
    [True, False, False]
    """
    if not (isinstance(X, np.ndarray) and X.ndim == 2 and X.dtype.kind == "f"):
        return None
    head = np.sort(X[:64], axis=0)
    distinct = 1 + (np.diff(head, axis=0) != 0).sum(axis=0)
    fraction = (head != np.round(head)).any(axis=0)
    return fraction & (distinct > MAX_NUMERIC_LEVELS) & np.isfinite(X).all(axis=0)


def auto_column_type(numeric: bool, n_distinct: int, integral: bool) -> str:
    """The type the automatic rule (rules 1-5 of the module docstring) gives a column from
    whether its observed values are numbers, how many distinct ones it has and whether they
    are all integers.

    Examples
    --------
    >>> auto_column_type(True, 3, False), auto_column_type(True, 4, False)
    ('categorical', 'continuous')
    >>> auto_column_type(True, 10, True), auto_column_type(True, 11, True)
    ('categorical', 'continuous')
    >>> auto_column_type(False, 1, False)
    'constant'
    """
    if n_distinct < 2:
        return "constant"
    if not numeric or n_distinct <= MAX_NUMERIC_LEVELS:
        return "categorical"
    if n_distinct <= MAX_INTEGER_LEVELS and integral:
        return "categorical"
    return "continuous"


def _check_mapping(feature_types, names: list) -> dict:
    if isinstance(feature_types, str):
        if feature_types != "auto":
            raise ValueError(f"feature_types must be 'auto' or a mapping {{column: 'continuous' "
                             f"| 'categorical'}}; got {feature_types!r}.")
        return {}
    if not isinstance(feature_types, Mapping):
        raise TypeError(f"feature_types must be 'auto' or a mapping {{column: 'continuous' | "
                        f"'categorical'}}; got {type(feature_types).__name__}.")
    known = set(names)
    for name, kind in feature_types.items():
        if name not in known:
            raise ValueError(f"feature_types names column {name!r}, which is not in X; the "
                             f"columns are {names}.")
        if kind not in ("continuous", "categorical"):
            raise ValueError(f"feature_types[{name!r}] must be 'continuous' or 'categorical'; "
                             f"got {kind!r}.")
    return dict(feature_types)


def infer_feature_types(X, feature_types: str | Mapping[Hashable, str] = "auto"
                        ) -> dict[Hashable, str]:
    """The type of every column: ``"continuous"``, ``"categorical"`` or ``"constant"``.

    Parameters
    ----------
    X : DataFrame or array-like of shape (n_samples, n_features)
        Training data; missing cells allowed.
    feature_types : "auto" or mapping, default="auto"
        ``"auto"`` applies the rule of this module's docstring to every column; a mapping
        ``{column: "continuous" | "categorical"}`` fixes the columns it names.

    Returns
    -------
    dict
        Column name (integer index for arrays) -> type, in column order.

    Raises
    ------
    ValueError
        An unknown column or type in the mapping, a non-numeric value in a column asked to
        be continuous, or an infinite value in a continuous column (the column is named).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> df = pd.DataFrame({"island": ["Dream", "Biscoe", None, "Dream"], "stage": [3, 1, 2, 5],
    ...                    "flag": [0, 1, np.nan, 1], "mass": [3.5, 4.25, 3.75, 4.5],
    ...                    "half": [0.5, 1.0, 0.5, 0.5], "one": [7.0, np.nan, 7.0, 7.0]})
    >>> infer_feature_types(df)
    {'island': 'categorical', 'stage': 'categorical', 'flag': 'categorical', 'mass': 'continuous', 'half': 'categorical', 'one': 'constant'}
    >>> infer_feature_types(df, {"stage": "continuous"})["stage"]
    'continuous'
    """
    settled = _plainly_continuous(X) if isinstance(feature_types, str) else None
    if settled is not None and settled.all():  # no per-column pass (nor its copy) at all
        _check_mapping(feature_types, list(range(X.shape[1])))
        return dict.fromkeys(range(X.shape[1]), "continuous")
    names, cols = column_values(X, contiguous=True)
    forced = _check_mapping(feature_types, names)
    out = {}
    for j, (name, (col, flagged)) in enumerate(zip(names, cols, strict=True)):  # per column
        if settled is not None and settled[j]:
            out[name] = "continuous"
            continue
        missing = missing_mask(col)
        values = None if flagged else numeric_values(col, missing)
        observed = col if values is None else values
        if missing.any():
            observed = observed[~missing]
        numeric = values is not None
        integral = numeric and observed.size > 0 and _integral(observed)
        n_distinct = _distinct_count(observed, numeric, integral)
        kind = ("constant" if n_distinct < 2 else
                forced.get(name) or auto_column_type(numeric, n_distinct, integral))
        if kind == "continuous":
            if values is None:
                bad = next(v for v in observed if numeric_values(np.array([v], dtype=object),
                                                                 np.zeros(1, bool)) is None)
                raise ValueError(f"Column {name!r} was asked to be continuous but holds the "
                                 f"non-numeric value {bad!r}; make it 'categorical'.")
            check_no_infinity(name, observed)
        out[name] = kind
    return out
