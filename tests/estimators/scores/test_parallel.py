"""Chunked parallel scoring: joblib processes and a local Dask cluster equal the serial result."""

import numpy as np
import pytest
from joblib import parallel_config

from estimators.scores._parallel import run_chunked

from .conftest import SCORES, chain_data

ITEMS = [("x0", ("x1", "x2")), ("x4", ("x3",)), ("x2", ("x0", "x1", "x3")), ("x1", ("x4", "x0"))]


def _fit(kind, n_jobs):
    X, y = chain_data(n=300, d=8, discrete=(kind == "discrete"))
    return SCORES[kind](n_jobs=n_jobs).fit(X, y)


def _items(kind):
    return ITEMS if kind != "kde" else [(v, p[:1]) for v, p in ITEMS]


def _record_chunks():
    calls = []

    def func(data, chunk):
        calls.append(len(chunk))
        return np.asarray(chunk, dtype=float) * data

    return calls, func


def test_chunks_not_one_task_per_item():
    calls, func = _record_chunks()
    with parallel_config(backend="threading"):
        out = run_chunked(func, 3.0, list(range(1000)), n_jobs=2)
    np.testing.assert_array_equal(out, np.arange(1000) * 3.0)
    assert len(calls) == 8 and sum(calls) == 1000  # 4 chunks per worker


@pytest.mark.parametrize("kind", ["gaussian", "discrete", "kde"])
def test_loky_equals_serial(kind):
    serial = _fit(kind, 1)
    par = _fit(kind, 2)
    np.testing.assert_array_equal(par.edge_matrix(), serial.edge_matrix())
    np.testing.assert_array_equal(par.score_many(_items(kind)), serial.score_many(_items(kind)))


def test_dask_cluster_equals_serial():
    distributed = pytest.importorskip("dask.distributed")
    fitted = {kind: (_fit(kind, 1), _fit(kind, -1)) for kind in ("copula-kernel", "discrete", "kde")}
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        for kind, (serial, par) in fitted.items():
            with parallel_config(backend="dask", scatter=[par.data_]):
                W = par.edge_matrix()
                many = par.score_many(_items(kind))
            np.testing.assert_array_equal(W, serial.edge_matrix())
            np.testing.assert_array_equal(many, serial.score_many(_items(kind)))
        assert len(client.scheduler_info()["workers"]) == 2
