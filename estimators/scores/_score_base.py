"""The common base of the hyperedge scores: fit, cached scoring, edge matrix, parallel blocks.

A fitted score is a callable ``score(v, parents) -> float`` returning the class-conditional
mutual information ``I(X_v; X_parents | Y)`` in nats (MATH.md §1). Subclasses supply three
pieces: ``_prepare`` (turn validated data into a picklable payload, once, in ``fit``) and two
module-level block functions, ``_pair_block(data, pairs)`` for one-parent scores and
``_hyperedge_block(data, items)`` for larger parent sets. Everything else -- validation, the
variable-name mapping, the hyperedge cache, chunked joblib dispatch, NaN checks -- lives here.
"""

from __future__ import annotations

from abc import ABCMeta, abstractmethod
from collections.abc import Hashable, Iterable, Sequence

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from estimators.base.parameters import N_JOBS
from estimators.base.user_warnings import named_errors
from estimators.base.validation import (
    UndefinedScoreError,
    ValidatedData,
    check_features_target,
    within_class_constant,
)
from estimators.stats.engine import partition_dispatch
from estimators.stats.partitions import Partitions

from ._parallel import run_chunked

__all__ = ["BaseCMI"]


#: the ``n_jobs`` of every score
SCORE_N_JOBS = N_JOBS.but(doc=("joblib workers for blocks of pairs / hyperedges (``None``: the "
                                 "active joblib config)."))


