"""Conditional Gaussian factors with one parent (or only continuous ones) from statistics.

:func:`factor_from_stats` builds the factor :func:`~estimators.network.fitting.fit_cg_factor` fits on
the rows (complete data: the available cases are all rows), from a :class:`StatsTable`, with
that function's own helpers (``_cpt``, ``gaussian_factor``, ``bayes_factor``, whose cells
:mod:`estimators.stats.gaussian` computes) on the same cells and pooling levels:

* continuous v: cells (u, y) -> y -> all rows, u the level of a categorical parent (one
  configuration otherwise); moments of ``[x_C, x_v]`` from the class moments or the cell
  moments;
* categorical v, no continuous parent: the CPT from the pair counts;
* categorical v, continuous parent p: the CPT ``p(c | y)`` and the Gaussians of ``x_p`` in
  the cells (c, y) -> (c, y) -> c -> all rows (Bayes' rule).

:func:`log_likelihood_from_stats` gives ``sum_rows ln p(x_v | x_P, y)`` in closed form from
the cells' own moments (a Gaussian cell's residual sum of squares under its, possibly pooled,
parameters) or counts; Bayes' rule needs the rows (None: a pass over the partitions).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from estimators.network.factors import (
    BayesCategoricalFactor,
    CategoricalFactor,
)
from estimators.network.fitting import bayes_factor, gaussian_factor
from estimators.network.fitting import log_cpt_table as _cpt
from estimators.network.hdp_tables import HDPSmoothing
from estimators.network.model import CGNetwork, pseudo_count
from estimators.stats.cell_statistics import CellStats, ClassMoments, PairCounts
from estimators.stats.class_information import discrete_information, gaussian_information
from estimators.stats.gaussian import cells_log_likelihood
from estimators.stats.mixed_statistics import LevelMoments, MixedStats
from estimators.stats.moments import Moments

__all__ = ["StatsTable", "factor_from_stats", "log_likelihood_from_stats", "network_from_stats",
           "single_type_table"]


@dataclass(eq=False)
class StatsTable:
    """Reduced :class:`MixedStats` addressed by encoded column index: ``continuous`` and
    ``n_levels`` per column (as :class:`~estimators.columns.EncodedColumns` has them),
    ``position[j]`` the index of column j among the continuous or the categorical columns
    of ``stats``, ``levels[j]`` a categorical column's levels in code order."""

    stats: MixedStats
    continuous: np.ndarray
    n_levels: np.ndarray
    position: dict
    levels: dict = field(default_factory=dict)  # categorical column -> levels in code order

    @property
    def n_classes(self) -> int:
        return int(self.stats.moments.classes.size)

    @property
    def class_counts(self) -> np.ndarray:
        """Rows per class (from the pair counts when there is no continuous column)."""
        mo = self.stats.moments
        if mo.mean.shape[1]:
            return mo.n.astype(float)
        return self.stats.counts.table(0, 0).sum(axis=(1, 2))

    @property
    def n_rows(self) -> float:
        return float(self.class_counts.sum())

    def class_information(self) -> np.ndarray:
        """I(X_j; C) in nats of every column, as the in-memory ``class_information_``
        (:mod:`estimators.stats.class_information`): the diagonal of the pair counts for a
        categorical column, the class moments for a continuous one."""
        mo, counts = self.stats.moments, self.stats.counts
        out = np.zeros(len(self.continuous))
        for j, continuous in enumerate(self.continuous):  # per column, from (m, ...) arrays
            q = self.position[j]
            if continuous:
                out[j] = gaussian_information(mo.n, mo.mean[:, q],
                                              mo.M[:, q, q] / np.maximum(mo.n, 1))
            elif self.n_levels[j] > 1:  # a constant column carries 0 (and may have no counts)
                out[j] = discrete_information(np.diagonal(counts.table(q, q), axis1=1, axis2=2))
        return out

    def largest_variance(self, columns) -> float:
        """The largest variance over all rows of the continuous ``columns`` (0 when none)."""
        cont = [self.position[v] for v in columns if self.continuous[v]]
        if not cont:
            return 0.0
        return float(self.stats.moments.pooled_variance()[cont].max())

    def var_floor(self, columns, var_smoothing: float) -> float:
        """``var_smoothing`` times the largest variance of the continuous ``columns`` (1 when
        there is none), as :func:`~estimators.network.model.var_floor` computes it from rows."""
        largest = self.largest_variance(columns)
        return var_smoothing * (largest if largest > 0 else 1.0)

    def variance(self, columns) -> np.ndarray:
        """Variance of the continuous ``columns`` over all rows, 1 where it is 0 (as
        ``_column_variance`` scales ridge and floors)."""
        var = self.stats.moments.pooled_variance()[[self.position[j] for j in columns]]
        return np.where(var > 0, var, 1.0)


