"""``GNBClassifier(dependence="gaussian")`` fitted from the statistics of row partitions
(:class:`~estimators.stats.partitions.Partitions`: a Dask DataFrame through
``estimators.distributed.collect``).

The same statistic as the in-memory fit: the class moments (merged over the partitions)
give the per-class correlation matrices -> the Gaussian CMI matrix -> Kruskal on the client,
and the class-conditional normals (:meth:`~estimators.densities.ClassGaussian.fit_moments`).
The fit ends with the attributes of an in-memory fit, so prediction is the ordinary code.
Constant columns leave the model as in memory. Inputs must be complete (no missing cells).
"""

from __future__ import annotations

import numpy as np

from estimators.densities import ClassGaussian
from estimators.gnb._learn import fitted_copula_tree
from estimators.network.stats_factors import single_type_table
from estimators.scores.partition_scores import gaussian_statistics
from estimators.stats.cell_statistics import ClassMoments
from estimators.stats.partitions import Partitions, fit_encoder, moments_of
from kgraph import GNBJunctionTree

__all__ = ["fit_gnb_partitions"]


def _zero_constant(mo: ClassMoments, used) -> ClassMoments:
    """The moments of the table the in-memory GNB fits its density on: constant columns
    (not in ``used``) read as 0."""
    const = np.setdiff1d(np.arange(mo.mean.shape[1]), used)
    mean, M = mo.mean.copy(), mo.M.copy()
    mean[:, const], M[:, const, :], M[:, :, const] = 0.0, 0.0, 0.0
    lo, hi = mo.lo.copy(), mo.hi.copy()
    lo[:, const], hi[:, const] = 0.0, 0.0
    return ClassMoments(mo.classes, mo.n, mean, M, lo, hi)


def fit_gnb_partitions(clf, data: Partitions):
    """Fit a ``GNBClassifier(dependence="gaussian")`` from partitions (module docstring)."""
    owner = type(clf).__name__
    data = data.with_owner(owner)
    if clf.dependence != "gaussian" or clf.n_clusters == "auto":
        raise ValueError(f"{owner} fits from a Dask collection with dependence='gaussian' and "
                         f"n_clusters None or an int only; got dependence={clf.dependence!r}, "
                         f"n_clusters={clf.n_clusters!r}. Compute a sample into memory for the "
                         "copula/KDE models and for n_clusters='auto'.")
    if clf.parameters != "generative":
        raise ValueError("GNBClassifier(parameters='discriminative') needs the rows in memory; "
                         "compute a sample or use parameters='generative'.")
    clf.discriminative_ = None
    if not clf._continuous_columns(data).all():
        raise ValueError(f"{owner} fits from a Dask collection with float (continuous) columns "
                         "only; compute a sample into memory for categorical columns.")
    mo = moments_of(data)
    clf._set_classes_from_statistics(mo.classes, mo.n, data, 1)
    d = len(data.names)
    enc = clf._set_encoder_from_statistics(fit_encoder(
        data, np.ones(d, bool), [None] * d, mo.lo.min(axis=0), mo.hi.max(axis=0)))
    used = clf._structure_columns(enc)
    if clf.n_clusters is not None and clf.n_clusters > used.size - 1:
        raise ValueError(f"n_clusters={clf.n_clusters} is out of range: X has {used.size} "
                         f"non-constant features, so a GNB has {used.size - 1} clusters and "
                         f"n_clusters must be an int in [1, {used.size - 1}] or None.")
    clf._used, clf.rooted_, clf.forest_model_ = used, False, None
    names = clf.feature_names()
    sub = mo.subset(used)
    _, R = gaussian_statistics(sub, [names[u] for u in used], owner)
    local, clf.edge_weights_ = fitted_copula_tree(R, sub.n / sub.n.sum(), np.arange(used.size),
                                                  [names[u] for u in used])
    edges = [(int(used[i]), int(used[j])) for i, j in local]
    clf.cluster_order_ = np.array(edges, dtype=int).reshape(-1, 2)
    clf.density_ = ClassGaussian(var_smoothing=clf.var_smoothing).fit_moments(
        _zero_constant(mo, used))
    clf.weight_ = float(clf.edge_weights_.sum())
    clf.structure_ = GNBJunctionTree.from_tree(
        [(names[i], names[j]) for i, j in edges], target=clf._target_name(),
        features=[names[u] for u in used])
    clf.n_clusters_ = used.size - 1 if clf.n_clusters is None else int(clf.n_clusters)
    clf.class_information_ = single_type_table(enc, mo.classes, moments=mo).class_information()
    return clf
