"""estimators: scores, searchers, densities and classifiers built on :mod:`kgraph`.

The statistics layer: it imports :mod:`kgraph` (structures), never :mod:`viz`.
"""

from kgraph._lazy import lazy_exports

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
    "NaiveBayesClassifier",
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

_EXPORTS = {
    "ConditionalGaussianScore": "estimators.scores",
    "DegenerateFeatureWarning": "estimators.scores",
    "DiscreteCMI": "estimators.scores",
    "GNBClassifier": "estimators.gnb",
    "GaussianCMI": "estimators.scores",
    "GaussianCopulaCMI": "estimators.scores",
    "KDECopulaCMI": "estimators.scores",
    "KGNBClassifier": "estimators.gnb",
    "KTANClassifier": "estimators.ktan",
    "LatentCNB": "estimators.latent",
    "LatentCNBClassifier": "estimators.latent",
    "MixedEncoder": "estimators.columns",
    "NaiveBayesClassifier": "estimators.ktan",
    "TANClassifier": "estimators.ktan",
    "backbone_dp": "estimators.search",
    "backbone_order": "estimators.search",
    "brute_force_ktree": "estimators.search",
    "brute_force_spanning_tree": "estimators.search",
    "cross_validated_metrics": "estimators.evaluation",
    "greedy_ktree": "estimators.search",
    "greedy_matroid_basis": "estimators.search",
    "infer_feature_types": "estimators.columns",
    "list_datasets": "estimators.datasets",
    "load_dataset": "estimators.datasets",
    "maximum_spanning_arborescence": "estimators.search",
    "maximum_spanning_tree": "estimators.search",
    "pair_diagnostics": "estimators.gnb",
    "split_metrics": "estimators.evaluation",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
