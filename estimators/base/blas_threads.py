"""One BLAS thread for a block of small or latency-bound linear algebra.

OpenBLAS's threads spin while they wait for work; on a busy machine a product that one
core finishes in milliseconds then waits for the other threads' time slices (L-BFGS-B's
iterations took ~7 ms instead of ~50 us; the copula GNB's class correlation of 60,000 x 50
normal scores took 0.51 s on two threads against 0.07 s on one at load 13 on 2 cores).
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from threadpoolctl import ThreadpoolController

__all__ = ["one_blas_thread"]

_CONTROLLER: list[ThreadpoolController] = []


def one_blas_thread() -> AbstractContextManager:
    """A context in which BLAS runs on one thread (one :class:`ThreadpoolController` per
    process: finding the libraries takes ~6 ms, more than a small fit).

    Examples
    --------
    >>> import numpy as np
    >>> with one_blas_thread():
    ...     float((np.ones((3, 2)).T @ np.ones((3, 2)))[0, 0])
    3.0
    """
    if not _CONTROLLER:
        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0].limit(limits=1, user_api="blas")
