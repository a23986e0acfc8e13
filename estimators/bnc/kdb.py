"""kDB: the k-dependence Bayesian classifier (Sahami 1996; MATH.md §9).

The class is a parent of every feature. The features are ordered by their information about
the class, I(X_i; C) largest first (``class_information_``,
:mod:`estimators.stats.class_information`; ties by name); feature i then takes as parents the
``min(i - 1, max_parents)`` earlier features (Sahami's k) with the largest class-conditional
information I(X_i; X_j | C) (ties by name). Values equal within the relative tolerance of
:mod:`estimators.search.ties` (1e-9) tie. The
pair information is the registry's ``"cmi"`` score (:mod:`estimators.scores`): the plug-in
CMI on a discrete table, the Gaussian CMI on a continuous one, and on a mixed table or one
with empty cells the conditional Gaussian gain f(X_i, {X_j}) of MATH.md §7 (the training
log-likelihood gain of giving X_i the parent X_j, which is the CMI on single-type data and is
not symmetric on a mixed pair: kDB asks for X_i's parents, so it uses f(X_i, {X_j})), on the
available cases of the pair. A pair with too few complete rows to score is not a candidate,
so such a feature can take fewer than ``max_parents`` parents. Nothing is random.

The result is a DAG, in general not a k-tree: :class:`kgraph.ParentSetDAG` (``structure_``).
The factors are the conditional Gaussian factors of MATH.md §7 on it, fitted on available
cases, and prediction marginalises empty cells exactly on the DAG (MATH.md §8), all through
the network model :class:`estimators.network.model.CGNetwork` -- this module writes only the
structure rule.
"""

from __future__ import annotations

import numpy as np

from estimators.base.model_size import MAX_CELLS_PARAMETER
from estimators.base.parameters import (
    ALPHA,
    ESS,
    MAX_PARENTS,
    RANDOM_STATE,
    VAR_SMOOTHING,
    VERBOSE,
    declare,
)
from estimators.bnc._dag_classifier import DAGNetworkClassifier
from estimators.learning.structure_scores import MIN_CELL_ROWS, RIDGE, fit_score
from estimators.network.hdp_tables import HDP_PARAMETERS
from estimators.search import name_key, snap, tie_step
from estimators.template.family_registry import register_family
from estimators.template.joint_likelihood import (
    CONTINUOUS,
    DISCRETIZE,
    FEATURE_SELECTION,
    FEATURE_TYPES,
    FEATURES,
)
from estimators.template.network_classifier import HDP_FIT_PARAMETERS
from kgraph import ParentSetDAG

__all__ = ["KDBClassifier", "kdb_parents"]


def kdb_parents(class_information, pair_information, k: int, names=None
                ) -> tuple[list[int], list[list[int]]]:
    """Sahami's rule: the kDB order and parent sets of ``d`` features.

    Parameters
    ----------
    class_information : array-like of shape (d,)
        I(X_i; C) of each feature.
    pair_information : array-like of shape (d, d)
        ``pair_information[j, i]`` = I(X_i; X_j | C), the information of parent j about
        child i (non-finite: j is no candidate parent of i).
    k : int
        The largest number of feature parents.
    names : sequence, optional
        The features' names: ties (values equal on the grid of
        :func:`estimators.search.ties.snap`) go to the first by
        :func:`~estimators.search.ties.name_key`; None: the lower index.

    Returns
    -------
    order : list of int
        The features by I(X_i; C), largest first.
    parents : list of list of int
        ``parents[i]``: feature i's parents, largest I(X_i; X_j | C) first.

    Examples
    --------
    >>> W = np.array([[0, .5, .1], [.5, 0, .3], [.1, .3, 0]])
    >>> kdb_parents([.2, .9, .4], W, k=1)
    ([1, 2, 0], [[1], [], [1]])
    """
    info = np.asarray(class_information, dtype=float)
    info = snap(info, tie_step(info))
    W = np.asarray(pair_information, dtype=float)
    W = snap(W, tie_step(W))
    rank = list(range(info.size)) if names is None else \
        [name_key(v) for v in names]  # the tie order
    order = sorted(range(info.size), key=lambda i: (-info[i], rank[i]))
    parents: list[list[int]] = [[] for _ in range(info.size)]
    for pos, i in enumerate(order):
        earlier = [j for j in order[:pos] if np.isfinite(W[j, i])]
        parents[i] = sorted(earlier, key=lambda j: (-W[j, i], rank[j]))[:k]
    return order, parents



@register_family(
    "kdb", "kDB classifier (k-dependence Bayesian classifier, Sahami 1996, MATH.md §9)")
