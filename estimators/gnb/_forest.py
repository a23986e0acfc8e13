"""The GNB forest in rooted form on mixed tables (MATH.md §7) and its prediction with
missing cells (MATH.md §8).

The structure is a maximum spanning arborescence of the directed scores (see
:mod:`estimators.gnb._mixed_scores`); its arcs (mother -> child) are kept in decreasing
order of weight, the selection order (as Kruskal's for the undirected tree), and the reduced
model with m clusters is the first m arcs. In any subset of the arcs every vertex has at
most one incoming arc, so each tree of the forest has exactly one vertex without a mother,
its root, and

    ln p(x_D' | y) = sum_roots ln p(x_r | y) + sum_{arcs (m, c)} ln p(x_c | x_m, y).

Missing cells: complete rows use this sum; a row with missing cells is marginalised: for
the Gaussian dependence by the conditional Gaussian engine (all factors are CG,
:mod:`._marginalise`), for the copula and KDE dependences by sums and trapezoid rules with
variable elimination (:mod:`estimators.marginal.grid`).
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx
import numpy as np

from estimators.columns import EncodedColumns
from estimators.densities import PairDensity
from estimators.gnb._marginalise import encoded_matrix, marginal_factor, placeholder_factor
from estimators.gnb._rooted import DensityFactor
from estimators.marginal.grid import grid_log_marginal, integration_grids
from estimators.network.fitting import fit_cg_factor

__all__ = ["RootedForest", "fit_rooted_forest"]


@dataclass(eq=False)
class RootedForest:
    """Fitted root and child factors of every vertex of the arborescence."""

    arcs: list  # (mother, child) in selection order
    root_factors: dict
    child_factors: dict
    density: PairDensity | None
    dependence: str
    n_classes: int
    grids: dict  # continuous vertex -> (nodes, log weights) of its integration rule

    def prefix(self, m: int) -> list[tuple[int, tuple]]:
        """``(v, parents)`` of the forest of the first m arcs, parents first."""
        arcs = self.arcs[:m]
        forest = nx.DiGraph(arcs)
        covered = list(dict.fromkeys(v for a in arcs for v in a))
        order = []
        for r in (v for v in covered if forest.in_degree(v) == 0):
            order.append((r, ()))
            order += [(c, (p,)) for p, c in nx.bfs_edges(forest, r)]
        return order

    def factor(self, v: int, parents: tuple):
        return self.child_factors[v] if parents else self.root_factors[v]

    def log_density(self, enc: EncodedColumns, m: int) -> np.ndarray:
        """``ln p(x_D' | y)`` of the forest of the first m arcs, shape (n, n_classes)."""
        return network_log_density(enc, self.prefix(m), self.factor, self.density,
                                   self.dependence, self.n_classes, self.grids)


def network_log_density(enc: EncodedColumns, order, factor_of, density, dependence: str,
                        n_classes: int, grids: dict) -> np.ndarray:
    """``sum_v ln p(x_v | x_pa(v), y)`` over ``order`` (``(v, parents)``, parents first) on
    complete rows, marginalised on rows with missing cells (see the module docstring)."""
    cols = [v for v, _ in order]
    missing = ~enc.observed[:, cols]
    out = np.zeros((enc.codes.shape[0], n_classes))
    complete = ~missing.any(axis=1)
    if complete.any():
        sub = enc.take(complete)
        out[complete] = sum(factor_of(v, ps).log_prob(sub) for v, ps in order)
    if complete.all():
        return out
    rows = np.flatnonzero(~complete)
    sub = enc.take(rows)
    if dependence != "gaussian":
        out[rows] = grid_log_marginal(sub, order, factor_of, n_classes, grids)
        return out
    from estimators.marginal import cg_log_marginal  # noqa: PLC0415

    d = enc.codes.shape[1]
    factors = [placeholder_factor(v, n_classes) for v in range(d)]
    covered = np.zeros(d, dtype=bool)
    for v, ps in order:
        factors[v] = marginal_factor(factor_of(v, ps), density)
        covered[v] = True
    out[rows] = cg_log_marginal(factors, np.zeros(n_classes), encoded_matrix(sub),
                                ~sub.observed | ~covered)
    return out


def fit_rooted_forest(enc: EncodedColumns, codes: np.ndarray, n_classes: int, arcs: list,
                      vertices, density: PairDensity | None, dependence: str, *,
                      var_smoothing: float) -> RootedForest:
    """Fit p(x_v | y) for every vertex and p(x_c | x_m, y) for every arc (m, c)."""
    def fit(v, ps):
        return _fit_factor(enc, codes, n_classes, int(v), tuple(int(p) for p in ps), density,
                           var_smoothing)

    roots = {int(v): fit(v, ()) for v in vertices}
    children = {int(c): fit(c, (p,)) for p, c in arcs}
    return RootedForest([(int(p), int(c)) for p, c in arcs], roots, children, density,
                        dependence, n_classes, _grids(enc, density, dependence, roots))


def ratio_log_density(density: PairDensity, dependence: str, edges: list,
                      X: np.ndarray) -> np.ndarray:
    """``ln p(x_D' | y)`` of the all-continuous GNB forest in the ratio form of eq. 1 on
    complete rows (today's numbers); rows with missing covered features are marginalised:
    exactly: closed form on the junction-tree correlation for the Gaussian and
    Gaussian-copula models, pruning of missing leaves and grid quadrature of the remaining
    missing vertices for the KDE (:func:`estimators.marginal.kde_log_marginal`)."""
    cols = np.unique(np.asarray(edges, dtype=int))
    missing = np.isnan(X[:, cols])
    complete = ~missing.any(axis=1)
    if complete.all():
        return density.log_density(X, edges)
    out = np.zeros((X.shape[0], density.n_classes_))
    if complete.any():
        out[complete] = density.log_density(X[complete], edges)
    rows = np.flatnonzero(~complete)
    from estimators.marginal import (  # noqa: PLC0415
        kde_log_marginal,
        normal_score_log_marginal,
        tree_order,
    )

    if dependence == "kde":
        if getattr(density, "kernel", "product") != "product":
            raise ValueError(
                f"GNBClassifier(kernel={density.kernel!r}) predicts rows without missing "
                f"cells only ({rows.size} row(s) have a missing covered feature): its 1-D "
                "KDEs are not the marginals of its pair KDEs, so they cannot be integrated "
                "out exactly; use kernel='product' or impute.")
        out[rows] = kde_log_marginal(density, edges, X[rows], np.isnan(X[rows]))
    else:
        out[rows] = normal_score_log_marginal(density, tree_order(edges), X[rows],
                                              np.isnan(X[rows]))
    return out


@dataclass(eq=False)
class RootedNetwork:
    """A k-GNB in rooted form: ``order`` is ``(v, parents)`` in creation order."""

    order: list
    factors: dict  # (v, parents) -> factor, parentless ones included
    density: PairDensity | None
    dependence: str
    n_classes: int
    grids: dict

    def factor(self, v: int, parents: tuple):
        return self.factors[(v, tuple(parents))]

    def log_density(self, enc: EncodedColumns) -> np.ndarray:
        """``sum_v ln p(x_v | x_pi(v), y)``, marginalised on rows with missing cells."""
        return network_log_density(enc, self.order, self.factor, self.density,
                                   self.dependence, self.n_classes, self.grids)


def fit_rooted_network(enc: EncodedColumns, codes: np.ndarray, n_classes: int, order: list,
                       density: PairDensity | None, dependence: str, *,
                       var_smoothing: float) -> RootedNetwork:
    """Fit ``p(x_v | x_pi(v), y)`` and ``p(x_v | y)`` for every ``(v, pi(v))`` of order."""
    order = [(int(v), tuple(int(p) for p in ps)) for v, ps in order]
    keys = dict.fromkeys([*order, *((v, ()) for v, _ in order)])
    factors = {key: _fit_factor(enc, codes, n_classes, *key, density, var_smoothing)
               for key in keys}
    return RootedNetwork(order, factors, density, dependence, n_classes,
                         _grids(enc, density, dependence, [v for v, _ in order]))


def _grids(enc, density, dependence: str, vertices) -> dict:
    """Integration rules of the continuous vertices (non-Gaussian dependences only)."""
    return {} if dependence == "gaussian" else integration_grids(enc, density, vertices)


def _fit_factor(enc, codes, n_classes, v, parents, density, var_smoothing):
    cont = enc.continuous
    if cont[v] and all(cont[p] for p in parents):
        return DensityFactor(v, parents, density)
    return fit_cg_factor(enc, codes, n_classes, v, parents, var_smoothing=var_smoothing)
