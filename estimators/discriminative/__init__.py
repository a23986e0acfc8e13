"""Discriminative parameters on a learned structure (MATH.md §10; issue 33).

A classifier built on the template (:mod:`estimators.template.joint_likelihood`) with
``parameters="discriminative"`` keeps its structure and generative factors and fits the
log-linear scores of :mod:`._model` by maximising the L2-penalised conditional
log-likelihood (:mod:`._cll`) over the structure's log-linear features (:mod:`._design`).
"""

from estimators.discriminative._cll import CLLProblem, maximise_cll
from estimators.discriminative._design import Design, fit_design, generative_weights
from estimators.discriminative._discriminative_model import (
    FORMS,
    PARAMETERS,
    Discriminative,
    DiscriminativeParameters,
    fit_parameters,
    fit_parameters_partitioned,
    resolve_parameters,
)
from estimators.discriminative._select import L2, L2_GRID, SCALE_GRID

__all__ = [
    "FORMS",
    "L2",
    "L2_GRID",
    "SCALE_GRID",
    "PARAMETERS",
    "CLLProblem",
    "Design",
    "Discriminative",
    "DiscriminativeParameters",
    "fit_design",
    "fit_parameters",
    "fit_parameters_partitioned",
    "generative_weights",
    "maximise_cll",
    "resolve_parameters",
]