def single_type_table(enc, classes: np.ndarray, moments: ClassMoments | None = None,
                      counts: PairCounts | None = None) -> StatsTable:
    """A :class:`StatsTable` of an all-continuous (``moments`` of every column) or an
    all-categorical (``counts`` of every column) table."""
    m = classes.size
    if moments is None:
        d, K = 0, counts.K
        n = counts.table(0, 0).sum(axis=(1, 2))
        moments = ClassMoments(classes, n, np.zeros((m, 0)), np.zeros((m, 0, 0)),
                               np.zeros((m, 0)), np.zeros((m, 0)))
    else:
        d, K = moments.mean.shape[1], np.zeros(0, np.int64)
        counts = PairCounts(np.zeros((m, 0, 0)), K)
    D = int(K.sum())
    cells = LevelMoments(CellStats(np.zeros((D, m)), np.zeros((D, m, d)), np.zeros((D, m, d))),
                         K)
    return StatsTable(MixedStats(moments, counts, cells), enc.continuous, enc.n_levels,
                      {j: j for j in range(len(enc.types))})


def _empty(F: int, p: int) -> Moments:
    return Moments(np.zeros(F), np.zeros((F, p)), np.zeros((F, p, p)))


def _cat(*parts: Moments) -> Moments:
    return Moments(*(np.concatenate([getattr(q, k) for q in parts]) for k in ("n", "mean", "M")))


def _diag(n, mean, S) -> Moments:
    """Moments of one coordinate from flat cell arrays."""
    return Moments(n.ravel(), mean.ravel()[:, None], S.ravel()[:, None, None])


def _class_and_all(t: StatsTable, z: list) -> tuple[Moments, Moments]:
    mo = t.stats.moments
    n_all, mean_all, M_all = mo.pooled()
    cls = Moments(mo.n.astype(float), mo.mean[:, z], mo.M[:, z][:, :, z])
    return cls, Moments(np.array([float(n_all)]), mean_all[z][None], M_all[np.ix_(z, z)][None])


def _common(t: StatsTable, v, cont, cat, configs, n_rows) -> dict:
    return dict(v=v, continuous_parents=cont, categorical_parents=cat, n_classes=t.n_classes,
                radix=t.n_levels[list(cat)], configs=configs, n_rows=n_rows)


def _continuous(t, v, cont, cat, ridge, var_smoothing, min_cell_rows, var_floor):
    m, pos, cells = t.n_classes, t.position, t.stats.cells
    z = [pos[p] for p in cont] + [pos[v]]
    cls, alls = _class_and_all(t, z)
    if cat:
        rows = cells.rows(pos[cat[0]])
        n = cells.n[rows]
        configs = np.flatnonzero(n.sum(axis=1) > 0)
        own = _diag(n[configs], cells.mean[rows][configs][..., pos[v]],
                    cells.S[rows][configs][..., pos[v]])
    else:
        configs, own = np.zeros(1, np.int64), cls
    U = configs.size
    F = (U + 1) * m
    fine = _cat(own, _empty(m, len(z)))
    levels = [(fine, np.arange(F)), (cls, np.arange(F) % m), (alls, np.zeros(F, np.int64))]
    scale = t.variance([*cont, v])
    additive = var_floor is not None
    factor = gaussian_factor(_common(t, v, cont, cat, configs, int(t.n_rows)), levels,
                             max(min_cell_rows, len(cont) + 2), ridge=ridge, scale=scale[:-1],
                             floor=var_floor if additive else var_smoothing * scale[-1],
                             additive=additive)
    return factor, fine


def _counts(t: StatsTable, v, cat) -> tuple[np.ndarray, np.ndarray]:
    """Seen configurations of the categorical parent and the (U + 1, m, K) counts."""
    counts, pos = t.stats.counts, t.position
    if cat:
        table = counts.table(pos[cat[0]], pos[v])  # (m, K_p, K_v)
        configs = np.flatnonzero(table.sum(axis=(0, 2)) > 0).astype(np.int64)
        cells = np.transpose(table[:, configs], (1, 0, 2))
    else:
        configs = np.zeros(1, np.int64)
        cells = np.diagonal(counts.table(pos[v], pos[v]), axis1=1, axis2=2)[None]
    full = np.zeros((configs.size + 1, *cells.shape[1:]))
    full[:-1] = cells
    return configs, full


