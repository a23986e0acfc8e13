"""The factors ``p(x_v | x_P, y)`` of a parent-set network: one hierarchy (MATH.md §7-§8).

Every factor is a :class:`Factor`: a vertex, its categorical and continuous feature parents
and the training configurations of the categorical ones. It serves both uses of a fitted
network from the same parameters:

* **evaluation** on an encoded table: :meth:`Factor.log_prob` (every row and class) and
  :meth:`Factor.log_prob_at` (given class codes);
* **exact marginalisation** of empty cells: the factor *is* a vertex of the engine of
  :mod:`estimators.marginal` (its protocol in :mod:`estimators.marginal.cg_vertex_factors`):
  ``vertex``, ``parents``, ``continuous``, and ``n_states`` / :meth:`log_prob_values` for a
  categorical vertex or :meth:`regression` for a continuous one, on dense arrays over the
  categorical parents' levels computed once from the fitted cells (:meth:`Factor.dense`).
  :meth:`Factor.relabel` renumbers vertices to the engine's positions.

The conditional Gaussian kinds are fitted by :func:`estimators.network.fitting.fit_cg_factor`.

**Extension point** (the semiparametric copula/CKDE factors): subclass :class:`Factor`,
implement :meth:`Factor._rows` (``ln p(x_v | x_P, y)`` of the rows whose vertex and parents
are observed, at given classes) and set ``marginalisable = False`` unless the factor also
implements the engine protocol; :class:`~estimators.network.model.CGNetwork` evaluates any
factor through :meth:`Factor.log_prob`.

The conditional Gaussian factors:

For a vertex v with feature parents P = C ∪ D (C continuous, D categorical), class y, and
``u`` the configuration of D (one configuration when D = ∅):

* **v continuous** (:class:`LinearGaussianFactor`):
  ``N(x_v; a_{u,y} + b_{u,y}^T x_C, s2_{u,y})``, the least-squares regression in cell (u, y)
  with a ridge ``ridge * n * diag(var(x_C))`` on the slopes (makes collinear or constant
  parents harmless; changes the fit by O(ridge^2) in the residual sum of squares; with
  ``ridge = 0`` the minimum-norm least-squares slopes), and the ML residual variance
  floored at ``var_smoothing * var(x_v)`` (a floor, not an addition, so non-degenerate
  cells keep their ML variance) or, with ``var_floor``, plus that absolute amount.
* **v categorical, C = ∅** (:class:`CategoricalFactor`): the CPT
  ``(N_{u,y,c} + alpha) / (N_{u,y} + K alpha)``. With ``alpha = 0`` a cell without rows uses
  ``p(c | y)``, then ``p(c)``.
* **v categorical, C ≠ ∅** (:class:`BayesCategoricalFactor`): Bayes' rule on the CG joint,
  ``p(c | x_C, u, y) = p(c | u, y) N(x_C; mu_{c,u,y}, S_{c,u,y}) / sum_c' (same)``, with the
  CPT above as ``p(c | u, y)`` and the ML covariance plus
  ``max(ridge, var_smoothing) * diag(var(x_C))``. It sums to 1 over c for every x_C.

**Pooling.** A Gaussian cell with fewer than ``n0 = max(min_cell_rows, |C| + 2)`` rows (at
least one row per parameter of the regression: intercept, ``|C|`` slopes, variance) uses the
estimate of a coarser cell: (u, y) -> y -> all rows for continuous v, and
(c, u, y) -> (c, y) -> c -> all rows for the Gaussians of the Bayes-rule factor. A cell with
enough rows in which x_v (a coordinate of x_C for the Bayes-rule factor) is constant up to
the variance floor keeps its means but borrows the first such coarser cell's covariance
(unless ``pool_constant=False``, as the scores fit them): its floored variance made the
factor arbitrarily confident (-1e10 nats on oj for a value unseen in such a cell). Parent
configurations not seen in training fall back the same way (their cell has no rows).

**Shrinkage** (``shrink=True``, the classifiers' factors fitted on available cases, i.e.
whose family has a missing cell in some training row): every Gaussian cell
is instead blended with ``n0`` pseudo-rows of its (blended) coarser cell,
:func:`~estimators.stats.moments.shrunk` -- the posterior moments of a conjugate
Normal-inverse-Wishart prior centred on the coarser cell. A cell with n rows keeps its
estimate up to O(n0 / n); on the few rows of an available-case cell (MATH.md §8) a
regression on 2 or 3 parents no longer has a residual variance fitted on two or three
degrees of freedom (ML residual sds of 0.07 sd(x_v) on 5 rows made k-TAN's log-loss 4.07 on
wine with 40 % of the cells missing; 0.58 with shrinkage, imputation 0.41:
benchmarks/results/missing.md).

**Available cases** (MATH.md §8): a factor is fitted on the rows where v, every parent and y
are observed. ``log_prob`` returns 0 where x_v is missing (the factor integrates to 1) and NaN
where x_v is observed but a parent is not: that row must be marginalised on the structure.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import ClassVar

import numpy as np

from estimators.base.log_sum_exp import log_sum_exp
from estimators.columns import EncodedColumns
from estimators.marginal.cg_vertex_factors import gather
from estimators.stats.gaussian import LOG_2PI, gaussian_log_joint, normal_log_density
from estimators.stats.moments import parent_configurations

__all__ = ["LOG_2PI", "BayesCategoricalFactor", "CategoricalFactor", "Factor",
           "LinearGaussianFactor"]

#: elements per gathered chunk in the Bayes-rule evaluation (bounds memory)
_CHUNK = 1 << 22


@dataclass(eq=False)
class Factor(ABC):
    """``p(x_v | x_P, y)`` of one vertex: what every factor shares (the base of the
    hierarchy; the extension point of the module docstring).

    Per-cell arrays of a subclass are laid out ``(U + 1, n_classes, ...)`` over the ``U``
    training configurations ``configs`` of the categorical parents (mixed-radix codes with
    ``radix``) plus an "unseen" slot ``U``.
    """

    #: True for a continuous vertex (the engine then calls :meth:`regression`)
    continuous: ClassVar[bool] = False
    #: the factor implements the marginalisation engine's protocol
    marginalisable: ClassVar[bool] = True

    v: int
    continuous_parents: tuple
    categorical_parents: tuple
    n_classes: int
    radix: np.ndarray  # levels of each categorical parent
    configs: np.ndarray  # sorted training configurations of D
    n_rows: int = field(default=0)  # complete training rows

    @property
    def vertex(self) -> int:
        """The vertex (the engine's name for ``v``)."""
        return self.v

    @property
    def parents(self) -> tuple:
        """Categorical parents, then continuous ones (the engine's order)."""
        return (*self.categorical_parents, *self.continuous_parents)

    def relabel(self, vertex_of: Mapping[int, int]) -> Factor:
        """A copy with the vertex and parents renamed by ``vertex_of`` (e.g. encoded
        columns to the engine's positions); the parameters are shared."""
        return dataclasses.replace(
            self, v=vertex_of[self.v],
            continuous_parents=tuple(vertex_of[p] for p in self.continuous_parents),
            categorical_parents=tuple(vertex_of[p] for p in self.categorical_parents))

    def dense(self, array: np.ndarray) -> np.ndarray:
        """A per-cell array ``(U + 1, m, ...)`` laid out ``(m, r_1, ..., r_k, ...)`` over
        every configuration of the categorical parents (an unseen one takes slot U): the
        layout of the marginalisation engine."""
        codes = np.arange(int(np.prod(self.radix)))
        pos = np.minimum(np.searchsorted(self.configs, codes), self.n_configs - 1)
        u = np.where(self.configs[pos] == codes, pos, self.n_configs)
        full = np.moveaxis(array[u], 1, 0)  # (m, P, ...)
        return full.reshape(full.shape[:1] + tuple(int(r) for r in self.radix) + full.shape[2:])

    @staticmethod
    def _cells(array, n_categorical: int) -> np.ndarray:
        """The inverse of :meth:`dense`: ``(m, r_1, ..., r_k, ...)`` to ``(P + 1, m, ...)``
        over all P configurations (the unseen slot, never reached, NaN)."""
        array = np.asarray(array, dtype=float)
        m, radix = array.shape[0], array.shape[1:1 + n_categorical]
        flat = np.moveaxis(array.reshape((m, int(np.prod(radix))) + array.shape[1 + n_categorical:]),
                           1, 0)
        return np.concatenate([flat, np.full((1,) + flat.shape[1:], np.nan)])

    @staticmethod
    def _dense_common(vertex, categorical_parents, continuous_parents, array) -> dict:
        radix = np.asarray(np.shape(array)[1:1 + len(categorical_parents)], dtype=np.int64)
        return dict(v=int(vertex), categorical_parents=tuple(categorical_parents),
                    continuous_parents=tuple(continuous_parents),
                    n_classes=int(np.shape(array)[0]), radix=radix,
                    configs=np.arange(int(np.prod(radix)), dtype=np.int64))

    @property
    def n_configs(self) -> int:
        """Configurations of D seen in training (slot ``n_configs`` is "unseen")."""
        return int(self.configs.size)

    def config_index(self, enc: EncodedColumns) -> np.ndarray:
        """Index 0..U-1 of each row's D configuration; U when unseen or a parent missing."""
        code = parent_configurations(enc.codes[:, list(self.categorical_parents)], self.radix)
        pos = np.minimum(np.searchsorted(self.configs, code), self.n_configs - 1)
        return np.where((code >= 0) & (self.configs[pos] == code), pos, self.n_configs)

    def _observed(self, enc: EncodedColumns) -> tuple[np.ndarray, np.ndarray]:
        obs = enc.observed
        return obs[:, self.v], obs[:, list(self.continuous_parents + self.categorical_parents)
                                   ].all(axis=1)

    @abstractmethod
    def _rows(self, enc: EncodedColumns, classes: np.ndarray) -> np.ndarray:
        """``ln p(x_v | x_P, y)`` of the rows whose vertex and parents are observed."""

    def log_prob_at(self, enc: EncodedColumns, classes: np.ndarray) -> np.ndarray:
        """``ln p(x_v | x_P, y)`` at the given class codes.

        Parameters
        ----------
        enc : EncodedColumns
        classes : ndarray of int, shape (n,) or (n, q)

        Returns
        -------
        ndarray of the shape of ``classes``
        """
        classes = np.asarray(classes, dtype=np.int64)
        flat = classes.ndim == 1
        cls = classes[:, None] if flat else classes
        v_obs, p_obs = self._observed(enc)
        out = np.zeros(cls.shape)
        ok = v_obs & p_obs
        if ok.any():
            out[ok] = self._rows(enc.take(ok), cls[ok])
        out[v_obs & ~p_obs] = np.nan
        return out[:, 0] if flat else out

    def log_prob(self, enc: EncodedColumns) -> np.ndarray:
        """``ln p(x_v | x_P, y)`` for every row and class, shape (n, n_classes)."""
        n = enc.codes.shape[0]
        return self.log_prob_at(enc, np.broadcast_to(np.arange(self.n_classes), (n, self.n_classes)))


@dataclass(eq=False)
class CategoricalFactor(Factor):
    """The CPT ``p(x_v = c | u, y)``; ``log_cpt`` has shape (U + 1, m, K).

    Examples
    --------
    A TAN on a discrete table has one CPT per feature; each row of it sums to 1:

    >>> import numpy as np
    >>> from estimators import TANClassifier, load_dataset
    >>> X, y = load_dataset("balance_scale")
    >>> model = TANClassifier().fit(X.astype(str), y)
    >>> factor = model.network_.factors[1]
    >>> type(factor).__name__, factor.vertex, factor.parents, factor.log_cpt.shape
    ('CategoricalFactor', ..., (...,), (6, 3, 5))
    >>> bool(np.allclose(np.exp(factor.log_cpt).sum(axis=-1), 1.0))
    True
    """

    log_cpt: np.ndarray = field(default=None)

    def _rows(self, enc, classes):
        u = self.config_index(enc)[:, None]
        return self.log_cpt[u, classes, enc.codes[:, self.v][:, None]]

    @classmethod
    def from_dense(cls, vertex: int, parents, log_table) -> CategoricalFactor:
        """The factor of a log-table ``(n_classes, r_p1, ..., r_pk, r_v)`` over categorical
        ``parents`` (axes in their order), e.g. for the engine's tests."""
        parents = tuple(parents)
        return cls(**cls._dense_common(vertex, parents, (), log_table),
                   log_cpt=cls._cells(log_table, len(parents)))

    @property
    def n_states(self) -> int:
        """Values of v (summed when v is missing)."""
        return int(self.log_cpt.shape[2])

    @cached_property
    def log_table(self) -> np.ndarray:
        """The CPT ``(m, r_p1, ..., r_pk, r_v)`` over every parent configuration."""
        return self.dense(self.log_cpt)

    def log_prob_values(self, value, parent_values: Mapping) -> np.ndarray:
        """``ln p(value | parent_values, y)`` broadcast with rows on axis 0 and classes on
        axis 1 (the engine's protocol)."""
        idx = [parent_values[p] for p in self.parents] + [value]
        return gather(self.log_table, idx, max(np.ndim(i) for i in idx))


@dataclass(eq=False)
class LinearGaussianFactor(Factor):
    """``N(x_v; a + b^T x_C, s2)`` per cell; arrays of shape ``(U + 1, m[, |C|])``.

    Examples
    --------
    ``c = 2 a + noise``: the factor of ``c`` given its parent ``a`` has slope about 2 in both
    classes:

    >>> import numpy as np, pandas as pd
    >>> from estimators import TANClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = pd.DataFrame({"a": rng.normal(size=400)})
    >>> X["c"] = 2 * X["a"] + rng.normal(scale=0.5, size=400)
    >>> y = (X["a"] + rng.normal(size=400) > 0).astype(int)
    >>> factor = TANClassifier().fit(X, y).network_.factors[1]
    >>> type(factor).__name__, factor.vertex, factor.parents
    ('LinearGaussianFactor', 1, (0,))
    >>> factor.coef[0, :, 0].round(1).tolist(), factor.var[0].round(2).tolist()
    ([2.0, 2.1], [0.24, 0.26])
    """

    intercept: np.ndarray = field(default=None)
    coef: np.ndarray = field(default=None)
    var: np.ndarray = field(default=None)

    continuous: ClassVar[bool] = True

    @classmethod
    def from_dense(cls, vertex: int, categorical_parents, continuous_parents, intercept, coef,
                   var) -> LinearGaussianFactor:
        """The factor of dense regressions: ``intercept`` and ``var`` of shape
        ``(n_classes, r_d1, ..., r_dk)``, ``coef`` the same plus an axis over
        ``continuous_parents``.

        Examples
        --------
        >>> import numpy as np
        >>> f = LinearGaussianFactor.from_dense(1, (), (0,), np.array([0.5]),
        ...                                     np.array([[2.0]]), np.array([1.0]))
        >>> [a.tolist() for a in f.regression({0: np.array([[1.0]])})]
        [[[0.5]], [[[2.0]]], [[1.0]]]
        """
        k = len(tuple(categorical_parents))
        return cls(**cls._dense_common(vertex, categorical_parents, continuous_parents,
                                       intercept),
                   intercept=cls._cells(intercept, k), coef=cls._cells(coef, k),
                   var=cls._cells(var, k))

    @cached_property
    def _dense_regression(self) -> tuple:
        return self.dense(self.intercept), self.dense(self.coef), self.dense(self.var)

    def regression(self, parent_values: Mapping) -> tuple:
        """``(intercept, coef, var)`` of ``N(x_v; intercept + coef . x_C, var)`` in the cell
        of the categorical parents' values (the engine's protocol)."""
        idx = [parent_values[p] for p in self.categorical_parents]
        ndim = max([np.ndim(v) for v in parent_values.values()] + [2])
        return tuple(gather(a, idx, ndim) for a in self._dense_regression)

    def _rows(self, enc, classes):
        u = self.config_index(enc)[:, None]
        xc = enc.values[:, list(self.continuous_parents)]
        mu = self.intercept[u, classes] + np.einsum("nqc,nc->nq", self.coef[u, classes], xc)
        s2 = self.var[u, classes]
        return normal_log_density(enc.values[:, self.v][:, None] - mu, s2)


@dataclass(eq=False)
class BayesCategoricalFactor(Factor):
    """``p(c | x_C, u, y)`` by Bayes' rule; ``log_cpt`` ``(U + 1, m, K)``, ``mean``
    ``(U + 1, m, K, |C|)``, ``precision`` ``(U + 1, m, K, |C|, |C|)``, ``logdet``
    ``(U + 1, m, K)``.

    Examples
    --------
    A categorical feature with a continuous parent:

    >>> import numpy as np, pandas as pd
    >>> from estimators import TANClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = pd.DataFrame({"a": rng.normal(size=200), "b": rng.choice(["u", "v"], 200)})
    >>> X["c"] = 2 * X["a"] + rng.normal(size=200)
    >>> y = (X["a"] + rng.normal(size=200) > 0).astype(int)
    >>> network = TANClassifier().fit(X, y).network_
    >>> factor = next(f for f in network.factors if f.vertex == 1)  # "b", parent "c"
    >>> type(factor).__name__, factor.continuous_parents
    ('BayesCategoricalFactor', (2,))
    >>> factor.log_cpt.shape, factor.mean.shape  # (U + 1, m, K), (U + 1, m, K, |C|)
    ((2, 2, 2), (2, 2, 2, 1))
    """

    log_cpt: np.ndarray = field(default=None)
    mean: np.ndarray = field(default=None)
    precision: np.ndarray = field(default=None)
    logdet: np.ndarray = field(default=None)

    def _log_joint(self, u, classes, xc):
        """``ln p(c | u, y) + ln N(x_C; mu_c, S_c)`` for every c: shape (n, q, K)."""
        return gaussian_log_joint(self.log_cpt[u, classes],
                                  xc[:, None, None, :] - self.mean[u, classes],
                                  self.precision[u, classes], self.logdet[u, classes])

    def _rows(self, enc, classes):
        u = self.config_index(enc)[:, None]
        xc = enc.values[:, list(self.continuous_parents)]
        c = enc.codes[:, self.v]
        n, q = classes.shape
        K, p = self.log_cpt.shape[2], xc.shape[1]
        step = max(1, _CHUNK // max(1, q * K * p * p))
        out = np.empty((n, q))
        for s in range(0, n, step):  # chunks of rows bound the gathered memory
            sl = slice(s, s + step)
            lj = self._log_joint(u[sl], classes[sl], xc[sl])
            chosen = np.take_along_axis(lj, np.broadcast_to(c[sl, None, None], (lj.shape[0], q, 1)),
                                        axis=2)[:, :, 0]
            with np.errstate(invalid="ignore"):
                out[sl] = chosen - log_sum_exp(lj, 2)[..., 0]
        return out

    @classmethod
    def from_dense(cls, vertex: int, categorical_parents, continuous_parents, log_prior, mean,
                   cov) -> BayesCategoricalFactor:
        """The factor of dense parameters: ``log_prior`` ``(n_classes, r_d..., r_v)``
        (normalised over the last axis), ``mean`` that plus ``(|C|,)``, ``cov`` plus
        ``(|C|, |C|)``."""
        k = len(tuple(categorical_parents))
        cov = np.asarray(cov, dtype=float)
        out = cls(**cls._dense_common(vertex, categorical_parents, continuous_parents,
                                      log_prior),
                  log_cpt=cls._cells(log_prior, k), mean=cls._cells(mean, k),
                  precision=cls._cells(np.linalg.inv(cov), k),
                  logdet=cls._cells(np.linalg.slogdet(cov)[1], k))
        out.__dict__["_engine"] = (np.asarray(log_prior, dtype=float),
                                   np.asarray(mean, dtype=float), cov)
        return out

    @property
    def n_states(self) -> int:
        """Values of v (summed when v is missing)."""
        return int(self.log_cpt.shape[2])

    @cached_property
    def _engine(self) -> tuple:
        """Dense ``(log_prior, mean, cov)``, the covariance the inverse of the fitted
        precision."""
        return (self.dense(self.log_cpt), self.dense(self.mean),
                self.dense(np.linalg.inv(self.precision)))

    @cached_property
    def _engine_precision(self) -> tuple:
        cov = self._engine[2]
        return np.linalg.inv(cov), np.linalg.slogdet(cov)[1]

    def log_prob_values(self, value, parent_values: Mapping) -> np.ndarray:
        """``ln p(value | x_C, d, y)`` broadcast with rows on axis 0 and classes on axis 1
        (the engine's protocol)."""
        log_prior, mean, _ = self._engine
        prec, logdet = self._engine_precision
        idx = [parent_values[p] for p in self.categorical_parents]
        xs = [np.asarray(parent_values[p], dtype=float) for p in self.continuous_parents]
        ndim = max([np.ndim(value), *(np.ndim(v) for v in parent_values.values())])
        xs = [x.reshape(x.shape + (1,) * (ndim - x.ndim)) for x in xs]
        # the quadratic form term by term over the (few) continuous parents: an einsum
        # with broadcast leading axes is several times slower on the engine's tables
        resid = [x[..., None] - gather(mean[..., i], idx, ndim) for i, x in enumerate(xs)]
        # in place on one table of the full shape (the engine's tables reach millions of
        # cells): the operations of ``quad + r * r * P ...`` in their order, the same numbers
        quad = np.zeros(np.broadcast_shapes(*(r.shape for r in resid),
                                            gather(logdet, idx, ndim).shape))
        for i, r in enumerate(resid):  # (..., r_v) each
            t = r * r
            t *= gather(prec[..., i, i], idx, ndim)
            quad += t
            for j in range(i):
                t = r * resid[j]
                t *= gather(prec[..., i, j] + prec[..., j, i], idx, ndim)
                quad += t
        t = None  # freed before the next tables
        quad += gather(logdet, idx, ndim)
        quad += len(xs) * LOG_2PI
        quad *= 0.5
        log_joint = np.subtract(gather(log_prior, idx, ndim), quad, out=quad)
        log_post = np.subtract(log_joint, log_sum_exp(log_joint, -1), out=log_joint)
        value = np.asarray(value, dtype=np.intp)
        full = np.broadcast_shapes(log_post.shape[:-1], value.shape)
        log_post = np.broadcast_to(log_post, full + log_post.shape[-1:])
        return np.take_along_axis(log_post, np.broadcast_to(value, full)[..., None],
                                  axis=-1)[..., 0]

    def gaussian_numerators(self, value, parent_values: Mapping) -> tuple:
        """``(ln p(value | d, y), mean, cov)`` of the numerator ``p(value | d, y)
        N(x_C; mean, cov)`` of Bayes' rule over all continuous parents C (in
        ``continuous_parents`` order), broadcast like :meth:`log_prob_values` with trailing
        axes ``(|C|,)`` and ``(|C|, |C|)``; only the categorical parents' values are read.

        Examples
        --------
        >>> import numpy as np
        >>> f = BayesCategoricalFactor.from_dense(2, (), (0, 1), np.log([[0.3, 0.7]]),
        ...     np.array([[[0.0, 1.0], [2.0, 3.0]]]), np.tile(np.eye(2), (1, 2, 1, 1)))
        >>> lw, mean, cov = f.gaussian_numerators(np.array([[1]]), {})
        >>> float(np.exp(lw[0, 0])), mean[0, 0].tolist(), cov.shape
        (0.7, [2.0, 3.0], (1, 1, 2, 2))
        """
        idx = [parent_values[p] for p in self.categorical_parents] + [value]
        return self._numerators(idx, max(np.ndim(v) for v in idx))

    def _numerators(self, idx: list, ndim: int) -> tuple:
        """The engine's (log prior, mean, cov) at the categorical parents' and v's values
        ``idx``, broadcast over ``ndim`` axes."""
        log_prior, mean, cov = self._engine
        return gather(log_prior, idx, ndim), gather(mean, idx, ndim), gather(cov, idx, ndim)

    def gaussian_numerator(self, value, parent_values: Mapping) -> tuple:
        """With one continuous parent x_q: ``(ln p(value | d, y), mu, var)`` of the numerator
        ``p(value | d, y) N(x_q; mu, var)`` of Bayes' rule, broadcast like
        :meth:`log_prob_values`; the engine absorbs it into the Gauss-Hermite rule of x_q."""
        if len(self.continuous_parents) != 1:
            raise ValueError(
                f"gaussian_numerator needs one continuous parent; vertex {self.vertex} has "
                f"{len(self.continuous_parents)}.")
        idx = [parent_values[p] for p in self.categorical_parents] + [value]
        log_prior, mean, cov = self._numerators(
            idx, max(np.ndim(v) for v in (value, *parent_values.values())))
        return log_prior, mean[..., 0], cov[..., 0, 0]


