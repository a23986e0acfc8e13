"""Structure confidence: how often each edge, parent set and direction recurs under resampling.

:class:`StructureConfidence` refits any structure learner on bootstrap resamples or on the
training parts of cross-validation folds (the analogue of bnlearn's bootstrap arc strengths)
and counts, over the resampled structures,

- each undirected edge between two variables (its *confidence*),
- each orientation ``u -> v`` of a directed structure,
- each hyperedge ``(v, parents(v))`` of a directed structure (the parent sets of a k-tree).

The learner is either an unfitted scikit-learn estimator that sets ``structure_`` (it is
cloned for every resample) or any callable ``learner(X, y) -> structure``; a structure is a
kgraph :class:`~kgraph.Structure` or a :class:`~kgraph.GraphDB`. The edges counted are the
ones between ``kind="variable"`` nodes (:func:`kgraph.store.variable_edges`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from numbers import Integral, Real
from typing import Any

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, clone
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.utils import _safe_indexing, check_random_state, resample
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from estimators.base.parameters import N_JOBS, RANDOM_STATE, REQUIRED, Parameter, declare
from kgraph import GraphDB, Structure
from kgraph._codec import sorted_mixed
from kgraph.store import variable_edges

__all__ = ["RESAMPLINGS", "StructureConfidence"]


def _bootstrap(n_rows: int, y, n_resamples: int, seeds: np.ndarray, stratify: bool):
    """Row indices of each bootstrap resample (stratified by ``y`` when asked)."""
    rows = np.arange(n_rows)
    strata = y if (stratify and y is not None) else None
    return [resample(rows, replace=True, stratify=strata, random_state=int(s)) for s in seeds]


def _cv_folds(n_rows: int, y, n_resamples: int, seeds: np.ndarray, stratify: bool):
    """Training rows of each of ``n_resamples`` shuffled (stratified) folds."""
    if n_resamples < 2:
        raise ValueError(
            f"resampling='cv' needs n_resamples >= 2 folds; got n_resamples={n_resamples}."
        )
    kind = StratifiedKFold if (stratify and y is not None) else KFold
    splitter = kind(n_splits=n_resamples, shuffle=True, random_state=int(seeds[0]))
    return [train for train, _ in splitter.split(np.zeros(n_rows), y)]


RESAMPLINGS: dict[str, Callable] = {"bootstrap": _bootstrap, "cv": _cv_folds}
"""Resampling schemes by name: ``f(n_rows, y, n_resamples, seeds, stratify) -> [row indices]``."""


def _as_graph(structure: Any) -> GraphDB:
    if isinstance(structure, Structure):
        return structure.to_graph()
    if isinstance(structure, GraphDB):
        return structure
    raise TypeError(
        "The structure learner must return a kgraph Structure or a GraphDB (or, as an "
        f"estimator, set structure_ to one); got {type(structure).__name__}."
    )


def _learn(learner: Any, X, y, rows: np.ndarray) -> Structure | GraphDB:
    Xr = _safe_indexing(X, rows)
    yr = None if y is None else _safe_indexing(y, rows)
    if hasattr(learner, "fit"):
        return clone(learner).fit(Xr, yr).structure_
    return learner(Xr, yr)


def _pair(u: Hashable, v: Hashable) -> frozenset:
    return frozenset((u, v))


@declare(
    Parameter("learner", REQUIRED, [callable, HasMethods(["fit"])], 'estimator or callable',
              'An unfitted estimator whose ``fit(X, y)`` sets ``structure_`` (cloned per '
              'resample), or a callable ``learner(X, y)`` returning a kgraph structure or'
              ' a :class:`GraphDB`.'),
    Parameter("resampling", "bootstrap", [StrOptions(set(RESAMPLINGS))], '{"bootstrap", "cv"}',
              'Bootstrap resamples of all rows, or the training parts of shuffled K '
              'folds.'),
    Parameter("n_resamples", 100, [Interval(Integral, 1, None, closed="left")], 'int',
              'Number of bootstrap resamples, or K, the number of folds.'),
    Parameter("stratify", True, ["boolean"], 'bool',
              'Keep the class proportions of ``y`` in every resample (ignored when ``y`` '
              'is None).'),
    N_JOBS.but(doc=(
        'Resamples fitted in parallel through joblib (None: one unless a joblib context '
        'says otherwise).')),
    RANDOM_STATE.but(doc=(
        'Seeds every resample; the seed of resample ``b`` is ``seeds_[b]``.')),
)
class StructureConfidence(BaseEstimator):
    """Bootstrap or cross-validation confidence of a learned structure's edges.

    Attributes
    ----------
    structures_ : list
        The structure learned on each resample.
    seeds_ : ndarray of int
        The seed of each bootstrap resample (for ``cv``: the shuffling seed, repeated).
    edge_frequencies_ : dict of frozenset -> float
        Share of resamples whose structure has the undirected edge ``{u, v}``.
    direction_frequencies_ : dict of tuple -> float
        Share of resamples whose (directed) structure has ``u -> v``; empty when every
        structure is undirected.
    hyperedge_frequencies_ : dict of tuple -> float
        Share of resamples whose (directed) structure gives ``v`` exactly the parent set
        ``parents``: keys ``(v, frozenset(parents))``; roots (no parents) are not counted.
    directed_ : bool
        Whether the structures are directed.

    Examples
    --------
    >>> import numpy as np
    >>> from estimators import GNBClassifier
    >>> from estimators.learning.structure_confidence import StructureConfidence
    >>> rng = np.random.default_rng(0)
    >>> a = rng.normal(size=400)
    >>> X = np.c_[a, a + 0.3 * rng.normal(size=400), rng.normal(size=(400, 2))]
    >>> y = (rng.random(400) < 0.5).astype(int)
    >>> conf = StructureConfidence(GNBClassifier(), n_resamples=20, random_state=0).fit(X, y)
    >>> conf.edge_frequencies_[frozenset({"x0", "x1"})]
    1.0
    >>> sorted(conf.averaged_structure(0.9).edges())
    [('x0', 'x1')]
    """

    def __init__(self, learner, *, resampling: str = "bootstrap", n_resamples: int = 100,
                 stratify: bool = True, n_jobs: int | None = None, random_state=None) -> None:
        self.learner = learner
        self.resampling = resampling
        self.n_resamples = n_resamples
        self.stratify = stratify
        self.n_jobs = n_jobs
        self.random_state = random_state

    def fit(self, X, y=None) -> StructureConfidence:
        """Learn one structure per resample of ``(X, y)`` and count what recurs."""
        self._validate_params()
        n_rows = len(X)
        if y is not None and len(y) != n_rows:
            raise ValueError(f"X has {n_rows} rows but y has {len(y)}; they must be equal.")
        rng = check_random_state(self.random_state)
        seeds = rng.randint(np.iinfo(np.int32).max, size=self.n_resamples)
        rows = RESAMPLINGS[self.resampling](n_rows, y, self.n_resamples, seeds, self.stratify)
        self.seeds_ = seeds if self.resampling == "bootstrap" else np.repeat(seeds[:1], len(rows))
        self.structures_ = Parallel(n_jobs=self.n_jobs)(
            delayed(_learn)(self.learner, X, y, r) for r in rows)
        self._count([_as_graph(s) for s in self.structures_])
        return self

    def _count(self, graphs: list[GraphDB]) -> None:
        edges: Counter = Counter()
        directions: Counter = Counter()
        hyperedges: Counter = Counter()
        self.directed_ = any(g.directed for g in graphs)
        for g in graphs:
            found = variable_edges(g)
            edges.update({_pair(u, v) for u, v in found})
            if g.directed:
                directions.update(set(found))
                parents: dict[Hashable, set] = {}
                for u, v in found:
                    parents.setdefault(v, set()).add(u)
                hyperedges.update((v, frozenset(ps)) for v, ps in parents.items())
        n = len(graphs)
        self.edge_frequencies_ = {e: c / n for e, c in edges.items()}
        self.direction_frequencies_ = {e: c / n for e, c in directions.items()}
        self.hyperedge_frequencies_ = {e: c / n for e, c in hyperedges.items()}

    def confidence(self, u: Hashable, v: Hashable) -> float:
        """The frequency of the undirected edge ``u - v`` (0.0 if never learned)."""
        check_is_fitted(self, "edge_frequencies_")
        return self.edge_frequencies_.get(_pair(u, v), 0.0)

    def annotate(self, structure: Structure | GraphDB) -> GraphDB:
        """A copy of the structure's graph with ``confidence`` (and, for directed graphs,
        ``direction``: the share of resamples orienting the edge this way) on every edge
        between variables."""
        check_is_fitted(self, "edge_frequencies_")
        graph = _as_graph(structure).copy()
        for u, v in variable_edges(graph):
            graph.set_edge_attrs(u, v, confidence=self.confidence(u, v))
            if graph.directed:
                graph.set_edge_attrs(u, v, direction=self.direction_frequencies_.get((u, v), 0.0))
        return graph

    def averaged_structure(self, threshold: float = 0.5) -> GraphDB:
        """The edges whose confidence is at least ``threshold``, each with ``confidence``.

        For directed structures the graph is directed and each edge takes the orientation
        learned more often (ties: the order of the variables), with ``direction`` the share
        of resamples orienting it so. Every variable ever learned is a node. The result
        need not be a tree or a k-tree: it is a summary, not a model.
        """
        check_is_fitted(self, "edge_frequencies_")
        if not isinstance(threshold, Real) or not 0 <= threshold <= 1:
            raise ValueError(f"threshold must be a number in [0, 1]; got {threshold!r}.")
        out = GraphDB(directed=self.directed_, attrs={"resampling": self.resampling,
                                                      "n_resamples": len(self.structures_),
                                                      "threshold": float(threshold)})
        variables = sorted_mixed({v for e in self.edge_frequencies_ for v in e})
        out.add_nodes_from((v, {"kind": "variable"}) for v in variables)
        ranked = sorted(self.edge_frequencies_.items(),
                        key=lambda item: (-item[1], sorted_mixed(item[0])))
        for edge, freq in ranked:
            if freq < threshold:
                continue
            u, v = sorted_mixed(edge)
            attrs = {"confidence": freq}
            if self.directed_:
                fwd = self.direction_frequencies_.get((u, v), 0.0)
                back = self.direction_frequencies_.get((v, u), 0.0)
                if back > fwd:
                    u, v, fwd = v, u, back
                attrs["direction"] = fwd / freq
            out.add_edge(u, v, kind="averaged", **attrs)
        return out
