"""The shared base of :class:`TANClassifier` and :class:`KTANClassifier`.

k-TAN classification (MATH.md §4, §7–§8): ``ln p(y, x) = ln p(y) + sum_v ln p(x_v | y,
x_pa(v))`` over the parent sets of a learned acyclic k-tree, with conditional Gaussian
factors (:mod:`estimators.network.model`): smoothed CPTs, class-conditional linear-Gaussian
regressions, and Bayes' rule on the CG joint for a categorical feature with continuous
parents. Continuous and categorical columns mix freely; missing cells are learned around
(available cases) and marginalised at prediction.
"""

from __future__ import annotations

import warnings
from abc import abstractmethod
from dataclasses import dataclass
from typing import Any

import numpy as np

from estimators.base.validation import DegenerateFeatureWarning
from estimators.columns import EncodedColumns
from estimators.columns.feature_families import family_of
from estimators.learning.structure_learning import Constraints, learn_structure
from estimators.learning.structure_scores import MIN_CELL_ROWS, RIDGE, check_score_width, fit_score
from estimators.network.model import (
    floored_vertices,
    var_floor,
)
from estimators.network.stats_factors import StatsTable, network_from_stats
from estimators.scores.statistics_scores import statistics_score
from estimators.search import fit_width
from estimators.semiparametric import (
    as_spec,
    factor_kinds,
)
from estimators.stats.partitions import Partitions
from estimators.template.network_classifier import NetworkClassifier, NetworkExports


@dataclass(frozen=True)
class KTANSpec:
    """What a k-TAN family member declares to :class:`BaseKTAN`: its structure constraints
    and choices, passed explicitly (the base class reads no subclass parameter).

    Attributes
    ----------
    k : int
        Tree width (checked against the features at ``fit``).
    search : str
        A searcher of :data:`estimators.search.SEARCHERS`.
    backbone : None, str or sequence
        The backbone of ``"backbone-dp"``.
    score : str or score object
        The structure score (a name of :data:`estimators.scores.SCORES` or a score object).
    candidates : int or None
        Sparse candidate parents (None: no restriction).
    ess : float or None
        BDeu equivalent sample size of the CPTs (None: Laplace ``alpha``).
    parameters : str or Discriminative
        ``parameters=`` of the template (generative or discriminative).
    random_state : int, RandomState or None
        Seeds the discriminative fit's inner folds.
    continuous : str or Semiparametric
        How continuous factors are modelled (``continuous=``, MATH.md §11).
    """

    k: int
    search: str = "backbone-dp"
    backbone: Any = None
    score: Any = "cmi"
    candidates: int | None = None
    ess: float | None = None
    parameters: Any = "generative"
    random_state: Any = None
    continuous: Any = "gaussian"


