"""BAN: the Bayesian-network-augmented naive Bayes classifier (MATH.md §9).

The class is a parent of every feature; among the features, a DAG of in-degree at most
``max_parents`` found by tabu hill-climbing (:func:`estimators.search.hill_climb_dag`,
through :func:`estimators.learning.structure_learning.learn_structure` and its one policy
for infinite scores and ties: a singular family, score +inf, is a perfect dependence) on a
decomposable penalised score taken from the score registry (:mod:`estimators.scores`):
BIC or BDeu on discrete tables, Gaussian BIC on continuous ones, the conditional Gaussian
BIC on mixed tables or tables with empty cells; any registered or plug-in score, or a score
object, works the same way. A registry score ``f(v, P)`` is the family score of ``v`` given
``P`` and the class minus that given the class alone; the subtracted term does not depend on
the DAG, so maximising ``sum_v f(v, Pa(v))`` maximises the penalised family scores.

The factors are the conditional Gaussian factors of MATH.md §7 on the learned parent sets
(the network model the k-TAN family uses), fitted on available cases; prediction
marginalises empty cells exactly on the DAG (MATH.md §8).
"""

from __future__ import annotations

import warnings
from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import Interval

from estimators.base.model_size import MAX_CELLS_PARAMETER
from estimators.base.parameters import (
    ALPHA,
    ESS,
    MAX_PARENTS,
    RANDOM_STATE,
    VAR_SMOOTHING,
    VERBOSE,
    Parameter,
    declare,
)
from estimators.base.validation import DegenerateFeatureWarning
from estimators.bnc._dag_classifier import DAGNetworkClassifier
from estimators.learning.structure_learning import Constraints, learn_structure
from estimators.learning.structure_parameters import STRUCTURE_SCORE
from estimators.learning.structure_scores import MIN_CELL_ROWS, RIDGE, fit_score
from estimators.network.hdp_tables import HDP_PARAMETERS
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

__all__ = ["BANClassifier"]



