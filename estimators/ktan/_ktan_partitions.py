"""A (k-)TAN fitted from the statistics of row partitions
(:class:`~estimators.stats.partitions.Partitions`: a Dask DataFrame through
``estimators.distributed.collect``).

The structure and the parameters come from the same statistics: discrete features, the
categories (one pass), then the class x K_i x K_j contingency tables of all pairs -> the
plug-in CMI matrix and the CPTs; Gaussian features, the class moments -> the Gaussian CMI
of any parent set and each linear Gaussian factor; continuous and categorical features
together, as in memory (:mod:`estimators.learning.structure_scores`): the directed conditional
Gaussian pair scores (:func:`~estimators.network.cg_pairs.pair_gains`, three passes),
the maximum spanning arborescence over them. The network's factors
(:func:`~estimators.network.model.fit_network`'s settings: pseudo-count ``alpha``/``ess``,
least squares, ``var_smoothing`` times the largest variance added) come from the same
statistics (:func:`~estimators.network.stats_factors.factor_from_stats`). A Gaussian table's
score answers any parent set, so a ``KTANClassifier`` with ``k >= 2`` fits from partitions on
continuous features. The fit ends with the attributes of an in-memory fit, so prediction is
the ordinary code; inputs must be complete (no missing cells). A ``NaiveBayesClassifier``
fits its factors (no feature parent) from the same statistics. With
``parameters="discriminative"`` the fit ends with the template's discriminative fit from
the partitions (:func:`estimators.discriminative.fit_parameters_partitioned`).
"""

from __future__ import annotations

from numbers import Integral

import numpy as np

from estimators.base.validation import non_constant_columns
from estimators.ktan._tan_base import _without_constant
from estimators.learning.structure_learning import Constraints, learn_structure
from estimators.learning.structure_scores import MIN_CELL_ROWS, RIDGE
from estimators.network.cg_pairs import fit_statistics_table, pair_gains
from estimators.network.model import CGNetwork, pseudo_count
from estimators.network.stats_factors import StatsTable, factor_from_stats
from estimators.scores import GaussianCMI
from estimators.scores.partition_scores import discrete_edge_matrix, gaussian_statistics
from estimators.search import fit_width
from estimators.semiparametric import factor_kinds
from estimators.stats.partitions import Partitions

__all__ = ["PairScore", "fit_nb_partitions", "fit_tan_partitions", "network_from_stats"]


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


def _kept(clf, enc) -> list:
    return non_constant_columns(enc.types, 2, clf.constant_features_)


