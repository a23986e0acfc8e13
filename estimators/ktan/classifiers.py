"""TAN and k-TAN classifiers (paper 2; MATH.md §4–§5, mixed tables §7, missing cells §8)."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Sequence
from numbers import Integral

from sklearn.base import _fit_context
from sklearn.utils._param_validation import HasMethods, StrOptions

from estimators.base.model_size import (
    CANDIDATE_ADVICE,
    MAX_CELLS_PARAMETER,
    check_size,
    ktree_search_size,
    within,
)
from estimators.base.parameters import ALPHA, ESS, RANDOM_STATE, VAR_SMOOTHING, VERBOSE, declare
from estimators.base.user_warnings import user_fit
from estimators.ktan._tan_base import BaseKTAN, KTANSpec
from estimators.learning.feature_selection import FEATURE_SELECTORS
from estimators.learning.model_selection import candidate_grid, select_by_cv
from estimators.learning.plugin_registry import RegistryName
from estimators.learning.structure_parameters import (
    BACKBONE,
    CANDIDATES,
    SEARCH,
    STRUCTURE_SCORE,
    K,
)
from estimators.learning.structure_scores import score_family, shared_scores
from estimators.network.hdp_tables import HDP_PARAMETERS
from estimators.scores import BUILTIN_SCORES, SCORES, score_names
from estimators.stats.engine import partition_dispatch
from estimators.template.family_registry import register_family
from estimators.template.joint_likelihood import (
    CONTINUOUS,
    DISCRETIZE,
    FEATURE_SELECTION,
    FEATURE_TYPES,
    FEATURES,
)
from estimators.template.network_classifier import HDP_FIT_PARAMETERS

#: the CPT prior of the conditional Gaussian factors
TAN_ALPHA = ALPHA.but(doc="Pseudo-count of the CPTs (> 0), categorical features only.")
KTAN_VERBOSE = VERBOSE.but(doc=(
    "Progress bars (tqdm, on stderr) inside the long work of ``fit`` (score grids, the "
    'backbone DP, EM, the "auto" cross-validation, L-BFGS); ``False`` leaves the caller\'s '
    "setting (:func:`estimators.base.progress.show_progress`, off by default)."))


@register_family("tan", "TAN classifier (tree-augmented Naive Bayes)")
@declare(
    FEATURES, TAN_ALPHA, ESS, FEATURE_TYPES, VAR_SMOOTHING, KTAN_VERBOSE, HDP_FIT_PARAMETERS,
    CONTINUOUS,
    STRUCTURE_SCORE.but(doc=(
        "The hyperedge score of the tree, as for :class:`KTANClassifier` (TAN is its k = 1): "
        "a name of :data:`estimators.scores.SCORES` (plug-ins included) or a score object; "
        "the tree is Kruskal's maximum spanning tree of a symmetric score, the maximum "
        "spanning arborescence of ``W[i, j] = f(j, {i})`` otherwise.")),
    *HDP_PARAMETERS,
    RANDOM_STATE.but(default=0, doc='Seeds the Gibbs sampler of ``parameters="hdp"``.'),
    DISCRETIZE,
)
class TANClassifier(BaseKTAN):
    """Tree-augmented naive Bayes: the maximum spanning tree of I(X_i; X_j | Y) (exact;
    on mixed tables the maximum spanning arborescence of the directed CG score).

    Columns are continuous or categorical (types decided once, see ``feature_types``; a
    constant column leaves the model with one warning). Each feature gets a conditional
    Gaussian factor given its parents and the class (MATH.md §7): a table with
    pseudo-count ``alpha`` (categorical feature, categorical parents), a class-conditional
    linear-Gaussian regression per configuration of its categorical parents (continuous
    feature; ``var_smoothing`` times the largest feature variance added to the residual
    variances, as ``GaussianNB``), or Bayes' rule on the CG joint (categorical feature
    with continuous parents). On all-categorical or all-continuous tables these are the
    smoothed CPTs and linear-Gaussian regressions of the discrete and Gaussian k-TAN.

    The structure maximises ``sum_v f(v, pa(v))``: the plug-in class-conditional mutual
    information on complete single-type tables, the conditional Gaussian log-likelihood
    gain (:class:`~estimators.scores.ConditionalGaussianScore`, directed) on mixed tables or
    with missing cells. Missing cells (NaN, None, empty strings) are learned around: each
    factor and its score use the rows where the feature, its parents and the class are
    observed. At prediction they are marginalised exactly on the k-tree
    (:mod:`estimators.marginal`); a category not seen in training is treated as a missing
    cell (it carries no evidence). Small classes (pooled Gaussian cells) and constant or
    collinear columns are named in one warning and never stop a fit.

    Attributes
    ----------
    structure_ : kgraph.AcyclicKTree
        The learned tree (k = 1) over the feature names.
    structure_score_ : str or score object
        The structure score used (``structure_score``).
    backbone_ : None
        TAN keeps no backbone.
    certificate_ : None
        TAN's spanning tree needs no certificate.
    score_ : float
        ``sum_v f(v, pa(v))`` of the tree, in nats (``I(X_v; X_pa(v) | Y)`` on single-type
        data).
    search_ : str
        The searcher that ran: ``"spanning-tree"`` (Kruskal, symmetric scores) or
        ``"arborescence"`` (Chu–Liu/Edmonds, directed scores of mixed tables).
    classes_ : ndarray
        Class labels.
    family_ : str
        ``"discrete"``, ``"gaussian"`` or ``"mixed"`` (the modelled columns' types).
    feature_types_ : dict
        Feature name -> ``"continuous" | "categorical" | "constant"``, by the rule of
        :mod:`estimators.columns` unless ``feature_types`` names the column: a numeric
        column with at most 3 distinct values is categorical whatever they are, as is
        one of at most 10 integers.
    constant_features_ : list
        Constant columns, left out of the structure.
    encoder_ : MixedEncoder
        The fitted column encoder.
    network_ : CGNetwork
        The fitted factors (:mod:`estimators.network.model`).
    class_log_prior_ : ndarray
        ``ln p(y)`` (relative frequencies).
    discriminative_ : DiscriminativeParameters or None
        The discriminative parameters (``parameters="discriminative"``), else None.
    n_features_in_ : int
        Number of features.
    feature_names_in_ : ndarray
        Column names, when fitted on a DataFrame with string column names.

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.ktan import TANClassifier
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 500)
    >>> x0 = (rng.random(500) < 0.2 + 0.6 * y).astype(int)
    >>> X = np.column_stack([x0, x0 ^ (rng.random(500) < 0.1), rng.integers(0, 3, 500)])
    >>> clf = TANClassifier().fit(X, y)
    >>> clf.structure_.k, len(clf.structure_.edges)
    (1, 2)
    >>> sorted(sorted(e) for e in clf.structure_.edges)[0]  # x1 is a noisy copy of x0
    ['x0', 'x1']
    >>> clf.predict_proba(X[:2]).sum(axis=1)
    array([1., 1.])

    Mixed columns and missing cells:

    >>> import pandas as pd
    >>> df = pd.DataFrame({"colour": np.where(x0 == 1, "red", "blue"),
    ...                     "size": rng.normal(y, 1.0), "count": rng.integers(0, 3, 500)})
    >>> df.loc[0, "size"] = np.nan
    >>> clf = TANClassifier().fit(df, y)
    >>> clf.family_, clf.search_, clf.feature_types_["size"]
    ('mixed', 'arborescence', 'continuous')
    >>> clf.predict_proba(df.iloc[:1]).sum().round(12)
    np.float64(1.0)
    """

    def __init__(self, *, features: str = "auto", alpha: float = 1.0, ess: float | None = None,
                 feature_types="auto", var_smoothing: float = 1e-9, verbose: bool = False,
                 parameters="generative", continuous="gaussian", structure_score="cmi",
                 hdp_iterations: int = 5000, hdp_burn_in: int | None = None,
                 hdp_tying: str = "level", random_state=0,
                 discretize: str | None = None):
        self.discretize = discretize
        self.hdp_iterations = hdp_iterations
        self.hdp_burn_in = hdp_burn_in
        self.hdp_tying = hdp_tying
        self.random_state = random_state
        self.structure_score = structure_score
        self.continuous = continuous
        self.features = features
        self.alpha = alpha
        self.ess = ess
        self.feature_types = feature_types
        self.var_smoothing = var_smoothing
        self.verbose = verbose
        self.parameters = parameters

    def _spec(self) -> KTANSpec:
        return KTANSpec(k=1, score=self.structure_score, ess=self.ess,
                        parameters=self.parameters, continuous=self.continuous)



@register_family("ktan", "k-TAN classifier (k-tree augmented Naive Bayes)")
@declare(
    K, SEARCH, BACKBONE, FEATURES, TAN_ALPHA, CANDIDATES,
    STRUCTURE_SCORE.but(
        constraints=[RegistryName(score_names, extra=("auto",)), HasMethods(["fit", "score"])],
        doc=STRUCTURE_SCORE.doc + ' ``"auto"`` (with ``k="auto"``) lets cross-validation '
        "choose among kgraph's own scores defined for the feature family "
        "(:data:`~estimators.scores.BUILTIN_SCORES`).",
        flag=dataclasses.replace(STRUCTURE_SCORE.flag, extra=("auto",), help=(
            STRUCTURE_SCORE.flag.help + "; 'auto' with --k auto: chosen by inner CV"))),
    ESS,
    FEATURE_SELECTION.but(
        default="auto", constraints=[None, StrOptions({*FEATURE_SELECTORS, "auto"})],
        type='{"auto", "markov-blanket", "selective-nb"} or None', doc=(
            "Which features the k-tree spans "
            "(:data:`estimators.learning.feature_selection.FEATURE_SELECTORS`). None: all of them. "
            '``"markov-blanket"``: the class\'s Markov blanket estimated from the training '
            "rows by IAMB with semiparametric G-tests at level 0.05 "
            "(:func:`estimators.learning.feature_selection.markov_blanket`; at least 2 features); the "
            "other columns are ignored at prediction. Complete categorical tables only. "
            '``"selective-nb"``: the features a naive Bayes keeps by forward selection on '
            "cross-validated log-loss (:mod:`estimators.learning.selective_nb`; any table). "
            '``"auto"``: with ``k="auto"`` (or a list of k) cross-validation chooses between '
            "all features and the blanket (the blanket only on complete categorical "
            "tables); with an int ``k``, all features.")),
    FEATURE_TYPES, VAR_SMOOTHING,
    RANDOM_STATE.but(doc=(
        'Seeds the randomised steps: the folds of the inner cross-validation (``"auto"``) '
        "and the permutations of the Markov-blanket tests. None: seed 0, so a fit is "
        "reproducible by default.")),
    KTAN_VERBOSE, HDP_FIT_PARAMETERS, CONTINUOUS, MAX_CELLS_PARAMETER, *HDP_PARAMETERS,
    DISCRETIZE,
)
class KTANClassifier(BaseKTAN):
    """k-tree augmented naive Bayes: a maximum-score acyclic k-tree over the features.

    Columns are continuous or categorical (types decided once, see ``feature_types``; a
    constant column leaves the model with one warning). Each feature gets a conditional
    Gaussian factor given its parents and the class (MATH.md §7): a table with
    pseudo-count ``alpha`` (categorical feature, categorical parents), a class-conditional
    linear-Gaussian regression per configuration of its categorical parents (continuous
    feature; ``var_smoothing`` times the largest feature variance added to the residual
    variances, as ``GaussianNB``), or Bayes' rule on the CG joint (categorical feature
    with continuous parents). On all-categorical or all-continuous tables these are the
    smoothed CPTs and linear-Gaussian regressions of the discrete and Gaussian k-TAN.

    The structure maximises ``sum_v f(v, pa(v))``: the plug-in class-conditional mutual
    information on complete single-type tables, the conditional Gaussian log-likelihood
    gain (:class:`~estimators.scores.ConditionalGaussianScore`, directed) on mixed tables or
    with missing cells. Missing cells (NaN, None, empty strings) are learned around: each
    factor and its score use the rows where the feature, its parents and the class are
    observed. At prediction they are marginalised exactly on the k-tree
    (:mod:`estimators.marginal`); a category not seen in training is treated as a missing
    cell (it carries no evidence). Small classes (pooled Gaussian cells) and constant or
    collinear columns are named in one warning and never stop a fit.

    With ``search="backbone-dp"`` the k-tree is the exact optimum among those containing a
    backbone path (paper 2, §5): ``backbone`` is a permutation of the features (names, or
    column indices) or the name of a method that derives one from the pair scores
    (``"given"``: column order, ``"mst-dfs"``, ``"greedy-path"``, ``"local-search"``); ``None`` means the exact
    maximum spanning tree (arborescence on mixed tables) for ``k = 1`` (so ``KTANClassifier(k=1)`` is
    :class:`TANClassifier`) and ``"mst-dfs"`` for ``k >= 2``. ``search="greedy"`` grows a
    k-tree without a backbone (heuristic).

    ``k="auto"`` (or a list of k) chooses k -- with ``structure_score="auto"`` the structure
    score too, and with ``feature_selection="auto"`` (the default) whether the k-tree spans
    all features or the class's estimated Markov blanket -- by stratified 5-fold
    cross-validated log-loss on the training data (each candidate, selection included,
    refitted from scratch per fold); see :mod:`estimators.learning.model_selection`. Near-equal
    inner scores go to the simpler model by the one-standard-error rule: the candidates are
    ordered smaller k first, then the score order of the registry, then all features before
    the blanket, and the first one whose mean held-out log-loss is within one standard error
    (of the paired fold differences) of the best one's wins, so ``KTANClassifier()`` is
    TAN unless the inner folds show a larger k or a smaller feature set is better. ``k="auto"`` tries k = 1, then 2, then 3, and goes on
    to k + 1 only while k lowered the mean held-out log-loss (strictly) below k - 1's: a
    table that does not gain from k = 2 never fits k = 3 (its largest cost: the hyperedges of
    3 parents); a list of k tries every k in it. The cross-validation table, of the
    candidates tried, is kept in ``cv_results_``.

    Attributes
    ----------
    k_ : int
        The width used (``k`` lowered to ``n_features - 1`` when larger; the chosen one with
        ``k="auto"``).
    structure_ : kgraph.AcyclicKTree
        The learned k-tree over the feature names.
    candidates_ : dict or None
        Each feature's candidate parents when ``candidates`` is set, else None.
    structure_score_ : str or score object
        The structure score used (the chosen one with ``structure_score="auto"``).
    selected_features_ : list
        The features the k-tree spans (all non-constant ones without feature selection).
    feature_selection_ : str or None
        The feature selection used (the chosen one with ``feature_selection="auto"``).
    cv_results_ : dict or None
        With ``k="auto"``: per candidate ``k``, ``structure_score``, ``feature_selection``,
        ``mean_log_loss``, ``std_log_loss`` and ``fold_log_loss``; ``n_folds``, and the
        selection ``rule`` (``"one-se"``); None otherwise.
    backbone_ : tuple or None
        The backbone path kept (feature names); None for the spanning tree and greedy.
    certificate_ : PBKT or None
        The backbone DP's certificate (the decomposition it chose); None otherwise.
    score_ : float
        ``sum_v f(v, pa(v))`` of the k-tree, in nats (``I(X_v; X_pa(v) | Y)`` on
        single-type data).
    search_ : str
        The searcher that ran (``search``, or for ``k = 1`` without a backbone
        ``"spanning-tree"`` / ``"arborescence"`` as for :class:`TANClassifier`).
    classes_ : ndarray
        Class labels.
    family_ : str
        ``"discrete"``, ``"gaussian"`` or ``"mixed"`` (the modelled columns' types).
    feature_types_ : dict
        Feature name -> ``"continuous" | "categorical" | "constant"``, by the rule of
        :mod:`estimators.columns` unless ``feature_types`` names the column: a numeric
        column with at most 3 distinct values is categorical whatever they are, as is
        one of at most 10 integers.
    constant_features_ : list
        Constant columns, left out of the structure.
    encoder_ : MixedEncoder
        The fitted column encoder.
    network_ : CGNetwork
        The fitted factors (:mod:`estimators.network.model`).
    class_log_prior_ : ndarray
        ``ln p(y)`` (relative frequencies).
    discriminative_ : DiscriminativeParameters or None
        The discriminative parameters (``parameters="discriminative"``), else None.
    n_features_in_ : int
        Number of features.
    feature_names_in_ : ndarray
        Column names, when fitted on a DataFrame with string column names.

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.ktan import KTANClassifier
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 400)
    >>> X = (rng.random((400, 4)) < 0.3 + 0.4 * y[:, None]).astype(int)
    >>> clf = KTANClassifier(k=2, backbone="given").fit(X, y)
    >>> clf.backbone_
    ('x0', 'x1', 'x2', 'x3')
    >>> max(len(clf.structure_.parents(v)) for v in clf.structure_.order)
    2
    """

    def __init__(
        self,
        *,
        k: int | str | Sequence[int] = "auto",
        search: str = "backbone-dp",
        backbone: str | Sequence | None = None,
        features: str = "auto",
        alpha: float = 1.0,
        candidates: int | None = None,
        structure_score="cmi",
        ess: float | None = None,
        feature_selection: str | None = "auto",
        feature_types="auto",
        var_smoothing: float = 1e-9,
        random_state=None,
        verbose: bool = False,
        parameters="generative",
        continuous="gaussian",
        max_cells: int = 1_000_000,
        hdp_iterations: int = 5000,
        hdp_burn_in: int | None = None,
        hdp_tying: str = "level",
        discretize: str | None = None,
    ):
        self.discretize = discretize
        self.hdp_iterations = hdp_iterations
        self.hdp_burn_in = hdp_burn_in
        self.hdp_tying = hdp_tying
        self.max_cells = max_cells
        self.continuous = continuous
        self.random_state = random_state
        self.parameters = parameters
        self.feature_selection = feature_selection
        self.candidates = candidates
        self.k = k
        self.search = search
        self.backbone = backbone
        self.features = features
        self.alpha = alpha
        self.structure_score = structure_score
        self.ess = ess
        self.feature_types = feature_types
        self.var_smoothing = var_smoothing
        self.verbose = verbose

    def _spec(self) -> KTANSpec:
        return KTANSpec(self.k_, self.search, self.backbone, self.structure_score_,
                        self.candidates, self.ess, self.parameters, self.random_state,
                        self.continuous)

    def _feature_selection_method(self) -> str | None:
        return self.feature_selection_

    @_fit_context(prefer_skip_nested_validation=True)
    @user_fit
    @partition_dispatch()
    def fit(self, X, y=None):
        """Learn the k-tree and the conditional models; with ``k="auto"`` first choose k
        (and the score) by inner cross-validated log-loss.

        Parameters
        ----------
        X : array-like or pandas.DataFrame of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        self.cv_results_ = None
        if isinstance(self.k, Integral):
            if self.structure_score == "auto":
                raise ValueError(
                    "KTANClassifier(structure_score='auto') chooses the score by cross-validation "
                    f"together with k; use k='auto' (or a list of k), or name a score in "
                    f"{score_names()}. Got k={self.k}."
                )
            self.k_, self.structure_score_ = int(self.k), self.structure_score
            self.feature_selection_ = None if self.feature_selection == "auto" else self.feature_selection
            return super().fit(X, y)
        if not isinstance(self.k, str) and (
            len(self.k) == 0 or not all(isinstance(v, Integral) and v >= 1 for v in self.k)
        ):
            raise ValueError(
                f"The 'k' parameter of KTANClassifier must be an int >= 1, 'auto' or a non-empty "
                f"list of ints >= 1. Got {self.k!r} instead."
            )
        with shared_scores():  # each training part scored once for all candidates
            with warnings.catch_warnings():  # its notes come again from the final fit below
                warnings.simplefilter("ignore")  # the template's validation: types, d
                enc, codes = self._validate_training(X, y)
            family = score_family(enc)
            names = [s for s in BUILTIN_SCORES if family in SCORES[s]]
            selections = [self.feature_selection]
            if self.feature_selection == "auto":
                complete = all(t != "continuous" for t in enc.types) and (enc.codes >= 0).all()
                selections = [None, "markov-blanket"] if complete else [None]
            grid = candidate_grid(self.k, self.structure_score, names, self.n_features_in_,
                                  selections)
            if isinstance(self.k, str):  # "auto" tries the k that keep to max_cells
                size_at, _ = ktree_search_size(enc, self.classes_.size, self.candidates)
                grid = [c for c in grid if within(size_at(c["k"]), self.max_cells)] or grid[:1]
            for k in sorted({c["k"] for c in grid}):
                self._check_width(k, enc)
            labels = self.classes_[codes]  # y validated: 1-d (a column vector raveled)
            best, table = select_by_cv(self, X, labels, grid,
                                       grow="k" if isinstance(self.k, str) else None,
                                       rule="one-se")
            self.k_, self.structure_score_ = best["k"], best["structure_score"]
            self.feature_selection_ = best["feature_selection"]
            super().fit(X, y)
        self.cv_results_ = table
        return self

    def _check_width(self, k: int, enc) -> None:
        """Refuse, before any work, a ``k`` whose fit is over ``max_cells``
        (:mod:`estimators.base.model_size`); one of at least the number of features is
        lowered with one warning (:func:`~estimators.search.fit_width`) when the widest
        k-tree fits, and refused, saying it exceeds them, when it does not."""
        size_at, d = ktree_search_size(enc, self.classes_.size, self.candidates)
        check_size("k", k, size_at, highest=d - 1,
                   bound=f"the {d - 1} other features", limit=self.max_cells,
                   lowered=True, fewer=None if self.candidates else CANDIDATE_ADVICE)

    def _check_model_size(self, enc) -> None:
        if isinstance(self.k, Integral):  # "auto" and lists: checked with their grid
            self._check_width(int(self.k), enc)

    def _needs_rows(self) -> str | None:
        if not isinstance(self.k, Integral):  # the width is chosen by cross-validation
            return f"k={self.k!r}"
        return super()._needs_rows()

    def _fit_from_statistics(self, enc, table, data):
        self.cv_results_ = None
        self.k_, self.structure_score_ = int(self.k), self.structure_score
        return super()._fit_from_statistics(enc, table, data)

