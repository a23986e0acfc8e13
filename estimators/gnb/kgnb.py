"""The k-GNB classifier (paper 1 §4.3; MATH.md §4): clusters of order-1 features plus the class."""

from __future__ import annotations

from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import Interval, StrOptions

from estimators.base.model_size import (
    CANDIDATE_ADVICE,
    MAX_CELLS_PARAMETER,
    check_size,
    ktree_search_size,
)
from estimators.base.parameters import (
    RANDOM_STATE,
    VAR_SMOOTHING,
    VERBOSE,
    Flag,
    Parameter,
    declare,
    ints_or_auto,
)
from estimators.base.user_warnings import user_fit
from estimators.gnb._forest import fit_rooted_network
from estimators.gnb._gnb_base import BaseGNB
from estimators.gnb._learn import (
    fit_structure_score,
    fitted_copula_score,
    make_density,
    make_score,
)
from estimators.gnb._mixed_scores import AvailableCaseCMI, MixedScore
from estimators.learning.model_selection import select_by_cv
from estimators.learning.structure_learning import PERFECT, Constraints, Relabelled, learn_structure
from estimators.learning.structure_parameters import BACKBONE, CANDIDATES, SEARCH, STRUCTURE_SCORE
from estimators.search import fit_width
from estimators.template.family_registry import register_family
from estimators.template.joint_likelihood import FEATURE_TYPES, constant_by_class
from kgraph import AcyclicKTree

#: orders tried by ``order="auto"`` (k-trees of width 1, 2, 3)
AUTO_ORDERS = (3, 4, 5)


