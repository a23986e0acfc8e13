"""GNB (Gaussian) and TAN fitted from a Dask DataFrame, and prediction over partitions.

The structure and the parameters come from the same reduced statistics:

* ``GNBClassifier(dependence="gaussian")``: class moments -> correlation matrices -> the
  Gaussian CMI matrix -> Kruskal on the client; the class-conditional normals
  (:class:`~estimators.densities.ClassGaussian`) from the same moments;
* ``TANClassifier``, discrete features: categories (one pass), then the class x K_i x K_j
  contingency tables of all pairs -> the plug-in CMI matrix -> the spanning tree; the CPTs are
  those tables (a root's table is the diagonal block);
* ``TANClassifier``, Gaussian features: class moments -> the Gaussian CMI matrix; each
  class-conditional regression of a feature on its parent from the centred cross-products
  (``b = M_pv / M_pp``, residual variance ``(M_vv - M_pv^2 / M_pp) / n``).

Column family of a Dask ``X`` under ``features="auto"`` (no pass over the values): float
columns are Gaussian, every other dtype (integers, strings, categories, booleans) discrete;
the in-memory rule also looks at the values (an integer column with more than 10 values is
continuous there). Pass ``features=`` explicitly when that matters.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted

from estimators.densities import ClassGaussian
from estimators.densities._normal_scores import RHO_MAX
from estimators.distributed._collect import as_dask_data, categories_of, counts_of, moments_of
from estimators.distributed._scores import (
    discrete_edge_matrix,
    gaussian_score_from_moments,
)
from estimators.distributed._stats import ClassMoments, PairCounts
from estimators.ktan._columns import DiscreteEncoding
from estimators.ktan._cpt import DiscreteCPTs
from estimators.ktan._linear_gaussian import VAR_SMOOTHING, LinearGaussianCPDs
from estimators.search import maximum_spanning_tree, search_structure
from kgraph import GNBJunctionTree

__all__ = ["fit_gnb_dask", "fit_tan_dask", "predict_dask"]


class PairScore:
    """A hyperedge score known on pairs only: ``f(v, {p}) = W[p, v]`` (0 for no parent)."""

    def __init__(self, W: np.ndarray, names):
        self.W, self.variables_ = W, list(names)
        self._index = {v: j for j, v in enumerate(self.variables_)}

    def __call__(self, v, parents) -> float:
        parents = list(parents)
        if not parents:
            return 0.0
        if len(parents) > 1:
            raise ValueError(f"A score fitted from Dask statistics answers one parent only; got "
                             f"{len(parents)} parents for {v!r}.")
        return float(self.W[self._index[parents[0]], self._index[v]])

    def edge_matrix(self) -> np.ndarray:
        return self.W.copy()


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
    var = np.diagonal(mo.M, axis1=1, axis2=2) / mo.n[:, None] + eps
    g.std_ = np.sqrt(var)
    g.corr_ = np.empty_like(mo.M)
    for c, Mc in enumerate(mo.M):  # one matrix per class
        sd = np.sqrt(np.diagonal(Mc).copy())
        corr = np.divide(Mc, np.outer(sd, sd), out=np.zeros_like(Mc), where=np.outer(sd, sd) > 0)
        np.fill_diagonal(corr, 1.0)
        corr = np.clip(corr, -RHO_MAX, RHO_MAX) + (1.0 - RHO_MAX) * np.eye(corr.shape[0])
        raw_sd = np.sqrt(np.maximum(var[c] - eps, 0.0))
        shrink = np.outer(raw_sd, raw_sd) / np.outer(g.std_[c], g.std_[c])
        diagonal = corr.diagonal().copy()
        g.corr_[c] = corr * shrink
        np.fill_diagonal(g.corr_[c], diagonal)
    return g


def fit_gnb_dask(clf, X, y):
    """Fit a ``GNBClassifier(dependence="gaussian")`` from Dask ``X``, ``y`` (see module)."""
    owner = type(clf).__name__
    if clf.dependence != "gaussian" or clf.n_clusters == "auto":
        raise ValueError(f"{owner} fits from a Dask collection with dependence='gaussian' and "
                         f"n_clusters None or an int only; got dependence={clf.dependence!r}, "
                         f"n_clusters={clf.n_clusters!r}. Compute a sample into memory for the "
                         "copula/KDE models and for n_clusters='auto'.")
    data = as_dask_data(X, y, owner)
    mo = moments_of(data)
    _set_classes(clf, mo.classes, mo.n, data, clf._min_rows_per_class())
    d = len(data.names)
    if clf.n_clusters is not None and clf.n_clusters > d - 1:
        raise ValueError(f"n_clusters={clf.n_clusters} is out of range: X has {d} features, so a "
                         f"GNB has {d - 1} clusters and n_clusters must be an int in [1, {d - 1}] "
                         "or None.")
    W = gaussian_score_from_moments(mo, data.names, owner).edge_matrix()
    edges = [(int(i), int(j)) for i, j in maximum_spanning_tree(W).edges]
    clf.edge_weights_ = np.array([W[i, j] for i, j in edges])
    clf.density_ = class_gaussian_from_moments(mo, clf.var_smoothing)
    clf.cluster_order_ = np.array(edges, dtype=int).reshape(-1, 2)
    clf.weight_ = float(clf.edge_weights_.sum())
    names = clf.feature_names()
    clf.structure_ = GNBJunctionTree.from_tree(
        [(names[i], names[j]) for i, j in edges], target=clf._target_name(), features=names
    )
    clf.n_clusters_ = d - 1 if clf.n_clusters is None else int(clf.n_clusters)
    clf.moments_ = mo
    return clf


def _family(X, features: str, owner: str) -> str:
    if features != "auto":
        return features
    floats = [c for c, t in X.dtypes.items() if pd.api.types.is_float_dtype(t)]
    others = [c for c in X.columns if c not in floats]
    if floats and others:
        raise ValueError(f"{owner}(features='auto') found float (continuous) columns {floats} and "
                         f"other (discrete) columns {others} in the Dask DataFrame; one model "
                         "family is fitted per data set: pass features='discrete' or "
                         "'gaussian'.")
    return "gaussian" if floats else "discrete"


def discrete_cpts(counts: PairCounts, parents, alpha: float, ess) -> DiscreteCPTs:
    """The CPTs of :func:`estimators.ktan._cpt.fit_cpts` from the pair tables (k = 1)."""
    K, m = counts.K, counts.G.shape[0]
    skeleton = DiscreteCPTs(tuple(parents), K.astype(np.intp), (), ())
    log_tables, tables = [], []
    for v, pa in enumerate(skeleton.parents):  # loop over features
        count = np.zeros((m, *skeleton.table_shape(v)))
        if pa:
            count[:, : K[pa[0]], : K[v]] = counts.table(pa[0], v)
        else:
            count[:, : K[v]] = np.diagonal(counts.table(v, v), axis1=1, axis2=2)
        r = int(K[v])
        a = alpha if ess is None else ess / (r * np.prod(K[list(pa)]) * m)
        totals = count.sum(axis=-1, keepdims=True) + a * r
        tables.append(count.astype(np.int64))
        log_tables.append(np.log(count + a) - np.log(totals))
    return DiscreteCPTs(skeleton.parents, skeleton.n_levels, tuple(log_tables), tuple(tables))


def gaussian_cpds(mo: ClassMoments, parents) -> LinearGaussianCPDs:
    """The regressions of :func:`estimators.ktan._linear_gaussian.fit_linear_gaussian` from
    the class moments (k = 1); a parent constant in a class gives the minimum-norm solution."""
    n_all, _, M_all = mo.pooled()
    floor = VAR_SMOOTHING * max(float((np.diagonal(M_all) / n_all).max()), np.finfo(float).tiny)
    m, d = mo.mean.shape
    coef = [np.zeros((m, 1 + len(pa))) for pa in parents]
    var = np.zeros((m, d))
    for v, pa in enumerate(parents):  # loop over features and classes, not rows
        for c in range(m):
            mv, Mvv, n = mo.mean[c, v], mo.M[c, v, v], mo.n[c]
            if not pa:
                coef[v][c], var[c, v] = [mv], Mvv / n + floor
                continue
            p = pa[0]
            Mpp, Mpv, mp = mo.M[c, p, p], mo.M[c, p, v], mo.mean[c, p]
            if Mpp > 0:
                b = Mpv / Mpp
                coef[v][c] = [mv - b * mp, b]
                var[c, v] = max(Mvv - b * Mpv, 0.0) / n + floor
            else:  # design [1, const]: lstsq's minimum-norm solution
                coef[v][c] = [mv / (1 + mp * mp), mp * mv / (1 + mp * mp)]
                var[c, v] = Mvv / n + floor
    return LinearGaussianCPDs(tuple(parents), tuple(coef), var)


def fit_tan_dask(clf, X, y):
    """Fit a ``TANClassifier`` from Dask ``X``, ``y`` (see module)."""
    owner = type(clf).__name__
    if owner != "TANClassifier":
        raise TypeError(f"{owner} cannot be fitted from a Dask collection; TANClassifier and "
                        "GNBClassifier(dependence='gaussian') can. Compute a sample into memory.")
    clf._validate_params()
    data = as_dask_data(X, y, owner)
    clf.family_ = _family(data.X, clf.features, owner)
    if clf.family_ == "discrete":
        categories, classes = categories_of(data)
        counts = counts_of(data, categories, classes)
        n_y = counts.table(0, 0).sum(axis=(1, 2))
        _set_classes(clf, classes, n_y, data, 2)
        W = discrete_edge_matrix(counts)
        clf.encoding_ = DiscreteEncoding(tuple(categories))
    else:
        mo = moments_of(data)
        _set_classes(clf, mo.classes, mo.n, data, 2)
        W = gaussian_score_from_moments(mo, data.names, owner, allow_constant=True).edge_matrix()
    names = clf.feature_names()
    f = PairScore(W, names)
    found = search_structure("backbone-dp", f, names, 1, backbone=None, W=W, owner=owner)
    clf.k_, clf.structure_, clf.backbone_ = 1, found.structure, found.backbone
    clf.certificate_, clf.score_, clf.edge_scores_ = found.certificate, found.score, W
    clf.candidates_ = None
    clf.hyperedge_scores_ = {v: f(v, clf.structure_.parents(v)) for v in names}
    index = {v: j for j, v in enumerate(names)}
    parents = [tuple(index[p] for p in clf.structure_.parents(v)) for v in names]
    if clf.family_ == "discrete":
        clf.cpts_ = discrete_cpts(counts, parents, clf.alpha, clf.ess)
    else:
        clf.cpds_ = gaussian_cpds(mo, parents)
    return clf


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
