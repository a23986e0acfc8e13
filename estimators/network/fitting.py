"""Fitting the conditional Gaussian factors of :mod:`estimators.network.factors` from the
grouped statistics of :mod:`estimators.stats.moments` (MATH.md §7; the pooling, shrinkage
and available-case rules are in the factors' module docstring); the Gaussian cells are
computed by :mod:`estimators.stats.gaussian`.
"""

from __future__ import annotations

import numpy as np

from estimators.columns import EncodedColumns
from estimators.network.factors import (
    BayesCategoricalFactor,
    CategoricalFactor,
    Factor,
    LinearGaussianFactor,
)
from estimators.network.hdp_tables import HDPSmoothing
from estimators.stats.gaussian import gaussian_cells, regression_cells
from estimators.stats.moments import grouped_moments, parent_configurations

__all__ = ["bayes_factor", "fit_cg_factor", "gaussian_factor", "log_cpt_table"]


def log_cpt_table(counts: np.ndarray, alpha: float | HDPSmoothing, *, configs=None,
                  radix=None, v: int = 0, parents: tuple = ()) -> np.ndarray:
    """Log CPT from counts of shape (U + 1, m, K): counts + alpha, or, with alpha = 0, the
    class level then the global level for cells without rows; with an
    :class:`~estimators.network.hdp_tables.HDPSmoothing` its hierarchical Dirichlet process
    estimate (``configs``: the codes of the U seen configurations of the categorical
    ``parents`` of vertex ``v``, ``radix`` their numbers of levels)."""
    if isinstance(alpha, HDPSmoothing):
        return alpha.log_cpt(counts, configs, radix, v, parents)
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


def _column_variance(x: np.ndarray) -> np.ndarray:
    """Variance of each column; 1 where it is 0 (a scale for ridge and floors)."""
    var = x.var(axis=0) if x.shape[0] else np.ones(x.shape[1])
    return np.where(var > 0, var, 1.0)


def gaussian_factor(common: dict, levels: list, threshold: int, *, ridge: float,
                    scale: np.ndarray, floor, additive: bool, min_var=None,
                    shrink: bool = False) -> LinearGaussianFactor:
    """The linear Gaussian factor ``p(x_v | x_C, u, y)`` from the moments of ``[x_C, x_v]``
    at its pooling levels (``levels``: ``(Moments, fine cell -> group)`` pairs, finest
    first, the fine cells ``(u, y)``), as both the rows (:func:`fit_cg_factor`) and the
    partition statistics (:func:`~estimators.network.stats_factors.factor_from_stats`)
    give them; ``common`` the factor's other fields. The cells:
    :func:`~estimators.stats.gaussian.regression_cells`."""
    a, b, s2 = regression_cells(levels, threshold, ridge=ridge, scale=scale, floor=floor,
                                additive=additive, shrink=shrink, min_var=min_var)
    shape = (common["configs"].size + 1, common["n_classes"])
    return LinearGaussianFactor(**common, intercept=a.reshape(shape),
                                coef=b.reshape(*shape, len(common["continuous_parents"])),
                                var=s2.reshape(shape))


def bayes_factor(common: dict, log_cpt: np.ndarray, levels: list, threshold: int, *,
                 floor: np.ndarray, min_var=None, shrink: bool = False
                 ) -> BayesCategoricalFactor:
    """The Bayes'-rule factor ``p(c | x_C, u, y)`` from the CPT ``p(c | u, y)`` and the
    moments of ``x_C`` at the pooling levels of the fine cells ``(u, y, c)`` (as
    :func:`gaussian_factor`), ``floor`` added to every covariance's diagonal
    (:func:`~estimators.stats.gaussian.gaussian_cells`)."""
    mean, precision, logdet = gaussian_cells(levels, threshold, floor, shrink=shrink,
                                             min_var=min_var)
    shape = (common["configs"].size + 1, common["n_classes"], log_cpt.shape[-1])
    p = len(common["continuous_parents"])
    return BayesCategoricalFactor(
        **common, log_cpt=log_cpt, mean=mean.reshape(*shape, p),
        precision=precision.reshape(*shape, p, p), logdet=logdet.reshape(shape))


def fit_cg_factor(enc: EncodedColumns, y: np.ndarray, n_classes: int, v: int,
                  parents=(), *, alpha: float = 1.0, var_smoothing: float = 1e-9,
                  ridge: float = 1e-8, min_cell_rows: int = 5,
                  var_floor: float | None = None, shrink: bool = False,
                  pool_constant: bool = True) -> Factor:
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
    alpha : float or HDPSmoothing, default=1.0
        CPT pseudo-count (0: maximum likelihood, as the scores use), or the hierarchical
        Dirichlet process estimate (:mod:`estimators.network.hdp_tables`).
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

    if cont[v]:
        Z = np.column_stack([sub.values[:, list(C)], sub.values[:, v]])
        scale = _column_variance(Z)
        levels = [(grouped_moments(Z, cell, F), np.arange(F)),
                  (grouped_moments(Z, yy, m), np.arange(F) % m),
                  (grouped_moments(Z, np.zeros_like(yy), 1), np.zeros(F, np.int64))]
        additive = var_floor is not None
        floor = var_floor if additive else var_smoothing * scale[-1]
        min_var = np.r_[np.full(len(C), -np.inf), floor] if pool_constant else None
        return gaussian_factor(common, levels[first:], threshold, ridge=ridge, scale=scale[:-1],
                               floor=floor, additive=additive, min_var=min_var, shrink=shrink)
    K = int(enc.n_levels[v])
    c = sub.codes[:, v]
    counts = np.bincount(cell * K + c, minlength=F * K).reshape(U + 1, m, K).astype(float)
    if C and isinstance(alpha, HDPSmoothing):  # Bayes' rule keeps its pseudo-count table
        alpha = alpha.alpha
    log_cpt = log_cpt_table(counts, alpha, configs=configs, radix=radix, v=v, parents=D)
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
    return bayes_factor(common, log_cpt, levels[first:], threshold, floor=floor,
                        min_var=floor if pool_constant else None, shrink=shrink)
