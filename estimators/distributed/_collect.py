"""A Dask ``X`` and ``y`` as :class:`~estimators.stats.partitions.Partitions`.

``X`` is a ``dask.dataframe.DataFrame`` (or a 2-d dask array chunked along rows only) and
``y`` a dask Series (or 1-d dask array) with the same partitions; each partition pair is
turned into statistics where it lives (``to_delayed``) and the statistics are combined
pairwise in a binary tree of ``dask.delayed`` tasks, so the client only receives the final
result.
"""

from __future__ import annotations

from collections.abc import Callable

from estimators.stats.partitions import Partitions, Resident

__all__ = ["DaskPartitions", "DaskResident", "collect", "tree_reduce"]


class DaskPartitions(Partitions):
    """Aligned partitions of a Dask ``X`` and ``y`` (see :func:`collect`).

    Examples
    --------
    What :func:`collect` returns: the partitions' names, and passes over them computed by Dask:

    >>> import numpy as np, pandas as pd, dask.dataframe as dd
    >>> rng = np.random.default_rng(0)
    >>> df = pd.DataFrame(rng.normal(size=(400, 3)), columns=["a", "b", "c"])
    >>> df["y"] = rng.integers(0, 2, 400)
    >>> ddf = dd.from_pandas(df, npartitions=4)
    >>> data = collect(ddf[["a", "b", "c"]], ddf["y"])
    >>> type(data).__name__, data.names, data.map_reduce(lambda x, y: len(x), lambda a, b: a + b)
    ('DaskPartitions', ['a', 'b', 'c'], 400)
    """

    def __init__(self, X, y):
        import dask.array as da
        import dask.dataframe as dd

        if isinstance(X, da.Array):
            if X.ndim != 2 or len(X.chunks[1]) != 1:
                raise ValueError(f"collect: a dask array X must be 2-d and chunked along rows "
                                 f"only; got shape {X.shape} with chunks {X.chunks}.")
            X = dd.from_dask_array(X, columns=[f"x{j}" for j in range(X.shape[1])])
            self.from_array = True
        elif isinstance(X, dd.DataFrame):
            self.from_array = False
        else:
            raise TypeError(f"collect: X must be a dask DataFrame or dask array; got "
                            f"{type(X).__name__}.")
        if isinstance(y, da.Array):
            y = dd.from_dask_array(y)
        if not isinstance(y, dd.Series):
            raise TypeError(f"collect: with a dask X, y must be a dask Series or 1-d dask array "
                            f"with the same partitions; got {type(y).__name__}.")
        if X.npartitions != y.npartitions:
            raise ValueError(f"collect: X has {X.npartitions} partitions but y has "
                             f"{y.npartitions}; they must be split the same way (take both "
                             "from one DataFrame, e.g. y = df[target], X = df.drop(columns=target)).")
        self.names = list(X.columns)
        self.dtypes = dict(X.dtypes.items())
        self.parts = list(zip(X.to_delayed(), y.to_delayed(), strict=True))

    def map_reduce(self, fn, combine, *args):
        """``combine``-tree of ``fn(x_part, y_part, *args)`` over the partitions, computed."""
        import dask

        step = dask.delayed(_call, pure=True)
        return tree_reduce([step(fn, x, y, *args) for x, y in self.parts], combine).compute()

    def map_each(self, fn, *args, each=None):
        """``fn(x_part, y_part, *args[, each[i]])`` of every partition, computed, in order."""
        import dask

        step = dask.delayed(_call, pure=True)
        extra = [()] * len(self.parts) if each is None else [(e,) for e in each]
        return list(dask.compute(*[step(fn, x, y, *args, *e)
                                   for (x, y), e in zip(self.parts, extra, strict=True)]))

    def persist(self, fn, *args) -> DaskResident:
        """``fn(x_part, y_part, *args)`` of every partition, persisted (on the workers under
        a distributed client, else in this process)."""
        import dask

        step = dask.delayed(_call, pure=True)
        return DaskResident(list(dask.persist(*[step(fn, x, y, *args) for x, y in self.parts])))


class DaskResident(Resident):
    """Persisted per-partition states (:meth:`DaskPartitions.persist`)."""

    def __init__(self, states: list):
        self.states = states

    def map_reduce(self, fn, combine, *args):
        """``combine``-tree of ``fn(state, *args)`` over the states, computed (the
        arguments sent once, shared by every task)."""
        import dask

        shared = [dask.delayed(a, traverse=False) for a in args]
        step = dask.delayed(_apply, pure=True)
        return tree_reduce([step(fn, s, *shared) for s in self.states], combine).compute()


def _apply(fn, state, *args):
    return fn(state, *args)


def _call(fn, x, y, *args):
    return fn(x, y, *args)


def collect(X, y) -> DaskPartitions:
    """A Dask ``X`` (DataFrame, or a 2-d array chunked along rows) and ``y`` (Series or 1-d
    array, the same partitions) as partitions of the statistics layer: pass the result to
    ``fit`` (``clf.fit(collect(X, y))``) of an estimator that fits from statistics
    (``TANClassifier``, ``KTANClassifier`` on continuous features, ``NaiveBayesClassifier``
    -- these three also with ``parameters="discriminative"``, whose L-BFGS evaluations are
    reduced over the partitions --, ``GNBClassifier(dependence="gaussian")``, ``GaussianCMI``,
    ``DiscreteCMI``, ``ConditionalGaussianScore``).
    Nothing is computed until the fit.

    Examples
    --------
    A TAN fitted from four Dask partitions is the in-memory fit:

    >>> import numpy as np, pandas as pd, dask.dataframe as dd
    >>> from estimators import TANClassifier
    >>> rng = np.random.default_rng(0)
    >>> df = pd.DataFrame(rng.normal(size=(400, 3)), columns=["a", "b", "c"])
    >>> df["y"] = rng.integers(0, 2, 400)
    >>> ddf = dd.from_pandas(df, npartitions=4)
    >>> dask_fit = TANClassifier().fit(collect(ddf.drop(columns="y"), ddf["y"]))
    >>> memory_fit = TANClassifier().fit(df.drop(columns="y"), df["y"])
    >>> dask_fit.structure_.edges == memory_fit.structure_.edges
    True
    >>> X = df.drop(columns="y")
    >>> bool(np.allclose(dask_fit.predict_proba(X), memory_fit.predict_proba(X), atol=1e-9))
    True
    >>> collect(ddf[["a"]], dd.from_pandas(df["y"], npartitions=2))
    Traceback (most recent call last):
    ...
    ValueError: collect: X has 4 partitions but y has 2; they must be split the same way ...
    """
    return DaskPartitions(X, y)


def tree_reduce(parts: list, combine: Callable, split_every: int = 2):
    """Combine a list of delayed values (or plain values) in a balanced tree.

    Examples
    --------
    >>> import dask, operator
    >>> tree_reduce([dask.delayed(i) for i in range(10)], operator.add).compute()
    45
    """
    import dask

    if not parts:
        raise ValueError("tree_reduce needs at least one partition; got none.")
    step = dask.delayed(lambda *xs: _fold(combine, xs), pure=True)
    level = list(parts)
    while len(level) > 1:
        level = [step(*level[s : s + split_every]) if len(level[s : s + split_every]) > 1
                 else level[s] for s in range(0, len(level), split_every)]
    return level[0]


def _fold(combine: Callable, xs):
    out = xs[0]
    for x in xs[1:]:
        out = combine(out, x)
    return out