@register_family("kgnb", "k-GNB classifier (generalized Naive Bayes of cluster order k)")
@declare(
    Parameter("order", 4, [Interval(Integral, 3, None, closed="left"), StrOptions({"auto"}), "array-like"], 'int, "auto" or sequence of int',
              'Cluster size including the class (>= 3). Lowered (with one warning) to d +'
              ' 1 for d features, since an acyclic k-tree needs k + 1 vertices; an order '
              'whose search would exceed ``max_cells`` is refused before any work. '
              '``"auto"`` chooses among orders 3, 4, 5 (a list: among those) by '
              'stratified 5-fold cross-validated log-loss on the training data (see '
              ':mod:`estimators.learning.model_selection`; ties: the smaller order).',
              Flag("cluster order (3 = GNB), 'auto' or a list such as 3,4 (chosen by inner "
                   "CV log-loss)", type=ints_or_auto)),
    Parameter("dependence", "gaussian", [StrOptions({"gaussian", "gaussian-copula"})],
              '{"gaussian", "gaussian-copula"}',
              "The pair model of the clusters (as in :class:`GNBClassifier`).",
              Flag("the pair dependence model", choices="dependence")),
    SEARCH.but(default="greedy", doc=(
        'A searcher of :data:`estimators.search.SEARCHERS`: ``"greedy"`` (heuristic), '
        '``"backbone-dp"`` (exact under the backbone), ``"spanning-tree"`` (``order=3``).')),
    BACKBONE.but(doc=(
        'For ``search="backbone-dp"``: a permutation of the features, or a method of '
        ':data:`estimators.search.BACKBONE_METHODS` applied to the CMI edge matrix; None '
        'is ``"mst-dfs"`` (and the exact spanning tree for ``order=3``).')),
    VAR_SMOOTHING.but(doc=(
        'As in :class:`GNBClassifier`.')),
    FEATURE_TYPES,
    CANDIDATES.but(doc=(
        "Sparse candidate parents for wide tables: each feature's parents must be among "
        'its top-``candidates`` partners by pair score (symmetrised); other hyperedges '
        'are never scored (:func:`estimators.search.candidates.restrict_search`). None: '
        'no restriction.')),
    STRUCTURE_SCORE.but(
        default=None, constraints=[None, *STRUCTURE_SCORE.constraints],
        type="None, str or score object", doc=(
        'The hyperedge score of the structure search. None: the CMI of ``dependence`` '
        "(the fitted copula's own on complete continuous data). Else a name of "
        ':data:`estimators.scores.SCORES` with a ``"gaussian"`` family (checked at '
        '``fit`` against the registry, plug-ins included) or an object following the '
        'score protocol of :mod:`estimators.scores`, fitted on the continuous columns; '
        '``dependence`` still chooses the cluster densities. Complete all-continuous '
        'tables only.')),
    RANDOM_STATE.but(doc=(
        'Seeds the folds of the inner cross-validation of ``order="auto"``; None: seed 0 '
        '(a fit is reproducible by default).')),
    VERBOSE, MAX_CELLS_PARAMETER,
)
class KGNBClassifier(BaseGNB):
    """k-GNB classifier of order ``order``: an acyclic (order - 2)-tree over the features.

    Each feature v joins the class and its parents pi(v) in a cluster; with multivariate
    normal (or Gaussian-copula with KDE marginals) class-conditional densities,
    ``ln p(y, x) = ln p(y) + sum_v [ln p(x_{v u pi(v)} | y) - ln p(x_{pi(v)} | y)]``, which is
    eq. 1 for the k-GNB junction tree (clusters {y, v} u pi(v), separators {y} u pi(v)).
    ``order=3`` is :class:`GNBClassifier`'s model (a spanning tree over the features).
    The Gaussian copula on complete continuous data is scored, as there, by the fitted
    density's own CMI: the Gaussian closed form on its correlations ``density_.corr_``.

    Mixed tables and missing cells as in :class:`GNBClassifier`: the rooted form
    ``sum_v ln p(x_v | x_pi(v), y)`` with the dependence model for all-continuous
    hyperedges and conditional Gaussian factors otherwise; the searchers take the directed
    hyperedge score (``search="spanning-tree"`` becomes ``"arborescence"`` on mixed data;
    backbone orders use ``max(W, W')``).

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
    edge_scores_ : ndarray of shape (q, q)
        The pair scores the search used, over the modelled (non-constant) features in
        column order: ``edge_scores_[i, j] = f(j, {i})`` (parent i, child j; symmetric,
        I(X_i; X_j | Y), on all-continuous data), the ``weight`` of the parent edges in
        :func:`estimators.network.export.structure_graph.structure_graph`.
    candidates_ : dict or None
        Each feature's candidate parents when ``candidates`` is set, else None.
    density_, classes_, class_log_prior_, n_features_in_, feature_names_in_

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = KGNBClassifier(order=4).fit(X, y)
    >>> clf.structure_.k, round(clf.score(X, y), 2)
    (2, 0.98)
    """

    #: its graph in :func:`estimators.network.export.structure_graph.structure_graph`
    structure_graph_kind = "kgnb"

    def __init__(
        self,
        *,
        order: int = 4,
        dependence: str = "gaussian",
        search: str = "greedy",
        backbone=None,
        var_smoothing: float = 1e-9,
        feature_types="auto",
        candidates: int | None = None,
        structure_score=None,
        random_state=None,
        verbose: bool = False,
        max_cells: int = 1_000_000,
    ) -> None:
        self.max_cells = max_cells
        self.random_state = random_state
        self.structure_score = structure_score
        self.candidates = candidates
        self.order = order
        self.dependence = dependence
        self.search = search
        self.backbone = backbone
        self.var_smoothing = var_smoothing
        self.feature_types = feature_types
        self.verbose = verbose

    def _model_label(self) -> str:
        return f"KGNBClassifier(order={self.order}, dependence={self.dependence!r})"

    @user_fit
    def fit(self, X, y) -> KGNBClassifier:
        """Learn the k-tree with the hyperedge score, then the cluster densities."""
        self._validate_params()
        order, self.cv_results_ = self.order, None
        if not isinstance(order, Integral):
            order, self.cv_results_ = self._choose_order(X, y)
        enc, codes = self._validate_training(X, y)
        used = self._structure_columns(enc)
        names = self.feature_names()
        unames = [names[u] for u in used]
        k = fit_width(order - 2, used.size, "KGNBClassifier", param="order",
                      offset=2)
        self.order_ = k + 2
        Xc = enc.values[:, used]
        self.rooted_ = not bool(enc.continuous[used].all())
        search = self.search
        X = self._density_input(enc)
        density = None
        if self.structure_score is not None:  # the researcher's score
            if self.rooted_ or np.isnan(Xc).any():
                raise ValueError(
                    "KGNBClassifier(structure_score=...) scores complete continuous tables "
                    "(the 'gaussian' family); this one has categorical columns or missing "
                    "cells. Use structure_score=None (the dependence model's own score).")
            with self._one_warning():
                score = fit_structure_score(self.structure_score, Xc, unames, codes, k)
        elif (self.dependence == "gaussian-copula" and not self.rooted_
                and not np.isnan(X).any()):  # the fitted copula's own CMI (as GNBClassifier)
            density = make_density(self.dependence, "scott", self.var_smoothing, X)
            density.fit(X, codes, self.classes_.size)
            score = fitted_copula_score(
                density.corr_, self.class_count_, self.classes_, used, unames,
                constant_by_class(enc, used, codes, self.classes_.size))
        elif not self.rooted_ and not np.isnan(Xc).any():
            with self._one_warning():
                score = make_score(self.dependence).fit(pd.DataFrame(Xc, columns=unames),
                                                        codes)
        else:
            score = Relabelled(MixedScore(enc, codes, self.classes_, used, self.dependence,
                                          var_smoothing=self.var_smoothing) if self.rooted_
                               else AvailableCaseCMI(self.dependence, Xc, codes), unames)
        with self._one_warning():
            W = self.edge_scores_ = np.asarray(score.edge_matrix(), dtype=float)
            if isinstance(score, Relabelled):  # as before: a perfect dependence at PERFECT
                self.edge_scores_ = np.minimum(W, PERFECT)
            if search == "spanning-tree" and (self.rooted_ or not np.allclose(W, W.T)):
                search = "arborescence"  # a directed score: its exact k = 1 tree
            fit = learn_structure(score, search, Constraints(
                k, self.backbone, self.candidates), variables=unames)
        self.candidates_ = fit.candidates
        tree = fit.structure
        index = {names[u]: int(u) for u in used}
        self._parents = [(index[v], sorted(index[p] for p in tree.parents(v)))
                         for v in tree.order]
        self.weight_ = fit.score
        self.structure_ = AcyclicKTree(
            k,
            [names[v] for v, _ in self._parents],
            {names[v]: [names[p] for p in ps] for v, ps in self._parents},
        )
        if density is None:
            density = make_density(self.dependence, "scott", self.var_smoothing, X)
            density.fit(X, codes, self.classes_.size)
        self.density_ = density
        self.network_ = fit_rooted_network(enc, codes, self.classes_.size, self._parents,
                                           self.density_, self.dependence,
                                           var_smoothing=self.var_smoothing)
        return self

    def _check_model_size(self, enc) -> None:
        """Refuse an ``order`` whose search would score more than ``100 * max_cells``
        cells (:mod:`estimators.base.model_size`), before any work; one over d + 1 is
        lowered to d + 1 with one warning when that fits (the default, 4, exceeds what a
        2-feature table allows) and refused when it does not. "auto" and lists are checked
        per order by their inner fits."""
        if not isinstance(self.order, Integral):
            return
        width, d = ktree_search_size(enc, self.classes_.size, self.candidates)
        check_size("order", int(self.order), lambda o: width(o - 2),
                   highest=d + 1, lowest=3, limit=self.max_cells, lowered=True,
                   fewer=None if self.candidates else CANDIDATE_ADVICE,
                   bound=f"the {d + 1} that {d} features allow (order <= d + 1)")

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

    def _joint_log_likelihood(self, enc) -> np.ndarray:
        if self.rooted_:
            return self.class_log_prior_ + self.network_.log_density(enc)
        X = enc.values
        cols = [v for v, _ in self._parents]
        missing = np.isnan(X[:, cols]).any(axis=1)
        jll = np.tile(self.class_log_prior_, (X.shape[0], 1))
        if missing.any():
            from estimators.marginal import normal_score_log_marginal  # noqa: PLC0415

            rows = np.flatnonzero(missing)
            jll[rows] += normal_score_log_marginal(self.density_, self._parents, X[rows],
                                                   np.isnan(X[rows]))
        if missing.all():
            return jll
        Xo = X[~missing]
        cache: dict[tuple[int, ...], np.ndarray] = {}

        def sub(a: list[int]) -> np.ndarray:
            key = tuple(sorted(a))
            if key not in cache:
                cache[key] = self.density_.logpdf_subset(Xo, key)
            return cache[key]

        part = jll[~missing]
        for v, ps in self._parents:
            part += sub([v, *ps]) - sub(ps)
        jll[~missing] = part
        return jll
