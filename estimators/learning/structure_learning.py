"""Structure learning, written once: a fitted hyperedge score, a registered searcher and the
classifier's constraints give the structure (issue 27).

Every structured classifier (TAN, k-TAN, GNB, k-GNB; their Dask fits) calls
:func:`learn_structure`; the searcher is looked up by name in
:data:`estimators.search.SEARCHERS`, so a searcher registered once serves them all.

**One policy for scores a search cannot use** (:class:`SearchedScore`), applied to every
value a searcher reads (hyperedges, batches, the pair matrix):

* ``-inf`` -- an *ineligible* hyperedge (too few complete rows, MATH.md §8) -- is searched
  as :data:`INELIGIBLE` (-1e12). Any structure made of eligible hyperedges outscores every
  structure with an ineligible one (scores are bounded by the entropies), so the optimum is
  unchanged whenever an eligible structure exists; when none does, the search returns the
  one with the fewest ineligible hyperedges instead of failing, and
  :attr:`StructureFit.ineligible` names them (the classifier warns);
* an *undefined* score (perfectly collinear parents: the score raises
  :class:`~estimators.base.validation.UndefinedScoreError`, a typed exception, never recognised
  by its message) is ineligible too;
* ``+inf`` -- a perfect dependence, e.g. an exact copy of a column -- is searched as
  :data:`PERFECT` (1e3 nats, more than any finite score), so directed searchers, which
  need finite weights, prefer it to any other arc and sums stay comparable.

**One policy for ties** (:mod:`estimators.search.ties`): the searcher sees the variables
sorted by name and every value snapped to a grid of relative step ``TIE_RTOL = 1e-9`` of
the largest pair score, so scores equal within that tolerance tie exactly and the names
decide -- never the column order of the table, ``PYTHONHASHSEED`` or the last bit of
rounding. The structure's score is then recomputed from the unsnapped values; it is within
``n * 2e-9 * max|W|`` of the searcher's optimum on them.

Examples
--------
>>> import numpy as np
>>> W = np.array([[0.0, 2.0, 1.0], [2.0, 0.0, -np.inf], [1.0, -np.inf, 0.0]])
>>> f = lambda v, ps: sum(W[p, v] for p in ps)
>>> fit = learn_structure(f, "spanning-tree", Constraints(k=1), variables=[0, 1, 2])
>>> sorted(fit.structure.parents(2) | fit.structure.parents(1)), fit.score, fit.ineligible
([0], 3.0, ())
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from estimators.base.validation import UndefinedScoreError
from estimators.search import canonical_order, check_backbone, search_structure, snap, tie_step
from estimators.search.candidates import restrict_search
from kgraph import ParentSets

__all__ = ["INELIGIBLE", "PERFECT", "Constraints", "Relabelled", "SearchedScore",
           "StructureFit", "is_symmetric", "learn_structure"]

#: an ineligible hyperedge (score -inf, or undefined) as the searchers see it
INELIGIBLE = -1e12
#: a perfect dependence (score +inf) as the searchers see it
PERFECT = 1e3


def searched_values(values) -> np.ndarray:
    """Score values under the policy of the module docstring (NaN is left for the
    searchers to refuse: a score must never return it); finite values are returned as
    they are (no copy)."""
    values = np.asarray(values, dtype=float)
    if np.isinf(values).any():  # only the infinities: a finite score keeps its value
        return np.where(values == np.inf, PERFECT, np.where(values == -np.inf, INELIGIBLE,
                                                             values))
    return values


class SearchedScore:
    """A fitted hyperedge score as every searcher sees it (the policy of the module
    docstring): ``f(v, parents)``, ``score_many(items)`` and ``edge_matrix()`` with
    ineligible and undefined values at :data:`INELIGIBLE` and perfect ones at
    :data:`PERFECT`.

    Parameters
    ----------
    score : callable
        The fitted score ``f(v, parents)``; ``score_many`` and ``edge_matrix`` are used when
        it has them.
    variables : sequence, optional
        Its variables (default: ``score.variables_``).

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.base.validation import UndefinedScoreError
    >>> def f(v, ps):
    ...     if len(ps) > 1:
    ...         raise UndefinedScoreError("collinear parents")
    ...     return np.inf if ps == {"b"} else (-np.inf if ps else 0.0)
    >>> g = SearchedScore(f, ["a", "b", "c"])
    >>> g("a", {"b"}), g("a", {"c"}), g("a", {"b", "c"}), g("a", set())
    (1000.0, -1000000000000.0, -1000000000000.0, 0.0)
    """

    def __init__(self, score, variables: Sequence[Hashable] | None = None) -> None:
        self.score = score
        self.variables_ = list(score.variables_ if variables is None else variables)
        self.raw_edge_matrix: np.ndarray | None = None
        #: the grid every value is snapped to once set (:mod:`estimators.search.ties`)
        self.step: float | None = None

    def _raw(self, v, parents) -> float:
        try:
            return float(self.score(v, parents))
        except UndefinedScoreError:
            return -np.inf

    def _searched(self, values):
        values = searched_values(values)
        return values if self.step is None else snap(values, self.step)

    def __call__(self, v, parents) -> float:
        return float(self._searched(self._raw(v, parents)))

    def score_positions(self, V: np.ndarray, P: np.ndarray) -> np.ndarray:
        """``f(v, P)`` of hyperedges given by positions in ``variables_`` (V (N,), P (N, j)
        each row ascending), under the policy: the wrapped score's ``score_positions``
        when it has one over the same variables (no per-hyperedge Python), else
        :meth:`score_many` on the names."""
        own = getattr(self.score, "score_positions", None)
        if callable(own) and list(getattr(self.score, "variables_", ())) == self.variables_:
            try:
                return self._searched(own(V, P))
            except UndefinedScoreError:  # one is undefined: score them one by one
                pass
        names = self.variables_
        return self.score_many([(names[v], frozenset(names[p] for p in ps))
                                for v, ps in zip(np.asarray(V).tolist(), np.asarray(P).tolist(),
                                                 strict=True)])

    def score_many(self, items) -> np.ndarray:
        """``f(v, P)`` of many items, under the policy."""
        many = getattr(self.score, "score_many", None)
        if callable(many):
            try:
                return self._searched(many(items))
            except UndefinedScoreError:  # one is undefined: score them one by one
                pass
        return self._searched([self._raw(v, p) for v, p in items])

    def edge_matrix(self) -> np.ndarray:
        """Pair scores ``W[i, j] = f(j, {i})``, under the policy (the score's own matrix,
        computed once, is kept as ``raw_edge_matrix``)."""
        pairs = getattr(self.score, "edge_matrix", None)
        if callable(pairs):
            try:
                self.raw_edge_matrix = np.asarray(pairs(), dtype=float)
                return self._searched(self.raw_edge_matrix)
            except UndefinedScoreError:  # some pair is undefined: score them one by one
                pass
        names = self.variables_
        d = len(names)
        W = np.zeros((d, d))
        for i in range(d):
            for j in range(d):
                if i != j:
                    W[i, j] = self._raw(names[j], frozenset([names[i]]))
        return self._searched(W)


class Relabelled:
    """A score over the positions ``0 .. d-1`` as a score over the names ``names``
    (``f(name, {names})``, ``edge_matrix()`` in the same order)."""

    def __init__(self, score, names: Sequence[Hashable]) -> None:
        self.score = score
        self.variables_ = list(names)
        self._position = {v: j for j, v in enumerate(self.variables_)}

    def __call__(self, v, parents) -> float:
        pos = self._position
        return self.score(pos[v], [pos[p] for p in parents])

    def edge_matrix(self) -> np.ndarray:
        """The wrapped score's pair matrix."""
        return self.score.edge_matrix()


