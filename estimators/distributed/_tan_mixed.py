"""A (k-)TAN from reduced Dask statistics; the mixed (continuous and categorical) table.

As in memory (:mod:`estimators.network.scoring`): the directed conditional Gaussian pair
scores (:func:`~estimators.distributed._cg_score.pair_gains`, three passes), the maximum
spanning arborescence over them (:func:`~estimators.network.learn.learn_structure`), then
the network's factors (:func:`~estimators.network.model.fit_network`'s settings: pseudo-count
``alpha``/``ess``, least squares, ``var_smoothing`` times the largest variance added) built
from the same pass-2 statistics by :func:`~estimators.distributed._cg_pairs.factor_from_stats`.
:func:`finish_tan` is that search and network for every family (Gaussian and discrete
tables come with their closed-form scores, a Gaussian one answering any parent set, so a
``KTANClassifier`` with ``k >= 2`` fits from Dask on continuous features).
"""

from __future__ import annotations

import numpy as np

from estimators.class_information import discrete_information, gaussian_information
from estimators.distributed._cg_pairs import StatsTable, factor_from_stats
from estimators.distributed._cg_score import mixed_table, pair_gains
from estimators.ktan._base import _without_constant
from estimators.network.learn import Constraints, learn_structure
from estimators.network.model import CGNetwork, pseudo_count
from estimators.network.scoring import MIN_CELL_ROWS, RIDGE
from estimators.search import check_k

__all__ = ["PairScore", "finish_tan", "fit_tan_mixed", "network_from_stats"]


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

    def score_many(self, items) -> np.ndarray:
        """``f(v, P)`` of many ``(v, P)`` items."""
        return np.array([self(v, p) for v, p in items], dtype=float)

    def edge_matrix(self) -> np.ndarray:
        return self.W.copy()


def largest_variance(table: StatsTable, columns) -> float:
    """The largest variance over all rows of the continuous ``columns`` (0 when none)."""
    cont = [table.position[v] for v in columns if table.continuous[v]]
    if not cont:
        return 0.0
    n, _, M = table.stats.moments.pooled()
    return float((np.diagonal(M)[cont] / n).max())


def network_from_stats(enc, table: StatsTable, columns, parents, *, alpha, ess, var_smoothing,
                       floor) -> CGNetwork:
    """:func:`~estimators.network.model.fit_network` (k = 1, complete rows) from the
    statistics: ``enc`` the encoded table of no rows (types and levels)."""
    m = table.n_classes
    factors = tuple(
        factor_from_stats(table, v, pa, alpha=pseudo_count(enc, v, pa, m, alpha, ess),
                          var_smoothing=var_smoothing, ridge=0.0, min_cell_rows=MIN_CELL_ROWS,
                          var_floor=floor)[0]
        for v, pa in zip(columns, parents, strict=True))
    return CGNetwork(tuple(columns), tuple(parents), factors)


def fit_tan_mixed(clf, data, continuous: np.ndarray, set_classes, set_encoder):
    """Fit ``clf`` (a ``TANClassifier``) on a Dask table with continuous and categorical
    columns (``set_classes``/``set_encoder`` set the class and encoder attributes)."""
    encoder, _, table, classes = mixed_table(data, continuous)
    set_classes(clf, classes, table.class_counts, data, 2)
    enc = set_encoder(clf, data, encoder)
    kept = _kept(clf, enc)
    W = pair_gains(data, table, classes, kept, var_smoothing=float(clf.var_smoothing),
                   ridge=RIDGE, min_cell_rows=MIN_CELL_ROWS)
    names = clf.feature_names()
    return finish_tan(clf, enc, table, PairScore(W, [names[j] for j in kept]), kept)


def _kept(clf, enc) -> list:
    kept = [j for j, t in enumerate(enc.types) if t != "constant"]
    if len(kept) < 2:
        raise ValueError(f"{type(clf).__name__} needs at least 2 non-constant feature columns; "
                         f"X has {len(kept)} (constant: {clf.constant_features_}).")
    return kept


def class_information_of(table: StatsTable) -> np.ndarray:
    """I(X_j; C) in nats of every column from the reduced statistics, as the in-memory
    ``class_information_`` (:mod:`estimators.class_information`): the diagonal of the pair
    counts for a categorical column, the class moments for a continuous one."""
    mo, counts = table.stats.moments, table.stats.counts
    out = np.zeros(len(table.continuous))
    for j, continuous in enumerate(table.continuous):  # per column, from (m, ...) arrays
        q = table.position[j]
        if continuous:
            out[j] = gaussian_information(mo.n, mo.mean[:, q],
                                          mo.M[:, q, q] / np.maximum(mo.n, 1))
        elif table.n_levels[j] > 1:  # a constant column carries 0 (and may have no counts)
            out[j] = discrete_information(np.diagonal(counts.table(q, q), axis1=1, axis2=2))
    return out


def finish_tan(clf, enc, table: StatsTable, score, kept=None):
    """Search the k-tree on the fitted ``score`` (over the non-constant columns ``kept``) as
    :func:`~estimators.network.learn.learn_structure` does, and fit the network from the
    statistics; sets the fitted attributes of an in-memory fit."""
    owner = type(clf).__name__
    kept = _kept(clf, enc) if kept is None else kept
    names = clf.feature_names()
    kept_names = [names[j] for j in kept]
    kinds = {enc.types[j] for j in kept}
    clf.family_ = "mixed" if len(kinds) == 2 else (
        "gaussian" if kinds == {"continuous"} else "discrete")
    spec = clf._spec()
    search, backbone = spec.search, spec.backbone
    clf.k_ = k = check_k(spec.k, len(kept), owner=owner)
    if k > 1 and clf.family_ != "gaussian":
        raise ValueError(f"{owner}(k={k}) fits from a Dask collection on continuous features "
                         f"only (the Gaussian CMI of any parent set comes from the class "
                         f"moments); this table is {clf.family_}, whose partition statistics "
                         "hold pairs: use k=1 (TANClassifier) or compute a sample into memory.")
    if backbone is not None and not isinstance(backbone, str):
        backbone = _without_constant(backbone, names, set(clf.constant_features_))
    fit = learn_structure(score, search, Constraints(k, backbone, spec.candidates, owner),
                          variables=kept_names)
    clf.candidates_, clf.structure_, clf.backbone_ = fit.candidates, fit.structure, fit.backbone
    clf.certificate_, clf.score_, clf.search_ = fit.certificate, fit.score, fit.search
    clf.edge_scores_ = fit.edge_matrix
    clf.class_information_ = class_information_of(table)
    clf.hyperedge_scores_ = {v: float(score(v, clf.structure_.parents(v)))
                             for v in clf.structure_.order}
    index = {names[j]: j for j in kept}
    order = [index[v] for v in clf.structure_.order]
    parents = [tuple(sorted(index[p] for p in clf.structure_.parents(v)))
               for v in clf.structure_.order]
    largest = largest_variance(table, order)
    floor = clf.var_smoothing * (largest if largest > 0 else 1.0)
    clf.network_ = network_from_stats(enc, table, order, parents, alpha=clf.alpha,
                                      ess=spec.ess,
                                      var_smoothing=clf.var_smoothing, floor=floor)
    clf.factor_kinds_ = {names[v]: "gaussian" for v in order}  # conditional Gaussian factors
    clf._warn_degenerate(enc, floor)
    return clf
