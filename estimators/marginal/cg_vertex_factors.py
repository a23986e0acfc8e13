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