class BaseKTAN(NetworkExports, NetworkClassifier):
    """k-TAN classifier machinery: subclasses say which k, search and backbone to use."""

    #: its graph in :func:`estimators.network.export.structure_graph.structure_graph`
    structure_graph_kind = "ktan"

    _min_features = 2
    _learns_dependence = True

    # -- what a subclass decides ------------------------------------------------------------
    @abstractmethod
    def _spec(self) -> KTANSpec:
        """What this estimator learns and fits (read at ``fit``, after the subclass has
        resolved its choices)."""

    # -- fitting ----------------------------------------------------------------------------
    def _fit_dag(self, enc, y_codes, kept, continuous, margins, model) -> None:
        """The k-tree rule: the width, the structure score on the modelled columns, the
        k-tree search (:meth:`_search`), then the network on it."""
        name = type(self).__name__
        spec = self._spec()
        self.k_ = k = fit_width(spec.k, len(kept), name)
        score = self.structure_score_ = spec.score
        if not isinstance(score, str):
            check_score_width(score, k)
        score = fit_score(model, y_codes, self.classes_, var_smoothing=self.var_smoothing,
                          ridge=RIDGE, min_cell_rows=MIN_CELL_ROWS, score=score)
        order, parents = self._search(score, kept, spec)
        self._fit_network(enc, y_codes, order, parents, continuous, margins)
        self._warn_degenerate(enc)
        ineligible = [v for v, f in self.hyperedge_scores_.items() if f == -np.inf]
        if ineligible:
            warnings.warn(
                f"{name}: column(s) {ineligible} have fewer than {MIN_CELL_ROWS} rows observed "
                "together with every parent set the k-tree allows them; their factors are "
                "fitted on the rows there are (pooled) and the structure score is -inf.",
                DegenerateFeatureWarning, stacklevel=2)

    def _search(self, score, kept: list[int], spec: KTANSpec) -> tuple[list, list]:
        """Learn the k-tree of width ``k_`` over the columns ``kept`` on the fitted
        ``score`` and set the structure's attributes; returns the columns in the tree's
        order and their parents (column indices)."""
        names = self.feature_names()
        backbone = spec.backbone
        if backbone is not None and not isinstance(backbone, str):
            backbone = _without_constant(backbone, names, set(names) - {names[j] for j in kept})
        fit = learn_structure(score, spec.search, Constraints(
            self.k_, backbone, spec.candidates), variables=[names[j] for j in kept])
        self.candidates_ = fit.candidates
        self.structure_ = fit.structure
        self.backbone_ = fit.backbone
        self.certificate_ = fit.certificate
        self.score_ = fit.score
        self.search_ = fit.search
        self.edge_scores_ = fit.edge_matrix
        self.hyperedge_scores_ = {v: float(fit.score_fn(v, self.structure_.parents(v)))
                                  for v in self.structure_.order}
        index = {names[j]: j for j in kept}
        order = [index[v] for v in self.structure_.order]
        parents = [[index[p] for p in self.structure_.parents(v)] for v in self.structure_.order]
        return order, parents

    def _needs_rows(self) -> str | None:
        if as_spec(self.continuous).kind != "gaussian":  # kernel margins keep the rows
            return f"continuous={self.continuous!r}"
        if self.structure_score != "cmi":  # BIC/BDeu read the parent configurations' rows
            return f"structure_score={self.structure_score!r}"
        return super()._needs_rows()

    def _fit_from_statistics(self, enc: EncodedColumns, table: StatsTable, data: Partitions):
        """The k-tree on the CMI score of the statistics
        (:func:`~estimators.scores.partition_scores.statistics_score`) and the network's
        factors from them (:func:`~estimators.network.stats_factors.network_from_stats`);
        k >= 2 on continuous features only (the Gaussian CMI of any parent set comes from
        the class moments, the other statistics hold pairs)."""
        name, names = type(self).__name__, self.feature_names()
        kept = self._modelled_statistics(enc, 2)
        spec = self._spec()
        self.family_ = family_of([enc.types[j] for j in kept])
        self.structure_score_ = spec.score
        self.k_ = k = fit_width(spec.k, len(kept), name)
        if k > 1 and self.family_ != "gaussian":
            raise ValueError(f"{name}(k={k}) fits from a Dask collection on continuous features "
                             f"only (the Gaussian CMI of any parent set comes from the class "
                             f"moments); this table is {self.family_}, whose partition "
                             "statistics hold pairs: use k=1 (TANClassifier) or compute a "
                             "sample into memory.")
        score = statistics_score(data, table, kept, [names[j] for j in kept],
                                 var_smoothing=float(self.var_smoothing), ridge=RIDGE,
                                 min_cell_rows=MIN_CELL_ROWS)
        order, parents = self._search(score, kept, spec)
        self.network_ = network_from_stats(enc, table, order, parents, **self._smoothing())
        self.factor_kinds_ = factor_kinds(self.network_, names, enc.continuous)
        self._warn_degenerate(enc, table.var_floor(order, self.var_smoothing))
        self._fit_parameters(data, None, spec.parameters, spec.random_state)
        return self

    def _warn_degenerate(self, enc: EncodedColumns, floor: float | None = None) -> None:
        """One warning naming the small classes and the floored (constant or collinear
        within a class) continuous columns, when the model has continuous columns
        (``floor``: the added variance, computed from ``enc`` when None)."""
        if not enc.continuous[list(self.network_.columns)].any():
            return
        names = self.feature_names()
        small = self.classes_[self.class_count_ < MIN_CELL_ROWS].tolist()
        if floor is None:
            floor = var_floor(enc, self.network_.columns, self.var_smoothing)
        floored = [names[v] for v in sorted(floored_vertices(self.network_, floor))]
        parts = []
        if small:
            parts.append(f"class(es) {small} have fewer than {MIN_CELL_ROWS} training rows: "
                         "their Gaussian cells are pooled with the other classes")
        if floored:
            parts.append(f"column(s) {floored} are constant or collinear with their parents "
                         "within a class: residual variances floored")
        if parts:
            warnings.warn(f"{type(self).__name__}: " + "; ".join(parts) + ".",
                          DegenerateFeatureWarning, stacklevel=3)


def _without_constant(backbone, names: list[str], constant: set) -> list:
    """A user backbone without the features left out of the model (constant or not selected;
    given by name or column index)."""
    def name_of(b):
        if isinstance(b, int | np.integer) and not isinstance(b, bool) and 0 <= b < len(names):
            return names[b]
        return b
    return [b for b in backbone if name_of(b) not in constant]
