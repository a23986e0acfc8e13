"""Larger than memory: scores and classifiers fitted from a Dask DataFrame.

Every score here is a function of sufficient statistics that add up over row partitions
(:mod:`estimators.distributed._stats`): they are computed where each partition lives, combined
in a tree, and the structure search runs on the client on the reduced statistics.
"""

from estimators.distributed._ande import fit_ande_dask
from estimators.distributed._classifiers import fit_gnb_dask, fit_tan_dask, predict_dask
from estimators.distributed._collect import DaskData, as_dask_data
from estimators.distributed._scores import DASK_SCORES, fit_score_from_dask
from estimators.distributed._stats import ClassMoments, PairCounts, class_moments, merge_moments

__all__ = [
    "DASK_SCORES",
    "ClassMoments",
    "DaskData",
    "PairCounts",
    "as_dask_data",
    "class_moments",
    "fit_ande_dask",
    "fit_gnb_dask",
    "fit_score_from_dask",
    "fit_tan_dask",
    "merge_moments",
    "predict_dask",
]
