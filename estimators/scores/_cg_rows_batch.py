"""The row path of the conditional Gaussian score, batched over hyperedges.

For the hyperedges whose cells are too degenerate for moments combined from cell statistics
(:mod:`estimators.scores._cg_batch`, "Precision": exactly collinear or constant cells,
where the variance floor decides and the rounding of the moments shows at 1e-8), this
repeats what the row path (:func:`~estimators.network.fitting.fit_cg_factor` per
hyperedge) does -- two-pass moments by ``np.bincount`` over each hyperedge's complete rows
in row order, the same pooling and regressions
(:func:`~estimators.stats.gaussian.regression_cells`) and per-row log densities -- for
many hyperedges in one pass: the rows of hyperedge h go to bins of their
own, so every per-bin sum adds the same numbers in the same order as the row path does.
"""

from __future__ import annotations

import numpy as np

from estimators.network.fitting import log_cpt_table as _cpt
from estimators.stats.cell_statistics import CellStats
from estimators.stats.gaussian import (
    gaussian_cells,
    gaussian_log_joint,
    normal_log_density,
    regression_cells,
)
from estimators.stats.moments import grouped_moments

__all__ = ["gains_on_rows", "row_path_key"]


def _scale(glob: CellStats) -> np.ndarray:
    """Each hyperedge's column variances over its rows, 1 where 0 (shape (H, p)), from its
    global moments (their diagonal: the same sums as computing the variances apart)."""
    var = np.diagonal(glob.M, axis1=1, axis2=2) / np.maximum(glob.n, 1.0)[:, None]
    return np.where(var > 0, var, 1.0)


def _logsumexp_rows(a: np.ndarray) -> np.ndarray:
    """``scipy.special.logsumexp(a, axis=1)`` by scipy's own steps (the maxima taken out of
    the sum, ``log1p`` of the rest over their number), bit for bit, without its per-call
    array-API overhead (a third of the time here); rows with a finite entry."""
    K = a.shape[1]
    if 1 < K < 8:  # column by column: numpy reduces fewer than 8 entries in index order
        cols = [a[:, k] for k in range(K)]
        top = cols[0]
        for c in cols[1:]:
            top = np.maximum(top, c)
        m = np.zeros(a.shape[0])
        s = np.zeros(a.shape[0])
        with np.errstate(invalid="ignore"):
            for c in cols:
                is_max = c == top
                m += is_max
                s += np.exp(np.where(is_max, -np.inf, c) - top)
        s = np.where(s == 0, s, s / m)
        return np.log1p(s) + np.log(m) + top
    top = a.max(axis=1, keepdims=True)
    is_max = a == top
    m = is_max.sum(axis=1, keepdims=True, dtype=float)
    with np.errstate(invalid="ignore"):
        s = np.exp(np.where(is_max, -np.inf, a) - top).sum(axis=1, keepdims=True)
    s = np.where(s == 0, s, s / m)
    return (np.log1p(s) + np.log(m) + top)[:, 0]


def _mean_per(values: np.ndarray, hh: np.ndarray, H: int) -> np.ndarray:
    """``np.mean`` of each hyperedge's rows (pairwise sums, as the row path)."""
    cuts = np.searchsorted(hh, np.arange(1, H))
    return np.array([part.mean() if part.size else np.nan for part in np.split(values, cuts)])


def _gaussian_ll(Z, g, levels, th, ridge, scale, floor):
    """Per-row ln N(x_v; a + b^T x_C, s2) of the pooled cell regressions (v last in Z; row
    t in finest cell ``g[t]``; ``levels`` as for :func:`pooled`)."""
    a, b, s2 = regression_cells(levels, th, ridge=ridge, scale=scale, floor=floor)
    return normal_log_density(Z[:, -1] - (a[g] + np.einsum("tc,tc->t", b[g], Z[:, :-1])), s2[g])


def _last(mo: CellStats) -> CellStats:
    """The moments of the last column alone (the same sums as computing them apart)."""
    return CellStats(mo.n, mo.mean[:, -1:], mo.M[:, -1:, -1:])


def _configurations(enc, items, hh, ii):
    """Per (hyperedge, row) pair the configuration code of the hyperedge's categorical
    parents, and per hyperedge the number of configurations."""
    cont = enc.continuous
    Ds = [tuple(p for p in ps if not cont[p]) for _, ps in items]
    U = np.array([int(np.prod(enc.n_levels[list(D)])) if D else 1 for D in Ds], dtype=np.int64)
    u = np.zeros(ii.size, dtype=np.int64)
    key = {D: i for i, D in enumerate(dict.fromkeys(Ds))}
    which = np.array([key[D] for D in Ds], dtype=np.int64)[hh]
    for D, i in key.items():
        sel = np.flatnonzero(which == i)
        for j in D:
            u[sel] = u[sel] * int(enc.n_levels[j]) + enc.codes[ii[sel], j]
    return u, U


