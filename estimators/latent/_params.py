"""Hyperparameter table shared by LatentCNB and LatentCNBClassifier."""

from __future__ import annotations

from collections.abc import Mapping
from numbers import Integral, Real

from sklearn.utils._param_validation import Interval, StrOptions

from ._registry import FAMILIES, PRIORS

__all__ = ["LATENT_PARAMETER_CONSTRAINTS"]

LATENT_PARAMETER_CONSTRAINTS: dict = {
    "n_components": [Interval(Integral, 1, None, closed="left")],
    "prior": [StrOptions(set(PRIORS))],
    "family": [StrOptions(set(FAMILIES))],
    "prior_params": [dict, None],
    "var_floor": [Interval(Real, 0, None, closed="neither")],
    "pseudo_count": [Interval(Real, 0, None, closed="neither")],
    "max_iter": [Interval(Integral, 0, None, closed="left")],
    "tol": [Interval(Real, 0, None, closed="left")],
    "n_init": [Interval(Integral, 1, None, closed="left")],
    "e_step_max_iter": [Interval(Integral, 1, None, closed="left")],
    "e_step_tol": [Interval(Real, 0, None, closed="left")],
    "random_state": ["random_state"],
    "feature_types": [StrOptions({"auto"}), Mapping],
    "verbose": ["verbose"],
}
