"""The Gaussian and discrete CMI scores from the statistics of row partitions
(:mod:`estimators.stats.partitions`: one partition in memory, many from a Dask DataFrame).

* :class:`~estimators.scores.GaussianCMI`: the class moments give the per-class correlation
  matrices (:meth:`~estimators.stats.cell_statistics.ClassMoments.correlations`, constant-in-class
  features with unit rows/columns, as from the rows), so every hyperedge score is available;
* :class:`~estimators.scores.DiscreteCMI`: the pair contingency tables give the whole edge
  matrix (:func:`~estimators.scores._discrete._pair_cmi` on the same tables); larger parent
  sets would need the joint tables of the parent configurations, which these statistics do
  not hold, so such a score answers pairs only (``ValueError`` otherwise).

The conditional Gaussian score's statistics are in :mod:`estimators.network.cg_pairs`; a
classifier's structure score from any of them is
:func:`estimators.scores.statistics_scores.statistics_score`.
"""

from __future__ import annotations

import numpy as np

from estimators.scores._discrete import _pair_cmi
from estimators.stats.cell_statistics import ClassMoments, PairCounts
from estimators.stats.partitions import Partitions, categories_of, counts_of, moments_of

__all__ = ["check_classes", "discrete_edge_matrix", "discrete_statistics", "gaussian_statistics"]


def check_classes(classes: np.ndarray, owner: str) -> None:
    if classes.size < 2:
        raise ValueError(f"{owner} needs at least 2 classes in y; got only one class "
                         f"{classes.tolist()}.")


def _refuse_constant(const: list, owner: str) -> None:
    if const:
        raise ValueError(f"{owner}: column(s) {const} of X are constant; every feature needs at "
                         "least two distinct values.")


def gaussian_statistics(mo: ClassMoments, names, owner: str, allow_constant: bool = False
                        ) -> tuple[np.ndarray, np.ndarray]:
    """``(constant_in_class, R)`` of :meth:`GaussianCMI.fit_correlations` from class moments
    (constant columns refused unless ``allow_constant``: then they score 0, as the
    classifiers' in-memory scores do)."""
    check_classes(mo.classes, owner)
    if not allow_constant:
        const = mo.lo.min(axis=0) == mo.hi.max(axis=0)
        _refuse_constant([names[i] for i in np.flatnonzero(const)], owner)
    constant = mo.constant()
    return constant, mo.correlations(constant)


def discrete_edge_matrix(counts: PairCounts, alpha: float = 0.0) -> np.ndarray:
    """The plug-in ``I(X_i; X_j | Y)`` matrix from the pair contingency tables (zero
    diagonal), smoothed by ``alpha`` per cell like :class:`DiscreteCMI`."""
    d, K = counts.K.size, int(counts.K.max())
    iu, ju = np.triu_indices(d, k=1)
    m = counts.G.shape[0]
    N = np.zeros((iu.size, m, K, K))
    for k, (i, j) in enumerate(zip(iu, ju, strict=True)):  # loop over pairs (d^2), not rows
        N[k, :, : counts.K[i], : counts.K[j]] = counts.table(i, j)
        N[k, :, : counts.K[i], : counts.K[j]] += alpha
    W = np.zeros((d, d))
    if iu.size:
        W[iu, ju] = W[ju, iu] = _pair_cmi(N)
    return W


def discrete_statistics(data: Partitions) -> tuple:
    """``(categories, classes, class counts, constant_in_class, counts)`` of a discrete
    table in partitions (two passes)."""
    categories, classes = categories_of(data)
    check_classes(classes, data.owner)
    _refuse_constant([data.names[j] for j, c in enumerate(categories) if c.size < 2],
                     data.owner)
    counts = counts_of(data, categories, classes)
    diag = [np.diagonal(counts.table(j, j), axis1=1, axis2=2) for j in range(len(categories))]
    constant = np.column_stack([(dj > 0).sum(axis=1) <= 1 for dj in diag])
    return categories, classes, counts.class_counts(), constant, counts


def gaussian_from_data(data: Partitions) -> tuple:
    """``(class moments, constant_in_class, R)`` of a continuous table in partitions."""
    mo = moments_of(data)
    return (mo, *gaussian_statistics(mo, data.names, data.owner))

