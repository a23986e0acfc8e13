"""The seam between the k-TAN classifiers and the scores/searchers of :mod:`estimators`.

Everything the classifiers know about structure learning goes through
:func:`learn_structure`: it fits the class-conditional mutual-information score of the
model family (plug-in :class:`~estimators.scores.DiscreteCMI` for discrete features,
:class:`~estimators.scores.GaussianCMI` for Gaussian ones) and runs the searcher registered
under ``search`` in :data:`estimators.search.SEARCHERS` (see
:func:`estimators.search.search_structure`):

* ``"backbone-dp"``: the exact maximum-score acyclic k-tree containing the backbone path
  (``backbone=None`` means the exact maximum spanning tree for ``k = 1`` and ``"mst-dfs"``
  for ``k >= 2``; a backbone method name is resolved by
  :func:`~estimators.search.resolve_backbone`);
* ``"greedy"``: the backbone-free greedy k-tree (heuristic);
* ``"spanning-tree"``: the maximum spanning tree of the CMI matrix (``k = 1``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from estimators.scores import make_score
from estimators.search import search_structure
from estimators.search.candidates import restrict_search
from kgraph import AcyclicKTree


@dataclass(frozen=True)
class StructureFit:
    """What structure learning hands to the classifier.

    Attributes
    ----------
    structure : AcyclicKTree
        The learned k-tree over the feature names.
    backbone : tuple or None
        The backbone the DP kept (feature names), None for the spanning tree and greedy.
    score : float
        The objective ``sum_v I(X_v; X_pa(v) | Y)`` of ``structure``, in nats.
    score_fn : callable
        The fitted hyperedge score ``f(name, frozenset_of_names)``.
    edge_matrix : ndarray
        The d x d matrix of pair scores ``I(X_i; X_j | Y)``.
    certificate : PBKT or None
        The backbone DP's certificate (its decomposition), None for the other searchers.
    candidates : dict or None
        Each feature's candidate parents when the search was restricted to them.
    """

    structure: AcyclicKTree
    backbone: tuple | None
    score: float
    score_fn: Any
    edge_matrix: np.ndarray
    certificate: Any = None
    candidates: dict | None = None


class ConstantAwareScore:
    """A fitted score over the non-constant features, answering for all features.

    The scores refuse constant columns (they carry no information), but a classifier must
    accept them (e.g. ``veil_type`` of the mushroom data, or a column constant in one CV
    fold). Since ``I(X_v; X_P | Y) = 0`` for a constant ``X_v`` and a constant parent adds
    nothing to ``X_P``, this wrapper returns 0 for a constant ``v`` and drops constant
    parents before asking the fitted score. It is a callable hyperedge score like the
    ones it wraps.

    Parameters
    ----------
    score : fitted score
        Fitted on the non-constant columns.
    names : sequence of str
        All feature names.
    constant : set of str
        The constant features.
    """

    def __init__(self, score, names: Sequence[str], constant: set[str]):
        self.score = score
        self.variables_ = list(names)
        self.constant = set(constant)

    def __call__(self, v, parents) -> float:
        if v in self.constant:
            return 0.0
        return float(self.score(v, frozenset(p for p in parents if p not in self.constant)))

    def score_many(self, items) -> np.ndarray:
        """Score many ``(v, parents)`` items."""
        return np.array([self(v, p) for v, p in items], dtype=float)

    def edge_matrix(self) -> np.ndarray:
        """Pair scores of all features (zero rows and columns for constant features)."""
        keep = [j for j, v in enumerate(self.variables_) if v not in self.constant]
        W = np.zeros((len(self.variables_), len(self.variables_)))
        W[np.ix_(keep, keep)] = self.score.edge_matrix()
        return W


def fit_score(
    data: np.ndarray, y_codes: np.ndarray, names: Sequence[str], family: str, score: str = "cmi"
):
    """The fitted score ``score`` (a name of :data:`estimators.scores.SCORES`) of the family,
    with the feature names as variable names.

    Constant columns are left out of the fitted score and answered by
    :class:`ConstantAwareScore`.
    """
    frame = pd.DataFrame(data, columns=list(names))
    constant = [v for v in names if frame[v].nunique() < 2]
    score = make_score(score, family)
    if not constant:
        return score.fit(frame, y_codes)
    varying = frame.drop(columns=constant)
    if varying.shape[1] == 0:  # nothing to score: every hyperedge is 0
        return ConstantAwareScore(_ZeroScore(), names, set(names))
    return ConstantAwareScore(score.fit(varying, y_codes), names, set(constant))


class _ZeroScore:
    """The score of a data set without any varying column."""

    def __call__(self, v, parents) -> float:
        return 0.0

    def edge_matrix(self) -> np.ndarray:
        return np.zeros((0, 0))


def learn_structure(
    data: np.ndarray,
    y_codes: np.ndarray,
    names: Sequence[str],
    family: str,
    *,
    k: int,
    search: str,
    backbone: str | Sequence | None,
    estimator: str,
    candidates: int | None = None,
    score: str = "cmi",
) -> StructureFit:
    """Fit the score of ``family`` and search the k-tree as described in the module docstring.

    Parameters
    ----------
    data : ndarray of shape (n_samples, n_features)
        Integer codes (discrete) or floats (Gaussian).
    y_codes : ndarray of shape (n_samples,)
        Class codes.
    names : sequence of str
        Feature names (the vertices of the structure).
    family : {"discrete", "gaussian"}
        Which CMI score to fit.
    k : int
        Tree width, ``1 <= k < n_features``.
    search : str
        A searcher of :data:`estimators.search.SEARCHERS`.
    backbone : None, {"given", "mst-dfs", "greedy-path"} or sequence of features
        The backbone of ``"backbone-dp"``.
    estimator : str
        Class name for error messages.
    candidates : int, optional
        Restrict parents to each feature's top-m partners (:class:`CandidateScore`).
    score : str, default="cmi"
        Name of the hyperedge score in :data:`estimators.scores.SCORES`.

    Returns
    -------
    StructureFit
    """
    names = list(names)
    score = fit_score(data, y_codes, names, family, score)
    W = np.asarray(score.edge_matrix(), dtype=float)
    searched, backbone, chosen = restrict_search(score, W, candidates, names, k=k, search=search,
                                                 backbone=backbone, owner=estimator)
    found = search_structure(search, searched, names, k, backbone=backbone, W=W,
                             owner=estimator)
    return StructureFit(found.structure, found.backbone, found.score, score, W,
                        found.certificate, chosen)