@register_family("ban", "BAN classifier (a hill-climbed DAG among the features, MATH.md §9)")
@declare(
    MAX_PARENTS,
    STRUCTURE_SCORE.but(default="bic", doc=(
        'A score of the registry (``"bic"``: discrete, Gaussian or conditional Gaussian BIC '
        'by the table; ``"bdeu"``: discrete tables; plug-ins by name) or an object '
        "following the score protocol of :mod:`estimators.scores`.")),
    FEATURES, ALPHA, ESS, FEATURE_TYPES, VAR_SMOOTHING,
    FEATURE_SELECTION.but(doc=(
        "Which features the DAG spans (:func:`estimators.learning.feature_selection.select_features`,"
        " the template's selection); None: all non-constant ones.")),
    Parameter("tabu_length", 10, [Interval(Integral, 0, None, closed="left")], "int",
              "Recently visited DAGs the search may not return to."),
    Parameter("patience", 10, [Interval(Integral, 0, None, closed="left")], "int",
              "Non-improving moves taken in a row to leave a local optimum (0: plain "
              "hill-climbing)."),
    Parameter("restarts", 0, [Interval(Integral, 0, None, closed="left")], "int",
              "Random restarts of the search (perturbations of the best DAG, seeded by "
              "``random_state``)."),
    RANDOM_STATE.but(doc=(
        'Seeds the restarts (and the inner folds of ``parameters="discriminative"``); the '
        "search is otherwise deterministic (ties broken by move kind, then column order).")),
    HDP_FIT_PARAMETERS, VERBOSE.but(doc="Progress bars inside ``fit`` (the search's moves, score grids)."),
    CONTINUOUS.but(doc=(
        "As in :class:`~estimators.ktan.KTANClassifier` (MATH.md §11): with a non-Gaussian "
        "kind the structure score is computed on the class-conditional normal scores.")),
    MAX_CELLS_PARAMETER, *HDP_PARAMETERS,
    DISCRETIZE,
)
class BANClassifier(DAGNetworkClassifier):
    """Bayesian-network-augmented naive Bayes: a hill-climbed DAG among the features.

    Attributes
    ----------
    structure_ : kgraph.ParentSetDAG
        The DAG among the modelled features (class vertex ``class_node_``; draws with
        :func:`viz.structure.plot_structure`, writes GraphML/JSON).
    parents_ : dict
        Feature name -> tuple of its feature parents (the class is a parent of each too).
    score_ : float
        The search objective ``sum_v f(v, parents_[v])`` of the learned DAG.
    structure_score_ : str or score object
        The structure score used (``structure_score``).
    search_ : str
        ``"hill-climbing"``.
    search_result_ : HillClimbingResult
        The search's trace (best score after each move) and its moves.
    hyperedge_scores_ : dict
        ``f(v, parents_[v])`` of each modelled feature.
    edge_scores_ : ndarray of shape (n_modelled, n_modelled)
        ``edge_scores_[j, i] = f(i, {j})``, the score of the single parent j of i (rows and
        columns the modelled features in column order).
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
    >>> from estimators.bnc import BANClassifier
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 400)
    >>> a = rng.normal(y, 1.0)
    >>> X = np.column_stack([a, a + rng.normal(0, 0.3, 400), rng.normal(size=400)])
    >>> clf = BANClassifier().fit(X, y)
    >>> clf.parents_, clf.structure_.edges
    ({'x0': (), 'x1': ('x0',), 'x2': ()}, [('x0', 'x1')])
    >>> clf.predict_proba(X[:2]).sum(axis=1).round(12).tolist()
    [1.0, 1.0]
    """

    def __init__(self, *, max_parents: int = 2, structure_score="bic", features: str = "auto",
                 alpha: float = 1.0, ess: float | None = None, feature_types="auto",
                 var_smoothing: float = 1e-9, feature_selection: str | None = None,
                 tabu_length: int = 10, patience: int = 10, restarts: int = 0,
                 random_state=None, parameters="generative", verbose: bool = False,
                 continuous="gaussian", max_cells: int = 1_000_000,
                 hdp_iterations: int = 5000, hdp_burn_in: int | None = None, hdp_tying: str = "level",
                 discretize: str | None = None):
        self.discretize = discretize
        self.hdp_iterations = hdp_iterations
        self.hdp_burn_in = hdp_burn_in
        self.hdp_tying = hdp_tying
        self.max_cells = max_cells
        self.continuous = continuous
        self.max_parents = max_parents
        self.structure_score = structure_score
        self.features = features
        self.alpha = alpha
        self.ess = ess
        self.feature_types = feature_types
        self.var_smoothing = var_smoothing
        self.feature_selection = feature_selection
        self.tabu_length = tabu_length
        self.patience = patience
        self.restarts = restarts
        self.random_state = random_state
        self.parameters = parameters
        self.verbose = verbose

    def _fit_dag(self, enc, y_codes, kept, spec, margins, model) -> None:
        """Learn the DAG among the features by the searcher on the structure score."""
        name = type(self).__name__
        names = self.feature_names()
        score = fit_score(model, y_codes, self.classes_, var_smoothing=self.var_smoothing,
                          ridge=RIDGE, min_cell_rows=MIN_CELL_ROWS,
                          score=self.structure_score)
        self.structure_score_ = self.structure_score
        self.search_ = "hill-climbing"
        options = dict(tabu_length=self.tabu_length, patience=self.patience,
                       restarts=self.restarts, random_state=self.random_state)
        fit = learn_structure(  # ties: by name (estimators.search.ties)
            score, self.search_, Constraints(k=self.max_parents, search_options=options),
            variables=model.names)
        self.search_result_ = fit.certificate
        self.parents_ = dict(self.search_result_.parents)
        self.structure_ = ParentSetDAG(self.parents_, target=self.class_node_,
                                       max_in_degree=self.max_parents)
        self.edge_scores_ = fit.edge_matrix
        self.hyperedge_scores_ = {v: float(score(v, frozenset(ps)))
                                  for v, ps in self.parents_.items()}
        self.score_ = float(sum(self.hyperedge_scores_.values()))  # unsearched values
        index = {names[j]: j for j in kept}
        self._fit_network(enc, y_codes, kept,
                          [[index[p] for p in self.parents_[names[j]]] for j in kept],
                          spec, margins)
        perfect = [v for v, f in self.hyperedge_scores_.items() if f == np.inf]
        if perfect:
            warnings.warn(f"{name}: the families of {perfect} scored +inf (the "
                          "class-conditional covariance of the family is singular: a feature "
                          "a function of its parents within a class, collinear or "
                          "near-constant columns); searched as perfect dependences (the one "
                          "policy of estimators.learning.structure_learning), their residual "
                          "variances floored by var_smoothing.", DegenerateFeatureWarning,
                          stacklevel=2)
        if fit.ineligible:  # only a feature with too few observed rows even alone
            warnings.warn(f"{name}: column(s) {list(fit.ineligible)} have fewer than "
                          f"{MIN_CELL_ROWS} observed rows; their factors are pooled.",
                          DegenerateFeatureWarning, stacklevel=2)