def row_path_key(enc, v: int, parents: tuple) -> tuple:
    """The items :func:`gains_on_rows` can take in one call share this key: the role of v
    (and its levels when categorical), the number of continuous parents and whether there
    is a categorical one."""
    cont = enc.continuous
    c = int(cont[list(parents)].sum()) if parents else 0
    return (bool(cont[v]), 0 if cont[v] else int(enc.n_levels[v]), c, c < len(parents))


def gains_on_rows(enc, y, m, items, *, min_cell_rows, var_smoothing, ridge) -> np.ndarray:
    """``f(v, P)`` of items ``(v, P)`` with one :func:`row_path_key` (the categorical
    parents may differ), on their rows; each hyperedge's value does not depend on the
    others in the call (its rows go to bins of its own, summed in row order)."""
    H = len(items)
    cont = enc.continuous
    v0 = items[0][0]
    C = np.array([[p for p in ps if cont[p]] for _, ps in items], dtype=np.int64).reshape(H, -1)
    vs = np.array([v for v, _ in items], dtype=np.int64)
    cols = np.column_stack([C, vs]) if cont[v0] else C
    obs = enc.observed[:, cols].all(axis=2).T
    for h, (v, ps) in enumerate(items):  # the categorical members observed
        cats = [p for p in (v, *ps) if not cont[p]]
        if cats:
            obs[h] &= enc.observed[:, cats].all(axis=1)
    hh, ii = np.nonzero(obs)  # rows of each hyperedge, in row order
    yy = y[ii]
    u, U = _configurations(enc, items, hh, ii)
    Z = enc.values[ii[:, None], cols[hh]]  # (T, s)
    glob = grouped_moments(Z, hh, H)  # every hyperedge's rows: the last pooling level
    scale = _scale(glob)
    c = C.shape[1]
    th = max(min_cell_rows, c + 2)
    first = 0 if any(not cont[p] for p in items[0][1]) else 1
    offU = np.concatenate([[0], np.cumsum(U)[:-1]])  # first configuration of each hyperedge
    h_of_u = np.repeat(np.arange(H), U)
    if cont[v0]:
        floor = var_smoothing * scale[:, -1]
        nb = int(U.sum()) * m
        cell = (offU[hh] + u) * m + yy
        h_of = h_of_u[np.arange(nb) // m]
        up_class = h_of * m + np.arange(nb) % m
        cls = grouped_moments(Z, hh * m + yy, H * m)
        levels = [(cls, up_class), (glob, h_of)]
        if first == 0:  # the (configuration, class) cells: only with categorical parents
            levels.insert(0, (grouped_moments(Z, cell, nb), np.arange(nb)))
        full = _gaussian_ll(Z, cell, levels, th, ridge,
                            np.repeat(scale[:, :-1], U * m, axis=0), np.repeat(floor, U * m))
        # the P = {} factor: x_v's class and global moments are sub-blocks of the above
        base = _gaussian_ll(Z[:, -1:], hh * m + yy,
                            [(_last(cls), np.arange(H * m)), (_last(glob), np.arange(H * m) // m)],
                            max(min_cell_rows, 2), ridge, scale[:, :0].repeat(m, 0),
                            floor.repeat(m))
    else:
        K = int(enc.n_levels[v0])
        cv = enc.codes[ii, vs[hh]]
        row = (offU[hh] + u) * m + yy  # (h, u, y) cell of each row
        fine = row * K + cv  # (c, u, y) within h
        n_fine = int(U.sum()) * m * K
        ids = np.arange(n_fine)
        h_of, k_of, y_of = h_of_u[ids // (m * K)], ids % K, (ids // K) % m
        up = [ids, (h_of * m + y_of) * K + k_of, h_of * K + k_of, h_of]
        sizes = [n_fine, H * m * K, H * K, H]
        bins = [fine, (hh * m + yy) * K + cv, hh * K + cv, hh]
        floor = max(ridge, var_smoothing) * scale  # (H, c)
        mean, prec, logdet = gaussian_cells(
            [(glob if nb == H and b is hh else grouped_moments(Z, b, nb), mp)
             for b, nb, mp in list(zip(bins, sizes, up, strict=True))[first:]], th, floor[h_of])
        counts = np.bincount(fine, minlength=n_fine).astype(float).reshape(-1, m, K)
        log_cpt = np.concatenate([_cpt(counts[offU[h]:offU[h] + U[h]], 0.0)
                                  for h in range(H)])  # (sum U, m, K): per hyperedge's table
        lj = gaussian_log_joint(log_cpt.reshape(-1, K)[row],
                                Z[:, None, :] - mean.reshape(-1, K, c)[row],
                                prec.reshape(-1, K, c, c)[row], logdet.reshape(-1, K)[row])
        with np.errstate(invalid="ignore"):
            full = lj[np.arange(ii.size), cv] - _logsumexp_rows(lj)
        ycount = np.bincount((hh * m + yy) * K + cv, minlength=H * m * K).astype(float)
        base_cpt = np.concatenate([_cpt(ycount.reshape(H, 1, m, K)[h], 0.0) for h in range(H)])
        base = base_cpt.reshape(H, m, K)[hh, yy, cv]
    return _mean_per(full - base, hh, H)
