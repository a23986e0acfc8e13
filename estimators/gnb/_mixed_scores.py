"""Structure scores of GNB / k-GNB on mixed tables and with missing cells (MATH.md §7–§8).

The hyperedge score f(v, P) is the training log-likelihood gain of giving v the parents P
in the rooted model (:mod:`estimators.gnb._rooted`):

* v and P all continuous: the classifier's dependence CMI (Gaussian, Gaussian-copula or KDE
  pair copula, MATH.md §1). It is symmetric for pairs and is the expected gain
  ``E[ln p(x_v, x_P | y) - ln p(x_v | y) - ln p(x_P | y)]`` of the dependence model;
* v or a member of P categorical: the conditional Gaussian score
  (:class:`~estimators.scores.ConditionalGaussianScore`), directed.

**Available cases.** With missing cells, each all-continuous hyperedge is scored by the
dependence CMI fitted on the rows where v, P and y are observed (class weights the class
frequencies among those rows); fewer than ``MIN_ROWS`` complete rows, or one class only
among them, makes it ineligible (-inf). The CG score already works this way.

Values are the scores' own (``-inf`` ineligible, ``+inf`` a perfect dependence; collinear
parents are ineligible); the searchers read them through the one policy of
:mod:`estimators.learning.structure_learning`, where :func:`learn_gnb_tree` searches them.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

import numpy as np

from estimators.base.validation import UndefinedScoreError
from estimators.columns import EncodedColumns
from estimators.gnb._learn import make_score, search_tree
from estimators.scores import ConditionalGaussianScore, DiscreteCMI

__all__ = ["AvailableCaseCMI", "MixedScore", "family_score", "learn_gnb_tree"]

#: fewest complete rows for an all-continuous hyperedge with missing cells
MIN_ROWS = 5


def defined_value(score, v, parents) -> float:
    """``score(v, parents)``, with an undefined score (collinear parents) ineligible
    (-inf)."""
    try:
        return float(score(v, parents))
    except UndefinedScoreError:
        return -np.inf


class AvailableCaseCMI:
    """The dependence CMI of each hyperedge on its complete rows (see the module docstring).

    A callable ``f(v, parents)`` over column indices 0..q-1 of ``X``, with ``edge_matrix()``.
    """

    def __init__(self, dependence: str, X: np.ndarray, codes: np.ndarray,
                 bandwidth: str | float = "scott") -> None:
        self.dependence = dependence
        self.X = X
        self.codes = codes
        self.bandwidth = bandwidth
        self.variables_ = list(range(X.shape[1]))
        self._cache: dict[tuple[int, frozenset], float] = {}

    def __call__(self, v: int, parents: Iterable[int]) -> float:
        parents = frozenset(int(p) for p in parents)
        if not parents:
            return 0.0
        key = (int(v), parents)
        if key not in self._cache:
            cols = [int(v), *sorted(parents)]
            rows = ~np.isnan(self.X[:, cols]).any(axis=1)
            codes = self.codes[rows]
            if rows.sum() < MIN_ROWS or np.unique(codes).size < 2:
                self._cache[key] = -np.inf
            else:
                score = make_score(self.dependence, self.bandwidth).fit(self.X[rows][:, cols],
                                                                        codes)
                self._cache[key] = defined_value(score, 0, range(1, len(cols)))
        return self._cache[key]

    def edge_matrix(self) -> np.ndarray:
        """Symmetric matrix of the pair scores (-inf where ineligible)."""
        q = self.X.shape[1]
        W = np.zeros((q, q))
        for i in range(q):
            for j in range(i + 1, q):
                W[i, j] = W[j, i] = self(i, {j})
        return W


def family_score(dependence: str, X: np.ndarray, codes: np.ndarray,
                 bandwidth: str | float = "scott", n_jobs: int | None = None):
    """The dependence CMI over the columns of X: the usual score on complete data (today's
    numbers), :class:`AvailableCaseCMI` when X has missing cells."""
    if np.isnan(X).any():
        return AvailableCaseCMI(dependence, X, codes, bandwidth)
    return make_score(dependence, bandwidth, n_jobs).fit(X, codes)


class MixedScore:
    """The hyperedge score of the rooted mixed model over the columns ``used`` of ``enc``.

    Variables are the positions 0..len(used)-1; ``edge_matrix()`` is the directed matrix
    ``W[i, j] = f(j, {i})`` (parent i, child j).
    """

    def __init__(self, enc: EncodedColumns, codes: np.ndarray, classes: np.ndarray,
                 used: np.ndarray, dependence: str, bandwidth: str | float = "scott",
                 var_smoothing: float = 1e-9, n_jobs: int | None = None) -> None:
        self.used = np.asarray(used, dtype=int)
        self.variables_ = list(range(self.used.size))
        self.continuous = enc.continuous[self.used]
        self._cont_pos = np.cumsum(self.continuous) - 1  # position among the continuous
        cont_cols = self.used[self.continuous]
        self.family = (family_score(dependence, enc.values[:, cont_cols], codes, bandwidth,
                                    n_jobs) if cont_cols.size else None)
        self._names = list(enc.names)
        # complete, all categorical: the CG score is DiscreteCMI's plug-in CMI (tested to
        # 1e-10), whose batched contingency tables are far faster per hyperedge
        complete = enc.observed[:, self.used].all()
        self.discrete = (DiscreteCMI(n_jobs=n_jobs).fit(enc.codes[:, self.used], codes)
                         if complete and not self.continuous.any() else None)
        self.cg = (ConditionalGaussianScore(var_smoothing=var_smoothing, n_jobs=n_jobs
                                            ).fit_encoded(enc, codes, classes)
                   if self.discrete is None else None)

    def __call__(self, v: Hashable, parents: Iterable[Hashable]) -> float:
        parents = [int(p) for p in parents]
        if not parents:
            return 0.0
        if self.discrete is not None:
            return defined_value(self.discrete, int(v), set(parents))
        if self.continuous[[int(v), *parents]].all():
            pos = self._cont_pos
            return defined_value(self.family, int(pos[v]), {int(pos[p]) for p in parents})
        names = self._names
        return defined_value(self.cg, names[self.used[v]],
                             [names[self.used[p]] for p in parents])

    def edge_matrix(self) -> np.ndarray:
        """Directed pair scores ``W[i, j] = f(j, {i})``."""
        if self.discrete is not None:
            return self.discrete.edge_matrix()
        q = self.used.size
        W = np.zeros((q, q))
        ii, jj = np.nonzero(~np.eye(q, dtype=bool) & ~np.outer(self.continuous, self.continuous))
        names = [self._names[u] for u in self.used]
        W[ii, jj] = self.cg.score_many([(names[j], (names[i],)) for i, j in zip(ii, jj,
                                                                                strict=True)])
        if self.family is not None:
            c = np.flatnonzero(self.continuous)
            W[np.ix_(c, c)] = self.family.edge_matrix()
        np.fill_diagonal(W, 0.0)
        return W


def learn_gnb_tree(enc: EncodedColumns, codes: np.ndarray, classes: np.ndarray,
                   used: np.ndarray, dependence: str, bandwidth: str | float,
                   var_smoothing: float, n_jobs: int | None, *, directed: bool
                   ) -> tuple[list[tuple[int, int]], np.ndarray]:
    """The GNB tree over the columns ``used``: edges as column-index pairs in selection
    order and their weights (nats, as searched: see :mod:`estimators.learning.structure_learning`).

    ``directed=False`` (all-continuous data): ``"spanning-tree"``, Kruskal's
    maximum spanning tree of the symmetric dependence CMI, edges in Kruskal's selection
    order (paper 1 Algorithm 1; decreasing weight, ties by pair in variable order).
    ``directed=True`` (mixed data): ``"arborescence"``, the maximum spanning arborescence
    (Chu–Liu/Edmonds) of ``W[i, j] = f(j, {i})``; the edges are the arcs (mother, child) in
    decreasing order of weight (:func:`~estimators.gnb._learn.search_tree`). Every score
    is a log-likelihood gain of the rooted model over its parentless factors, so the
    arborescence is exactly the maximum-likelihood rooted tree; when f is symmetric (all
    continuous) its weight equals Kruskal's and, with distinct weights, so does its
    (undirected) tree.
    """
    if not directed:
        score = family_score(dependence, enc.values[:, used], codes, bandwidth, n_jobs)
    else:
        score = MixedScore(enc, codes, classes, used, dependence, bandwidth, var_smoothing,
                           n_jobs)
    return search_tree(score, used, directed=directed, names=[enc.names[u] for u in used])
