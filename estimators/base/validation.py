"""Input validation shared by the whole :mod:`estimators` package.

Every estimator that takes a feature matrix ``X`` and class labels ``y`` checks them here, so
that all of them reject the same bad inputs with the same messages:

- NaN or infinite values (the message names the column),
- constant columns (named),
- a single class,
- ``y`` whose length differs from the number of rows of ``X``.

A feature that is constant *within one class* is not an error: that class carries no
dependence for it. :func:`within_class_constant` finds such (class, feature) cells and warns
with a :class:`DegenerateFeatureWarning` naming both.

Variable names are the pandas column names when ``X`` is a DataFrame and the integer
indices ``0 .. d-1`` otherwise.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from numbers import Number

import numpy as np
import pandas as pd

from estimators.base.user_warnings import inside_classifier_fit, warn_user
from estimators.columns import column_values, missing_mask, numeric_values


def as_written(value) -> str:
    """A class label or cell value as a message shows it: the ``repr`` of the plain Python
    value, so a label read as a numpy integer reads ``0``, not ``np.int64(0)``.

    Examples
    --------
    >>> as_written(np.int64(0)), as_written(np.str_("yes")), as_written(2.5)
    ('0', "'yes'", '2.5')
    """
    return repr(value.item() if isinstance(value, np.generic) else value)

__all__ = [
    "DegenerateFeatureWarning",
    "as_written",
    "UndefinedScoreError",
    "ValidatedData",
    "check_cells",
    "check_features_target",
    "encode_classes",
    "non_constant_columns",
    "variable_names",
    "within_class_constant",
]


class DegenerateFeatureWarning(UserWarning):
    """A feature is constant (in the whole training set, or within one class), so it carries
    no information (or that class carries no dependence for it).

    Examples
    --------
    A column constant within a class is named once:

    >>> import warnings
    >>> import numpy as np
    >>> from estimators import DegenerateFeatureWarning, GaussianCMI
    >>> X = np.array([[0.0, 1.0], [1.0, 2.0], [2.0, 2.0], [3.0, 3.0], [4.0, 5.0], [5.0, 4.0]])
    >>> y = [0, 0, 0, 1, 1, 1]
    >>> X[:3, 1] = 7.0  # feature 1 is constant in class 0
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = GaussianCMI().fit(X, y)
    >>> [issubclass(w.category, DegenerateFeatureWarning) for w in caught]
    [True]
    """


class UndefinedScoreError(ValueError):
    """A structure score is undefined (NaN), e.g. for perfectly collinear parents.

    Scores and searchers raise it (never a NaN); structure learning searches such a
    hyperedge as ineligible (:mod:`estimators.learning.structure_learning`) and recognises it by its type.
    """


@dataclass(frozen=True, eq=False)
class ValidatedData:
    """The validated input of a ``fit``.

    Attributes
    ----------
    X : ndarray of shape (n_samples, n_features)
        ``float64`` values (``kind="numeric"``) or ``int64`` category codes ``0 .. K_i - 1``
        per column (``kind="discrete"``).
    y : ndarray of shape (n_samples,)
        Class codes ``0 .. m - 1``, indexing ``classes``.
    classes : ndarray of shape (m,)
        The sorted distinct class labels.
    names : list
        The variable names, one per column.
    levels : list of ndarray or None
        For discrete data, the category values of each column (code ``c`` means
        ``levels[i][c]``); ``None`` for numeric data.
    """

    X: np.ndarray
    y: np.ndarray
    classes: np.ndarray
    names: list
    levels: list | None = None


def variable_names(X) -> list:
    """The variable names of a feature matrix.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)

    Returns
    -------
    list
        The DataFrame's column names, else the integers ``0 .. n_features - 1``.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> variable_names(pd.DataFrame({"a": [1.0], "b": [2.0]}))
    ['a', 'b']
    >>> variable_names(np.zeros((2, 3)))
    [0, 1, 2]
    """
    if isinstance(X, pd.DataFrame):
        names = list(X.columns)
        if len(set(names)) != len(names):
            dup = sorted({str(c) for c in names if names.count(c) > 1})
            raise ValueError(f"Column names of X must be unique; repeated: {dup}.")
        return names
    return list(range(np.shape(X)[1]))


def _as_2d(X) -> np.ndarray:
    arr = X.to_numpy() if isinstance(X, pd.DataFrame) else np.asarray(X)
    if arr.ndim != 2:
        raise ValueError("X must be a 2-D array of shape (n_samples, n_features); got an "
                         f"array with {arr.ndim} dimension(s).")
    if arr.shape[0] < 2:
        raise ValueError(f"needs at least 2 rows in X; got {arr.shape[0]}.")
    if arr.shape[1] < 1:
        raise ValueError("needs at least 1 feature column in X; got 0.")
    return arr


def check_finite_columns(X: np.ndarray, names: Sequence[Hashable], *,
                         numeric: bool = True, allow_nan: bool = False) -> None:
    """Raise a ``ValueError`` naming the first column of X that holds NaN (any dtype: None
    and NaN in object columns too; skipped when ``allow_nan``, NaN then marking an
    unobserved value) or infinity (float columns, and object columns when the data are
    ``numeric``).

    Examples
    --------
    >>> import numpy as np
    >>> check_finite_columns(np.array([[1.0, np.inf]]), ["a", "b"])
    Traceback (most recent call last):
    ...
    ValueError: Input X contains infinity in column 'b' (1 rows); it needs finite values: impute or drop them first.
    """
    if X.dtype.kind == "f" and np.isfinite(X).all():
        return  # a float array without NaN or infinity: nothing to name
    for j, name in enumerate(names):  # loop over columns; each check is vectorised
        col = X[:, j]
        missing = pd.isna(col) if col.dtype.kind == "O" else (
            np.isnan(col) if col.dtype.kind == "f" else np.zeros(col.shape, bool))
        infinite = np.zeros(col.shape, bool)
        if numeric and col.dtype.kind == "O" or col.dtype.kind == "f":
            observed = ~missing
            infinite[observed] = ~np.isfinite(col[observed].astype(float))
        if allow_nan:
            missing = np.zeros(col.shape, bool)
        bad = missing if missing.any() else infinite
        if bad.any():
            what = "NaN" if missing.any() else "infinity"
            need = ("finite values or NaN (an unobserved value)" if allow_nan
                    else "finite values: impute or drop them first")
            raise ValueError(
                f"Input X contains {what} in column {name!r} ({int(bad.sum())} rows); "
                f"it needs {need}."
            )


def check_cells(X, names: Sequence[Hashable], *, allow_nan: bool) -> None:
    """Refuse, naming the column, a cell that is no scalar (a ``TypeError``), an infinite
    number, and a missing cell (NaN, None, pandas NA, an empty string) unless
    ``allow_nan``.

    Parameters
    ----------
    X : DataFrame or ndarray of shape (n_samples, n_features)
        The input in its own dtypes.
    names : sequence
        Column names used in messages.
    allow_nan : bool
        Whether missing cells are accepted (an unobserved value).

    Examples
    --------
    >>> import numpy as np
    >>> check_cells(np.array([[1.0, np.nan]]), ["a", "b"], allow_nan=True)
    >>> check_cells(np.array([[1.0, -np.inf]]), ["a", "b"], allow_nan=True)
    Traceback (most recent call last):
    ...
    ValueError: Input X contains infinity in column 'b' (1 rows); it needs finite values or NaN (an unobserved value).
    """
    if isinstance(X, np.ndarray) and X.dtype.kind in "biu":
        return  # integers and booleans: no missing cell, no infinity
    if isinstance(X, np.ndarray) and X.dtype.kind == "f":  # one pass over a float array
        bad = np.isinf(X).any(axis=0) | (np.isnan(X).any(axis=0) if not allow_nan else False)
        if not bad.any():
            return
        X = X[:, : int(np.argmax(bad)) + 1]  # the loop below names the first bad column
    _, cols = column_values(X)
    for name, (col, _) in zip(names, cols, strict=False):  # per column, vectorised
        if col.dtype.kind == "O":
            odd = [t for t in {type(v) for v in col} if not (
                issubclass(t, str | bytes | Number | np.generic) or t is type(None)
                or t in (type(pd.NA), type(pd.NaT)))]
            if odd:
                raise TypeError(f"Column {name!r} holds a value of type {odd[0].__name__}; "
                                "a cell's argument must be a string or a number (or "
                                "missing).")
        missing = missing_mask(col)
        # numbers only: a column of strings is categorical, or numeric text whose "inf" the
        # encoder refuses naming the column (MixedEncoder.transform)
        first = col[~missing][:1]
        text = col.dtype.kind in "OUS" and (first.size == 0 or isinstance(first[0], str))
        values = None if col.dtype.kind == "b" or text else numeric_values(col, missing)
        infinite = np.isinf(values) if values is not None else np.zeros(col.shape, bool)
        bad = infinite if allow_nan or not missing.any() else missing
        if bad.any():
            what = "infinity" if bad is infinite else "NaN"
            need = ("finite values or NaN (an unobserved value)" if allow_nan
                    else "finite values: impute or drop them first")
            raise ValueError(f"Input X contains {what} in column {name!r} ({int(bad.sum())} "
                             f"rows); it needs {need}.")


def non_constant_columns(types: Sequence[str], minimum: int,
                         constant: Sequence[Hashable]) -> list[int]:
    """The indices of the columns whose type is not ``"constant"``, in column order.

    Parameters
    ----------
    types : sequence of str
        The column types (``EncodedColumns.types``).
    minimum : int
        How many non-constant columns the caller needs.
    constant : sequence
        The constant columns' names (``constant_features_``), named in the error.

    Raises
    ------
    ValueError
        When fewer than ``minimum`` columns are not constant.

    Examples
    --------
    >>> non_constant_columns(["categorical", "constant", "continuous"], 2, ["b"])
    [0, 2]
    >>> non_constant_columns(["constant"], 1, ["a"])
    Traceback (most recent call last):
    ...
    ValueError: needs at least 1 non-constant feature column; X has 0 (constant: ['a']).
    """
    kept = [j for j, t in enumerate(types) if t != "constant"]
    if len(kept) < minimum:
        raise ValueError(f"needs at least {minimum} non-constant feature column"
                         f"{'s' if minimum > 1 else ''}; X has {len(kept)} "
                         f"(constant: {constant}).")
    return kept


def _check_not_constant(X: np.ndarray, names: Sequence[Hashable]) -> None:
    const = (X == X[0]).all(axis=0)
    if const.any():
        cols = [names[i] for i in np.flatnonzero(const)]
        raise ValueError(
            f"column(s) {cols} of X are constant; every feature needs at least "
            "two distinct values."
        )


def encode_classes(y, n_samples: int) -> tuple[np.ndarray, np.ndarray]:
    """Code class labels as ``0 .. m - 1`` and check there are at least two classes.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Class labels of any sortable dtype.
    n_samples : int
        The number of rows of ``X``; ``len(y)`` must equal it.

    Returns
    -------
    classes : ndarray of shape (m,)
    codes : ndarray of shape (n_samples,)

    Examples
    --------
    >>> encode_classes(["b", "a", "b"], 3)
    (array(['a', 'b'], dtype='<U1'), array([1, 0, 1]))
    """
    y = np.asarray(y.to_numpy() if isinstance(y, pd.Series | pd.DataFrame) else y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if y.ndim != 1:
        raise ValueError(f"y must be a 1-D array; got shape {y.shape}.")
    if y.shape[0] != n_samples:
        raise ValueError(
            f"y has {y.shape[0]} labels but X has {n_samples} rows; they must match."
        )
    if pd.isna(y).any():
        raise ValueError("y contains missing labels (NaN/None); all rows need a class.")
    classes, codes = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise ValueError(
            f"needs at least 2 classes in y; got only one class {classes.tolist()}."
        )
    return classes, codes.astype(np.int64)


def _factorize_columns(arr: np.ndarray) -> tuple[np.ndarray, list]:
    codes = np.empty(arr.shape, dtype=np.int64)
    levels = []
    for i in range(arr.shape[1]):
        c, lev = pd.factorize(arr[:, i], sort=True)
        codes[:, i] = c
        levels.append(np.asarray(lev))
    return codes, levels


def check_features_target(X, y, *, kind: str = "numeric") -> ValidatedData:
    """Validate ``X`` and ``y`` for a fit (its caller names itself in the errors:
    :func:`~estimators.base.user_warnings.named_errors`).

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    kind : {"numeric", "discrete"}
        ``"numeric"`` converts ``X`` to float and requires finite values; ``"discrete"``
        codes every column's categories (any dtype, strings included) as ``0 .. K_i - 1``.

    Returns
    -------
    ValidatedData

    Raises
    ------
    ValueError
        NaN or inf in a column, a constant column, one class only, or a length mismatch.

    Examples
    --------
    >>> import numpy as np
    >>> data = check_features_target(np.array([[0.0, 1], [1, 0], [2, 2]]), [0, 1, 0])
    >>> data.names, data.y.tolist()
    ([0, 1], [0, 1, 0])
    >>> check_features_target(np.array([[0.0, np.nan], [1, 0]]), [0, 1])
    Traceback (most recent call last):
    ...
    ValueError: Input X contains NaN in column 1 (1 rows); it needs finite values: impute or drop them first.
    """
    if kind not in ("numeric", "discrete"):
        raise ValueError(f"kind must be 'numeric' or 'discrete'; got {kind!r}.")
    arr = _as_2d(X)
    names = variable_names(X)
    classes, codes = encode_classes(y, arr.shape[0])
    if kind == "numeric":
        try:
            Xf = arr.astype(np.float64, copy=False)  # the scores read it, never write it
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"needs numeric X; could not convert it to float ({exc})."
            ) from None
        check_finite_columns(Xf, names)
        _check_not_constant(Xf, names)
        return ValidatedData(Xf, codes, classes, names)
    check_finite_columns(arr, names, numeric=False)
    Xc, levels = _factorize_columns(arr)
    _check_not_constant(Xc, names)
    return ValidatedData(Xc, codes, classes, names, levels)


def within_class_constant(
    X: np.ndarray,
    y: np.ndarray,
    classes: np.ndarray,
    names: Sequence[Hashable],
    *,
    owner: str,
    warn: bool = True,
) -> np.ndarray:
    """Find features that are constant within a class, and warn about each one.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
        Class codes ``0 .. m - 1``.
    classes : ndarray of shape (m,)
        Class labels, used in the warning.
    names : sequence
        Variable names, used in the warning.
    owner : str
        The estimator's name, used in the warning.
    warn : bool, default=True
        Emit one :class:`DegenerateFeatureWarning` per affected class; not inside a
        classifier's ``fit``, where the scores see class codes and the classifier warns once
        by label (:meth:`~estimators.template.joint_likelihood.JointLogLikelihoodClassifier._validate_training`).

    Returns
    -------
    ndarray of bool, shape (m, n_features)
        ``True`` where the feature takes one value in the class (or the class has one row).

    Examples
    --------
    >>> import numpy as np, warnings
    >>> X = np.array([[1.0, 0], [1, 1], [0, 2], [2, 3]])
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     mask = within_class_constant(X, np.array([0, 0, 1, 1]), np.array(["a", "b"]),
    ...                                  ["u", "v"], owner="Demo")
    >>> mask.tolist()
    [[True, False], [False, False]]
    >>> print(w[0].message)
    Demo: feature(s) ['u'] constant within class 'a'; that class contributes no dependence for them.
    """
    m = classes.shape[0]
    mask = np.ones((m, X.shape[1]), dtype=bool)
    for c in range(m):  # loop over classes, not rows
        block = X[y == c]
        if block.shape[0] > 0:
            mask[c] = (block == block[0]).all(axis=0)
        if warn and mask[c].any() and not inside_classifier_fit():
            feats = [names[i] for i in np.flatnonzero(mask[c])]
            label = np.asarray(classes, dtype=object)[c]
            warn_user(
                f"{owner}: feature(s) {feats} constant within class {label!r}; that class "
                "contributes no dependence for them.",
                DegenerateFeatureWarning,
            )
    return mask
