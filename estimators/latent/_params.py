"""Hyperparameters shared by LatentCNB and LatentCNBClassifier: their constraints, their
``__init__`` and the input tags they imply (:class:`LatentSettings`)."""

from __future__ import annotations

import types
from numbers import Integral, Real

from sklearn.utils._param_validation import Interval, StrOptions

from estimators.base.parameters import RANDOM_STATE, VERBOSE, Flag, Parameter, int_or_auto
from estimators.template.joint_likelihood import FEATURE_TYPES

from ._prior_family_registry import FAMILIES, PRIORS

__all__ = ["LATENT_PARAMETERS", "LatentSettings", "with_default_components"]

#: the parameters of LatentCNB and LatentCNBClassifier, declared once
LATENT_PARAMETERS = (
    Parameter("n_components", 3, [Interval(Integral, 1, None, closed="left")], 'int',
              'Number of latent components K.',
              Flag("components per class, or 'auto' (the default: 1-3 by inner CV, one "
                   "component on a near-tie)", type=int_or_auto)),
    Parameter("prior", "dirichlet", [StrOptions(set(PRIORS))], '{"dirichlet", "generalized-dirichlet", "beta-liouville"}',
              "Prior on each row's mixing weights.",
              Flag("the prior of the mixing weights", choices="prior")),
    Parameter("family", "auto", [StrOptions(set(FAMILIES))], '{"auto", "gaussian", "categorical"}',
              'Distribution of a feature given its component: by column type '
              '(``"auto"``), or the same for every column (``"gaussian"`` needs numeric '
              'columns; ``"categorical"`` makes every distinct value a category).',
              Flag("features", choices="family")),
    Parameter("prior_params", None, [dict, None], 'dict',
              'Prior parameters (floats are broadcast; all must be > 0). Defaults: '
              '``dirichlet``: ``alpha=1.0`` (K values; uniform on the simplex); '
              '``generalized-dirichlet``: ``alpha=1.0``, ``beta=1.0`` (K - 1 Beta shapes '
              'each: every stick fraction ``V_k`` uniform); ``beta-liouville``: '
              '``alpha=1.0`` (K - 1 Dirichlet parameters of w), ``u_alpha=1.0``, '
              '``u_beta=1.0`` (Beta shapes of u). The Dirichlet-equivalent settings are '
              'given by ``GeneralizedDirichletPrior.dirichlet_equivalent`` and '
              '``BetaLiouvillePrior.dirichlet_equivalent``.'),
    Parameter("var_floor", 1e-3, [Interval(Real, 0, None, closed="neither")], 'float',
              'Gaussian family: a component variance is at least ``var_floor * '
              'Var(x_j)``.'),
    Parameter("pseudo_count", 0.1, [Interval(Real, 0, None, closed="neither")], 'float',
              "Categorical family: added to every value's expected count (including one "
              'slot for values the fit did not see; a classifier fits one model per '
              'class, so this slot scores a training category absent from a class).'),
    Parameter("max_iter", 100, [Interval(Integral, 0, None, closed="left")], 'int',
              'EM iterations (an M-step followed by an E-step) per initialisation.'),
    Parameter("tol", 1e-4, [Interval(Real, 0, None, closed="left")], 'float',
              'Convergence threshold on the change of ``lower_bound_`` (a per-row mean).'),
    Parameter("n_init", 1, [Interval(Integral, 1, None, closed="left")], 'int',
              'Number of initialisations; the best objective wins.'),
    Parameter("e_step_max_iter", 100, [Interval(Integral, 1, None, closed="left")], 'int',
              'Maximum fixed-point sweeps per E-step.'),
    Parameter("e_step_tol", 1e-4, [Interval(Real, 0, None, closed="left")], 'float',
              "A row's E-step stops when a sweep raises its ELBO by at most this (nats)."),
    RANDOM_STATE.but(doc=(
        'Seeds the initialisation (K random rows give the initial component parameters).')),
    FEATURE_TYPES.but(doc=(
        'Column types (:func:`estimators.columns.infer_feature_types`): ``"auto"`` or '
        '``{column: "continuous" | "categorical"}`` (with ``family="auto"``; a forced '
        'family accepts only its own type).')),
    VERBOSE,
)


class LatentSettings:
    """The hyperparameters of the latent conditional Naive Bayes models, stored as given
    (scikit-learn reads this ``__init__``'s signature for ``get_params``), and the input
    tags they imply: missing cells always, strings and categories unless
    ``family="gaussian"``. A mixin placed before the scikit-learn bases."""

    def __init__(
        self,
        n_components: int = 3,
        *,
        prior: str = "dirichlet",
        family: str = "auto",
        prior_params: dict | None = None,
        var_floor: float = 1e-3,
        pseudo_count: float = 0.1,
        max_iter: int = 100,
        tol: float = 1e-4,
        n_init: int = 1,
        e_step_max_iter: int = 100,
        e_step_tol: float = 1e-4,
        random_state=None,
        feature_types="auto",
        verbose: bool = False,
    ):
        self.n_components = n_components
        self.prior = prior
        self.family = family
        self.prior_params = prior_params
        self.var_floor = var_floor
        self.pseudo_count = pseudo_count
        self.max_iter = max_iter
        self.tol = tol
        self.n_init = n_init
        self.e_step_max_iter = e_step_max_iter
        self.e_step_tol = e_step_tol
        self.random_state = random_state
        self.feature_types = feature_types
        self.verbose = verbose

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.string = self.family != "gaussian"
        tags.input_tags.categorical = self.family != "gaussian"
        return tags


def with_default_components(init, n_components):
    """A copy of ``init`` (:meth:`LatentSettings.__init__`) whose ``n_components`` defaults
    to ``n_components``: the same parameters, in the signature scikit-learn reads.

    Examples
    --------
    >>> import inspect
    >>> init = with_default_components(LatentSettings.__init__, "auto")
    >>> inspect.signature(init).parameters["n_components"].default
    'auto'
    >>> inspect.signature(LatentSettings.__init__).parameters["n_components"].default
    3
    """
    copy = types.FunctionType(init.__code__, init.__globals__, init.__name__,
                              (n_components,), init.__closure__)
    copy.__kwdefaults__ = dict(init.__kwdefaults__)
    copy.__annotations__ = {**init.__annotations__, "n_components": "int | str | list[int]"}
    copy.__qualname__, copy.__doc__ = init.__qualname__, init.__doc__
    return copy
