"""Random row partitionings of a pandas table as Dask collections (shared by the
larger-than-memory tests)."""

from __future__ import annotations

import pandas as pd
from hypothesis import strategies as st

#: cut positions inside 300 rows (duplicates and empty pieces are dropped)
cuts = st.lists(st.integers(1, 299), max_size=8)


def split(frame: pd.DataFrame, y: pd.Series, cuts: list[int]):
    """The partitions (:func:`estimators.distributed.collect`) of a Dask DataFrame and
    Series split at the given row positions."""
    from estimators.distributed import collect

    return collect(*pieces(frame, y, cuts))


def pieces(frame: pd.DataFrame, y: pd.Series, cuts: list[int]):
    """A Dask DataFrame and Series split at the given row positions (same partitions)."""
    import dask.dataframe as dd

    bounds = [0, *sorted(set(cuts)), len(frame)]
    pieces = [(a, b) for a, b in zip(bounds, bounds[1:], strict=False) if b > a]
    X = dd.concat([dd.from_pandas(frame.iloc[a:b], npartitions=1) for a, b in pieces])
    Y = dd.concat([dd.from_pandas(y.iloc[a:b], npartitions=1) for a, b in pieces])
    return X, Y
