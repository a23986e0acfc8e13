"""AODE fitted from the statistics of row partitions
(:class:`~estimators.stats.partitions.Partitions`: a Dask DataFrame through
``estimators.distributed.collect``).

Every family of an AODE has at most one feature parent (a child given its super-parent, or
the super-parent given the class alone), so the statistics a TAN fits from
(:func:`~estimators.network.cg_pairs.statistics_table`: per-class pair counts, class and
level moments) hold all of them: each factor is
:func:`~estimators.network.stats_factors.factor_from_stats`, the frequency limit's counts
are the categorical columns' level counts, the edge scores the factors' training
log-likelihoods from the same statistics (NaN for a categorical child of a continuous
super-parent: Bayes' rule's likelihood needs the rows). The classifier then holds exactly
what an in-memory fit on the complete rows holds.
"""

from __future__ import annotations

import numpy as np

from estimators.base.validation import non_constant_columns
from estimators.learning.structure_scores import MIN_CELL_ROWS
from estimators.network.cg_pairs import fit_statistics_table
from estimators.network.model import CGNetwork
from estimators.network.stats_factors import factor_from_stats, log_likelihood_from_stats
from estimators.stats.partitions import Partitions

__all__ = ["fit_ande_partitions"]


def fit_ande_partitions(clf, data: Partitions):
    """Fit an ``AODEClassifier`` (or ``AnDEClassifier(n=1)``) from partitions."""
    owner = type(clf).__name__
    data = data.with_owner(owner)
    clf._validate_params()
    if clf._n() != 1:
        raise ValueError(f"{owner} (n = {clf._n()}) cannot be fitted from a Dask collection: "
                         "its families have n feature parents, and the partitions' statistics "
                         "hold pairs; use AODEClassifier (n = 1) or compute a sample into "
                         "memory.")
    continuous, enc, table, _ = fit_statistics_table(clf, data)
    clf.class_information_ = table.class_information()
    kept = non_constant_columns(enc.types, 1, clf.constant_features_)
    largest = table.largest_variance(kept)
    floor = clf.var_smoothing * (largest if largest > 0 else 1.0)

    def network(parents):
        fitted = [factor_from_stats(table, v, pa, alpha=clf.alpha,
                                    var_smoothing=clf.var_smoothing, ridge=0.0,
                                    min_cell_rows=MIN_CELL_ROWS, var_floor=floor)
                  for v, pa in zip(kept, parents, strict=True)]
        mean = []
        for factor, own in fitted:
            ll = log_likelihood_from_stats(factor, own)
            mean.append(np.nan if ll is None else ll / max(factor.n_rows, 1))
        return CGNetwork(tuple(kept), tuple(tuple(pa) for pa in parents),
                         tuple(f for f, _ in fitted)), mean

    def counts(S):
        (s,) = S
        if continuous[s]:
            return np.array(float(table.n_rows))
        q = table.position[s]
        return np.diagonal(table.stats.counts.table(q, q), axis1=1, axis2=2).sum(axis=0)

    return clf.fit_spodes(kept, network, counts)
