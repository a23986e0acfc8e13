"""Hyperparameters shared by LatentCNB and LatentCNBClassifier: their constraints, their
``__init__`` and the input tags they imply (:class:`LatentSettings`)."""

from __future__ import annotations

import types
from collections.abc import Mapping
from numbers import Integral, Real

from sklearn.utils._param_validation import Interval, StrOptions

from ._prior_family_registry import FAMILIES, PRIORS

__all__ = ["LATENT_PARAMETER_CONSTRAINTS", "LatentSettings", "with_default_components"]

LATENT_PARAMETER_CONSTRAINTS: dict = {
    "n_components": [Interval(Integral, 1, None, closed="left")],
    "prior": [StrOptions(set(PRIORS))],
    "family": [StrOptions(set(FAMILIES))],
    "prior_params": [dict, None],
    "var_floor": [Interval(Real, 0, None, closed="neither")],
    "pseudo_count": [Interval(Real, 0, None, closed="neither")],
    "max_iter": [Interval(Integral, 0, None, closed="left")],
    "tol": [Interval(Real, 0, None, closed="left")],
    "n_init": [Interval(Integral, 1, None, closed="left")],
    "e_step_max_iter": [Interval(Integral, 1, None, closed="left")],
    "e_step_tol": [Interval(Real, 0, None, closed="left")],
    "random_state": ["random_state"],
    "feature_types": [StrOptions({"auto"}), Mapping],
    "verbose": ["verbose"],
}


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
