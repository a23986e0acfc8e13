"""A classifier's CMI structure score from its partition statistics (the
:class:`~estimators.network.stats_factors.StatsTable` the classifier template builds once
from a Dask collection, :mod:`estimators.stats.partitions`)."""

from __future__ import annotations

import numpy as np

from estimators.network.cg_pairs import pair_gains
from estimators.network.stats_factors import StatsTable
from estimators.scores._gaussian_cmi import GaussianCMI
from estimators.scores.partition_scores import discrete_edge_matrix, gaussian_statistics
from estimators.stats.partitions import Partitions

__all__ = ["PairScore", "statistics_score"]


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


def statistics_score(data: Partitions, table: StatsTable, kept: list, names: list, *,
                     var_smoothing: float, ridge: float, min_cell_rows: int):
    """The CMI structure score over the columns ``kept`` (``names`` theirs) from a
    classifier's statistics: the Gaussian CMI of any parent set from the class moments
    (continuous), the plug-in CMI of the pairs from the pair counts (categorical), or the
    directed conditional Gaussian pair gains (mixed: one more pass over ``data``,
    :func:`~estimators.network.cg_pairs.pair_gains`)."""
    continuous = table.continuous[kept]
    if continuous.all():
        sub = table.stats.moments.subset([table.position[j] for j in kept])
        constant, R = gaussian_statistics(sub, names, data.owner, allow_constant=True)
        return GaussianCMI().fit_correlations(names, sub.classes, sub.n, constant, R)
    if not continuous.any():
        return PairScore(discrete_edge_matrix(
            table.stats.counts.subset([table.position[j] for j in kept])), names)
    return PairScore(pair_gains(data, table, table.stats.moments.classes, kept,
                                var_smoothing=var_smoothing, ridge=ridge,
                                min_cell_rows=min_cell_rows), names)
