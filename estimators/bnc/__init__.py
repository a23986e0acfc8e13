"""The Bayesian-network-classifier family beyond k-trees (MATH.md §9): kDB, AODE and AnDE,
BAN."""

from estimators.bnc.ande import A2DEClassifier, AnDEClassifier, AODEClassifier
from estimators.bnc.ban import BANClassifier
from estimators.bnc.kdb import KDBClassifier

__all__ = ["A2DEClassifier", "AODEClassifier", "AnDEClassifier", "BANClassifier",
           "KDBClassifier"]
