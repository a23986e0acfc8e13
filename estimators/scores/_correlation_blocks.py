"""The Gaussian closed form on per-class correlation matrices, for blocks of hyperedges
(MATH.md §1): the functions behind :class:`~estimators.scores.GaussianCMI` and
:class:`~estimators.scores.GaussianCopulaCMI`.

    I(X_v; X_P | Y) = 1/2 sum_y p(y) [ln det R_{P|y} - ln det R_{vP|y}]

``ln det`` is the sum of the logs of the eigenvalues (``-inf`` when the smallest is at most
:data:`SINGULAR_TOL`); parents collinear within a class give ``-1/2 ln(1 - R^2)`` there
(:func:`_collinear_parents`).

Two entry points give the same numbers, bit for bit: :func:`gaussian_hyperedge_block` on a
list of items ``(v, parents)``, and :func:`correlation_positions` on arrays of positions
(the searchers' bulk work, e.g. the backbone DP's 1.95 M hyperedges of a 3-tree over 60
variables), which computes the log-determinant of each parent set once (it is shared by
up to d - j hyperedges) and caches the values by integer keys: no Python per hyperedge.
The log-determinant of ``(v, P)`` is computed for each hyperedge, in the row order
``v, P`` of the item path, so that every value is the one that path gives.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np

from estimators.scores._parallel import run_chunked
from estimators.scores._positions import KEY_LIMIT, cached, subset_rank

__all__ = ["SINGULAR_TOL", "CorrelationData", "correlation_positions",
           "gaussian_hyperedge_block", "gaussian_pair_block"]

#: eigenvalues of a correlation sub-matrix below this count as zero (singular: ln det = -inf)
SINGULAR_TOL = 1e-12
#: hyperedges per batched eigen-decomposition (bounds the (m, batch, s, s) copies)
EIGEN_BATCH = 1 << 15


@dataclass(eq=False)
class CorrelationData:
    """Payload of the Gaussian scores: per-class correlations and class weights."""

    R: np.ndarray  # (m, d, d)
    prior: np.ndarray  # (m,)


def gaussian_pair_block(data: CorrelationData, pairs: np.ndarray) -> np.ndarray:
    """``-1/2 sum_y p(y) ln(1 - r_y^2)`` for each pair (rows of ``pairs``)."""
    r = data.R[:, pairs[:, 0], pairs[:, 1]]  # (m, k)
    with np.errstate(divide="ignore"):
        return -0.5 * (data.prior[:, None] * np.log1p(-(r * r))).sum(axis=0)


def _logdet(S: np.ndarray) -> np.ndarray:
    """ln det of a batch of correlation matrices; -inf when (numerically) singular."""
    ev = np.linalg.eigvalsh(S)
    with np.errstate(divide="ignore"):
        return np.where(ev.min(axis=-1) > SINGULAR_TOL, np.log(np.abs(ev)).sum(axis=-1), -np.inf)


def _closed_form(data: CorrelationData, idx: np.ndarray,
                 ld_parents: np.ndarray | None = None) -> np.ndarray:
    """The closed form for each row ``(v, *P)`` of ``idx`` (one parent count), in batches
    of :data:`EIGEN_BATCH`; ``ld_parents`` (n, m): the parents' log-determinants when known
    (else computed from the rows' own sub-matrices: the same numbers)."""
    out = np.empty(len(idx))
    for a in range(0, len(idx), EIGEN_BATCH):
        rows = idx[a:a + EIGEN_BATCH]
        sub = data.R[:, rows[:, :, None], rows[:, None, :]]  # (m, b, s+1, s+1)
        ld_p = (_logdet(sub[:, :, 1:, 1:]) if ld_parents is None
                else ld_parents[a:a + EIGEN_BATCH].T)
        with np.errstate(invalid="ignore"):
            per_class = 0.5 * (ld_p - _logdet(sub))
        bad = np.isnan(per_class)  # parents singular in that class (collinear)
        if bad.any():
            per_class[bad] = _collinear_parents(sub[bad])
        out[a:a + EIGEN_BATCH] = (data.prior[:, None] * per_class).sum(axis=0)
    return out


def gaussian_hyperedge_block(data: CorrelationData, items: list) -> np.ndarray:
    """The closed form for each ``(v, parents)`` item, batched by parent-set size."""
    out = np.empty(len(items))
    sizes = np.array([len(p) for _, p in items])
    for s in np.unique(sizes):  # batched eigen-decompositions per size
        sel = np.flatnonzero(sizes == s)
        idx = np.array([(items[k][0], *items[k][1]) for k in sel], dtype=np.int64)
        out[sel] = _closed_form(data, idx)
    return out


def _collinear_parents(S: np.ndarray) -> np.ndarray:
    """``I(X_v; X_P) = -1/2 ln(1 - R^2)`` for correlation matrices ``S`` (b, s+1, s+1) of
    (v, P) whose parent block is singular: R^2 = r^T R_PP^+ r, the squared multiple
    correlation of v on the span of P (the pseudo-inverse is the minimum-norm least-squares
    regression), so collinear parents give the information of their independent part and
    a v inside that span gives +inf.

    Examples
    --------
    >>> import numpy as np
    >>> S = np.array([[[1.0, 0.6, 0.6], [0.6, 1.0, 1.0], [0.6, 1.0, 1.0]]])  # P = two copies
    >>> bool(np.isclose(_collinear_parents(S)[0], -0.5 * np.log(1 - 0.6**2)))
    True
    """
    r, R = S[:, 0, 1:], S[:, 1:, 1:]
    r2 = np.einsum("bi,bij,bj->b", r, np.linalg.pinv(R, rtol=SINGULAR_TOL, hermitian=True), r)
    with np.errstate(divide="ignore"):
        return -0.5 * np.log1p(-np.clip(r2, 0.0, 1.0))


@dataclass(frozen=True)
class _Rows:
    """Hyperedge rows ``(v, *P)`` and their parents' log-determinants (n, m), sliced
    together (the chunks of :func:`~estimators.scores._parallel.run_chunked`)."""

    idx: np.ndarray
    ld_parents: np.ndarray

    def __len__(self) -> int:
        return len(self.idx)

    def __getitem__(self, index) -> _Rows:
        return _Rows(self.idx[index], self.ld_parents[index])


def _rows_block(data: CorrelationData, rows: _Rows) -> np.ndarray:
    return _closed_form(data, rows.idx, rows.ld_parents)


def _parents_block(data: CorrelationData, P: np.ndarray) -> np.ndarray:
    """The log-determinants (n, m) of the parent sets (rows of ``P``, ascending)."""
    out = np.empty((len(P), data.R.shape[0]))
    for a in range(0, len(P), EIGEN_BATCH):
        rows = P[a:a + EIGEN_BATCH]
        out[a:a + EIGEN_BATCH] = _logdet(data.R[:, rows[:, :, None], rows[:, None, :]]).T
    return out


def correlation_positions(data: CorrelationData, V: np.ndarray, P: np.ndarray, cache: dict,
                          n_jobs: int | None = None) -> np.ndarray:
    """The closed form of hyperedges ``(V[i], P[i])`` (positions; P (N, j) with ascending
    rows, ``j >= 1``), equal bit for bit to :func:`gaussian_hyperedge_block` (one parent:
    :func:`gaussian_pair_block`, as the item path scores pairs).

    ``cache`` (a dict owned by the fitted score) keeps the hyperedges' values (key ``j``)
    and each parent set's log-determinants (key ``("parents", j)``), indexed by the colex rank of P (times d, plus v): a parent set's
    eigen-decomposition is made once however many hyperedges share it, and a hyperedge
    asked again is looked up.

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[[1.0, 0.5, 0.2], [0.5, 1.0, 0.1], [0.2, 0.1, 1.0]]])
    >>> data, cache = CorrelationData(R, np.array([1.0])), {}
    >>> vals = correlation_positions(data, np.array([0, 2]), np.array([[1, 2], [0, 1]]), cache)
    >>> bool(np.array_equal(vals, gaussian_hyperedge_block(data, [(0, (1, 2)), (2, (0, 1))])))
    True
    """
    j = P.shape[1]
    if j == 1:
        return run_chunked(gaussian_pair_block, data, np.sort(np.column_stack([V, P]), axis=1),
                           n_jobs)
    idx = np.column_stack([V, P])
    d = data.R.shape[1]
    if comb(d, j) * d >= KEY_LIMIT:  # ranks would overflow: nothing cached
        return run_chunked(_rows_block, data, _Rows(idx, run_chunked(_parents_block, data, P,
                                                                     n_jobs)), n_jobs)
    rank, n_sets = subset_rank(P, d)

    def parents(rows: np.ndarray) -> np.ndarray:
        return run_chunked(_parents_block, data, P[rows], n_jobs)

    def compute(rows: np.ndarray) -> np.ndarray:
        every = rows.size == len(V)  # all of them (rows is 0 .. N-1): no copies
        ld = cached(cache, ("parents", j), rank if every else rank[rows],
                    lambda sub: parents(sub if every else rows[sub]), n_sets)
        return run_chunked(_rows_block, data, _Rows(idx if every else idx[rows], ld), n_jobs)

    return cached(cache, j, rank * d + V, compute, n_sets * d)
