"""Discrete plug-in class-conditional mutual information (MATH.md §1, paper 2).

``I(X_v; X_P | Y) = sum p(x_v, x_P, y) ln [p(x_v, x_P | y) / (p(x_v | y) p(x_P | y))]`` from the
counts, optionally smoothed by a pseudo-count ``alpha`` added to every cell of the joint table
(``K_v * prod K_p * m`` cells, unobserved parent configurations included; their contribution
is summed in closed form, so the table is never built for them).

Pair scores for many pairs come from one one-hot matrix product per class (every pair's
contingency table at once) or, when the one-hot matrix would be too large, from ONE
``np.bincount`` over combined codes ``((pair * m + y) * K + x_i) * K + x_j`` per chunk of pairs.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval

from estimators.base.parameters import ALPHA, declare
from estimators.base.validation import ValidatedData
from estimators.scores._score_base import SCORE_N_JOBS

from ._score_base import BaseCMI

__all__ = ["DiscreteCMI"]

#: number of combined codes per bincount call (bounds memory, stays cache-friendly)
CODES_PER_CALL = 1 << 17


@dataclass(eq=False)
class CodeData:
    """Payload of :class:`DiscreteCMI`: category codes, class codes, cardinalities."""

    X: np.ndarray  # (n, d) int64 codes
    y: np.ndarray  # (n,) class codes
    XT: np.ndarray  # (d, n) the codes, feature-major (contiguous rows for the pair codes)
    m: int
    K: np.ndarray  # (d,) number of categories per feature
    alpha: float

    def one_hot(self, dtype) -> np.ndarray:
        """(n, d * max K) indicator of ``X[:, v] == x`` in column ``v * max K + x`` (cached)."""
        cached = getattr(self, "_one_hot", None)
        if cached is None or cached.dtype != dtype:
            n, d = self.X.shape
            Kmax = int(self.K.max())
            cached = np.zeros((n, d * Kmax), dtype=dtype)
            cached[np.arange(n)[:, None], np.arange(d) * Kmax + self.X] = 1.0
            self._one_hot = cached
        return cached


def _log(a: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore"):
        return np.log(a)


def _xlog_ratio(N: np.ndarray, log_ratio: np.ndarray) -> np.ndarray:
    """``N * log_ratio`` with ``0 * anything = 0``."""
    return np.where(N > 0, N * np.where(N > 0, log_ratio, 0.0), 0.0)


def pair_tables(data: CodeData, pairs: np.ndarray) -> np.ndarray:
    """Smoothed count tables of shape (k, m, K, K) for the pairs (one bincount)."""
    K = int(data.K.max())
    k, m = pairs.shape[0], data.m
    cell = m * K * K
    codes = data.XT[pairs[:, 0]] * K  # (k, n)
    codes += data.XT[pairs[:, 1]]
    codes += (data.y * (K * K))[None, :] + (np.arange(k) * cell)[:, None]
    N = np.bincount(codes.ravel(), minlength=k * cell).reshape(k, m, K, K).astype(float)
    if data.alpha > 0:
        levels = np.arange(K)
        valid_i = levels[None, :] < data.K[pairs[:, 0]][:, None]  # (k, K)
        valid_j = levels[None, :] < data.K[pairs[:, 1]][:, None]
        N += data.alpha * (valid_i[:, None, :, None] & valid_j[:, None, None, :])
    return N


#: one-hot entries (rows x features x levels) up to which pair tables come from one matrix
#: product per class instead of bincount chunks (float32 one-hot: 4 bytes each)
ONE_HOT_MAX = 1 << 25


def pair_tables_matmul(data: CodeData, pairs: np.ndarray) -> np.ndarray:
    """The count tables of :func:`pair_tables` from one-hot matrix products, one per class:
    ``N_y = O_y^T O_y`` holds every pair's contingency table at once (BLAS, exact counts)."""
    K = int(data.K.max())
    feats, index = np.unique(pairs, return_inverse=True)
    index = index.reshape(pairs.shape)
    n, F = data.X.shape[0], feats.size
    dtype = np.float32 if n < (1 << 24) else np.float64  # float32 counts are exact below 2^24
    one_hot = np.zeros((n, F * K), dtype=dtype)
    one_hot[np.arange(n)[:, None], np.arange(F) * K + data.X[:, feats]] = 1.0
    N = np.empty((data.m, F, K, F, K))
    for c in range(data.m):  # loop over classes, not rows
        rows = one_hot[data.y == c]
        N[c] = (rows.T @ rows).reshape(F, K, F, K)
    tables = N[:, index[:, 0], :, index[:, 1], :]  # (k, m, K, K): the advanced axis goes first
    if data.alpha > 0:
        levels = np.arange(K)
        valid_i = levels[None, :] < data.K[pairs[:, 0]][:, None]
        valid_j = levels[None, :] < data.K[pairs[:, 1]][:, None]
        tables += data.alpha * (valid_i[:, None, :, None] & valid_j[:, None, None, :])
    return tables


