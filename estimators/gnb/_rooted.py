"""The rooted form of a GNB / k-GNB on mixed tables (MATH.md §7).

Every feature v of the structure gets one factor ``p(x_v | x_pi(v), y)`` (its mother for a
GNB, its k parents for a k-GNB, none for a root), and

    ln p(y, x) = ln p(y) + sum_roots ln p(x_r | y) + sum_children ln p(x_v | x_pi(v), y).

The factor of v is

* the **dependence model** of the classifier (gaussian, gaussian-copula, kde) when v and its
  parents are all continuous: ``ln p(x_v, x_P | y) - ln p(x_P | y)`` with the fitted class
  densities, whose lower-dimensional densities are marginals of the higher ones;
* the **conditional Gaussian factor** (:func:`estimators.scores._cg_factors.fit_cg_factor`)
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
from estimators.scores._cg_factors import fit_cg_factor

__all__ = ["RootedModel", "fit_rooted", "subset_logpdf"]


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


@dataclass(eq=False)
class RootedModel:
    """The fitted factors of a rooted GNB / k-GNB, in creation order.

    Attributes
    ----------
    order : list of (int, tuple)
        ``(v, parents)`` per feature in creation order (parents created before v).
    factors : list
        One factor per entry of ``order``, with ``log_prob(enc) -> (n, n_classes)``.
    kinds : list of str
        ``"dependence"`` or ``"conditional-gaussian"`` per factor.
    """

    order: list
    factors: list
    kinds: list

    def log_density(self, enc: EncodedColumns, vertices=None) -> np.ndarray:
        """``sum_v ln p(x_v | x_pi(v), y)`` over the factors (of ``vertices`` only, if given),
        shape (n, n_classes); rows with missing cells are the caller's business."""
        keep = None if vertices is None else set(vertices)
        total = None
        for (v, _), f in zip(self.order, self.factors, strict=True):
            if keep is not None and v not in keep:
                continue
            lp = f.log_prob(enc)
            total = lp if total is None else total + lp
        return total


def fit_rooted(enc: EncodedColumns, codes: np.ndarray, n_classes: int, order: Sequence,
               density: PairDensity, *, var_smoothing: float, alpha: float = 1.0
               ) -> RootedModel:
    """Fit the factor of every ``(v, parents)`` in ``order`` (see the module docstring).

    ``density`` is the classifier's fitted dependence model on ``enc.values`` (used for the
    all-continuous factors only).
    """
    cont = enc.continuous
    factors, kinds = [], []
    for v, parents in order:
        parents = tuple(int(p) for p in parents)
        if cont[v] and all(cont[p] for p in parents):
            factors.append(DensityFactor(int(v), parents, density))
            kinds.append("dependence")
        else:
            factors.append(fit_cg_factor(enc, codes, n_classes, int(v), parents, alpha=alpha,
                                         var_smoothing=var_smoothing))
            kinds.append("conditional-gaussian")
    return RootedModel([(int(v), tuple(int(p) for p in ps)) for v, ps in order], factors, kinds)
