"""The Bayesian-network-classifier family beyond k-trees (MATH.md §9)."""

from estimators.bnc.ban import BANClassifier

__all__ = ["BANClassifier"]
