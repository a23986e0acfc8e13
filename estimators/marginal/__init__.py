"""Exact marginalisation of missing features for the kgraph classifiers (MATH.md §8).

Prediction on a row with missing entries uses ``ln p(y, x_O) = ln ∫ p(y, x) dx_M``: it
marginalises, it does not impute. Every engine groups the rows by their missing pattern
(``np.unique`` over the rows of the boolean mask) and does the work of a pattern once, for
all its rows at the same time (no Python loop over rows).
"""

from estimators.marginal.discrete import discrete_log_marginal
from estimators.marginal.factors import (
    BayesFactor,
    LinearGaussianFactor,
    TableFactor,
    factors_from_cpts,
    factors_from_linear_gaussian,
)
from estimators.marginal.gaussian import (
    gaussian_log_marginal,
    junction_correlation,
    linear_gaussian_joint,
    normal_score_log_marginal,
    tree_order,
)
from estimators.marginal.kde import kde_log_marginal, prune_forest
from estimators.marginal.mixed import GH_ORDER, cg_log_marginal

__all__ = [
    "GH_ORDER",
    "BayesFactor",
    "LinearGaussianFactor",
    "TableFactor",
    "cg_log_marginal",
    "factors_from_cpts",
    "factors_from_linear_gaussian",
    "discrete_log_marginal",
    "gaussian_log_marginal",
    "junction_correlation",
    "kde_log_marginal",
    "prune_forest",
    "linear_gaussian_joint",
    "normal_score_log_marginal",
    "tree_order",
]
