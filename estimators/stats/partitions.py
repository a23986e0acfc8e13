"""Rows in partitions, and the passes that turn them into the statistics of
:mod:`estimators.stats.cell_statistics`.

A :class:`Partitions` is a training table ``(X, y)`` cut into row partitions that are never
gathered: :meth:`Partitions.map_reduce` computes a statistic on every partition where it
lives and merges the results. :class:`InMemory` is one partition (a pandas table);
:func:`estimators.distributed.collect` makes one from a Dask DataFrame (many partitions,
a tree of ``dask.delayed`` merges). The classifiers and scores that fit from statistics
accept either as ``fit(data)``, and run the same code on both.

Beside these merged statistics, :meth:`Partitions.map_each` returns one result per partition
(in partition order) and :meth:`Partitions.persist` keeps a per-partition state where the
partition lives (a :class:`Resident`), for a fit that reads the same rows at every step (the
discriminative parameters' L-BFGS, :mod:`estimators.discriminative`).

The passes: :func:`moments_of` (class moments of numeric columns), :func:`categories_of`
(sorted categories and class labels), :func:`counts_of` (pair contingency tables),
:func:`column_kinds` (the in-memory typing rule on partitions), and the encoder an
in-memory fit would get, from the deciding values of each column (:func:`fit_encoder`).

Examples
--------
>>> import numpy as np, pandas as pd
>>> X = pd.DataFrame({"a": [0.0, 1.0, 2.0, 4.0], "b": [1.0, 3.0, 2.0, 0.0]})
>>> mo = moments_of(InMemory(X, pd.Series(["u", "u", "u", "v"])))
>>> mo.classes.tolist(), mo.n.tolist()
(['u', 'v'], [3.0, 1.0])
"""

from __future__ import annotations

import abc
import copy
from collections.abc import Callable, Hashable

import numpy as np
import pandas as pd

from estimators.columns import (
    MAX_INTEGER_LEVELS,
    MAX_NUMERIC_LEVELS,
    MixedEncoder,
    auto_column_type,
)
from estimators.stats.cell_statistics import ClassMoments, PairCounts, encode, gram_counts

__all__ = ["Held", "InMemory", "Partitions", "Resident", "categories_of", "column_kinds", "counts_of",
           "empty_encoded", "encoder_order", "fit_encoder", "moments_of"]


class Partitions(abc.ABC):
    """A training table ``(X, y)`` in row partitions (see the module docstring).

    Attributes
    ----------
    names : list
        The column names of X (``x0, x1, ...`` for an array).
    dtypes : dict
        Column name -> pandas dtype.
    from_array : bool
        X came as an array (the fitted estimator then has no ``feature_names_in_``).
    owner : str
        The estimator fitting from it, for messages (:meth:`with_owner`).
    """

    names: list[Hashable]
    dtypes: dict
    from_array: bool = False
    owner: str = "collect"

    @abc.abstractmethod
    def map_reduce(self, fn: Callable, combine: Callable, *args):
        """``combine`` over the partitions of ``fn(x_part, y_part, *args)`` (x a pandas
        DataFrame, y a Series), computed."""

    @abc.abstractmethod
    def map_each(self, fn: Callable, *args, each: list | None = None) -> list:
        """``[fn(x_part, y_part, *args[, each[i]]) for every partition i]``, computed, in
        partition order (``each``: one more argument per partition)."""

    @abc.abstractmethod
    def persist(self, fn: Callable, *args) -> Resident:
        """``fn(x_part, y_part, *args)`` of every partition, kept where the partition lives
        (for passes that read the same per-partition state many times)."""

    def with_owner(self, owner: str) -> Partitions:
        """The same partitions, messages naming ``owner``."""
        out = copy.copy(self)
        out.owner = owner
        return out


class InMemory(Partitions):
    """One partition: a pandas DataFrame ``X`` and Series ``y`` in memory.

    Examples
    --------
    >>> import pandas as pd
    >>> data = InMemory(pd.DataFrame({"a": [1.0, 2.0]}), pd.Series([0, 1]))
    >>> data.map_reduce(lambda x, y: len(x), max)
    2
    """

    def __init__(self, X: pd.DataFrame, y: pd.Series):
        self.X, self.y = X, pd.Series(np.asarray(y), index=X.index)
        self.names = list(X.columns)
        self.dtypes = dict(X.dtypes.items())

    def map_reduce(self, fn, combine, *args):
        return fn(self.X, self.y, *args)

    def map_each(self, fn, *args, each=None):
        return [fn(self.X, self.y, *args, *([] if each is None else [each[0]]))]

    def persist(self, fn, *args) -> Held:
        return Held([fn(self.X, self.y, *args)])


