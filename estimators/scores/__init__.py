"""Class-conditional mutual-information hyperedge scores (MATH.md §1).

Each score is fitted with ``fit(X, y)`` and is then a callable ``score(v, parents) -> float``
giving ``I(X_v; X_parents | Y)`` in nats, with ``edge_matrix()`` for all pairs at once and
``score_many`` for batches of hyperedges, both computed in parallel chunks through joblib.

Examples
--------
>>> import numpy as np
>>> from estimators.scores import GaussianCMI
>>> rng = np.random.default_rng(1)
>>> X, y = rng.normal(size=(500, 4)), rng.integers(0, 2, 500)
>>> W = GaussianCMI().fit(X, y).edge_matrix()
>>> bool(np.allclose(W, W.T)), float(W.trace())
(True, 0.0)
"""

from .._validation import DegenerateFeatureWarning
from ._base import BaseCMI
from ._cg_bic import ConditionalGaussianBIC
from ._cg_factors import (
    BayesCategoricalFactor,
    CategoricalFactor,
    LinearGaussianFactor,
    fit_cg_factor,
)
from ._conditional_gaussian import ConditionalGaussianScore
from ._discrete import DiscreteCMI
from ._gaussian import GaussianCMI, GaussianCopulaCMI
from ._kde_copula import KDECopulaCMI, copula_mi_normal_scores
from ._penalised import BIC, DiscreteBDeu
from ._registry import SCORES, make_score

__all__ = [
    "BIC",
    "SCORES",
    "BaseCMI",
    "BayesCategoricalFactor",
    "CategoricalFactor",
    "ConditionalGaussianBIC",
    "ConditionalGaussianScore",
    "DegenerateFeatureWarning",
    "DiscreteBDeu",
    "DiscreteCMI",
    "GaussianCMI",
    "GaussianCopulaCMI",
    "KDECopulaCMI",
    "LinearGaussianFactor",
    "copula_mi_normal_scores",
    "fit_cg_factor",
    "make_score",
]
