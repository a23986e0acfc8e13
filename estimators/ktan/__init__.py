"""TAN and k-TAN classifiers (paper 2) with pgmpy export and scored GraphML structures."""

from estimators.ktan.classifiers import KTANClassifier, TANClassifier
from estimators.ktan.naive_bayes import NaiveBayesClassifier

__all__ = ["KTANClassifier", "NaiveBayesClassifier", "TANClassifier"]
