"""String registries of the priors and families (an unknown key is a ValueError)."""

from __future__ import annotations

from ._beta_liouville import BetaLiouvillePrior
from ._categorical import CategoricalFamily
from ._dirichlet import DirichletPrior
from ._family_base import Family
from ._gaussian_features import GaussianFamily
from ._generalized_dirichlet import GeneralizedDirichletPrior
from ._mixed import MixedFamily
from ._prior_base import Prior

__all__ = ["PRIORS", "FAMILIES", "make_prior", "make_family"]

PRIORS: dict[str, type[Prior]] = {
    "dirichlet": DirichletPrior,
    "generalized-dirichlet": GeneralizedDirichletPrior,
    "beta-liouville": BetaLiouvillePrior,
}

#: what ``family`` may be: ``"auto"`` (a family per column type, :class:`MixedFamily`), or
#: the one family every column gets
FAMILIES: dict[str, type[Family]] = {
    "auto": MixedFamily,
    "gaussian": GaussianFamily,
    "categorical": CategoricalFamily,
}


def _lookup(registry: dict, kind: str, key: str):
    try:
        return registry[key]
    except (KeyError, TypeError):
        raise ValueError(f"Unknown {kind} {key!r}; valid ones are {sorted(registry)}.") from None


def make_prior(name: str, n_components: int, params: dict | None = None) -> Prior:
    """Instantiate the prior registered under ``name``.

    Examples
    --------
    >>> make_prior("dirichlet", 2).alpha
    array([1., 1.])
    >>> make_prior("gd", 2)
    Traceback (most recent call last):
    ...
    ValueError: Unknown prior 'gd'; valid ones are ['beta-liouville', 'dirichlet', 'generalized-dirichlet'].
    """
    return _lookup(PRIORS, "prior", name)(n_components, params)


def make_family(name: str, **params) -> Family:
    """Instantiate the family registered under ``name``.

    Examples
    --------
    >>> make_family("gaussian", var_floor=0.01).var_floor
    0.01
    """
    return _lookup(FAMILIES, "family", name)(**params)
