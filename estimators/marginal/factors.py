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
from typing import Protocol

import numpy as np
from scipy.special import logsumexp

from estimators.scores import _cg_factors as cg

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
    categorical parents (axes in the order of ``parents``);
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


def _by_configuration(factor, array: np.ndarray) -> np.ndarray:
    """``array`` of a fitted CG factor, shape (U + 1, m, ...) over the U training
    configurations of its categorical parents plus an "unseen" slot, laid out as
    (m, r_d1, ..., r_dk, ...) over every configuration (an unseen one gets the slot)."""
    codes = np.arange(int(np.prod(factor.radix)))
    pos = np.minimum(np.searchsorted(factor.configs, codes), factor.n_configs - 1)
    u = np.where(factor.configs[pos] == codes, pos, factor.n_configs)
    full = np.moveaxis(array[u], 1, 0)  # (m, P, ...)
    return full.reshape(full.shape[:1] + tuple(int(r) for r in factor.radix) + full.shape[2:])


def factors_from_network(network) -> list:
    """The factors of a fitted (k-)TAN's conditional Gaussian network
    (``KTANClassifier.network_``, fitted by :func:`estimators.scores.fit_cg_factor`).

    Vertex ``i`` is the ``i``-th modelled column in column order (``sorted(network.columns)``:
    constant columns are not modelled), so the engine's X is the encoded table restricted
    to those columns. CPTs become :class:`TableFactor`, linear-Gaussian regressions
    :class:`LinearGaussianFactor` and Bayes-rule factors :class:`BayesFactor`.

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.ktan import TANClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = np.column_stack([rng.integers(0, 2, 40), rng.integers(0, 3, 40)])
    >>> clf = TANClassifier().fit(X, rng.integers(0, 2, 40))
    >>> [(f.vertex, f.n_states) for f in factors_from_network(clf.network_)]
    [(0, 2), (1, 3)]
    """
    vertex = {v: i for i, v in enumerate(sorted(network.columns))}
    out = {}
    for v, f in zip(network.columns, network.factors, strict=True):
        i = vertex[v]
        cat = tuple(vertex[p] for p in f.categorical_parents)
        cont = tuple(vertex[p] for p in f.continuous_parents)
        if isinstance(f, cg.CategoricalFactor):
            out[i] = TableFactor(i, cat, _by_configuration(f, f.log_cpt), int(f.log_cpt.shape[2]))
        elif isinstance(f, cg.BayesCategoricalFactor):
            out[i] = BayesFactor(i, cat, cont, _by_configuration(f, f.log_cpt),
                                 _by_configuration(f, f.mean),
                                 _by_configuration(f, np.linalg.inv(f.precision)))
        else:
            out[i] = LinearGaussianFactor(i, cat, cont, _by_configuration(f, f.intercept),
                                          _by_configuration(f, f.coef),
                                          _by_configuration(f, f.var))
    return [out[i] for i in range(len(out))]
