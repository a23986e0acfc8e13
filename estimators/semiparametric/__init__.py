"""Semiparametric continuous factors for the Bayesian-network classifiers (MATH.md §11):
the Gaussian copula with kernel margins, the conditional KDE, and the per-vertex choice
between them and the linear Gaussian (``continuous=`` of TAN / k-TAN)."""

from estimators.semiparametric._margins import ClassMargins, Margin
from estimators.semiparametric.ckde import CKDEFactor, bandwidth_factor, fit_ckde_factor
from estimators.semiparametric.copula_factor import CopulaFactor, fit_copula_factor
from estimators.semiparametric.network import (
    KINDS,
    Semiparametric,
    SemiparametricNetwork,
    as_spec,
    factor_kinds,
    fit_continuous_network,
    fit_semiparametric_network,
    normal_score_table,
)

__all__ = ["KINDS", "CKDEFactor", "ClassMargins", "CopulaFactor", "Margin", "Semiparametric",
           "SemiparametricNetwork", "as_spec", "bandwidth_factor", "factor_kinds",
           "fit_ckde_factor", "fit_continuous_network", "fit_copula_factor",
           "fit_semiparametric_network", "normal_score_table"]
