"""Latent conditional Naive Bayes (paper 3): priors, families, variational EM, estimators."""

from ._beta_liouville import BetaLiouvillePrior
from ._categorical import CategoricalFamily
from ._classifier import LatentCNBClassifier
from ._dirichlet import DirichletPrior
from ._em import fit_em
from ._estep import e_step
from ._gaussian_features import GaussianFamily
from ._generalized_dirichlet import GeneralizedDirichletPrior
from ._latent_cnb import LatentCNB
from ._mixed import MixedFamily
from ._prior_base import beta_kl, dirichlet_kl
from ._prior_family_registry import FAMILIES, PRIORS, make_family, make_prior

__all__ = [
    "FAMILIES",
    "PRIORS",
    "BetaLiouvillePrior",
    "CategoricalFamily",
    "DirichletPrior",
    "GaussianFamily",
    "GeneralizedDirichletPrior",
    "LatentCNB",
    "LatentCNBClassifier",
    "MixedFamily",
    "beta_kl",
    "dirichlet_kl",
    "e_step",
    "fit_em",
    "make_family",
    "make_prior",
]
