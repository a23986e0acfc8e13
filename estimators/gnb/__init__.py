"""GNB-family classifiers for continuous features (paper 1): GNB, reduced GNB, k-GNB."""

from estimators.gnb._learn import DEPENDENCES
from estimators.gnb.diagnostics import PairData, pair_data, pair_diagnostics
from estimators.gnb.gnb import GNBClassifier
from estimators.gnb.kgnb import KGNBClassifier

__all__ = ["DEPENDENCES", "GNBClassifier", "KGNBClassifier", "PairData", "pair_data", "pair_diagnostics"]