class Resident(abc.ABC):
    """Per-partition states kept where their partitions live (:meth:`Partitions.persist`)."""

    @abc.abstractmethod
    def map_reduce(self, fn: Callable, combine: Callable, *args):
        """``combine`` over the states of ``fn(state, *args)``, computed."""


class Held(Resident):
    """States held in this process (the in-memory partition's).

    Examples
    --------
    >>> Held([1, 2, 3]).map_reduce(lambda s, k: s * k, max, 10)
    30
    """

    def __init__(self, states: list):
        self.states = states

    def map_reduce(self, fn, combine, *args):
        out = fn(self.states[0], *args)
        for state in self.states[1:]:
            out = combine(out, fn(state, *args))
        return out


def _moments_part(x: pd.DataFrame, y: pd.Series, owner: str) -> ClassMoments:
    try:
        values = x.to_numpy(dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{owner} needs numeric X; a partition could not be converted to "
                         f"float ({exc}).") from None
    bad = ~np.isfinite(values)
    if bad.any():
        j = int(np.flatnonzero(bad.any(axis=0))[0])
        raise ValueError(f"Input X contains NaN or infinity in column {x.columns[j]!r}; {owner} "
                         "needs finite values: impute or drop them first.")
    if pd.isna(y).any():
        raise ValueError(f"{owner}: y contains missing labels (NaN/None); all rows need a class.")
    return ClassMoments.from_arrays(values, y.to_numpy())


def moments_of(data: Partitions) -> ClassMoments:
    """The class moments of all rows (one pass)."""
    return data.map_reduce(_moments_part, ClassMoments.merge, data.owner)


def _unique_part(x: pd.DataFrame, y: pd.Series, columns: list) -> list:
    return [pd.unique(x[c]) for c in columns] + [pd.unique(y)]


def _unique_merge(a: list, b: list) -> list:
    return [pd.unique(np.concatenate([u, v])) for u, v in zip(a, b, strict=True)]


def categories_of(data: Partitions, columns: list | None = None
                  ) -> tuple[list[np.ndarray], np.ndarray]:
    """Sorted categories of every column (or of ``columns``) and the sorted class labels
    (one pass), as ``pd.factorize(sort=True)`` and ``np.unique`` order them in memory."""
    columns = list(data.names) if columns is None else list(columns)
    uniques = data.map_reduce(_unique_part, _unique_merge, columns)
    cats = []
    for name, values in zip(columns, uniques[:-1], strict=True):
        if pd.isna(values).any():
            raise ValueError(f"Input X contains missing values in column {name!r}; "
                             f"{data.owner} needs complete discrete columns.")
        cats.append(np.asarray(pd.factorize(values, sort=True)[1]))
    classes = uniques[-1]
    if pd.isna(classes).any():
        raise ValueError(f"{data.owner}: y contains missing labels (NaN/None); all rows need a "
                         "class.")
    return cats, np.unique(classes)


def _counts_part(x, y, categories, classes) -> PairCounts:
    K = np.array([c.size for c in categories], dtype=np.int64)
    return gram_counts(encode(x, categories), pd.Index(classes).get_indexer(np.asarray(y)), K,
                       classes.size)


def counts_of(data: Partitions, categories, classes) -> PairCounts:
    """The per-class pair contingency tables of all rows (one pass after the categories)."""
    return data.map_reduce(_counts_part, PairCounts.merge, categories, classes)


KINDS = ("continuous", "categorical")
#: a numeric column with more distinct values than this is continuous by either rule
_MAX_LEVELS = max(MAX_INTEGER_LEVELS, MAX_NUMERIC_LEVELS)


