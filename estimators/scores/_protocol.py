"""The score protocol seen from the classifiers: resolve a name or an object, fit it on the
family's table, and give the searchers a uniform fitted score.

The protocol itself is written in the docstring of :mod:`estimators.scores`. A
:class:`~estimators.scores.BaseCMI` score already provides everything; any other object
needs only ``fit(X, y)`` and ``score(v, parents)``, and :class:`FittedScore` supplies
``score_many``, ``edge_matrix`` and a cache around it.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

import numpy as np
from sklearn.base import clone

from ._score_base import BaseCMI
from ._score_registry import SCORES, make_score

__all__ = ["FittedScore", "as_fitted_score", "declared_families", "max_parents",
           "unfitted_score"]


def declared_families(score) -> tuple[str, ...] | None:
    """The feature families a score serves: its registry entry for a name, the object's
    ``families`` attribute for an object (None when it declares none).

    Examples
    --------
    >>> from estimators.scores import GaussianCMI, declared_families
    >>> declared_families("cmi")
    ('discrete', 'gaussian', 'mixed')
    >>> declared_families(GaussianCMI())  # its ``families`` attribute
    ('gaussian',)
    """
    if isinstance(score, str):
        return tuple(SCORES[score]) if score in SCORES else None
    families = getattr(score, "families", None)
    return None if families is None else tuple(families)


def max_parents(score) -> int | None:
    """The largest parent set the score answers (``max_parents``; None: any).

    Examples
    --------
    >>> from estimators.scores import DiscreteCMI, GaussianCMI, max_parents
    >>> max_parents(GaussianCMI()), max_parents(DiscreteCMI())
    (None, None)
    """
    found = getattr(score, "max_parents", None)
    if found is None and isinstance(score, BaseCMI):
        found = score._max_parents
    return None if found is None else int(found)


def unfitted_score(score, family: str):
    """A fresh unfitted score for ``family``: made from the registry for a name, a clone
    (parameters kept, fitted state dropped) for an object.

    Raises
    ------
    ValueError
        For an unknown name, or a family the score does not serve.

    Examples
    --------
    >>> from estimators.scores import GaussianCMI, unfitted_score
    >>> [type(unfitted_score("cmi", family)).__name__ for family in ("gaussian", "discrete")]
    ['GaussianCMI', 'DiscreteCMI']
    >>> unfitted_score(GaussianCMI(n_jobs=2), "gaussian").n_jobs  # a clone
    2
    >>> unfitted_score(GaussianCMI(), "discrete")
    Traceback (most recent call last):
    ...
    ValueError: the structure score GaussianCMI serves gaussian features ...
    """
    if isinstance(score, str):
        return make_score(score, family)
    families = declared_families(score)
    if families is not None and family not in families:
        raise ValueError(f"the structure score {type(score).__name__} serves "
                         f"{', '.join(families)} features (its 'families'); this table has "
                         f"{family} features.")
    return clone(score, safe=False)


class FittedScore:
    """A fitted protocol score as the searchers use it: ``f(v, parents) -> float`` with
    ``score_many``, ``edge_matrix`` (``W[i, j] = f(j, {i})``) and a cache; the object's
    own ``score_many`` and ``edge_matrix`` are used when it has them.

    Parameters
    ----------
    score : object
        A fitted score: ``score.score(v, parents) -> float``.
    variables : list
        The variables it was fitted on (column names).

    Examples
    --------
    >>> class Closeness:
    ...     def fit(self, X, y):
    ...         return self
    ...     def score(self, v, parents):
    ...         return float(sum(1 / abs(v - p) for p in parents))
    >>> f = FittedScore(Closeness(), [0, 1, 2])
    >>> f(0, {1, 2}), float(f.edge_matrix()[2, 0])
    (1.5, 0.5)
    """

    def __init__(self, score, variables: Iterable[Hashable]) -> None:
        self.base = score
        self.variables_ = list(variables)
        self._cache: dict[tuple[Hashable, frozenset], float] = {}

    def __call__(self, v: Hashable, parents: Iterable[Hashable]) -> float:
        key = (v, frozenset(parents))
        if key not in self._cache:
            self._cache[key] = float(self.base.score(v, key[1]))
        return self._cache[key]

    score = __call__

    def score_many(self, items: Iterable[tuple[Hashable, Iterable[Hashable]]]) -> np.ndarray:
        """``f(v, parents)`` of each item."""
        items = [(v, frozenset(p)) for v, p in items]
        own = getattr(self.base, "score_many", None)
        todo = [it for it in dict.fromkeys(items) if it not in self._cache]
        if own is not None and todo:
            self._cache.update(zip(todo, np.asarray(own(todo), dtype=float).tolist(),
                                   strict=True))
        return np.array([self(v, p) for v, p in items], dtype=float)

    def edge_matrix(self) -> np.ndarray:
        """Pair scores ``W[i, j] = f(j, {i})`` (parent i, child j), zero diagonal."""
        own = getattr(self.base, "edge_matrix", None)
        if own is not None:
            return np.asarray(own(), dtype=float)
        names = self.variables_
        d = len(names)
        ii, jj = np.nonzero(~np.eye(d, dtype=bool))
        W = np.zeros((d, d))
        W[ii, jj] = self.score_many([(names[j], (names[i],)) for i, j in zip(ii, jj, strict=True)])
        return W


def as_fitted_score(score, variables: Iterable[Hashable]):
    """``score`` itself when it is a :class:`~estimators.scores.BaseCMI` or ``BIC`` (they
    provide the whole interface), else wrapped in :class:`FittedScore`.

    Examples
    --------
    A fitted CMI score already has the whole interface; an object with only ``score`` is
    wrapped:

    >>> import numpy as np
    >>> from estimators.scores import GaussianCMI
    >>> cmi = GaussianCMI().fit(np.random.default_rng(0).normal(size=(50, 3)), [0, 1] * 25)
    >>> as_fitted_score(cmi, [0, 1, 2]) is cmi
    True
    >>> class Count:
    ...     def score(self, v, parents):
    ...         return float(len(parents))
    >>> f = as_fitted_score(Count(), "abc")
    >>> type(f).__name__, f("a", {"b", "c"}), f.edge_matrix()[0].tolist()
    ('FittedScore', 2.0, [0.0, 1.0, 1.0])
    """
    if hasattr(score, "variables_") and all(
            callable(getattr(score, m, None)) for m in ("__call__", "score_many", "edge_matrix")):
        return score
    return FittedScore(score, variables)