@dataclass(frozen=True)
class Constraints:
    """What a classifier allows the structure to be.

    Attributes
    ----------
    k : int
        Tree width (parents per feature), already checked (``check_k``).
    backbone : None, str or sequence
        The backbone of ``"backbone-dp"``: a method of
        :data:`estimators.search.BACKBONE_METHODS` or a permutation of the variables.
    candidates : int or None
        Restrict each variable's parents to its top-``candidates`` partners by pair score
        (:func:`estimators.search.candidates.restrict_search`).
    search_options : mapping
        Keyword arguments of the searcher beyond the width and backbone (BAN's tabu
        length, patience, restarts and seed for ``"hill-climbing"``).
    """

    k: int = 1
    backbone: Any = None
    candidates: int | None = None
    search_options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StructureFit:
    """What structure learning hands to the classifier.

    Attributes
    ----------
    structure : kgraph.ParentSets
        The learned structure over the score's variables (the searcher's: an acyclic
        k-tree, a tree, a DAG).
    backbone : tuple or None
        The backbone the DP kept, None for the trees and greedy.
    score : float
        The objective ``sum_v f(v, pa(v))`` of ``structure`` under the fitted score itself
        (``-inf`` when an ineligible hyperedge had to be used), in nats.
    score_fn : callable
        The fitted hyperedge score ``f(v, parents)``.
    edge_matrix : ndarray
        The fitted score's pair scores ``W[parent, child] = f(child, {parent})`` (symmetric
        for a symmetric score).
    search : str
        The searcher that ran.
    certificate : object or None
        The searcher's record (:attr:`estimators.search.SearchResult.certificate`): the
        backbone DP's decomposition, hill-climbing's climb; None for the other searchers.
    candidates : dict or None
        Each variable's candidate parents when the search was restricted to them.
    searched_edge_matrix : ndarray or None
        The pair scores the search read (the policy of :class:`SearchedScore` applied).
    ineligible : tuple
        The variables whose hyperedge in ``structure`` is ineligible or undefined.
    """

    structure: ParentSets
    backbone: tuple | None
    score: float
    score_fn: Any
    edge_matrix: np.ndarray
    search: str
    certificate: Any = None
    candidates: dict | None = None
    searched_edge_matrix: np.ndarray | None = None
    ineligible: tuple = ()


