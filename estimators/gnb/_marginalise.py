"""Prediction with missing cells for GNB / k-GNB (MATH.md §8): exact marginalisation.

* All-continuous Gaussian and Gaussian-copula models: the closed form of
  :func:`estimators.marginal.normal_score_log_marginal` (the junction-tree correlation
  restricted to the observed features).
* Mixed models with the Gaussian dependence: every factor is conditional Gaussian (a
  bivariate-normal pair gives the linear-Gaussian regression of the child on its mother),
  so :func:`estimators.marginal.cg_log_marginal` applies: sums over missing categorical
  vertices, exact Gaussian blocks, Gauss–Hermite (order ``GH_ORDER``) for a missing
  continuous vertex with a categorical descendant.

The fitted conditional Gaussian factors are the engine's vertices themselves
(:mod:`estimators.network.factors`); below, the Gaussian dependence model's pairs and the
columns outside the structure get their linear-Gaussian factors.
"""

from __future__ import annotations

import numpy as np

from estimators.columns import EncodedColumns
from estimators.network.factors import Factor, LinearGaussianFactor

__all__ = ["marginal_factor", "placeholder_factor"]


def marginal_factor(factor, density=None):
    """The engine vertex of a fitted GNB factor (vertex = encoded column): a conditional
    Gaussian :class:`~estimators.network.factors.Factor` is one already; a pair of the
    Gaussian dependence model becomes the regression of x_v on x_P from the class
    covariance of ``density``."""
    if isinstance(factor, Factor):
        return factor
    v, P = factor.v, list(factor.parents)
    m = density.n_classes_
    intercept, coef, var = np.empty(m), np.empty((m, len(P))), np.empty(m)
    for c in range(m):
        S, mu = density.covariance(c), density.mean_[c]
        b = np.linalg.solve(S[np.ix_(P, P)], S[P, v]) if P else np.zeros(0)
        intercept[c] = mu[v] - b @ mu[P]
        coef[c] = b
        var[c] = S[v, v] - b @ S[P, v]
    return LinearGaussianFactor.from_dense(v, (), tuple(P), intercept, coef, var)


def placeholder_factor(v: int, n_classes: int):
    """A parentless factor for a column outside the structure (marked missing, it drops)."""
    return LinearGaussianFactor.from_dense(int(v), (), (), np.zeros(n_classes),
                                           np.zeros((n_classes, 0)), np.ones(n_classes))


def encoded_matrix(enc: EncodedColumns) -> np.ndarray:
    """Continuous values and categorical codes in one float matrix (the engines' input)."""
    return np.where(enc.continuous, enc.values, enc.codes.astype(float))