def finish_tan(clf, enc, table: StatsTable, score, kept=None):
    """Search the k-tree on the fitted ``score`` (over the non-constant columns ``kept``) as
    :func:`~estimators.learning.structure_learning.learn_structure` does, and fit the network from the
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
    clf.k_ = k = fit_width(spec.k, len(kept), owner)
    if k > 1 and clf.family_ != "gaussian":
        raise ValueError(f"{owner}(k={k}) fits from a Dask collection on continuous features "
                         f"only (the Gaussian CMI of any parent set comes from the class "
                         f"moments); this table is {clf.family_}, whose partition statistics "
                         "hold pairs: use k=1 (TANClassifier) or compute a sample into memory.")
    if backbone is not None and not isinstance(backbone, str):
        backbone = _without_constant(backbone, names, set(clf.constant_features_))
    fit = learn_structure(score, search, Constraints(k, backbone, spec.candidates),
                          variables=kept_names)
    clf.candidates_, clf.structure_, clf.backbone_ = fit.candidates, fit.structure, fit.backbone
    clf.certificate_, clf.score_, clf.search_ = fit.certificate, fit.score, fit.search
    clf.edge_scores_ = fit.edge_matrix
    clf.class_information_ = table.class_information()
    clf.hyperedge_scores_ = {v: float(score(v, clf.structure_.parents(v)))
                             for v in clf.structure_.order}
    index = {names[j]: j for j in kept}
    order = [index[v] for v in clf.structure_.order]
    parents = [tuple(sorted(index[p] for p in clf.structure_.parents(v)))
               for v in clf.structure_.order]
    largest = table.largest_variance(order)
    floor = clf.var_smoothing * (largest if largest > 0 else 1.0)
    clf._fit_spec = spec
    clf.network_ = network_from_stats(enc, table, order, parents, alpha=clf.alpha,
                                      ess=spec.ess,
                                      var_smoothing=clf.var_smoothing, floor=floor)
    clf.factor_kinds_ = factor_kinds(clf.network_, names, enc.continuous)
    clf._warn_degenerate(enc, floor)
    return clf


def _check_ktan(clf, owner: str) -> None:
    """``TANClassifier`` / ``KTANClassifier`` from partitions: the CMI score and (k-TAN) an
    int ``k`` (sets ``structure_score_``, and ``k_`` of k-TAN)."""
    if owner != "KTANClassifier":
        if clf.structure_score != "cmi":
            raise ValueError(f"{owner} fits from a Dask collection with structure_score="
                             f"'cmi'; got {clf.structure_score!r} (other scores need the "
                             "rows: compute a sample into memory).")
        clf.structure_score_ = "cmi"
        return
    if not isinstance(clf.k, Integral) or clf.structure_score != "cmi":
        raise ValueError(f"{owner} fits from a Dask collection with an int k and "
                         f"structure_score='cmi'; got k={clf.k!r}, structure_score="
                         f"{clf.structure_score!r} (k='auto' refits by "
                         "cross-validation: give an int such as k=2; BIC/BDeu need the rows: "
                         "compute a sample into memory).")
    clf.k_, clf.structure_score_ = int(clf.k), "cmi"


def fit_tan_partitions(clf, data: Partitions):
    """Fit a ``TANClassifier`` or ``KTANClassifier`` from partitions (module docstring)."""
    owner = type(clf).__name__
    data = data.with_owner(owner)
    _check_ktan(clf, owner)
    continuous, enc, table, classes = fit_statistics_table(clf, data)
    names = clf.feature_names()
    if continuous.any() and not continuous.all():  # mixed: the conditional Gaussian pairs
        kept = _kept(clf, enc)
        W = pair_gains(data, table, classes, kept, var_smoothing=float(clf.var_smoothing),
                       ridge=RIDGE, min_cell_rows=MIN_CELL_ROWS)
        finish_tan(clf, enc, table, PairScore(W, [names[j] for j in kept]), kept)
    else:
        kept = [j for j, t in enumerate(enc.types) if t != "constant"]
        kept_names = [names[j] for j in kept]
        score = None
        if len(kept) >= 2 and continuous.all():
            sub = table.stats.moments.subset(kept)
            constant, R = gaussian_statistics(sub, kept_names, owner, allow_constant=True)
            score = GaussianCMI().fit_correlations(kept_names, sub.classes, sub.n, constant, R)
        elif len(kept) >= 2:
            score = PairScore(discrete_edge_matrix(table.stats.counts.subset(kept)), kept_names)
        finish_tan(clf, enc, table, score)
    spec = clf._fit_spec
    clf._fit_parameters_from_partitions(data, spec.parameters, spec.random_state)
    return clf


def fit_nb_partitions(clf, data: Partitions):
    """Fit a ``NaiveBayesClassifier`` from partitions: its factors (no feature parent) from
    the statistics of :func:`~estimators.network.cg_pairs.fit_statistics_table`, as
    :func:`~estimators.network.model.fit_network` fits them in memory, then its
    discriminative parameters (``parameters="discriminative"``) from the partitions."""
    owner = type(clf).__name__
    data = data.with_owner(owner)
    _, enc, table, _ = fit_statistics_table(clf, data)
    kept = non_constant_columns(enc.types, 1, clf.constant_features_)
    clf.class_information_ = table.class_information()
    largest = table.largest_variance(kept)
    clf.network_ = network_from_stats(
        enc, table, kept, [()] * len(kept), alpha=clf.alpha, ess=None,
        var_smoothing=clf.var_smoothing,
        floor=clf.var_smoothing * (largest if largest > 0 else 1.0))
    clf._fit_parameters_from_partitions(data, clf.parameters, clf.random_state)
    return clf
