"""Conditional Gaussian factors ``p(x_v | x_P, y)`` (MATH.md §7), fitted from available cases.

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
least one row per parameter of the regression: intercept, |C| slopes, variance) uses the
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
:func:`~estimators.scores._cg_moments.shrunk` -- the posterior moments of a conjugate
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

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

import numpy as np
from scipy.special import logsumexp

from estimators.columns import EncodedColumns
from estimators.scores._cg_moments import (
    Moments,
    grouped_moments,
    parent_configurations,
    pooled,
    shrunk,
)

__all__ = ["BayesCategoricalFactor", "CategoricalFactor", "LinearGaussianFactor",
           "fit_cg_factor"]

_LOG_2PI = float(np.log(2.0 * np.pi))
#: elements per gathered chunk in the Bayes-rule evaluation (bounds memory)
_CHUNK = 1 << 22


@dataclass(eq=False)
class _CGFactor(ABC):
    """What every factor shares: its vertex, parents and parent configurations."""

    v: int
    continuous_parents: tuple
    categorical_parents: tuple
    n_classes: int
    radix: np.ndarray  # levels of each categorical parent
    configs: np.ndarray  # sorted training configurations of D
    n_rows: int = field(default=0)  # complete training rows

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


def _cpt(counts: np.ndarray, alpha: float) -> np.ndarray:
    """Log CPT from counts of shape (U + 1, m, K): counts + alpha, or, with alpha = 0, the
    class level then the global level for cells without rows."""
    K = counts.shape[2]
    if alpha > 0:
        return np.log((counts + alpha) / (counts.sum(axis=2, keepdims=True) + K * alpha))
    cell = counts.copy()
    Nuy = cell.sum(axis=2)
    cls = counts.sum(axis=0)  # (m, K)
    glob = counts.sum(axis=(0, 1))  # (K,)
    cls = np.where(cls.sum(axis=1, keepdims=True) > 0, cls, glob[None, :])
    cell = np.where((Nuy > 0)[:, :, None], cell, cls[None, :, :])
    with np.errstate(divide="ignore"):
        return np.log(cell / cell.sum(axis=2, keepdims=True))


@dataclass(eq=False)
class CategoricalFactor(_CGFactor):
    """The CPT ``p(x_v = c | u, y)``; ``log_cpt`` has shape (U + 1, m, K)."""

    log_cpt: np.ndarray = field(default=None)

    def _rows(self, enc, classes):
        u = self.config_index(enc)[:, None]
        return self.log_cpt[u, classes, enc.codes[:, self.v][:, None]]


@dataclass(eq=False)
class LinearGaussianFactor(_CGFactor):
    """``N(x_v; a + b^T x_C, s2)`` per cell; arrays of shape (U + 1, m[, |C|])."""

    intercept: np.ndarray = field(default=None)
    coef: np.ndarray = field(default=None)
    var: np.ndarray = field(default=None)

    def _rows(self, enc, classes):
        u = self.config_index(enc)[:, None]
        xc = enc.values[:, list(self.continuous_parents)]
        mu = self.intercept[u, classes] + np.einsum("nqc,nc->nq", self.coef[u, classes], xc)
        s2 = self.var[u, classes]
        r = enc.values[:, self.v][:, None] - mu
        return -0.5 * (_LOG_2PI + np.log(s2) + r * r / s2)


@dataclass(eq=False)
class BayesCategoricalFactor(_CGFactor):
    """``p(c | x_C, u, y)`` by Bayes' rule; ``log_cpt`` (U + 1, m, K), ``mean``
    (U + 1, m, K, |C|), ``precision`` (U + 1, m, K, |C|, |C|), ``logdet`` (U + 1, m, K)."""

    log_cpt: np.ndarray = field(default=None)
    mean: np.ndarray = field(default=None)
    precision: np.ndarray = field(default=None)
    logdet: np.ndarray = field(default=None)

    def _log_joint(self, u, classes, xc):
        """``ln p(c | u, y) + ln N(x_C; mu_c, S_c)`` for every c: shape (n, q, K)."""
        r = xc[:, None, None, :] - self.mean[u, classes]
        quad = np.einsum("nqki,nqkij,nqkj->nqk", r, self.precision[u, classes], r)
        p = xc.shape[1]
        return self.log_cpt[u, classes] - 0.5 * (p * _LOG_2PI + self.logdet[u, classes] + quad)

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
                out[sl] = chosen - logsumexp(lj, axis=2)
        return out


def _column_variance(x: np.ndarray) -> np.ndarray:
    """Variance of each column; 1 where it is 0 (a scale for ridge and floors)."""
    var = x.var(axis=0) if x.shape[0] else np.ones(x.shape[1])
    return np.where(var > 0, var, 1.0)


def _regression(mo: Moments, ridge: float, scale: np.ndarray, floor: float, additive: bool):
    """Intercept, slopes and ML residual variance from the moments of [x_C, x_v] (``scale``
    (|C|,) or one row per group, ``floor`` a number or one per group), the
    variance floored at ``floor`` (or ``floor`` added to it when ``additive``). With
    ``ridge = 0`` the slopes are the minimum-norm least-squares solution (pseudo-inverse),
    as ``numpy.linalg.lstsq`` gives for collinear parents."""
    p = mo.mean.shape[1] - 1
    n = np.maximum(mo.n, 1.0)
    Mcc, Mcv, Mvv = mo.M[:, :p, :p], mo.M[:, :p, p], mo.M[:, p, p]
    if not p:
        b = np.zeros((n.size, 0))
    elif ridge > 0:
        A = Mcc + (ridge * n)[:, None, None] * (scale[..., :, None] * np.eye(p))  # per group
        b = np.linalg.solve(A, Mcv[..., None])[..., 0]
    else:
        b = np.einsum("gij,gj->gi", np.linalg.pinv(Mcc, hermitian=True), Mcv)
    a = mo.mean[:, p] - np.einsum("gc,gc->g", b, mo.mean[:, :p])
    rss = Mvv - 2.0 * np.einsum("gc,gc->g", b, Mcv) + np.einsum("gi,gij,gj->g", b, Mcc, b)
    ml = np.maximum(rss / n, 0.0)
    return a, b, ml + floor if additive else np.maximum(ml, floor)


def fit_cg_factor(enc: EncodedColumns, y: np.ndarray, n_classes: int, v: int,
                  parents=(), *, alpha: float = 1.0, var_smoothing: float = 1e-9,
                  ridge: float = 1e-8, min_cell_rows: int = 5,
                  var_floor: float | None = None, shrink: bool = False,
                  pool_constant: bool = True) -> _CGFactor:
    """Fit the CG factor ``p(x_v | x_parents, y)`` on the complete rows of (v, parents).

    Parameters
    ----------
    enc : EncodedColumns
        Training table from :class:`~estimators.columns.MixedEncoder`.
    y : ndarray of int, shape (n,)
        Class codes ``0 .. n_classes - 1``.
    n_classes : int
    v : int
        Column index of the vertex.
    parents : iterable of int
        Column indices of its feature parents (empty: ``p(x_v | y)``).
    alpha : float, default=1.0
        CPT pseudo-count (0: maximum likelihood, as the scores use).
    var_smoothing, ridge : float
        Variance floor factor and ridge factor (relative to the column variances).
    min_cell_rows : int, default=5
        Gaussian cells with fewer than ``max(min_cell_rows, |C| + 2)`` rows are pooled.
    var_floor : float or None, default=None
        An absolute amount added to the ML residual variance of a continuous v (as
        scikit-learn's ``GaussianNB`` adds ``var_smoothing`` times the largest feature
        variance) instead of the relative floor ``var_smoothing * var(x_v)``.
    shrink : bool, default=False
        Blend every Gaussian cell with ``max(min_cell_rows, |C| + 2)`` pseudo-rows of its
        coarser cell (module docstring, "Shrinkage") instead of pooling small cells.
    pool_constant : bool, default=True
        Pool the Gaussian cells in which x_v (a coordinate of x_C) is constant up to the
        floor; False keeps their floored plug-in variance (the scores do, so that they
        stay the plug-in CMI of MATH.md §1 on single-type data).

    Returns
    -------
    CategoricalFactor, LinearGaussianFactor or BayesCategoricalFactor
        With ``log_prob(enc) -> (n, n_classes)`` and ``log_prob_at(enc, classes)``.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from estimators.columns import MixedEncoder
    >>> rng = np.random.default_rng(0)
    >>> z = rng.integers(0, 2, 400)
    >>> X = pd.DataFrame({"z": np.where(z, "a", "b"), "x": rng.normal(2.0 * z, 1.0)})
    >>> enc, y = MixedEncoder().fit_transform(X), rng.integers(0, 2, 400)
    >>> f = fit_cg_factor(enc, y, 2, v=0, parents=[1])   # p(z | x, y) by Bayes' rule
    >>> type(f).__name__, f.log_prob(enc).shape
    ('BayesCategoricalFactor', (400, 2))
    >>> new = MixedEncoder().fit(X).transform(pd.DataFrame({"z": ["a", "b"], "x": [3.0, 3.0]}))
    >>> p = np.exp(f.log_prob(new))       # p(z = a | x = 3, y) and p(z = b | x = 3, y)
    >>> p.sum(axis=0).round(12).tolist(), bool(p[0, 0] > 0.9)
    ([1.0, 1.0], True)
    """
    parents = tuple(int(p) for p in parents)
    cont = enc.continuous
    C = tuple(p for p in parents if cont[p])
    D = tuple(p for p in parents if not cont[p])
    obs = enc.observed[:, [v, *parents]].all(axis=1)
    sub, yy = enc.take(obs), np.asarray(y)[obs]
    radix = enc.n_levels[list(D)]
    code = parent_configurations(sub.codes[:, list(D)], radix)
    configs = np.unique(code) if code.size else np.zeros(0, np.int64)
    if configs.size == 0:
        configs = np.zeros(1, np.int64)
    U, m = configs.size, n_classes
    u = np.searchsorted(configs, code)
    cell = u * m + yy  # (u, y) cells, slot U (unseen) never filled
    common = dict(v=v, continuous_parents=C, categorical_parents=D, n_classes=m,
                  radix=radix, configs=configs, n_rows=int(obs.sum()))
    threshold = max(min_cell_rows, len(C) + 2)
    F = (U + 1) * m
    # without categorical parents the cell (u, y) is the class: one level, not two
    first = 1 if not D else 0

    def estimate(levels, min_var):
        if shrink:
            return shrunk(levels[first:], threshold)
        return pooled(levels[first:], threshold, min_var)

    if cont[v]:
        Z = np.column_stack([sub.values[:, list(C)], sub.values[:, v]])
        scale = _column_variance(Z)
        levels = [(grouped_moments(Z, cell, F), np.arange(F)),
                  (grouped_moments(Z, yy, m), np.arange(F) % m),
                  (grouped_moments(Z, np.zeros_like(yy), 1), np.zeros(F, np.int64))]
        additive = var_floor is not None
        floor = var_floor if additive else var_smoothing * scale[-1]
        min_var = np.r_[np.full(len(C), -np.inf), floor] if pool_constant else None
        a, b, s2 = _regression(estimate(levels, min_var), ridge, scale[:-1], floor, additive)
        return LinearGaussianFactor(**common, intercept=a.reshape(U + 1, m),
                                    coef=b.reshape(U + 1, m, len(C)), var=s2.reshape(U + 1, m))
    K = int(enc.n_levels[v])
    c = sub.codes[:, v]
    counts = np.bincount(cell * K + c, minlength=F * K).reshape(U + 1, m, K).astype(float)
    log_cpt = _cpt(counts, alpha)
    if not C:
        return CategoricalFactor(**common, log_cpt=log_cpt)
    Z = sub.values[:, list(C)]
    scale = _column_variance(Z)
    fine = np.arange(F * K)
    levels = [(grouped_moments(Z, cell * K + c, F * K), fine),
              (grouped_moments(Z, yy * K + c, m * K), fine % (m * K)),
              (grouped_moments(Z, c, K), fine % K),
              (grouped_moments(Z, np.zeros_like(c), 1), np.zeros(F * K, np.int64))]
    floor = max(ridge, var_smoothing) * scale
    mo = estimate(levels, floor if pool_constant else None)
    cov = mo.M / np.maximum(mo.n, 1.0)[:, None, None] + np.diag(floor)
    sign, logdet = np.linalg.slogdet(cov)
    p = len(C)
    return BayesCategoricalFactor(
        **common, log_cpt=log_cpt, mean=mo.mean.reshape(U + 1, m, K, p),
        precision=np.linalg.inv(cov).reshape(U + 1, m, K, p, p), logdet=logdet.reshape(U + 1, m, K))
