"""The k-GNB classifier (paper 1 §4.3; MATH.md §4): clusters of order-1 features plus the class."""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from estimators._model_selection import select_by_cv
from estimators.gnb._base import BaseGNB
from estimators.gnb._learn import make_density, make_score
from estimators.search import backbone_dp, backbone_order, greedy_ktree
from kgraph import AcyclicKTree

#: orders tried by ``order="auto"`` (k-trees of width 1, 2, 3)
AUTO_ORDERS = (3, 4, 5)


class KGNBClassifier(BaseGNB):
    """k-GNB classifier of order ``order``: an acyclic (order - 2)-tree over the features.

    Each feature v joins the class and its parents pi(v) in a cluster; with multivariate
    normal (or Gaussian-copula with KDE marginals) class-conditional densities,
    ``ln p(y, x) = ln p(y) + sum_v [ln p(x_{v u pi(v)} | y) - ln p(x_{pi(v)} | y)]``, which is
    eq. 1 for the k-GNB junction tree (clusters {y, v} u pi(v), separators {y} u pi(v)).
    ``order=3`` is :class:`GNBClassifier`'s model (a spanning tree over the features).

    Parameters
    ----------
    order : int, "auto" or sequence of int, default=4
        Cluster size including the class (>= 3). Capped (with a warning) at d + 1 for d
        features, since an acyclic k-tree needs k + 1 vertices. ``"auto"`` chooses among
        orders 3, 4, 5 (a list: among those) by stratified 5-fold cross-validated log-loss on
        the training data (see :mod:`estimators._model_selection`; ties: the smaller order).
    dependence : {"gaussian", "gaussian-copula"}, default="gaussian"
    search : {"greedy", "backbone-dp"}, default="greedy"
        ``greedy_ktree`` (heuristic) or ``backbone_dp`` (exact under the backbone).
    backbone : sequence of feature names or column indices, optional
        For ``search="backbone-dp"``; default: ``backbone_order(W, method="mst-dfs")`` on the
        CMI edge matrix.
    var_smoothing : float, default=1e-9
        As in :class:`GNBClassifier`.

    Attributes
    ----------
    structure_ : kgraph.AcyclicKTree
        Over the feature names, k = ``order_ - 2``.
    order_ : int
        The order used (``order`` capped at d + 1, or the one chosen by ``"auto"``).
    cv_results_ : dict or None
        With ``order="auto"``: per candidate ``order``, ``mean_log_loss``, ``std_log_loss``,
        ``fold_log_loss`` and ``n_folds``; None otherwise.
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
        "order": [Interval(Integral, 3, None, closed="left"), StrOptions({"auto"}), "array-like"],
        "dependence": [StrOptions({"gaussian", "gaussian-copula"})],
        "search": [StrOptions({"greedy", "backbone-dp"})],
        "backbone": [None, "array-like"],
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
    ) -> None:
        self.order = order
        self.dependence = dependence
        self.search = search
        self.backbone = backbone
        self.var_smoothing = var_smoothing

    def _model_label(self) -> str:
        return f"KGNBClassifier(order={self.order}, dependence={self.dependence!r})"

    def _backbone_indices(self, names: list[str], W: np.ndarray) -> list[int]:
        if self.backbone is None:
            return [int(v) for v in backbone_order(W, method="mst-dfs")]
        items = list(self.backbone)
        pos = {n: i for i, n in enumerate(names)}
        idx = [pos[str(v)] if str(v) in pos else v for v in items]
        if sorted(map(str, idx)) != sorted(map(str, range(len(names)))):
            raise ValueError(
                f"backbone must be a permutation of the {len(names)} features (names or column "
                f"indices); got {items!r}."
            )
        return [int(v) for v in idx]

    def fit(self, X, y) -> KGNBClassifier:
        """Learn the k-tree with the CMI hyperedge score, then the cluster densities."""
        self._validate_params()
        order, self.cv_results_ = self.order, None
        if not isinstance(order, Integral):
            order, self.cv_results_ = self._choose_order(X, y)
        X, codes = self._validate_training(X, y)
        d = X.shape[1]
        self.order_ = min(order, d + 1)
        if self.order_ < order:
            warnings.warn(
                f"KGNBClassifier(order={order}) needs at least {order - 1} features; X "
                f"has {d}, so order {self.order_} is used.",
                UserWarning,
                stacklevel=2,
            )
        k = self.order_ - 2
        score = make_score(self.dependence).fit(X, codes)
        if self.search == "greedy":
            tree = greedy_ktree(score, k).structure
        else:
            backbone = self._backbone_indices(self.feature_names(), score.edge_matrix())
            tree = backbone_dp(score, backbone, k).structure
        self._parents = [(int(v), sorted(int(p) for p in tree.parents(v))) for v in tree.order]
        self.weight_ = float(tree.score(score))
        names = self.feature_names()
        self.structure_ = AcyclicKTree(
            k,
            [names[v] for v, _ in self._parents],
            {names[v]: [names[p] for p in ps] for v, ps in self._parents},
        )
        self.density_ = make_density(self.dependence, "scott", self.var_smoothing, X)
        self.density_.fit(X, codes, self.classes_.size)
        return self

    def _choose_order(self, X, y) -> tuple[int, dict]:
        """The order with the best inner CV log-loss among ``order`` ("auto": 3, 4, 5)."""
        orders = AUTO_ORDERS if isinstance(self.order, str) else list(self.order)
        if not orders or not all(isinstance(o, Integral) and o >= 3 for o in orders):
            raise ValueError(
                "The 'order' parameter of KGNBClassifier must be an int >= 3, 'auto' or a "
                f"non-empty list of ints >= 3. Got {self.order!r} instead."
            )
        d = np.shape(X)[1]
        grid = sorted({min(int(o), d + 1) for o in orders})
        best, table = select_by_cv(self, X, y, [{"order": o} for o in grid])
        return best["order"], table

    def _log_joint(self, X: np.ndarray) -> np.ndarray:
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
