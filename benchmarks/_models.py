"""The kgraph classifiers the table benchmarks and the leaderboard run, from a registry,
and the nested-CV "best kgraph model" meta-estimator.

:func:`kgraph_classifiers` takes every family of the registry
(:mod:`estimators.template.family_registry`; those of ``kgraph learn --model NAME`` first,
under that name) at its defaults, seeded where the model has a ``random_state``, then the
benchmark variants of :data:`VARIANTS`. A family registered, or a variant added, joins
real_tables.md and the leaderboard on their next run; nothing else needs editing.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.model_selection import StratifiedKFold

from estimators.learning.best_of import BestOfClassifier

#: benchmark rows beyond the command line's models at their defaults: label -> factory
#: (a documented option a user runs; add a line here to benchmark another setting)
VARIANTS: dict[str, Callable[[], BaseEstimator]] = {}


def register_variant(label: str, factory: Callable[[], BaseEstimator]) -> None:
    """Add a benchmark row ``label`` built by ``factory()`` (a kgraph classifier setting)."""
    if label in VARIANTS:
        raise ValueError(f"benchmark variant {label!r} is already registered")
    VARIANTS[label] = factory


def _latent_auto():
    from estimators.latent import LatentCNBClassifier

    return LatentCNBClassifier(n_components="auto", random_state=0)


def _seeded(cls: type, **params) -> BaseEstimator:
    """``cls(**params)``, with ``random_state=0`` where the model has one (as the defaults)."""
    if "random_state" in cls().get_params():
        params = {"random_state": 0, **params}
    return cls(**params)


def _discriminative(module: str, name: str) -> Callable[[], BaseEstimator]:
    """A factory of ``module.name(parameters="discriminative")`` (seeded as the defaults)."""
    return lambda: _seeded(getattr(importlib.import_module(module), name),
                           parameters="discriminative")


register_variant("latent-cnb (auto)", _latent_auto)


def _selective_nb():
    from estimators.ktan import NaiveBayesClassifier

    return NaiveBayesClassifier(feature_selection="selective-nb", random_state=0)


register_variant("selective NB", _selective_nb)
#: the documented ``parameters="discriminative"`` setting (log-linear cells fitted by the
#: penalised conditional log-likelihood, :mod:`estimators.discriminative`) of every model
#: that has it; GNB's needs ``dependence="gaussian"``, its default
for _label, _module, _name in (
        ("NaiveBayesClassifier (discriminative)", "estimators", "NaiveBayesClassifier"),
        ("tan (discriminative)", "estimators.ktan", "TANClassifier"),
        ("ktan (discriminative)", "estimators.ktan", "KTANClassifier"),
        ("gnb (discriminative)", "estimators.gnb", "GNBClassifier")):
    register_variant(_label, _discriminative(_module, _name))


#: families of the registry left out of the board, and why (a duplicate of another row)
SAME_AS = {"AnDEClassifier": "its default n=1 is AODEClassifier (the 'aode' row)"}


def default_classifiers() -> dict[str, BaseEstimator]:
    """Every family of the registry (:mod:`estimators.template.family_registry`) at its
    defaults (``random_state=0`` where the model has one): first those of the command line
    (by its names, in its order), then the others (by class name)."""
    from estimators.template.family_registry import families

    ordered = [*families(command_line=True), *families(command_line=False)]
    return {f.name if f.command_line else f.cls.__name__: _seeded(f.cls)
            for f in ordered if f.cls.__name__ not in SAME_AS}


def kgraph_classifiers() -> dict[str, BaseEstimator]:
    """:func:`default_classifiers`, then the registered :data:`VARIANTS`."""
    return {**default_classifiers(), **{k: f() for k, f in VARIANTS.items()}}


class NestedBest(BestOfClassifier):
    """The candidate with the best inner cross-validated accuracy on the training data,
    refitted on all of it: the "best model" of a table chosen without its test fold.

    ``fit`` runs stratified ``inner_folds``-fold CV (shuffled, ``random_state``) on the
    training rows only; a candidate that raises scores minus infinity; ties go to the
    earlier candidate. ``chosen_`` is the label picked, ``inner_scores_`` the inner mean
    accuracy of each candidate.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn.naive_bayes import GaussianNB
    >>> X, y = load_iris(return_X_y=True)
    >>> best = NestedBest({"dummy": DummyClassifier(), "nb": GaussianNB()}).fit(X, y)
    >>> best.chosen_
    'nb'
    """

    def __init__(self, candidates: dict, inner_folds: int = 3, random_state: int = 0):
        self.candidates = candidates
        self.inner_folds = inner_folds
        self.random_state = random_state

    def fit(self, X, y):
        import pandas as pd

        X = X if isinstance(X, pd.DataFrame) else pd.DataFrame(X)
        y = pd.Series(np.asarray(y), index=X.index)
        inner = StratifiedKFold(self.inner_folds, shuffle=True, random_state=self.random_state)
        folds = list(inner.split(np.zeros(len(y)), y))
        self.inner_scores_ = {}
        for label, model in self.candidates.items():
            scores = []
            try:
                for train, test in folds:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        fitted = clone(model).fit(X.iloc[train], y.iloc[train])
                        scores.append(np.mean(fitted.predict(X.iloc[test]) == y.iloc[test]))
            except Exception:  # noqa: BLE001 - a failing candidate is not chosen
                scores = [-np.inf]
            self.inner_scores_[label] = float(np.mean(scores))
        self.chosen_ = max(self.inner_scores_, key=self.inner_scores_.get)
        self.best_estimator_ = clone(self.candidates[self.chosen_]).fit(X, y)
        self.classes_ = self.best_estimator_.classes_
        return self
