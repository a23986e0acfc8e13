"""Whether an input is a Dask collection, without importing dask when it is not loaded."""

from __future__ import annotations

import sys

__all__ = ["is_dask"]


def is_dask(obj) -> bool:
    """True for a dask DataFrame, Series or array (any Dask collection).

    Examples
    --------
    >>> import numpy as np
    >>> is_dask(np.zeros(3))
    False
    """
    if "dask" not in sys.modules:  # a Dask collection cannot exist before dask is imported
        return False
    from dask.base import is_dask_collection

    return is_dask_collection(obj)
