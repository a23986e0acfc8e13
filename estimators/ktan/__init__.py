"""TAN and k-TAN classifiers (paper 2) with pgmpy export and scored GraphML structures."""

from estimators.columns.feature_families import FEATURE_FAMILIES, family_of, feature_types_of
from estimators.ktan.classifiers import KTANClassifier, TANClassifier
from estimators.ktan.naive_bayes import NaiveBayesClassifier
from estimators.network.class_node import CLASS_NODE, unique_class_node

__all__ = ["CLASS_NODE", "FEATURE_FAMILIES", "KTANClassifier", "NaiveBayesClassifier",
           "TANClassifier", "family_of", "feature_types_of", "unique_class_node"]