def column_kinds(data: Partitions, feature_types) -> np.ndarray:
    """Continuous mask of the columns by the in-memory rule
    (:func:`estimators.columns.infer_feature_types`), a ``feature_types`` mapping
    (``"continuous"`` / ``"categorical"``) overriding: strings, bools and other non-numeric
    dtypes are categorical; a numeric column by its distinct values
    (:func:`~estimators.columns.auto_column_type`), found in one pass over the numeric
    columns the mapping does not name, each partition reporting its distinct values up to
    the limit."""
    given = {} if isinstance(feature_types, str) else dict(feature_types)
    unknown = [k for k in given if k not in data.names]
    bad = {k: t for k, t in given.items() if t not in KINDS}
    if unknown or bad:
        raise ValueError(f"{data.owner}: feature_types for a Dask X maps column names of X "
                         f"{data.names} to one of {list(KINDS)}; got unknown columns {unknown}"
                         f" and types {bad}.")
    numeric = [c for c in data.names if c not in given
               and pd.api.types.is_numeric_dtype(data.dtypes[c])
               and not pd.api.types.is_bool_dtype(data.dtypes[c])]
    levels = data.map_reduce(_few_levels, _merge_levels, numeric) if numeric else {}
    return np.array([given[c] == "continuous" if c in given
                     else c in levels and _continuous_levels(levels[c]) for c in data.names])


def _continuous_levels(levels: np.ndarray | None) -> bool:
    """Whether a numeric column with these distinct values (None: too many) is continuous."""
    if levels is None:
        return True
    whole = bool(np.all(levels == np.round(levels)))
    return auto_column_type(True, levels.size, whole) == "continuous"


def _few_levels(x: pd.DataFrame, y, columns: list) -> dict:
    """Per column: its distinct observed values when there are at most ``_MAX_LEVELS``,
    else None."""
    out = {}
    for c in columns:
        values = pd.unique(x[c].dropna().to_numpy(dtype=float))
        out[c] = np.sort(values) if values.size <= _MAX_LEVELS else None
    return out


def _merge_levels(a: dict, b: dict) -> dict:
    out = {}
    for c, levels in a.items():
        both = None if levels is None or b[c] is None else np.union1d(levels, b[c])
        out[c] = both if both is not None and both.size <= _MAX_LEVELS else None
    return out


def fit_encoder(data: Partitions, continuous, categories, lo, hi) -> MixedEncoder:
    """The encoder an in-memory fit would get: fitted on one small frame carrying each
    column's deciding values (``categories[j]`` for a categorical column, ``lo[j]``/``hi[j]``
    for a continuous one), the types fixed as decided."""
    values = [[lo[j], hi[j]] if continuous[j] else list(categories[j])
              for j in range(len(data.names))]
    length = max(len(v) for v in values)
    keys = list(range(len(values))) if data.from_array else list(data.names)
    frame = pd.DataFrame({j: pd.Series(v + [v[0]] * (length - len(v)),
                                       dtype=float if continuous[j] else object)
                          for j, v in enumerate(values)})
    frame.columns = keys
    kinds = {key: "continuous" if continuous[j] else "categorical" for j, key in enumerate(keys)}
    return MixedEncoder(kinds).fit(frame)


def encoder_order(encoder: MixedEncoder, categories) -> list:
    """``categories`` re-ordered as the encoder codes them (its sorted levels); None (a
    continuous column) stays None."""
    names = encoder.feature_names_in_
    base = {k: pd.Series([0.0] if c is None else [c[0]], dtype=float if c is None else object)
            for k, c in zip(names, categories, strict=True)}
    out = []
    for j, cats in enumerate(categories):
        if cats is None or len(cats) < 2:
            out.append(cats if cats is None else np.asarray(cats, dtype=object))
            continue
        frame = pd.DataFrame({k: col.iloc[[0] * len(cats)].reset_index(drop=True)
                              for k, col in base.items()})
        frame[names[j]] = pd.Series(list(cats), dtype=object)
        codes = encoder.transform(frame).codes[:, j]
        out.append(np.asarray(cats, dtype=object)[np.argsort(codes)])
    return out


def empty_encoded(encoder: MixedEncoder):
    """The encoder's :class:`~estimators.columns.EncodedColumns` of no rows (the column
    types and levels)."""
    return encoder.transform(pd.DataFrame(
        {k: pd.Series([], dtype=float if encoder.feature_types_[k] == "continuous" else object)
         for k in encoder.feature_names_in_}))
