"""Hyperedge scores by name and model family, for classifiers and the command line.

``SCORES[name][family]`` is a factory of an unfitted score; a new score (or a new family of
an existing score) is registered here, in one place.

| name | discrete features | Gaussian features | mixed (or missing cells) |
|---|---|---|---|
| ``"cmi"`` | plug-in :class:`DiscreteCMI` | :class:`GaussianCMI` | :class:`ConditionalGaussianScore` |
| ``"bic"`` | :class:`BIC` of ``DiscreteCMI()`` | :class:`BIC` of ``GaussianCMI()`` | :class:`ConditionalGaussianBIC` |
| ``"bdeu"`` | :class:`DiscreteBDeu` (``ess=1``) | -- | -- |

The ``"mixed"`` family is the conditional Gaussian model (MATH.md §7–§8): any table whose
columns mix types or that has missing cells.
"""

from __future__ import annotations

from collections.abc import Callable

from ._cg_bic import ConditionalGaussianBIC
from ._conditional_gaussian import ConditionalGaussianScore
from ._discrete import DiscreteCMI
from ._gaussian import GaussianCMI
from ._penalised import BIC, DiscreteBDeu

__all__ = ["SCORES", "make_score"]

SCORES: dict[str, dict[str, Callable[[], object]]] = {
    "cmi": {"discrete": DiscreteCMI, "gaussian": GaussianCMI, "mixed": ConditionalGaussianScore},
    "bic": {"discrete": lambda: BIC(DiscreteCMI()), "gaussian": lambda: BIC(GaussianCMI()),
            "mixed": ConditionalGaussianBIC},
    "bdeu": {"discrete": DiscreteBDeu},
}


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
    ValueError: Score 'bdeu' is defined for discrete features only; got gaussian features. Use one of ['bic', 'cmi'] for gaussian features.
    """
    if name not in SCORES:
        raise ValueError(f"Unknown score {name!r}; the registered scores are {sorted(SCORES)}.")
    if family not in SCORES[name]:
        usable = sorted(n for n, fams in SCORES.items() if family in fams)
        raise ValueError(
            f"Score {name!r} is defined for {', '.join(sorted(SCORES[name]))} features only; got "
            f"{family} features. Use one of {usable} for {family} features."
        )
    return SCORES[name][family]()
