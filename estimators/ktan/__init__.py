"""TAN and k-TAN classifiers (paper 2) with pgmpy export and scored GraphML structures."""

from estimators.ktan._base import CLASS_NODE, MIN_CELL_ROWS, unique_class_node
from estimators.ktan._columns import FEATURE_FAMILIES, family_of, feature_types_of
from estimators.ktan.classifiers import KTANClassifier, TANClassifier
from estimators.ktan.naive_bayes import NaiveBayesClassifier
from estimators.network.model import CGNetwork, fit_network

__all__ = ["CLASS_NODE", "FEATURE_FAMILIES", "MIN_CELL_ROWS", "CGNetwork", "KTANClassifier",
           "NaiveBayesClassifier", "TANClassifier", "family_of", "feature_types_of",
           "fit_network", "unique_class_node"]