def is_symmetric(W: np.ndarray) -> bool:
    """Whether the pair scores are symmetric (to the tolerance Kruskal's searcher checks)."""
    return bool(np.array_equal(W, W.T) or np.isclose(W, W.T, rtol=1e-9, atol=1e-12).all())


def learn_structure(score, searcher: str, constraints: Constraints, *,
                    variables: Sequence[Hashable] | None = None) -> StructureFit:
    """The structure maximising ``sum_v f(v, pa(v))`` found by a registered searcher.

    Parameters
    ----------
    score : callable
        A fitted hyperedge score ``f(v, parents)`` (``edge_matrix`` and ``score_many`` are
        used when it has them); searched under the policy of the module docstring.
    searcher : str
        A name of :data:`estimators.search.SEARCHERS`. ``"backbone-dp"`` without a backbone
        for ``k = 1`` is the exact maximum spanning tree: Kruskal's (``"spanning-tree"``)
        for symmetric pair scores, the maximum spanning arborescence (``"arborescence"``)
        otherwise. Backbone orders and candidate lists read symmetric pair scores: for a
        directed score each pair's better direction ``max(f(i, {j}), f(j, {i}))``.
    constraints : Constraints
        Width, backbone, candidates and the classifier's name.
    variables : sequence, optional
        The score's variables (default: ``score.variables_``).

    Returns
    -------
    StructureFit
    """
    searched = SearchedScore(score, variables)
    names = searched.variables_
    k, backbone = constraints.k, constraints.backbone
    W = searched.edge_matrix()
    raw = searched.raw_edge_matrix  # the grid of ties follows the finite pair scores
    searched.step = (tie_step(W, bounds=(INELIGIBLE, PERFECT)) if raw is None
                     else tie_step(raw))
    W = snap(W, searched.step)
    symmetric = is_symmetric(W)
    if searcher == "backbone-dp" and backbone is None and k == 1:
        searcher = "spanning-tree" if symmetric else "arborescence"
    given = isinstance(backbone, str) and backbone == "given" and searcher == "backbone-dp"
    if backbone is not None and (given or not isinstance(backbone, str)):
        # a backbone in the table's terms (column indices, "given": column order) as names
        backbone = check_backbone(names if given else backbone, names)
    canonical = canonical_order(names)  # the order ties follow
    at = {v: i for i, v in enumerate(names)}
    perm = np.array([at[v] for v in canonical], dtype=np.int64)
    pairs = W if symmetric else np.maximum(W, W.T)
    pairs = pairs[np.ix_(perm, perm)]
    restricted, backbone, chosen = restrict_search(
        searched, pairs, constraints.candidates, canonical, k=k, search=searcher,
        backbone=backbone)
    found = search_structure(searcher, restricted, canonical, k, backbone=backbone, W=pairs,
                             **constraints.search_options)
    tree = found.structure
    raw = {v: searched._raw(v, tree.parents(v)) for v in tree.order}
    matrix = W if searched.raw_edge_matrix is None else searched.raw_edge_matrix
    return StructureFit(tree, found.backbone, float(sum(raw.values())), score, matrix,
                        searcher, found.certificate, chosen, W,
                        tuple(v for v, f in raw.items() if f == -np.inf))
