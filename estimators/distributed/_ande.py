"""AODE fitted from a Dask DataFrame: one pass of pair statistics.

Every family of an AODE has at most one feature parent (a child given its super-parent, or
the super-parent given the class alone), so the reduced statistics of a TAN
(:func:`~estimators.distributed._cg_score.mixed_table`: per-class pair counts, class and
cell moments) hold all of them: each factor is
:func:`~estimators.distributed._cg_pairs.factor_from_stats`, the frequency limit's counts
are the categorical columns' level counts, the edge scores the factors' training
log-likelihoods from the same statistics (NaN for a categorical child of a continuous
super-parent: Bayes' rule's likelihood needs the rows). The classifier then holds exactly what an in-memory fit on the
complete rows holds.
"""

from __future__ import annotations

import numpy as np

from estimators.distributed._cg_pairs import (
    factor_from_stats,
    log_likelihood_from_stats,
    single_type_table,
)
from estimators.distributed._cg_score import mixed_table
from estimators.distributed._classifiers import _continuous, _set_classes, _set_encoder
from estimators.distributed._collect import as_dask_data, categories_of, counts_of, moments_of
from estimators.distributed._factors import empty_encoded, encoder_order, fit_encoder
from estimators.distributed._tan_mixed import class_information_of, largest_variance
from estimators.ktan import MIN_CELL_ROWS
from estimators.network.model import CGNetwork

__all__ = ["fit_ande_dask"]


def _statistics(data, continuous: np.ndarray):
    """``(encoder, StatsTable)`` of the table, as the TAN's Dask fit reduces it (class
    moments, pair counts, or both and the cell moments for a mixed table)."""
    d = len(data.names)
    if continuous.any() and not continuous.all():
        encoder, _, table, _ = mixed_table(data, continuous)
        return encoder, table
    if continuous.all():
        mo = moments_of(data)
        encoder = fit_encoder(data, continuous, [None] * d, mo.lo.min(axis=0), mo.hi.max(axis=0))
        return encoder, single_type_table(empty_encoded(encoder), mo.classes, moments=mo)
    categories, classes = categories_of(data)
    encoder = fit_encoder(data, continuous, categories, None, None)
    counts = counts_of(data, encoder_order(encoder, categories), classes)
    return encoder, single_type_table(empty_encoded(encoder), classes, counts=counts)


def fit_ande_dask(clf, X, y):
    """Fit an ``AODEClassifier`` (or ``AnDEClassifier(n=1)``) from Dask ``X``, ``y``."""
    owner = type(clf).__name__
    clf._validate_params()
    if clf._n() != 1:
        raise ValueError(f"{owner} (n = {clf._n()}) cannot be fitted from a Dask collection: "
                         "its families have n feature parents, and the partitions' statistics "
                         "hold pairs; use AODEClassifier (n = 1) or compute a sample into "
                         "memory.")
    method = clf._feature_selection_method()
    if method is not None:
        raise ValueError(f"{owner}(feature_selection={method!r}) needs the rows in memory; use "
                         "feature_selection=None on a Dask collection, or compute a sample.")
    clf.feature_selection_ = None
    data = as_dask_data(X, y, owner)
    continuous = _continuous(clf, data)
    encoder, table = _statistics(data, continuous)
    _set_classes(clf, table.stats.moments.classes, table.class_counts, data, 2)
    enc = _set_encoder(clf, data, encoder)
    clf.class_information_ = class_information_of(table)
    kept = [j for j, t in enumerate(enc.types) if t != "constant"]
    if not kept:
        raise ValueError(f"{owner} needs at least 1 non-constant feature column; all are "
                         f"constant ({clf.constant_features_}).")
    largest = largest_variance(table, kept)
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
