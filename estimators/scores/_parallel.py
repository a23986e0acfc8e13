"""Chunked parallel evaluation of score blocks through joblib.

The same code runs on one core, on all local cores, or on a Dask cluster under
``joblib.parallel_config(backend="dask")``: the work list is cut into a few large chunks
(a small multiple of the number of workers, never one task per pair), each chunk is one
joblib task ``func(data, chunk)``, and the results are concatenated in order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs

from estimators.base.progress import progress, progress_enabled

__all__ = ["run_chunked"]

#: chunks per worker: enough to balance uneven chunks, few enough to keep overhead low
CHUNKS_PER_WORKER = 4
#: chunks of a one-worker run when a progress bar is shown (otherwise one vectorised call)
PROGRESS_CHUNKS = 20
#: fewer items than this are one vectorised call without a bar even when progress is on:
#: a search that scores hyperedges one at a time (the greedy k-tree of k-GNB) would
#: otherwise open tens of thousands of bars (kr_vs_kp: 70,000, a quarter of the fit)
PROGRESS_MIN_ITEMS = 2000


def run_chunked(
    func: Callable[[object, Sequence], np.ndarray],
    data: object,
    items: Sequence,
    n_jobs: int | None,
) -> np.ndarray:
    """Evaluate ``func(data, chunk)`` over contiguous chunks of ``items``.

    Parameters
    ----------
    func : callable
        A module-level function ``func(data, chunk) -> ndarray of len(chunk)`` (picklable).
    data : object
        The shared payload, passed unchanged to every task; under the Dask backend pass the
        same object to ``parallel_config(scatter=[data])`` to ship it once per worker.
    items : sequence or ndarray
        The work list (rows of an index array, or tuples).
    n_jobs : int or None
        joblib's ``n_jobs``; ``None`` means the active ``parallel_config`` (1 by default).

    Returns
    -------
    ndarray of shape (len(items),)

    Examples
    --------
    >>> import numpy as np
    >>> run_chunked(lambda d, c: np.asarray(c) * d, 2.0, [1, 2, 3], n_jobs=1)
    array([2., 4., 6.])
    """
    n = len(items)
    if n == 0:
        return np.zeros(0)
    workers = effective_n_jobs(n_jobs)
    if workers == 1 and (n < PROGRESS_MIN_ITEMS or not progress_enabled()):
        return np.asarray(func(data, items), dtype=float)
    n_chunks = min(n, CHUNKS_PER_WORKER * workers if workers > 1 else PROGRESS_CHUNKS)
    bounds = np.linspace(0, n, n_chunks + 1).astype(int)
    chunks = [items[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
    tasks = progress(chunks, f"scores ({n} items)", unit="chunk")
    if workers == 1:
        parts = [func(data, chunk) for chunk in tasks]
    else:
        parts = Parallel(n_jobs=n_jobs, return_as="generator")(
            delayed(func)(data, chunk) for chunk in tasks)
    return np.concatenate([np.asarray(p, dtype=float) for p in parts])