def _pair_cmi(N: np.ndarray) -> np.ndarray:
    """Plug-in ``I(X_i; X_j | Y)`` from count tables of shape (k, m, K, K)."""
    Ny = N.sum(axis=(2, 3))[:, :, None, None]
    Na = N.sum(axis=3)[:, :, :, None]
    Nb = N.sum(axis=2)[:, :, None, :]
    with np.errstate(invalid="ignore"):  # -inf - -inf in empty cells, masked below
        terms = _xlog_ratio(N, _log(N) + _log(Ny) - _log(Na) - _log(Nb))
    return terms.sum(axis=(1, 2, 3)) / N.sum(axis=(1, 2, 3))


def map_pair_tables(data: CodeData, pairs: np.ndarray, reduce) -> np.ndarray:
    """``reduce(tables, pairs)`` over the count tables (k, m, K, K) of the pairs: one-hot
    matrix products when they fit in memory, else memory-bounded bincount chunks."""
    pairs = np.asarray(pairs)
    if pairs.shape[0] == 0:
        return np.zeros(0)
    K = int(data.K.max())
    if data.X.shape[0] * np.unique(pairs).size * K <= ONE_HOT_MAX:
        return reduce(pair_tables_matmul(data, pairs), pairs)
    step = max(1, CODES_PER_CALL // max(data.X.shape[0], data.m * K * K))
    out = np.empty(pairs.shape[0])
    for s in range(0, pairs.shape[0], step):  # loop over chunks of pairs, not rows
        out[s : s + step] = reduce(pair_tables(data, pairs[s : s + step]), pairs[s : s + step])
    return out


def discrete_pair_block(data: CodeData, pairs: np.ndarray) -> np.ndarray:
    """Plug-in ``I(X_i; X_j | Y)`` for each pair (see :func:`map_pair_tables`)."""
    return map_pair_tables(data, pairs, lambda N, _: _pair_cmi(N))


def _configuration_codes(data: CodeData, parents: tuple) -> np.ndarray:
    """Codes 0..nC-1 of the parent configurations observed, one per row (vectorised)."""
    sizes = [int(data.K[p]) for p in parents]
    n_configs = prod(sizes)
    if n_configs >= 2**62:  # mixed-radix codes would overflow: fall back to row-wise unique
        return np.unique(data.X[:, list(parents)], axis=0, return_inverse=True)[1].ravel()
    code = np.zeros(data.X.shape[0], dtype=np.int64)
    for p, size in zip(parents, sizes, strict=True):  # loop over parents, not rows
        code *= size
        code += data.XT[p]
    if n_configs <= 4 * code.size:
        seen = np.bincount(code, minlength=n_configs) > 0
        return (np.cumsum(seen) - 1)[code]
    return np.unique(code, return_inverse=True)[1]


def hyperedge_table(data: CodeData, v: int, parents: tuple) -> tuple[np.ndarray, float]:
    """Unsmoothed counts ``N[y, c, x_v]`` over the OBSERVED parent configurations ``c``
    (shape (m, nC, K_v)) and the number of possible configurations ``prod K_p``."""
    c = _configuration_codes(data, parents)
    nC = int(c.max()) + 1
    Kv, m = int(data.K[v]), data.m
    N = np.bincount((data.y * nC + c) * Kv + data.X[:, v], minlength=m * nC * Kv)
    return N.reshape(m, nC, Kv).astype(float), float(prod(int(data.K[p]) for p in parents))


def _hyperedge(data: CodeData, v: int, parents: tuple) -> float:
    N, n_configs = hyperedge_table(data, v, parents)
    Kv, a = int(data.K[v]), data.alpha
    nC = N.shape[1]
    N = N + a
    Ny = N.sum(axis=(1, 2)) + a * Kv * (n_configs - nC)  # (m,)
    Nya = N.sum(axis=1) + a * (n_configs - nC)  # (m, Kv)
    Nyc = N.sum(axis=2)  # (m, nC)
    with np.errstate(invalid="ignore"):  # -inf - -inf in empty cells, masked below
        log_ratio = _log(N) + _log(Ny)[:, None, None] - _log(Nya)[:, None, :] - _log(Nyc)[:, :, None]
    total = _xlog_ratio(N, log_ratio).sum()
    if a > 0:  # parent configurations never observed: each cell holds alpha
        unobserved = (n_configs - nC) * a * (_log(Ny)[:, None] - np.log(Kv) - _log(Nya)).sum()
        total += unobserved
    return float(total / Ny.sum())


#: parent sets with at most this many configurations are scored in batches
CONFIGS_MAX = 64
#: columns (parent sets x classes x configurations) of one batch's one-hot matrix
BATCH_COLUMNS = 2048


def _batch_tables(data: CodeData, parents: list[tuple], S: int) -> np.ndarray:
    """Count tables ``N[b, y, c, v, x]`` of every feature v against the configurations c of
    each parent set b (mixed-radix codes, stride S) in class y: one matrix product of the
    (configuration, class) one-hot matrix with the features' one-hot matrix."""
    n, d = data.X.shape
    Kmax = int(data.K.max())
    B, m = len(parents), data.m
    codes = np.zeros((B, n), dtype=np.int64)
    for j in range(len(parents[0])):  # loop over parent positions, not rows
        col = np.array([p[j] for p in parents])
        codes *= data.K[col][:, None]
        codes += data.XT[col]
    codes += ((np.arange(B)[:, None] * m + data.y[None, :]) * S)
    dtype = np.float32 if n < (1 << 24) else np.float64  # exact counts below 2^24
    configs = np.zeros((n, B * m * S), dtype=dtype)
    configs[np.arange(n)[None, :], codes] = 1.0
    return (configs.T @ data.one_hot(dtype)).reshape(B, m, S, d, Kmax)


def _tables_cmi(N: np.ndarray) -> np.ndarray:
    """Plug-in ``I(X_v; X_P | Y)`` from smoothed tables of shape (items, m, configs, K)."""
    Ny = N.sum(axis=(2, 3))[:, :, None, None]
    Na = N.sum(axis=2)[:, :, None, :]
    Nc = N.sum(axis=3)[:, :, :, None]
    with np.errstate(invalid="ignore"):  # -inf - -inf in empty cells, masked below
        terms = _xlog_ratio(N, _log(N) + _log(Ny) - _log(Na) - _log(Nc))
    return terms.sum(axis=(1, 2, 3)) / N.sum(axis=(1, 2, 3))


def discrete_hyperedge_block(data: CodeData, items: list) -> np.ndarray:
    """Plug-in ``I(X_v; X_P | Y)`` for each ``(v, parents)`` item.

    Items are grouped by parent set. Parent sets of the same size with at most
    ``CONFIGS_MAX`` configurations are scored in batches: one matrix product gives the
    tables of every feature against every parent set of the batch (all configurations,
    unobserved ones included, so the pseudo-count goes to exactly the cells of the joint
    table); the others one bincount per item.
    """
    out = np.empty(len(items))
    groups: dict[tuple, list[int]] = {}
    for index, (_, parents) in enumerate(items):
        groups.setdefault(parents, []).append(index)
    batched: dict[tuple[int, int], list[tuple]] = {}
    for parents in groups:
        S = prod(int(data.K[p]) for p in parents)
        if S <= CONFIGS_MAX:
            batched.setdefault((len(parents), S), []).append(parents)
        else:
            for index in groups[parents]:
                out[index] = _hyperedge(data, items[index][0], parents)
    Kmax = int(data.K.max())
    for (_, S), sets in batched.items():
        step = max(1, BATCH_COLUMNS // (data.m * S))
        for lo in range(0, len(sets), step):  # loop over batches of parent sets
            chunk = sets[lo : lo + step]
            N = _batch_tables(data, chunk, S)
            where = [groups[p] for p in chunk]
            b = np.repeat(np.arange(len(chunk)), [len(w) for w in where])
            index = np.concatenate(where)
            v = np.array([items[i][0] for i in index])
            tables = N[b, :, :, v, :].astype(float)  # (items, m, S, Kmax)
            if data.alpha > 0:
                n_configs = np.array([prod(int(data.K[p]) for p in q) for q in chunk])[b]
                ok_c = np.arange(S)[None, :] < n_configs[:, None]
                ok_x = np.arange(Kmax)[None, :] < data.K[v][:, None]
                tables += data.alpha * (ok_c[:, None, :, None] & ok_x[:, None, None, :])
            out[index] = _tables_cmi(tables)
    return out


@declare(
    ALPHA.but(default=0.0, constraints=[Interval(Real, 0, None, closed="left")], doc=(
        'Pseudo-count added to every cell of the joint table of ``(x_v, x_P, y)``; 0 '
        'gives the plain plug-in (maximum-likelihood) estimate.')),
    SCORE_N_JOBS,
)
class DiscreteCMI(BaseCMI):
    """Plug-in class-conditional mutual information of discrete features (MATH.md §1).

    Category values may be of any dtype (numbers, strings, mixed objects); they are coded per
    column. The edge matrix is fully vectorised: one ``np.bincount`` over combined codes per
    chunk of pairs.

    Attributes
    ----------
    variables_, classes_, class_prior_, constant_in_class_, n_features_in_, data_
        See :class:`BaseCMI`.
    categories_ : list of ndarray
        The category values of each feature (code ``c`` of feature ``i`` is
        ``categories_[i][c]``).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([["a", "x"], ["a", "x"], ["b", "y"], ["b", "y"],   # class 0: x follows a
    ...               ["a", "x"], ["a", "y"], ["b", "x"], ["b", "y"]])  # class 1: independent
    >>> y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    >>> cmi = DiscreteCMI().fit(X, y)
    >>> round(cmi.score(0, [1]), 4), round(0.5 * float(np.log(2)), 4)
    (0.3466, 0.3466)
    """

    #: the feature families it serves (the score protocol; :mod:`estimators.scores`)
    families = ("discrete",)
    _kind = "discrete"
    _pair_block = staticmethod(discrete_pair_block)
    _hyperedge_block = staticmethod(discrete_hyperedge_block)

    def __init__(self, *, alpha: float = 0.0, n_jobs: int | None = None):
        self.alpha = alpha
        self.n_jobs = n_jobs

    def extra_parameters(self, vi: int, parents: frozenset) -> int:
        """Free parameters that giving feature ``vi`` the parents ``parents`` (column
        indices) adds to the class-conditional CPT of ``vi``: ``m (K_v - 1)(prod K_p - 1)``."""
        K = self.data_.K
        return self.data_.m * int(K[vi] - 1) * (prod(int(K[p]) for p in parents) - 1)

    def extra_parameter_matrix(self) -> np.ndarray:
        """``extra_parameters(i, {j})`` for all pairs: ``m (K_i - 1)(K_j - 1)``, zero diagonal."""
        K1 = (self.data_.K - 1).astype(float)
        P = self.data_.m * np.outer(K1, K1)
        np.fill_diagonal(P, 0.0)
        return P

    def _fit_from_statistics(self, data) -> DiscreteCMI:
        """From the pair contingency tables merged over the partitions: the pair scores
        (a larger parent set needs the joint tables of the parents: ``ValueError``)."""
        from .partition_scores import discrete_edge_matrix, discrete_statistics  # noqa: PLC0415

        categories, classes, n_y, constant, counts = discrete_statistics(data)
        self._set_fitted(data.names, classes, n_y, constant)
        self.categories_ = categories
        self.counts_ = counts
        self.data_ = None  # no rows: pairs only, from the tables
        self._max_parents = 1
        self._edge_matrix = W = discrete_edge_matrix(counts, float(self.alpha))
        ii, jj = np.nonzero(~np.eye(len(categories), dtype=bool))
        self._cache.update(((int(i), frozenset({int(j)})), float(W[i, j]))
                           for i, j in zip(ii, jj, strict=True))
        return self

    def _prepare(self, data: ValidatedData) -> CodeData:
        self.categories_ = data.levels
        K = np.array([lev.shape[0] for lev in data.levels], dtype=np.int64)
        return CodeData(
            data.X, data.y, np.ascontiguousarray(data.X.T), int(data.classes.size), K,
            float(self.alpha),
        )
