"""Naive Bayes on mixed columns: the k-TAN family with no feature parents (k = 0).

``ln p(y, x) = ln p(y) + sum_v ln p(x_v | y)`` with the conditional Gaussian factors of
MATH.md §7 without parents (:mod:`estimators.network.model`): smoothed class-conditional
tables for categorical columns, class-conditional normals for continuous ones (variance plus
``var_smoothing`` times the largest feature variance, as scikit-learn's ``GaussianNB``). A
missing cell drops its factor (MATH.md §8). With ``parameters="discriminative"`` it is
logistic regression on the same cells (:mod:`estimators.discriminative`).
"""

from __future__ import annotations

from estimators.base.parameters import ALPHA, RANDOM_STATE, VAR_SMOOTHING, VERBOSE, declare
from estimators.network.hdp_tables import HDP_PARAMETERS
from estimators.network.model import fit_network
from estimators.network.stats_factors import network_from_stats
from estimators.template.family_registry import register_family
from estimators.template.joint_likelihood import (
    DISCRETIZE,
    FEATURE_SELECTION,
    FEATURE_TYPES,
)
from estimators.template.network_classifier import HDP_FIT_PARAMETERS, NetworkClassifier


@register_family(
    "nb", "naive Bayes classifier (the class the one parent of every feature)", command_line=False)
@declare(
    ALPHA.but(doc=(
        'Pseudo-count of the class-conditional tables (> 0).')),
    VAR_SMOOTHING.but(doc=(
        'Fraction of the largest continuous-feature variance added to the variances.')),
    FEATURE_TYPES.but(doc=(
        'Column types (:func:`estimators.columns.infer_feature_types`).')),
    HDP_FIT_PARAMETERS.but(doc=(
        '``"discriminative"``: multinomial logistic regression on the naive-Bayes cells '
        '(one-hot categories; standardised ``z, z²`` of continuous columns), '
        'L2-penalised, started from (and by default shrunk towards) the generative '
        'parameters (:mod:`estimators.discriminative`). ``"hdp"``: each categorical '
        'table ``p(x | class)`` estimated by a two-level hierarchical Dirichlet process '
        '(:mod:`estimators.network.hdp_tables`) instead of ``alpha``.')),
    VERBOSE.but(doc=(
        'Progress bars inside ``fit`` (the L-BFGS iterations).')),
    FEATURE_SELECTION.but(doc=(
        '``"selective-nb"``: selective naive Bayes (Langley and Sage 1994), the features '
        'chosen by forward selection on stratified 5-fold cross-validated log-loss '
        '(:mod:`estimators.learning.selective_nb`); ``"markov-blanket"``: the class\'s estimated '
        'Markov blanket (:func:`estimators.learning.feature_selection.markov_blanket`, complete '
        'categorical tables); None: all features. The others are ignored at prediction.')),
    RANDOM_STATE.but(doc=(
        'Seeds the folds of ``"selective-nb"`` and the permutations of the Markov-blanket'
        ' tests (None: seed 0).')),
    *HDP_PARAMETERS,
    DISCRETIZE,
)
class NaiveBayesClassifier(NetworkClassifier):
    """Naive Bayes for continuous and categorical columns, generative or discriminative.

    Attributes
    ----------
    network_ : CGNetwork
        The fitted factors (no feature parents).
    discriminative_ : DiscriminativeParameters or None
        The discriminative parameters, else None.
    feature_selection_ : str or None
        The feature selection used.
    selected_features_ : list
        The modelled features (all non-constant ones without feature selection).
    classes_, class_log_prior_, feature_types_, constant_features_, n_features_in_

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.ktan import NaiveBayesClassifier
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 300)
    >>> X = np.column_stack([rng.normal(y, 1.0), (rng.random(300) < 0.2 + 0.6 * y)])
    >>> gen = NaiveBayesClassifier().fit(X, y)
    >>> dis = NaiveBayesClassifier(parameters="discriminative").fit(X, y)
    >>> bool(dis.discriminative_.info["cll"] >= dis.discriminative_.info["cll_start"])
    True
    >>> dis.predict_proba(X[:2]).sum(axis=1).round(12).tolist()
    [1.0, 1.0]
    >>> noisy = np.column_stack([X, np.random.default_rng(1).normal(size=(300, 2))])
    >>> NaiveBayesClassifier(feature_selection="selective-nb").fit(noisy, y).selected_features_
    ['x0', 'x1']
    """

    def __init__(self, *, alpha: float = 1.0, var_smoothing: float = 1e-9,
                 feature_types="auto", parameters="generative", verbose: bool = False,
                 feature_selection: str | None = None, random_state=None,
                 hdp_iterations: int = 5000, hdp_burn_in: int | None = None, hdp_tying: str = "level",
                 discretize: str | None = None):
        self.discretize = discretize
        self.hdp_iterations = hdp_iterations
        self.hdp_burn_in = hdp_burn_in
        self.hdp_tying = hdp_tying
        self.feature_selection = feature_selection
        self.random_state = random_state
        self.alpha = alpha
        self.var_smoothing = var_smoothing
        self.feature_types = feature_types
        self.parameters = parameters
        self.verbose = verbose

    def _fit_table(self, X, y):
        """Fit the class-conditional factors (and the discriminative parameters)."""
        enc, codes = self._validate_training(X, y)
        kept = self._modelled_features(enc, codes)
        self.network_ = fit_network(enc, codes, self.classes_.size, kept, [()] * len(kept),
                                    **self._smoothing())
        self._fit_parameters(enc, codes, self.parameters, self.random_state)
        return self

    def _fit_from_statistics(self, enc, table, data):
        """The class-conditional factors from the statistics (as :meth:`_fit_table` fits them
        on the rows), then the discriminative parameters from the partitions."""
        kept = self._modelled_statistics(enc)
        self.network_ = network_from_stats(enc, table, kept, [()] * len(kept),
                                           **self._smoothing())
        self._fit_parameters(data, None, self.parameters, self.random_state)
        return self
