"""The Bayesian-network-classifier family beyond k-trees (MATH.md §9): AODE and AnDE."""

from estimators.bnc.ande import A2DEClassifier, AnDEClassifier, AODEClassifier

__all__ = ["A2DEClassifier", "AODEClassifier", "AnDEClassifier"]
