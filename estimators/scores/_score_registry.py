"""Hyperedge scores by name and model family, for classifiers and the command line.

``SCORES[name][family]`` is a factory of an unfitted score; a new score (or a new family of
an existing score) is registered with :func:`register_score` -- here, at run time, or from
another package through the ``kgraph.scores`` entry point (:mod:`estimators.learning.plugin_registry`).

| name | discrete features | Gaussian features | mixed (or missing cells) |
|---|---|---|---|
| ``"cmi"`` | plug-in :class:`DiscreteCMI` | :class:`GaussianCMI` | :class:`ConditionalGaussianScore` |
| ``"bic"`` | :class:`BIC` of ``DiscreteCMI()`` | :class:`BIC` of ``GaussianCMI()`` | :class:`ConditionalGaussianBIC` |
| ``"bdeu"`` | :class:`DiscreteBDeu` (``ess=1``) | -- | -- |
| ``"gaussian-copula"`` | -- | :class:`GaussianCopulaCMI` (``marginals="kernel"``) | -- |
| ``"kde"`` | -- | :class:`KDECopulaCMI` (pairs only) | -- |

The last two are the dependence models of the GNB family (``GNBClassifier(dependence=...)``
scores with them); ``structure_score="auto"`` chooses among :data:`BUILTIN_SCORES` only.

The ``"mixed"`` family is the conditional Gaussian model (MATH.md §7–§8): any table whose
columns mix types or that has missing cells.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from estimators.base.entry_points import check_new_name, load_group

from ._cg_bic import ConditionalGaussianBIC
from ._conditional_gaussian import ConditionalGaussianScore
from ._discrete import DiscreteCMI
from ._gaussian_cmi import GaussianCMI, GaussianCopulaCMI
from ._kde_copula import KDECopulaCMI
from ._penalised import BIC, DiscreteBDeu

__all__ = ["BUILTIN_SCORES", "FAMILIES", "SCORES", "load_score_plugins", "make_score",
           "register_score", "score_names"]

#: the feature families a score may serve (see :func:`estimators.learning.structure_scores.score_family`)
FAMILIES = ("discrete", "gaussian", "mixed")

SCORES: dict[str, dict[str, Callable[[], object]]] = {
    "cmi": {"discrete": DiscreteCMI, "gaussian": GaussianCMI, "mixed": ConditionalGaussianScore},
    "bic": {"discrete": lambda: BIC(DiscreteCMI()), "gaussian": lambda: BIC(GaussianCMI()),
            "mixed": ConditionalGaussianBIC},
    "bdeu": {"discrete": DiscreteBDeu},
    "gaussian-copula": {"gaussian": lambda: GaussianCopulaCMI(marginals="kernel")},
    "kde": {"gaussian": KDECopulaCMI},
}
#: the scores ``structure_score="auto"`` chooses among
BUILTIN_SCORES = ("cmi", "bic", "bdeu")


def register_score(name: str, factories: Mapping[str, Callable[[], object]] | Callable[[], object],
                   *, replace: bool = False) -> dict[str, Callable[[], object]]:
    """Register a hyperedge score under ``name``, for the feature families it serves.

    Parameters
    ----------
    name : str
        The name classifiers (``structure_score=name``) and ``kgraph learn
        --structure-score name`` use.
    factories : mapping or callable
        ``{family: factory}`` with families among :data:`FAMILIES` and each factory a
        zero-argument callable (a class, say) returning an unfitted score that follows the
        protocol of :mod:`estimators.scores`; or one factory whose ``families`` attribute
        lists its families.
    replace : bool, default=False
        Replace a score registered under ``name``.

    Returns
    -------
    dict
        The ``{family: factory}`` registered.

    Raises
    ------
    ValueError
        If ``name`` is taken (and ``replace`` is False), empty, or a family is unknown.
    TypeError
        If a factory is not callable.

    Examples
    --------
    >>> from estimators.scores import DiscreteCMI, SCORES, register_score
    >>> class Halved(DiscreteCMI):
    ...     def score(self, v, parents):
    ...         return super().score(v, parents) / 2
    >>> register_score("halved", {"discrete": Halved})
    {'discrete': <class 'estimators.scores._score_registry.Halved'>}
    >>> register_score("halved", {"discrete": Halved})
    Traceback (most recent call last):
    ...
    ValueError: A score named 'halved' is registered already; pass replace=True to replace it.
    >>> del SCORES["halved"]
    """
    check_new_name("score", name, SCORES, replace=replace)
    if not isinstance(factories, Mapping):
        families = getattr(factories, "families", None)
        if not callable(factories) or not families or isinstance(families, str):
            raise TypeError(f"The score {name!r} must be registered as a mapping {{family: "
                            f"factory}} or a factory with a 'families' attribute; got "
                            f"{type(factories).__name__}.")
        factories = dict.fromkeys(families, factories)
    factories = dict(factories)
    unknown = sorted(set(factories) - set(FAMILIES), key=str)
    if unknown or not factories:
        raise ValueError(f"The score {name!r} names the families {unknown or '{}'}; the "
                         f"families are {list(FAMILIES)}.")
    bad = [family for family, make in factories.items() if not callable(make)]
    if bad:
        raise TypeError(f"The factories of score {name!r} must be callable; not those of "
                        f"{bad}.")
    SCORES[name] = factories
    return factories


def load_score_plugins(*, reload: bool = False) -> None:
    """Register the scores of the ``kgraph.scores`` entry points (once per process;
    ``reload=True`` reads them again); see :mod:`estimators.learning.plugin_registry`.

    Examples
    --------
    >>> from estimators.scores import SCORES, load_score_plugins
    >>> load_score_plugins(reload=True)  # read the kgraph.scores entry points again
    >>> sorted(SCORES)[:3]  # the built-in scores stay registered
    ['bdeu', 'bic', 'cmi']
    """
    load_group("kgraph.scores", register_score, reload=reload)


def score_names() -> list[str]:
    """The registered score names, plug-ins included (sorted).

    Examples
    --------
    >>> from estimators.scores import score_names
    >>> {"bdeu", "bic", "cmi", "gaussian-copula", "kde"} <= set(score_names())
    True
    """
    load_score_plugins()
    return sorted(SCORES)


def make_score(name: str, family: str):
    """An unfitted score registered as ``name`` for feature family ``family``.

    Raises
    ------
    ValueError
        Naming the unknown score, or the families the score is registered for.

    Examples
    --------
    >>> make_score("bic", "gaussian")
    BIC(base=GaussianCMI())
    >>> make_score("bdeu", "gaussian")
    Traceback (most recent call last):
    ...
    ValueError: Score 'bdeu' is defined for discrete features only; got gaussian features. Use one of ['bic', 'cmi', 'gaussian-copula', 'kde'] for gaussian features.
    """
    load_score_plugins()
    if name not in SCORES:
        raise ValueError(f"Unknown score {name!r}; the registered scores are {sorted(SCORES)}.")
    if family not in SCORES[name]:
        usable = sorted(n for n, fams in SCORES.items() if family in fams)
        raise ValueError(
            f"Score {name!r} is defined for {', '.join(sorted(SCORES[name]))} features only; got "
            f"{family} features. Use one of {usable} for {family} features."
        )
    return SCORES[name][family]()
