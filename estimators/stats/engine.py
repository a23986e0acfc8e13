"""The one place an estimator's engine is chosen (issue 47): rows in memory, or the
:class:`~estimators.stats.partitions.Partitions` of many row partitions (a Dask DataFrame
through ``estimators.distributed.collect``).

An estimator that can fit from partitions decorates its ``fit`` with
:func:`partition_dispatch`, which sends partitions to its ``_fit_statistics`` (for the
classifiers, the template's: :mod:`estimators.template.joint_likelihood` builds the
statistics once and hands them to the family); neither ``fit`` nor that method tests what
kind of data it got.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from estimators.stats.partitions import Partitions

__all__ = ["partition_dispatch"]


def partition_dispatch(hook: str = "_fit_statistics") -> Callable:
    """Decorate ``fit(self, X, y=None)``: :class:`Partitions` go to ``self.<hook>(X)``,
    anything else to ``fit`` itself.

    Parameters
    ----------
    hook : str, default="_fit_statistics"
        The method fitting from partitions (it takes the partitions and returns ``self``).

    Examples
    --------
    >>> import pandas as pd
    >>> from estimators.stats.partitions import InMemory
    >>> class Counter:
    ...     @partition_dispatch()
    ...     def fit(self, X, y=None):
    ...         self.engine_ = "rows"
    ...         return self
    ...     def _fit_statistics(self, data):
    ...         self.engine_ = "partitions"
    ...         return self
    >>> X, y = pd.DataFrame({"a": [1.0, 2.0]}), pd.Series([0, 1])
    >>> Counter().fit(X, y).engine_, Counter().fit(InMemory(X, y)).engine_
    ('rows', 'partitions')
    """
    def decorate(fit: Callable) -> Callable:
        @functools.wraps(fit)
        def chosen(self, X, y=None, *args, **kwargs):
            if isinstance(X, Partitions):  # statistics merged over row partitions
                return getattr(self, hook)(X)
            return fit(self, X, y, *args, **kwargs)
        return chosen
    return decorate
