"""A fitted classifier mapped over the partitions of a Dask ``X``."""

from __future__ import annotations

import pandas as pd
from sklearn.utils.validation import check_is_fitted

__all__ = ["predict_dask"]

METHODS = ("predict", "predict_proba", "predict_log_proba")


def predict_dask(clf, X, method: str = "predict"):
    """``clf.<method>`` mapped over the partitions of a Dask ``X`` (lazy): a dask Series for
    ``predict``, a dask DataFrame with one column per class for the probabilities (a dask
    array in, a dask array out).

    Examples
    --------
    >>> import numpy as np, pandas as pd, dask.dataframe as dd
    >>> from estimators.gnb import GNBClassifier
    >>> rng = np.random.default_rng(0)
    >>> df = pd.DataFrame(rng.normal(size=(100, 3)), columns=["a", "b", "c"])
    >>> clf = GNBClassifier().fit(df, rng.integers(0, 2, 100))
    >>> lazy = predict_dask(clf, dd.from_pandas(df, npartitions=3), "predict_proba")
    >>> bool(np.allclose(lazy.compute().to_numpy(), clf.predict_proba(df)))
    True
    """
    import dask.array as da

    if method not in METHODS:
        raise ValueError(f"predict_dask: method must be one of {list(METHODS)}; got {method!r}.")
    check_is_fitted(clf)
    fn = getattr(clf, method)
    if isinstance(X, da.Array):
        if method == "predict":
            return X.map_blocks(fn, drop_axis=1, dtype=clf.classes_.dtype)
        return X.map_blocks(fn, chunks=(X.chunks[0], (clf.classes_.size,)), dtype=float)
    if method == "predict":
        meta = pd.Series(clf.classes_[:0], name="prediction")
        return X.map_partitions(lambda part: pd.Series(fn(part), index=part.index,
                                                       name="prediction"), meta=meta)
    columns = [str(c) for c in clf.classes_]
    meta = pd.DataFrame({c: pd.Series(dtype=float) for c in columns})
    return X.map_partitions(lambda part: pd.DataFrame(fn(part), index=part.index,
                                                      columns=columns), meta=meta)
