"""The rooted form of a GNB / k-GNB on mixed tables (MATH.md §7).

Every feature v of the structure gets one factor ``p(x_v | x_pi(v), y)`` (its mother for a
GNB, its k parents for a k-GNB, none for a root), and

    ln p(y, x) = ln p(y) + sum_roots ln p(x_r | y) + sum_children ln p(x_v | x_pi(v), y).

The factor of v is

* the **dependence model** of the classifier (gaussian, gaussian-copula, kde) when v and its
  parents are all continuous: ``ln p(x_v, x_P | y) - ln p(x_P | y)`` with the fitted class
  densities, whose lower-dimensional densities are marginals of the higher ones;
* the **conditional Gaussian factor** (:func:`estimators.network.fitting.fit_cg_factor`)
  when v or a parent is categorical: a linear-Gaussian regression in each cell of the
  categorical parents, a CPT, or a Bayes-rule categorical factor.

Each factor is a normalised conditional density, so the product is a normalised density for
any mix of pair models. On all-continuous data with the univariate densities the marginals
of the bivariate ones, the product over a tree rooted anywhere equals the ratio form of
eq. 1 (MATH.md §3): ``p(x_c | x_m) = p(x_c, x_m) / p(x_m)`` telescopes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from estimators.columns import EncodedColumns
from estimators.densities import PairDensity

__all__ = ["DensityFactor", "subset_logpdf"]


def subset_logpdf(density: PairDensity, X: np.ndarray, subset: Sequence[int]) -> np.ndarray:
    """``ln p(x_A | y)`` of the fitted class densities for |A| <= 2 (any |A| for the
    normal-score models), shape (n_rows, n_classes)."""
    subset = list(subset)
    if hasattr(density, "logpdf_subset"):
        return density.logpdf_subset(X, subset)
    if not subset:
        return np.zeros((X.shape[0], density.n_classes_))
    if len(subset) == 1:
        return density.logpdf1(X, subset[0])
    return density.logpdf2(X, *subset)


@dataclass(eq=False)
class DensityFactor:
    """``ln p(x_v | x_P, y)`` of the classifier's dependence model (continuous v and P)."""

    v: int
    parents: tuple
    density: PairDensity

    def log_prob(self, enc: EncodedColumns) -> np.ndarray:
        X = enc.values
        joint = subset_logpdf(self.density, X, [self.v, *self.parents])
        return joint - subset_logpdf(self.density, X, self.parents) if self.parents else joint
