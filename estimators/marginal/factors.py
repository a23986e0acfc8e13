"""Vertex factors of a conditional Gaussian (CG) network, the interface of the mixed engine.

A factor is ``p(x_v | x_P, y)`` for one vertex v with parents P; it is evaluated on arrays
that broadcast against each other with axis 0 = rows and axis 1 = classes (the class is the
index of axis 1, so parameters indexed by class are laid out along it), further axes
belonging to summed variables or quadrature nodes. Two kinds (MATH.md §7):

* categorical v (``continuous = False``): ``n_states`` and ``log_prob(value, parent_values)``
  with integer codes for categorical values;
* continuous v (``continuous = True``): ``regression(parent_values)`` returning
  ``(intercept, coef, var)`` of ``N(x_v; intercept + coef . x_C, var)``, the cell selected by
  the categorical parents' values, ``coef[..., j]`` multiplying ``continuous_parents[j]``.

``parent_values`` maps each parent to its array. Any object with these attributes works
(``typing.Protocol`` below); the three dataclasses are the plain implementations.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np
from scipy.special import logsumexp

if TYPE_CHECKING:
    from estimators.ktan._cpt import DiscreteCPTs
    from estimators.ktan._linear_gaussian import LinearGaussianCPDs

_LOG_2PI = np.log(2.0 * np.pi)


class CategoricalFactor(Protocol):
    vertex: int
    parents: tuple[int, ...]
    n_states: int
    continuous: bool

    def log_prob(self, value: np.ndarray, parent_values: Mapping[int, np.ndarray]) -> np.ndarray:
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
    return table[tuple(np.broadcast_arrays(y, *(np.asarray(i, dtype=np.intp) for i in indices)))]


@dataclass(frozen=True)
class TableFactor:
    """``P(x_v | x_P, y)`` from a log-table of shape ``(n_classes, r_p1, ..., r_v)`` over
    categorical parents (the layout of :class:`estimators.ktan._cpt.DiscreteCPTs`);
    ``n_states`` values of v are summed when v is missing (the table may hold more codes)."""

    vertex: int
    parents: tuple[int, ...]
    log_table: np.ndarray
    n_states: int
    continuous: bool = False

    def log_prob(self, value, parent_values):
        idx = [parent_values[p] for p in self.parents] + [value]
        return gather(self.log_table, idx, max(np.ndim(i) for i in idx))


class _CellParents:
    """Parents of a CG factor: the categorical ones (they select the cell), then the
    continuous ones."""

    categorical_parents: tuple[int, ...]
    continuous_parents: tuple[int, ...]

    @property
    def parents(self) -> tuple[int, ...]:
        return (*self.categorical_parents, *self.continuous_parents)


@dataclass(frozen=True)
class LinearGaussianFactor(_CellParents):
    """``N(x_v; a_{d,y} + b_{d,y} . x_C, s2_{d,y})``: a regression per cell ``d`` of the
    categorical parents ``categorical_parents`` and class y.

    ``intercept`` and ``var`` have shape ``(n_classes, r_d1, ..., r_dk)``, ``coef`` the same
    plus one axis over ``continuous_parents``.
    """

    vertex: int
    categorical_parents: tuple[int, ...]
    continuous_parents: tuple[int, ...]
    intercept: np.ndarray
    coef: np.ndarray
    var: np.ndarray
    continuous: bool = True

    def regression(self, parent_values):
        idx = [parent_values[p] for p in self.categorical_parents]
        ndim = max([np.ndim(v) for v in parent_values.values()] + [2])
        return (
            gather(self.intercept, idx, ndim),
            gather(self.coef, idx, ndim),
            gather(self.var, idx, ndim),
        )


@dataclass(frozen=True)
class BayesFactor(_CellParents):
    """``p(x_v = c | x_C, d, y) ∝ p(c | d, y) N(x_C; mu_{c,d,y}, Sigma_{c,d,y})``: a
    categorical vertex with continuous parents, by Bayes' rule on its CG joint (MATH.md §7).

    ``log_prior`` has shape ``(n_classes, r_d..., r_v)`` (normalised over the last axis),
    ``mean`` that plus ``(n_cont,)``, ``cov`` plus ``(n_cont, n_cont)``.
    """

    vertex: int
    categorical_parents: tuple[int, ...]
    continuous_parents: tuple[int, ...]
    log_prior: np.ndarray
    mean: np.ndarray
    cov: np.ndarray
    continuous: bool = False

    @property
    def n_states(self) -> int:
        return self.log_prior.shape[-1]

    def log_prob(self, value, parent_values):
        idx = [parent_values[p] for p in self.categorical_parents]
        xs = [np.asarray(parent_values[p], dtype=float) for p in self.continuous_parents]
        ndim = max([np.ndim(value), *(np.ndim(v) for v in parent_values.values())])
        xs = [x.reshape(x.shape + (1,) * (ndim - x.ndim)) for x in xs]
        x = np.stack(np.broadcast_arrays(*xs), axis=-1)[..., None, :]  # (..., 1, n)
        prec = np.linalg.inv(self.cov)
        logdet = np.linalg.slogdet(self.cov)[1]
        resid = x - gather(self.mean, idx, ndim)  # (..., r_v, n)
        quad = np.einsum("...i,...ij,...j->...", resid, gather(prec, idx, ndim), resid)
        log_joint = (
            gather(self.log_prior, idx, ndim)
            - 0.5 * (quad + gather(logdet, idx, ndim) + len(xs) * _LOG_2PI)
        )
        log_post = log_joint - logsumexp(log_joint, axis=-1, keepdims=True)
        value = np.asarray(value, dtype=np.intp)
        full = np.broadcast_shapes(log_post.shape[:-1], value.shape)
        log_post = np.broadcast_to(log_post, full + log_post.shape[-1:])
        return np.take_along_axis(log_post, np.broadcast_to(value, full)[..., None], axis=-1)[..., 0]

    def gaussian_numerator(self, value, parent_values):
        """With one continuous parent x_q: ``(ln p(value | d, y), mu, var)`` of the numerator
        ``p(value | d, y) N(x_q; mu, var)`` of Bayes' rule, broadcast like :meth:`log_prob`.
        The mixed engine absorbs it exactly into the Gauss-Hermite rule of x_q."""
        if len(self.continuous_parents) != 1:
            raise ValueError(
                f"gaussian_numerator needs one continuous parent; vertex {self.vertex} has "
                f"{len(self.continuous_parents)}."
            )
        idx = [parent_values[p] for p in self.categorical_parents] + [value]
        ndim = max(np.ndim(v) for v in (value, *parent_values.values()))
        return (
            gather(self.log_prior, idx, ndim),
            gather(self.mean[..., 0], idx, ndim),
            gather(self.cov[..., 0, 0], idx, ndim),
        )


def factors_from_cpts(cpts: DiscreteCPTs) -> list[TableFactor]:
    """The factors of a fitted discrete k-TAN (``KTANClassifier.cpts_``).

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.ktan._cpt import fit_cpts
    >>> cpts = fit_cpts(np.array([[0, 1], [1, 1]]), np.array([0, 1]), 2, np.array([2, 2]),
    ...                 [(), (0,)], 1.0)
    >>> [(f.vertex, f.parents, f.n_states) for f in factors_from_cpts(cpts)]
    [(0, (), 2), (1, (0,), 2)]
    """
    return [
        TableFactor(v, tuple(cpts.parents[v]), cpts.log_tables[v], int(cpts.n_levels[v]))
        for v in range(len(cpts.parents))
    ]


def factors_from_linear_gaussian(cpds: LinearGaussianCPDs) -> list[LinearGaussianFactor]:
    """The factors of a fitted linear-Gaussian k-TAN (``KTANClassifier.cpds_``).

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.ktan._linear_gaussian import LinearGaussianCPDs
    >>> cpds = LinearGaussianCPDs(((), (0,)), (np.array([[1.0]]), np.array([[-5.0, 0.5]])),
    ...                           np.array([[16.0, 16.0]]))
    >>> f = factors_from_linear_gaussian(cpds)[1]
    >>> f.continuous_parents, f.coef.tolist()
    ((0,), [[0.5]])
    """
    return [
        LinearGaussianFactor(
            v, (), tuple(pa), cpds.coef[v][:, 0], cpds.coef[v][:, 1:], cpds.var[:, v]
        )
        for v, pa in enumerate(cpds.parents)
    ]