@declare(
    MAX_PARENTS.but(doc=(
        "The largest number of feature parents of a feature, its earlier features of "
        "largest I(X_i; X_j | C) (the k of kDB; 0 is naive Bayes, 1 a TAN-like forest chosen "
        "greedily).")),
    FEATURES, ALPHA, ESS, FEATURE_TYPES, VAR_SMOOTHING, FEATURE_SELECTION,
    HDP_FIT_PARAMETERS, VERBOSE.but(doc="Progress bars inside ``fit``."),
    CONTINUOUS.but(doc=(
        "As in :class:`~estimators.ktan.KTANClassifier` (MATH.md §11): with a non-Gaussian "
        "kind the pair scores are the CMIs of the class-conditional normal scores.")),
    MAX_CELLS_PARAMETER, *HDP_PARAMETERS,
    RANDOM_STATE.but(default=0, doc='Seeds the Gibbs sampler of ``parameters="hdp"``.'),
    DISCRETIZE,
)
class KDBClassifier(DAGNetworkClassifier):
    """The k-dependence Bayesian classifier (Sahami 1996): each feature has the class and at
    most ``max_parents`` earlier features (by information about the class) as parents.

    Attributes
    ----------
    structure_ : kgraph.ParentSetDAG
        The DAG among the modelled features (class vertex ``class_node_``; draws with
        :func:`viz.structure.plot_structure`, writes GraphML/JSON).
    order_ : list of str
        The modelled features by I(X_i; C), largest first.
    edge_scores_ : ndarray of shape (n_modelled, n_modelled)
        ``edge_scores_[j, i]`` = I(X_i; X_j | C) (nats; rows and columns the modelled
        features in column order).
    hyperedge_scores_ : dict
        The pair information summed over each feature's parents.
    network_ : CGNetwork or SemiparametricNetwork
        The fitted factors.
    factor_kinds_ : dict
        Feature name -> its factor's kind ("gaussian", "copula", "ckde",
        "class-free", or "categorical" for a categorical feature's table).
    family_ : str
        ``"discrete"``, ``"gaussian"`` or ``"mixed"``.
    classes_, class_count_, class_log_prior_, class_information_, feature_types_,
    constant_features_, encoder_, feature_selection_, discriminative_, n_features_in_,
    feature_names_in_
        As in :class:`~estimators.ktan.KTANClassifier`.

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.bnc import KDBClassifier
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 400)
    >>> a = rng.normal(y, 1.0)
    >>> X = np.column_stack([a, a + rng.normal(0, 0.3, 400), rng.normal(size=400)])
    >>> clf = KDBClassifier(max_parents=1).fit(X, y)
    >>> clf.order_, clf.structure_.edges
    (['x0', 'x1', 'x2'], [('x0', 'x1'), ('x0', 'x2')])
    >>> clf.predict_proba(X[:2]).sum(axis=1).round(12).tolist()
    [1.0, 1.0]
    """

    def __init__(self, *, max_parents: int = 2, features: str = "auto", alpha: float = 1.0,
                 ess: float | None = None, feature_types="auto", var_smoothing: float = 1e-9,
                 feature_selection: str | None = None, parameters="generative",
                 verbose: bool = False, continuous="gaussian", max_cells: int = 1_000_000,
                 hdp_iterations: int = 5000, hdp_burn_in: int | None = None,
                 hdp_tying: str = "level", random_state=0,
                 discretize: str | None = None):
        self.discretize = discretize
        self.hdp_iterations = hdp_iterations
        self.hdp_burn_in = hdp_burn_in
        self.hdp_tying = hdp_tying
        self.random_state = random_state
        self.max_cells = max_cells
        self.continuous = continuous
        self.max_parents = max_parents
        self.features = features
        self.alpha = alpha
        self.ess = ess
        self.feature_types = feature_types
        self.var_smoothing = var_smoothing
        self.feature_selection = feature_selection
        self.parameters = parameters
        self.verbose = verbose

    def _fit_dag(self, enc, y_codes, kept, spec, margins, model) -> None:
        """Order the features by I(X; C), give each its ``max_parents`` best earlier parents."""
        names = self.feature_names()
        if len(kept) > 1 and self.max_parents > 0:
            score = fit_score(model, y_codes, self.classes_, var_smoothing=self.var_smoothing,
                              ridge=RIDGE, min_cell_rows=MIN_CELL_ROWS, score="cmi")
            W = np.array(score.edge_matrix(), dtype=float)
        else:
            W = np.zeros((len(kept), len(kept)))
        np.fill_diagonal(W, -np.inf)
        order, parents = kdb_parents(self.class_information_[kept], W, self.max_parents,
                                     [names[j] for j in kept])
        self.edge_scores_ = np.where(np.isfinite(W), W, 0.0)
        self.order_ = [names[kept[i]] for i in order]
        self.structure_ = ParentSetDAG(
            {names[kept[i]]: [names[kept[p]] for p in parents[i]] for i in order},
            target=self.class_node_, max_in_degree=self.max_parents)
        self.hyperedge_scores_ = {names[kept[i]]: float(sum(W[p, i] for p in parents[i]))
                                  for i in order}
        self._fit_network(enc, y_codes, [kept[i] for i in order],
                          [[kept[p] for p in parents[i]] for i in order], spec, margins)
