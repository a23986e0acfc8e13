"""Reading a Dask collection into the statistics of :mod:`estimators.distributed._stats`.

``X`` is a ``dask.dataframe.DataFrame`` (or a 2-d dask array chunked along rows only) and
``y`` a dask Series (or 1-d dask array) with the same partitions; each partition pair is turned
into statistics where it lives and the statistics are tree-reduced (one ``compute``).
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np
import pandas as pd

from estimators.distributed._stats import (
    ClassMoments,
    PairCounts,
    class_moments,
    merge_moments,
    pair_counts,
    tree_reduce,
)

__all__ = ["DaskData", "as_dask_data", "categories_of", "counts_of", "moments_of"]


class DaskData:
    """Aligned partitions of a Dask ``X`` and ``y``, with the column names.

    Parameters
    ----------
    X : dask DataFrame or 2-d dask array
    y : dask Series or 1-d dask array
    owner : str
        The estimator's name, for messages.
    """

    def __init__(self, X, y, owner: str):
        import dask.array as da
        import dask.dataframe as dd

        if isinstance(X, da.Array):
            if X.ndim != 2 or len(X.chunks[1]) != 1:
                raise ValueError(f"{owner}: a dask array X must be 2-d and chunked along rows "
                                 f"only; got shape {X.shape} with chunks {X.chunks}.")
            X = dd.from_dask_array(X, columns=[f"x{j}" for j in range(X.shape[1])])
            self.from_array = True
        elif isinstance(X, dd.DataFrame):
            self.from_array = False
        else:
            raise TypeError(f"{owner}: X must be a dask DataFrame or dask array; got "
                            f"{type(X).__name__}.")
        if isinstance(y, da.Array):
            y = dd.from_dask_array(y)
        if not isinstance(y, dd.Series):
            raise TypeError(f"{owner}: with a dask X, y must be a dask Series or 1-d dask array "
                            f"with the same partitions; got {type(y).__name__}.")
        if X.npartitions != y.npartitions:
            raise ValueError(f"{owner}: X has {X.npartitions} partitions but y has "
                             f"{y.npartitions}; they must be split the same way (take both "
                             "from one DataFrame, e.g. y = df[target], X = df.drop(columns=target)).")
        self.X, self.y, self.owner = X, y, owner
        self.names: list[Hashable] = list(X.columns)
        self.parts = list(zip(X.to_delayed(), y.to_delayed(), strict=True))

    def map_reduce(self, fn, combine, *args):
        """``combine``-tree of ``fn(x_part, y_part, *args)`` over the partitions, computed."""
        import dask

        step = dask.delayed(_call, pure=True)
        return tree_reduce([step(fn, x, y, *args) for x, y in self.parts], combine).compute()


def _call(fn, x, y, *args):
    return fn(x, y, *args)


def as_dask_data(X, y, owner: str) -> DaskData:
    """:class:`DaskData` of ``(X, y)`` (TypeError/ValueError naming what is accepted)."""
    return DaskData(X, y, owner)


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
    return class_moments(values, y.to_numpy())


def moments_of(data: DaskData) -> ClassMoments:
    """The class moments of all rows (one pass)."""
    return data.map_reduce(_moments_part, merge_moments, data.owner)


def _unique_part(x: pd.DataFrame, y: pd.Series, columns: list) -> list:
    return [pd.unique(x[c]) for c in columns] + [pd.unique(y)]


def _unique_merge(a: list, b: list) -> list:
    return [pd.unique(np.concatenate([u, v])) for u, v in zip(a, b, strict=True)]


def categories_of(data: DaskData, columns: list | None = None
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


def counts_of(data: DaskData, categories, classes) -> PairCounts:
    """The per-class pair contingency tables of all rows (one pass after the categories)."""
    return data.map_reduce(pair_counts, lambda a, b: a + b, categories, classes)