def _bayes_levels(t: StatsTable, v, p) -> list:
    """The pooling levels of the Gaussians of ``x_p`` in the cells (c, u, y), u = 0."""
    m, pos, cells = t.n_classes, t.position, t.stats.cells
    rows, j = cells.rows(pos[v]), pos[p]
    n, mean, S = cells.n[rows], cells.mean[rows][..., j], cells.S[rows][..., j]  # (K, m)
    K = n.shape[0]
    by_class = _diag(n.T, mean.T, S.T)  # index y * K + c
    level = CellStats(n[:, 0], mean[:, 0, None], S[:, 0, None])
    for y in range(1, m):  # merge the classes of each level c
        level = level.merge(CellStats(n[:, y], mean[:, y, None], S[:, y, None]))
    cn, cmean, cS = level.n, level.mean[:, 0], level.M[:, 0]
    _, alls = _class_and_all(t, [j])
    fine = np.arange(2 * m * K)
    return [(_cat(by_class, _empty(m * K, 1)), fine), (by_class, fine % (m * K)),
            (_diag(cn, cmean, cS), fine % K), (alls, np.zeros(fine.size, np.int64))]


def factor_from_stats(t: StatsTable, v: int, parents=(), *, alpha: float, var_smoothing: float,
                      ridge: float, min_cell_rows: int, var_floor: float | None = None):
    """The factor ``fit_cg_factor(enc, y, m, v, parents, ...)`` fits on the complete rows, and
    what :func:`log_likelihood_from_stats` needs (the fine cells' own moments or counts).

    Parameters
    ----------
    t : StatsTable
    v : int
        Encoded column index of the vertex.
    parents : tuple of int
        Encoded column indices: at most one, or any number of continuous ones for a
        continuous ``v`` (their moments are the class moments).
    alpha, var_smoothing, ridge, min_cell_rows, var_floor :
        As in :func:`~estimators.network.fitting.fit_cg_factor`.

    Returns
    -------
    (factor, own)
    """
    parents = tuple(int(p) for p in parents)
    if len(parents) > 1 and not t.continuous[[v, *parents]].all():
        raise ValueError(f"Conditional Gaussian factors from Dask statistics take one parent, "
                         f"or continuous parents of a continuous vertex; got {len(parents)} "
                         f"parents for column {v}.")
    cont = tuple(p for p in parents if t.continuous[p])
    cat = tuple(p for p in parents if not t.continuous[p])
    if t.continuous[v]:
        return _continuous(t, v, cont, cat, ridge, var_smoothing, min_cell_rows, var_floor)
    configs, counts = _counts(t, v, cat)
    common = _common(t, v, cont, cat, configs, int(t.n_rows))
    if cont and isinstance(alpha, HDPSmoothing):  # Bayes' rule keeps its pseudo-count table
        alpha = alpha.alpha
    log_cpt = _cpt(counts, alpha, configs=configs, radix=common["radix"], v=v, parents=cat)
    if not cont:
        return CategoricalFactor(**common, log_cpt=log_cpt), counts
    factor = bayes_factor(common, log_cpt, _bayes_levels(t, v, cont[0]), max(min_cell_rows, 3),
                          floor=max(ridge, var_smoothing) * t.variance(cont))
    return factor, counts


def log_likelihood_from_stats(factor, own) -> float | None:
    """``sum_rows ln p(x_v | x_P, y)`` of the training rows from the fine cells' own
    moments (Gaussian) or counts (CPT); None for Bayes' rule (it needs the rows)."""
    if isinstance(factor, BayesCategoricalFactor):
        return None
    if isinstance(factor, CategoricalFactor):
        seen = own > 0
        return float(np.sum(own[seen] * factor.log_cpt[seen]))
    a = factor.intercept.ravel()
    ll = cells_log_likelihood(own, a, factor.coef.reshape(a.size, -1), factor.var.ravel())
    return float(np.sum(ll[own.n > 0]))


def network_from_stats(enc, t: StatsTable, columns, parents, *, alpha: float, ess: float | None,
                       var_smoothing: float, min_cell_rows: int, ridge: float = 0.0
                       ) -> CGNetwork:
    """:func:`~estimators.network.model.fit_network` (one feature parent, or continuous ones
    of a continuous vertex; complete rows) from the statistics: ``enc`` the encoded table
    of no rows (types and levels); the variance floor is :meth:`StatsTable.var_floor`."""
    parents = tuple(tuple(sorted(int(p) for p in pa)) for pa in parents)
    floor = t.var_floor(columns, var_smoothing)
    factors = tuple(
        factor_from_stats(t, v, pa, alpha=pseudo_count(enc, v, pa, t.n_classes, alpha, ess),
                          var_smoothing=var_smoothing, ridge=ridge, min_cell_rows=min_cell_rows,
                          var_floor=floor)[0]
        for v, pa in zip(columns, parents, strict=True))
    return CGNetwork(tuple(int(v) for v in columns), parents, factors)
