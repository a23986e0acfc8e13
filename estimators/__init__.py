"""estimators: scores, searchers, densities and classifiers built on :mod:`kgraph`.

The statistics layer: it imports :mod:`kgraph` (structures), never :mod:`viz`.
"""

from estimators.columns import MixedEncoder, infer_feature_types
from estimators.datasets import list_datasets, load_dataset
from estimators.evaluation import cross_validated_metrics, split_metrics
from estimators.gnb import GNBClassifier, KGNBClassifier, pair_diagnostics
from estimators.ktan import KTANClassifier, TANClassifier
from estimators.latent import LatentCNB, LatentCNBClassifier
from estimators.scores import (
    ConditionalGaussianScore,
    DegenerateFeatureWarning,
    DiscreteCMI,
    GaussianCMI,
    GaussianCopulaCMI,
    KDECopulaCMI,
)
from estimators.search import (
    backbone_dp,
    backbone_order,
    brute_force_ktree,
    brute_force_spanning_tree,
    greedy_ktree,
    greedy_matroid_basis,
    maximum_spanning_arborescence,
    maximum_spanning_tree,
)

__all__ = [
    "ConditionalGaussianScore",
    "DegenerateFeatureWarning",
    "DiscreteCMI",
    "GNBClassifier",
    "GaussianCMI",
    "GaussianCopulaCMI",
    "KDECopulaCMI",
    "KGNBClassifier",
    "KTANClassifier",
    "MixedEncoder",
    "LatentCNB",
    "LatentCNBClassifier",
    "TANClassifier",
    "backbone_dp",
    "backbone_order",
    "brute_force_ktree",
    "brute_force_spanning_tree",
    "cross_validated_metrics",
    "greedy_ktree",
    "greedy_matroid_basis",
    "infer_feature_types",
    "list_datasets",
    "load_dataset",
    "maximum_spanning_arborescence",
    "maximum_spanning_tree",
    "pair_diagnostics",
    "split_metrics",
]
