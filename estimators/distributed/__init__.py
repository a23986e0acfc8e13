"""Larger than memory: a Dask DataFrame as row partitions of the statistics layer.

:func:`collect` turns a Dask ``X`` and ``y`` into
:class:`~estimators.stats.partitions.Partitions` whose statistics are computed where each
partition lives and merged in a tree (one ``compute`` per pass); the estimators that fit
from additive statistics take it as their ``fit`` input, and run the same code as on one
in-memory partition. :func:`predict_dask` maps a fitted classifier over the partitions.
No estimator imports this package.

Examples
--------
>>> import numpy as np, pandas as pd, dask.dataframe as dd
>>> from estimators.scores import GaussianCMI
>>> rng = np.random.default_rng(0)
>>> df = pd.DataFrame(rng.normal(size=(400, 3)), columns=["a", "b", "c"])
>>> df["y"] = rng.integers(0, 2, 400)
>>> ddf = dd.from_pandas(df, npartitions=4)
>>> W = GaussianCMI().fit(collect(ddf[["a", "b", "c"]], ddf["y"])).edge_matrix()
>>> bool(np.allclose(W, GaussianCMI().fit(df[["a", "b", "c"]], df["y"]).edge_matrix()))
True
"""

from estimators.distributed._collect import DaskPartitions, collect, tree_reduce
from estimators.distributed._predict import predict_dask

__all__ = ["DaskPartitions", "collect", "predict_dask", "tree_reduce"]
