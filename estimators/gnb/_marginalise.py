"""Prediction with missing cells for GNB / k-GNB (MATH.md §8): exact marginalisation.

* All-continuous Gaussian and Gaussian-copula models: the closed form of
  :func:`estimators.marginal.normal_score_log_marginal` (the junction-tree correlation
  restricted to the observed features).
* Mixed models with the Gaussian dependence: every factor is conditional Gaussian (a
  bivariate-normal pair gives the linear-Gaussian regression of the child on its mother),
  so :func:`estimators.marginal.cg_log_marginal` applies: sums over missing categorical
  vertices, exact Gaussian blocks, Gauss–Hermite (order ``GH_ORDER``) for a missing
  continuous vertex with a categorical descendant.

The adapters below turn the fitted factors into the factor protocol of
:mod:`estimators.marginal.factors` (dense arrays over the categorical parents' levels).
"""

from __future__ import annotations

import numpy as np

from estimators.columns import EncodedColumns
from estimators.scores._cg_factors import (
    BayesCategoricalFactor,
    CategoricalFactor,
    LinearGaussianFactor,
)
from estimators.scores._cg_moments import parent_configurations

__all__ = ["marginal_factor", "placeholder_factor"]


def _dense(arr: np.ndarray, factor) -> np.ndarray:
    """Rearrange a per-cell array (U + 1, m, ...) into (m, r_1, ..., r_k, ...) over every
    configuration of the categorical parents (unseen ones take the pooled slot U)."""
    radix = np.asarray(factor.radix, dtype=np.int64)
    grid = np.indices(tuple(radix)).reshape(radix.size, -1).T if radix.size else np.zeros(
        (1, 0), np.int64)
    code = parent_configurations(grid, radix)
    pos = np.minimum(np.searchsorted(factor.configs, code), factor.n_configs - 1)
    idx = np.where(factor.configs[pos] == code, pos, factor.n_configs)
    out = np.moveaxis(arr[idx], 0, 1)  # (m, n_configs_dense, ...)
    return out.reshape((out.shape[0], *radix.tolist(), *out.shape[2:]))


def marginal_factor(factor, density=None):
    """The :mod:`estimators.marginal.factors` form of a fitted GNB factor."""
    from estimators.marginal import factors as mf  # noqa: PLC0415

    cells = dict(vertex=factor.v, categorical_parents=tuple(factor.categorical_parents),
                 continuous_parents=tuple(factor.continuous_parents)) if hasattr(
        factor, "categorical_parents") else {}
    if isinstance(factor, LinearGaussianFactor):
        return mf.LinearGaussianFactor(**cells, intercept=_dense(factor.intercept, factor),
                                       coef=_dense(factor.coef, factor),
                                       var=_dense(factor.var, factor))
    if isinstance(factor, BayesCategoricalFactor):
        return mf.BayesFactor(**cells, log_prior=_dense(factor.log_cpt, factor),
                              mean=_dense(factor.mean, factor),
                              cov=_dense(np.linalg.inv(factor.precision), factor))
    if isinstance(factor, CategoricalFactor):
        return mf.TableFactor(vertex=factor.v, parents=tuple(factor.categorical_parents),
                              log_table=_dense(factor.log_cpt, factor),
                              n_states=int(factor.log_cpt.shape[-1]))
    # the Gaussian dependence model: regression of x_v on x_P from the class covariance
    v, P = factor.v, list(factor.parents)
    m = density.n_classes_
    intercept, coef, var = np.empty(m), np.empty((m, len(P))), np.empty(m)
    for c in range(m):
        S, mu = density.covariance(c), density.mean_[c]
        b = np.linalg.solve(S[np.ix_(P, P)], S[P, v]) if P else np.zeros(0)
        intercept[c] = mu[v] - b @ mu[P]
        coef[c] = b
        var[c] = S[v, v] - b @ S[P, v]
    return mf.LinearGaussianFactor(vertex=v, categorical_parents=(), continuous_parents=tuple(P),
                                   intercept=intercept, coef=coef, var=var)


def placeholder_factor(v: int, n_classes: int):
    """A parentless factor for a column outside the structure (marked missing, it drops)."""
    from estimators.marginal import factors as mf  # noqa: PLC0415

    return mf.LinearGaussianFactor(vertex=int(v), categorical_parents=(),
                                   continuous_parents=(), intercept=np.zeros(n_classes),
                                   coef=np.zeros((n_classes, 0)), var=np.ones(n_classes))


def encoded_matrix(enc: EncodedColumns) -> np.ndarray:
    """Continuous values and categorical codes in one float matrix (the engines' input)."""
    return np.where(enc.continuous, enc.values, enc.codes.astype(float))
