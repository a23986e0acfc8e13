"""TAN and k-TAN classifiers (paper 2) with pgmpy export and scored GraphML structures."""

from estimators.ktan.classifiers import KTANClassifier, TANClassifier

__all__ = ["KTANClassifier", "TANClassifier"]
