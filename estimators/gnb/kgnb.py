"""The k-GNB classifier (paper 1 §4.3; MATH.md §4): clusters of order-1 features plus the class."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import Interval, StrOptions

from estimators._joint import FEATURE_TYPES_CONSTRAINT
from estimators.gnb._base import BaseGNB
from estimators.gnb._learn import make_density, make_score
from estimators.search import BACKBONE_METHODS, SEARCHERS, check_k, search_structure
from kgraph import AcyclicKTree


class KGNBClassifier(BaseGNB):
    """k-GNB classifier of order ``order``: an acyclic (order - 2)-tree over the features.

    Each feature v joins the class and its parents pi(v) in a cluster; with multivariate
    normal (or Gaussian-copula with KDE marginals) class-conditional densities,
    ``ln p(y, x) = ln p(y) + sum_v [ln p(x_{v u pi(v)} | y) - ln p(x_{pi(v)} | y)]``, which is
    eq. 1 for the k-GNB junction tree (clusters {y, v} u pi(v), separators {y} u pi(v)).
    ``order=3`` is :class:`GNBClassifier`'s model (a spanning tree over the features).

    Parameters
    ----------
    order : int, default=4
        Cluster size including the class (>= 3). Lowered (with one warning) to d + 1 for d
        features, since an acyclic k-tree needs k + 1 vertices.
    dependence : {"gaussian", "gaussian-copula"}, default="gaussian"
    search : str, default="greedy"
        A searcher of :data:`estimators.search.SEARCHERS`: ``"greedy"`` (heuristic),
        ``"backbone-dp"`` (exact under the backbone), ``"spanning-tree"`` (``order=3``).
    backbone : None, str or sequence of feature names or column indices, optional
        For ``search="backbone-dp"``: a permutation of the features, or a method of
        :data:`estimators.search.BACKBONE_METHODS` applied to the CMI edge matrix; None is
        ``"mst-dfs"`` (and the exact spanning tree for ``order=3``).
    var_smoothing : float, default=1e-9
        As in :class:`GNBClassifier`.
    feature_types : "auto" or mapping, default="auto"
        Column types (:func:`estimators.columns.infer_feature_types`): ``"auto"`` or
        ``{column: "continuous" | "categorical"}``; recorded in ``feature_types_``.

    Attributes
    ----------
    structure_ : kgraph.AcyclicKTree
        Over the feature names, k = ``order_ - 2``.
    order_ : int
        The order used (``order`` capped at d + 1).
    weight_ : float
        The k-tree score sum_v I(X_v; X_pi(v) | Y) in nats.
    density_, classes_, class_log_prior_, n_features_in_, feature_names_in_

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = KGNBClassifier(order=4).fit(X, y)
    >>> clf.structure_.k, round(clf.score(X, y), 2)
    (2, 0.98)
    """

    _parameter_constraints: dict = {
        "feature_types": FEATURE_TYPES_CONSTRAINT,
        "order": [Interval(Integral, 3, None, closed="left")],
        "dependence": [StrOptions({"gaussian", "gaussian-copula"})],
        "search": [StrOptions(SEARCHERS.keys())],
        "backbone": [None, StrOptions(BACKBONE_METHODS.keys()), "array-like"],
        "var_smoothing": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(
        self,
        *,
        order: int = 4,
        dependence: str = "gaussian",
        search: str = "greedy",
        backbone=None,
        var_smoothing: float = 1e-9,
        feature_types="auto",
    ) -> None:
        self.order = order
        self.dependence = dependence
        self.search = search
        self.backbone = backbone
        self.var_smoothing = var_smoothing
        self.feature_types = feature_types

    def _model_label(self) -> str:
        return f"KGNBClassifier(order={self.order}, dependence={self.dependence!r})"

    def fit(self, X, y) -> KGNBClassifier:
        """Learn the k-tree with the CMI hyperedge score, then the cluster densities."""
        self._validate_params()
        X, codes = self._validate_training(X, y)
        names = self.feature_names()
        k = check_k(self.order - 2, X.shape[1], owner="KGNBClassifier", param="order", offset=2)
        self.order_ = k + 2
        score = make_score(self.dependence).fit(pd.DataFrame(X, columns=names), codes)
        found = search_structure(self.search, score, names, k, backbone=self.backbone,
                                 W=score.edge_matrix(), owner="KGNBClassifier")
        tree = found.structure
        index = {v: j for j, v in enumerate(names)}
        self._parents = [(index[v], sorted(index[p] for p in tree.parents(v)))
                         for v in tree.order]
        self.weight_ = float(tree.score(score))
        self.structure_ = AcyclicKTree(
            k,
            [names[v] for v, _ in self._parents],
            {names[v]: [names[p] for p in ps] for v, ps in self._parents},
        )
        self.density_ = make_density(self.dependence, "scott", self.var_smoothing, X)
        self.density_.fit(X, codes, self.classes_.size)
        return self

    def _joint_log_likelihood(self, X: np.ndarray) -> np.ndarray:
        cache: dict[tuple[int, ...], np.ndarray] = {}

        def sub(a: list[int]) -> np.ndarray:
            key = tuple(sorted(a))
            if key not in cache:
                cache[key] = self.density_.logpdf_subset(X, key)
            return cache[key]

        jll = np.tile(self.class_log_prior_, (X.shape[0], 1))
        for v, ps in self._parents:
            jll += sub([v, *ps]) - sub(ps)
        return jll
