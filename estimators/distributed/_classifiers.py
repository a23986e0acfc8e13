"""GNB (Gaussian) and TAN fitted from a Dask DataFrame, and prediction over partitions.

The structure and the parameters come from the same reduced statistics:

* ``GNBClassifier(dependence="gaussian")``: class moments -> correlation matrices -> the
  Gaussian CMI matrix -> Kruskal on the client; the class-conditional normals
  (:class:`~estimators.densities.ClassGaussian`) from the same moments;
* ``TANClassifier``, discrete features: categories (one pass), then the class x K_i x K_j
  contingency tables of all pairs -> the plug-in CMI matrix -> the spanning tree; the
  ``CategoricalFactor`` CPTs of the network from those tables (a root's table is the
  diagonal block);
* ``TANClassifier``, Gaussian features: class moments -> the Gaussian CMI matrix; each
  ``LinearGaussianFactor`` (class-conditional regression of a feature on its parent) from
  the centred cross-products, pooled and floored as on rows;
* ``TANClassifier``, continuous and categorical features together: the directed conditional
  Gaussian pair scores and factors from class moments, pair counts and cell moments
  (:mod:`estimators.distributed._tan_mixed`).

Either way the fit ends with the attributes of an in-memory fit (``encoder_``,
``feature_types_``, ``constant_features_``, ``network_``/``density_``...), built in
:mod:`estimators.distributed._factors`, so prediction is main's code. Constant columns
leave the model as in memory. Inputs must be complete (no missing cells).

Column types of a Dask ``X`` under ``features="auto"`` are those of an in-memory fit (a
numeric column with at most 10 distinct whole values is categorical), found in one extra
map-reduce over the numeric columns; a ``feature_types`` mapping or ``features=`` skips it.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted

from estimators.densities import ClassGaussian
from estimators.densities.gaussian import smoothed_correlation
from estimators.distributed._cg_pairs import single_type_table
from estimators.distributed._cg_score import column_kinds
from estimators.distributed._collect import as_dask_data, categories_of, counts_of, moments_of
from estimators.distributed._factors import (
    empty_encoded,
    encoder_order,
    fit_encoder,
    subset_counts,
    subset_moments,
)
from estimators.distributed._scores import (
    discrete_edge_matrix,
    gaussian_score_from_moments,
)
from estimators.distributed._stats import ClassMoments
from estimators.distributed._tan_mixed import (
    PairScore,
    class_information_of,
    finish_tan,
    fit_tan_mixed,
)
from estimators.search import maximum_spanning_tree
from kgraph import GNBJunctionTree

__all__ = ["fit_gnb_dask", "fit_tan_dask", "predict_dask"]


def _set_classes(clf, classes: np.ndarray, counts: np.ndarray, data, min_rows: int) -> None:
    owner = type(clf).__name__
    if classes.size < 2:
        raise ValueError(f"{owner} needs samples of at least 2 classes in y; got one class only "
                         f"({classes.tolist()[0]!r}).")
    low = np.flatnonzero(counts < min_rows)
    if low.size:
        c = int(low[0])
        raise ValueError(f"Class {classes[c]!r} has {int(counts[c])} training row(s); {owner} "
                         f"needs at least {min_rows} rows per class.")
    if len(data.names) < 2:
        raise ValueError(f"{owner} needs at least 2 feature columns; got {len(data.names)}.")
    clf.classes_ = classes
    clf.class_count_ = counts.astype(np.int64)
    clf.class_log_prior_ = np.log(counts / counts.sum())
    clf.n_features_in_ = len(data.names)
    if not data.from_array and all(isinstance(c, str) for c in data.names):
        clf.feature_names_in_ = np.asarray(data.names, dtype=object)
    elif hasattr(clf, "feature_names_in_"):
        del clf.feature_names_in_


def class_gaussian_from_moments(mo: ClassMoments, var_smoothing: float) -> ClassGaussian:
    """:class:`ClassGaussian` with the moments ``ClassGaussian.fit`` computes from the rows."""
    n, _, M = mo.pooled()
    eps = var_smoothing * float((np.diagonal(M) / n).max())
    g = ClassGaussian(var_smoothing=var_smoothing)
    g.n_classes_ = mo.classes.size
    g.mean_ = mo.mean.copy()
    raw_var = np.diagonal(mo.M, axis1=1, axis2=2) / mo.n[:, None]
    g.std_ = np.sqrt(raw_var + eps)
    g.corr_ = np.empty_like(mo.M)
    for c, Mc in enumerate(mo.M):  # one matrix per class
        sd = np.sqrt(np.diagonal(Mc).copy())
        corr = np.divide(Mc, np.outer(sd, sd), out=np.zeros_like(Mc), where=np.outer(sd, sd) > 0)
        np.fill_diagonal(corr, 1.0)
        g.corr_[c] = smoothed_correlation(corr, raw_var[c], eps)
    return g


def _zero_constant(mo: ClassMoments, used) -> ClassMoments:
    """The moments of the table the in-memory GNB fits its density on: constant columns
    (not in ``used``) read as 0."""
    const = np.setdiff1d(np.arange(mo.mean.shape[1]), used)
    mean, M = mo.mean.copy(), mo.M.copy()
    mean[:, const], M[:, const, :], M[:, :, const] = 0.0, 0.0, 0.0
    return ClassMoments(mo.classes, mo.n, mean, M, mo.lo, mo.hi)


def fit_gnb_dask(clf, X, y):
    """Fit a ``GNBClassifier(dependence="gaussian")`` from Dask ``X``, ``y`` (see module)."""
    owner = type(clf).__name__
    if clf.dependence != "gaussian" or clf.n_clusters == "auto":
        raise ValueError(f"{owner} fits from a Dask collection with dependence='gaussian' and "
                         f"n_clusters None or an int only; got dependence={clf.dependence!r}, "
                         f"n_clusters={clf.n_clusters!r}. Compute a sample into memory for the "
                         "copula/KDE models and for n_clusters='auto'.")
    data = as_dask_data(X, y, owner)
    if not _continuous(clf, data).all():
        raise ValueError(f"{owner} fits from a Dask collection with float (continuous) columns "
                         "only; compute a sample into memory for categorical columns.")
    mo = moments_of(data)
    _set_classes(clf, mo.classes, mo.n, data, 1)
    d = len(data.names)
    enc = _set_encoder(clf, data, fit_encoder(data, np.ones(d, bool), [None] * d,
                                              mo.lo.min(axis=0), mo.hi.max(axis=0)))
    used = clf._structure_columns(enc)
    if clf.n_clusters is not None and clf.n_clusters > used.size - 1:
        raise ValueError(f"n_clusters={clf.n_clusters} is out of range: X has {used.size} "
                         f"non-constant features, so a GNB has {used.size - 1} clusters and "
                         f"n_clusters must be an int in [1, {used.size - 1}] or None.")
    clf._used, clf.rooted_, clf.forest_model_ = used, False, None
    names = clf.feature_names()
    W = gaussian_score_from_moments(subset_moments(mo, used), [names[u] for u in used],
                                    owner).edge_matrix()
    local = [(int(i), int(j)) for i, j in maximum_spanning_tree(W).edges]
    clf.edge_weights_ = np.array([W[i, j] for i, j in local])
    edges = [(int(used[i]), int(used[j])) for i, j in local]
    clf.cluster_order_ = np.array(edges, dtype=int).reshape(-1, 2)
    clf.density_ = class_gaussian_from_moments(_zero_constant(mo, used), clf.var_smoothing)
    clf.weight_ = float(clf.edge_weights_.sum())
    clf.structure_ = GNBJunctionTree.from_tree(
        [(names[i], names[j]) for i, j in edges], target=clf._target_name(),
        features=[names[u] for u in used])
    clf.n_clusters_ = used.size - 1 if clf.n_clusters is None else int(clf.n_clusters)
    clf.class_information_ = class_information_of(single_type_table(enc, mo.classes,
                                                                    moments=mo))
    return clf


def _continuous(clf, data) -> np.ndarray:
    """Which columns are continuous, from ``features``, a ``feature_types`` mapping or the
    in-memory typing rule (see :func:`~estimators.distributed._cg_score.column_kinds`)."""
    features = getattr(clf, "features", "auto")
    if features != "auto":
        return np.full(len(data.names), features == "gaussian")
    return column_kinds(data, getattr(clf, "feature_types", "auto"), type(clf).__name__)


def _set_encoder(clf, data, encoder):
    """``encoder_``, ``feature_types_``, ``constant_features_`` (and the warning) as
    ``_validate_training`` sets them; returns an empty encoded table (the column types)."""
    clf.encoder_ = encoder
    empty = empty_encoded(encoder)
    clf._record_types(empty.types, stacklevel=5)
    return empty


def _check_ktan(clf, owner: str) -> None:
    """``KTANClassifier`` from Dask: an int ``k`` and the CMI score (sets ``k_``,
    ``structure_score_``); the other classifiers of the family are refused."""
    if owner == "TANClassifier":
        return
    if owner != "KTANClassifier":
        raise TypeError(f"{owner} cannot be fitted from a Dask collection; TANClassifier, "
                        "KTANClassifier and GNBClassifier(dependence='gaussian') can. Compute a "
                        "sample into memory.")
    if not isinstance(clf.k, Integral) or clf.structure_score != "cmi":
        raise ValueError(f"{owner} fits from a Dask collection with an int k and "
                         f"structure_score='cmi'; got k={clf.k!r}, structure_score="
                         f"{clf.structure_score!r} (k='auto' refits by cross-validation and "
                         "BIC/BDeu need the rows: compute a sample into memory).")
    clf.k_, clf.structure_score_ = int(clf.k), "cmi"


def fit_tan_dask(clf, X, y):
    """Fit a ``TANClassifier`` or ``KTANClassifier`` from Dask ``X``, ``y`` (see module)."""
    owner = type(clf).__name__
    _check_ktan(clf, owner)
    clf._validate_params()
    method = clf._feature_selection_method()
    if method is not None:
        raise ValueError(f"{owner}(feature_selection={method!r}) needs the rows in memory; use "
                         "feature_selection=None on a Dask collection, or compute a sample.")
    clf.feature_selection_ = None
    data = as_dask_data(X, y, owner)
    continuous = _continuous(clf, data)
    if continuous.any() and not continuous.all():
        return fit_tan_mixed(clf, data, continuous, _set_classes, _set_encoder)
    d = len(data.names)
    if continuous.all():
        mo = moments_of(data)
        _set_classes(clf, mo.classes, mo.n, data, 2)
        encoder = fit_encoder(data, continuous, [None] * d, mo.lo.min(axis=0),
                              mo.hi.max(axis=0))
    else:
        categories, classes = categories_of(data)
        encoder = fit_encoder(data, continuous, categories, None, None)
        counts = counts_of(data, encoder_order(encoder, categories), classes)
        _set_classes(clf, classes, counts.table(0, 0).sum(axis=(1, 2)), data, 2)
    enc = _set_encoder(clf, data, encoder)
    names = clf.feature_names()
    kept = [j for j, t in enumerate(enc.types) if t != "constant"]
    kept_names = [names[j] for j in kept]
    if continuous.all():
        table = single_type_table(enc, mo.classes, moments=mo)
        score = None if len(kept) < 2 else gaussian_score_from_moments(
            subset_moments(mo, kept), kept_names, owner, allow_constant=True)
    else:
        table = single_type_table(enc, classes, counts=counts)
        score = None if len(kept) < 2 else PairScore(
            discrete_edge_matrix(subset_counts(counts, kept)), kept_names)
    return finish_tan(clf, enc, table, score)


def predict_dask(clf, X, method: str):
    """``clf.<method>`` mapped over the partitions of a Dask ``X`` (lazy): a dask Series for
    ``predict``, a dask DataFrame with one column per class for the probabilities (a dask
    array in, a dask array out)."""
    import dask.array as da

    check_is_fitted(clf)
    fn = getattr(clf, method)
    if isinstance(X, da.Array):
        if method == "predict":
            return X.map_blocks(fn, drop_axis=1, dtype=clf.classes_.dtype)
        return X.map_blocks(fn, chunks=(X.chunks[0], (clf.classes_.size,)), dtype=float)
    if method == "predict":
        meta = pd.Series(clf.classes_[:0], name="prediction")
        return X.map_partitions(lambda part: pd.Series(fn(part), index=part.index,
                                                       name="prediction"), meta=meta)
    columns = [str(c) for c in clf.classes_]
    meta = pd.DataFrame({c: pd.Series(dtype=float) for c in columns})
    return X.map_partitions(lambda part: pd.DataFrame(fn(part), index=part.index,
                                                      columns=columns), meta=meta)
