"""Vertex factors of a conditional Gaussian (CG) network, the interface of the mixed engine.

A factor is ``p(x_v | x_P, y)`` for one vertex v with parents P; it is evaluated on arrays
that broadcast against each other with axis 0 = rows and axis 1 = classes (the class is the
index of axis 1, so parameters indexed by class are laid out along it), further axes
belonging to summed variables or quadrature nodes. Two kinds (MATH.md §7):

* categorical v (``continuous = False``): ``n_states`` and
  ``log_prob_values(value, parent_values)``
  with integer codes for categorical values;
* continuous v (``continuous = True``): ``regression(parent_values)`` returning
  ``(intercept, coef, var)`` of ``N(x_v; intercept + coef . x_C, var)``, the cell selected by
  the categorical parents' values, ``coef[..., j]`` multiplying ``continuous_parents[j]``.

``parent_values`` maps each parent to its array. Any object with these attributes works
(``typing.Protocol`` below); the fitted factors of :mod:`estimators.network.factors`
implement it (this engine imports nothing from there).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

import numpy as np


class CategoricalFactor(Protocol):
    vertex: int
    parents: tuple[int, ...]
    n_states: int
    continuous: bool

    def log_prob_values(self, value: np.ndarray, parent_values: Mapping[int, np.ndarray]) -> np.ndarray:
        ...


class ContinuousFactor(Protocol):
    vertex: int
    parents: tuple[int, ...]
    continuous_parents: tuple[int, ...]
    continuous: bool

    def regression(
        self, parent_values: Mapping[int, np.ndarray]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        ...


def class_index(ndim: int, n_classes: int) -> np.ndarray:
    """``arange(n_classes)`` laid along axis 1 of an ``ndim``-axis array."""
    return np.arange(n_classes).reshape((1, n_classes) + (1,) * (ndim - 2))


def gather(table: np.ndarray, indices: list[np.ndarray], ndim: int) -> np.ndarray:
    """``table[y, indices...]`` broadcast over rows, classes and summed axes; trailing axes
    of ``table`` beyond the indexed ones are kept at the end."""
    y = class_index(ndim, table.shape[0])
    # numpy's advanced indexing broadcasts the index arrays itself (the same result as
    # broadcasting them first, without np.broadcast_arrays' ~15 us per call)
    return table[(y, *(np.asarray(i, dtype=np.intp) for i in indices))]


def log_sum_exp(a: np.ndarray, axis: int) -> np.ndarray:
    """``ln sum exp(a)`` along ``axis`` (kept, size 1), stable, -inf where every term is
    -inf (scipy's ``logsumexp`` without its per-call array-API overhead, which dominates on
    the engine's many small tables).

    Examples
    --------
    >>> import numpy as np
    >>> log_sum_exp(np.log([[1.0, 3.0], [2.0, 2.0]]), 1).ravel().round(12).tolist()
    [1.38629436112, 1.38629436112]
    """
    n = a.shape[axis]
    if 1 < n < 8:  # a short axis slice by slice: the same numbers, bit for bit
        return _log_sum_exp_short(a, axis)
    top = np.max(a, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        return np.log(np.sum(np.exp(a - top), axis=axis, keepdims=True)) + top


def _log_sum_exp_short(a: np.ndarray, axis: int) -> np.ndarray:
    """:func:`log_sum_exp` along a short axis (2 to 7 entries) as elementwise operations on
    its slices: the maximum is exact and the sum adds the terms in index order, as numpy's
    reduction of fewer than 8 entries does (from 8 on it sums pairwise), so the result is
    the same bit for bit -- ten times faster on the engine's large tables whose last axis
    is a binary feature (a reduction over a short strided axis is slow)."""
    index = [slice(None)] * a.ndim
    parts = []
    for i in range(a.shape[axis]):
        index[axis] = slice(i, i + 1)
        parts.append(a[tuple(index)])
    top = parts[0]
    for p in parts[1:]:
        top = np.maximum(top, p)
    top = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        total = np.exp(parts[0] - top)
        for p in parts[1:]:
            total += np.exp(p - top)
        return np.log(total) + top