class BaseCMI(BaseEstimator, metaclass=ABCMeta):
    """Base class of the class-conditional mutual-information hyperedge scores.

    Not used directly; see :class:`GaussianCMI`, :class:`GaussianCopulaCMI`,
    :class:`KDECopulaCMI` and :class:`DiscreteCMI`.

    Attributes (after ``fit``)
    --------------------------
    variables_ : list
        Variable names (pandas column names, else ``0 .. d-1``).
    classes_ : ndarray of shape (m,)
        The class labels.
    class_prior_ : ndarray of shape (m,)
        Empirical class frequencies ``p(y)``.
    constant_in_class_ : ndarray of bool, shape (m, d)
        Features constant within a class (they contribute no dependence in that class).
    n_features_in_ : int
    data_ : object
        The prepared payload handed to every parallel task; pass it to
        ``joblib.parallel_config(backend="dask", scatter=[score.data_])`` to ship it once.

    Examples
    --------
    Every CMI score derives from it, so all share ``fit``, ``score`` and ``edge_matrix``:

    >>> import numpy as np
    >>> from estimators.scores import BaseCMI, GaussianCMI
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 3))
    >>> X[:, 1] += X[:, 0]  # features 0 and 1 depend on each other in both classes
    >>> f = GaussianCMI().fit(X, rng.integers(0, 2, 300))
    >>> isinstance(f, BaseCMI), f.variables_, f.constant_in_class_.shape
    (True, [0, 1, 2], (2, 3))
    >>> W = f.edge_matrix()
    >>> bool(W[0, 1] > W[0, 2]), bool(np.isclose(W[0, 1], f.score(1, {0})))
    (True, True)
    """

    #: what a score subclass (a plug-in) extends; kgraph's own scores declare theirs
    _parameter_constraints: dict = {"n_jobs": SCORE_N_JOBS.constraints}
    #: "numeric" or "discrete": how ``fit`` validates X
    _kind = "numeric"
    #: largest parent-set size supported (None = any)
    _max_parents: int | None = None

    # -- subclass hooks -------------------------------------------------------------------
    @abstractmethod
    def _prepare(self, data: ValidatedData) -> object:
        ...

    _pair_block = None  # staticmethod(data, pairs: ndarray (k, 2) with i < j) -> ndarray (k,)
    _hyperedge_block = None  # staticmethod(data, items: list[(v, tuple)]) -> ndarray
    _dense_pairs = None  # optional staticmethod(data) -> (d, d) pair scores, equal to _pair_block's

    # -- fitting --------------------------------------------------------------------------
    @partition_dispatch()
    def fit(self, X, y=None):
        """Validate the data and precompute what the scores need.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features), or Partitions
            The features; or :class:`~estimators.stats.partitions.Partitions` of ``(X, y)``
            (``y`` None), e.g. ``estimators.distributed.collect(X, y)`` of a Dask DataFrame,
            for the scores that fit from additive statistics.
        y : array-like of shape (n_samples,)
            Class labels (at least two classes).

        Returns
        -------
        self
        """
        self._validate_params()
        name = type(self).__name__
        with named_errors(name):
            data = check_features_target(X, y, kind=self._kind)
        constant = within_class_constant(data.X, data.y, data.classes, data.names, owner=name)
        counts = np.bincount(data.y, minlength=data.classes.size)
        self._set_fitted(data.names, data.classes, counts, constant)
        self.data_ = self._prepare(data)
        return self

    def _fit_statistics(self, data: Partitions):
        """Fit from :class:`~estimators.stats.partitions.Partitions` (e.g. a Dask
        DataFrame through ``estimators.distributed.collect``) by the class's own
        ``_fit_from_statistics``: a score whose values are functions of additive statistics
        defines it in its class body (a subclass with another formula does not inherit it);
        the others raise a ``TypeError`` naming those that can. The engine is chosen by
        :func:`estimators.stats.engine.partition_dispatch`."""
        self._validate_params()
        if "_fit_from_statistics" not in type(self).__dict__:
            able = sorted({c.__name__ for c in _subclasses(BaseCMI)
                           if "_fit_from_statistics" in c.__dict__})
            raise TypeError(f"{type(self).__name__} cannot be fitted from partition statistics "
                            f"(a Dask collection); the scores that can are {able}. Compute a "
                            "sample into memory for the others.")
        return self._fit_from_statistics(data.with_owner(type(self).__name__))

    def _set_fitted(self, names, classes, counts, constant) -> None:
        """The fitted attributes every score shares (``data_`` is set by the caller)."""
        self.variables_ = list(names)
        self.classes_ = classes
        self.n_features_in_ = len(self.variables_)
        self.class_prior_ = np.asarray(counts) / np.sum(counts)
        self.constant_in_class_ = constant
        self._index = {v: i for i, v in enumerate(self.variables_)}
        self._cache: dict[tuple[int, frozenset], float] = {}
        #: per subset or parent count: the values of score_positions by integer key (a dense
        #: array, or sorted keys where the key space is large; scores._positions.cached)
        self._position_cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._edge_matrix = None

    # -- scoring --------------------------------------------------------------------------
    def _resolve(self, v: Hashable, parents: Iterable[Hashable]) -> tuple[int, frozenset]:
        try:
            vi = self._index[v]
            pset = frozenset(self._index[p] for p in parents)
        except KeyError as exc:
            raise ValueError(
                f"{type(self).__name__}: unknown variable {exc.args[0]!r}; the fitted "
                f"variables are {self.variables_}."
            ) from None
        if vi in pset:
            raise ValueError(
                f"{type(self).__name__}: variable {v!r} cannot be its own parent."
            )
        if self._max_parents is not None and len(pset) > self._max_parents:
            raise ValueError(
                f"{type(self).__name__} supports at most {self._max_parents} parent(s); "
                f"got {len(pset)} parents for variable {v!r}."
            )
        return vi, pset

    def score(self, v: Hashable, parents: Iterable[Hashable]) -> float:
        """Class-conditional mutual information ``I(X_v; X_parents | Y)`` in nats.

        Parameters
        ----------
        v : hashable
            A variable name.
        parents : iterable of hashable
            Variable names (a frozenset, tuple, ...); empty gives 0.0.

        Returns
        -------
        float
        """
        return float(self.score_many([(v, parents)])[0])

    __call__ = score

    def score_many(self, items: Iterable[tuple[Hashable, Iterable[Hashable]]]) -> np.ndarray:
        """Score many hyperedges at once, in parallel chunks, through the cache.

        Parameters
        ----------
        items : iterable of (v, parents)

        Returns
        -------
        ndarray of shape (len(items),)
            ``I(X_v; X_parents | Y)`` for each item, in nats.

        Raises
        ------
        ValueError
            If a score comes out NaN (e.g. perfectly collinear parents in a Gaussian score).
        """
        check_is_fitted(self, "data_")
        keys = [self._resolve(v, p) for v, p in items]
        todo = list(dict.fromkeys(k for k in keys if k not in self._cache and k[1]))
        if todo:
            self._compute(todo)
        return np.array([self._cache[k] if k[1] else 0.0 for k in keys], dtype=float)

    def _compute(self, todo: list[tuple[int, frozenset]]) -> None:
        """Score the uncached hyperedges ``todo`` and store them in the cache."""
        pairs = [k for k in todo if len(k[1]) == 1]
        bigger = [k for k in todo if len(k[1]) > 1]
        if pairs:
            idx = np.array([sorted((v, next(iter(p)))) for v, p in pairs], dtype=np.int64)
            self._store(pairs, run_chunked(type(self)._pair_block, self.data_, idx, self.n_jobs))
        if bigger:
            work = [(v, tuple(sorted(p))) for v, p in bigger]
            vals = run_chunked(type(self)._hyperedge_block, self.data_, work, self.n_jobs)
            self._store(bigger, vals)

    def _store(self, keys: Sequence[tuple[int, frozenset]], values: np.ndarray) -> None:
        bad = np.flatnonzero(np.isnan(values))
        if bad.size:
            v, p = keys[bad[0]]
            names = sorted((self.variables_[i] for i in p), key=str)
            raise UndefinedScoreError(
                f"{type(self).__name__}: the score of variable {self.variables_[v]!r} with "
                f"parents {names} is NaN (e.g. perfectly collinear parents); only finite or "
                "+inf scores are accepted."
            )
        self._cache.update(zip(keys, values.tolist(), strict=True))

    def edge_matrix(self) -> np.ndarray:
        """The symmetric matrix of pair scores ``I(X_i; X_j | Y)`` (zero diagonal).

        Computed once, in parallel chunks of pairs, then cached (a copy is returned).

        Returns
        -------
        ndarray of shape (n_features, n_features)
        """
        check_is_fitted(self, "data_")
        dense = type(self)._dense_pairs
        if self._edge_matrix is None and dense is not None:
            W = dense(self.data_)  # whole-matrix arithmetic: no (pairs, 2) index arrays
            if not np.isnan(W).any():
                self._edge_matrix = W
        if self._edge_matrix is None:
            d = self.n_features_in_
            iu, ju = np.triu_indices(d, k=1)
            pairs = np.column_stack([iu, ju]).astype(np.int64)
            vals = run_chunked(type(self)._pair_block, self.data_, pairs, self.n_jobs)
            if np.isnan(vals).any():
                k = int(np.flatnonzero(np.isnan(vals))[0])
                self._store([(int(iu[k]), frozenset({int(ju[k])}))], vals[k : k + 1])
            W = np.zeros((d, d))
            W[iu, ju] = vals
            W[ju, iu] = vals
            self._edge_matrix = W
        return self._edge_matrix.copy()


def _subclasses(cls) -> list:
    out = []
    for sub in cls.__subclasses__():
        out += [sub, *_subclasses(sub)]
    return out
