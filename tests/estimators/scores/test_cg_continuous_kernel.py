"""The compiled score of a continuous v (:mod:`estimators.scores._cg_continuous_kernel`)
against an independent numpy computation (:func:`_gain_continuous` below: merged cells by
:func:`~estimators.stats.cell_statistics.merge_axes`, the pooled cells' regressions and
log-likelihoods by :mod:`estimators.stats.gaussian`, ridge regressions by LAPACK's
``gesv``), on random cells with empty, small and large cells, columns on different scales,
constant and nearly collinear columns."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from estimators.scores._cg_batch import TINY
from estimators.scores._cg_continuous_kernel import continuous_gains
from estimators.stats.cell_statistics import CellStats, merge_axes
from estimators.stats.gaussian import cell_regression, cells_log_likelihood


def _levels_pool(levels: list[CellStats], th: int) -> CellStats:
    """Per finest cell, the statistics of the first level with ``n >= th`` (else the last);
    each level broadcasts against the finest shape (the row path's pooling)."""
    out = levels[-1]
    n, mean, M = out.n, out.mean, out.M
    for lv in reversed(levels[:-1]):
        ok = lv.n >= th
        n = np.where(ok, lv.n, n)
        mean = np.where(ok[..., None], lv.mean, mean)
        M = np.where(ok[..., None, None], lv.M, M)
    return CellStats(n, mean, M)


def _scale(glob: CellStats):
    """Column variances over the hyperedge's rows (1 where 0, as the row path), and a flag
    where a variance is tiny but not 0 against the squared (shifted) mean: a column
    constant over those rows, whose rounding-level variance the two paths round
    differently."""
    var = np.diagonal(glob.M, axis1=-2, axis2=-1) / np.maximum(glob.n, 1.0)[..., None]
    flag = ((var != 0) & (var < TINY * (var + glob.mean**2))).any(axis=-1)
    return np.where(var > 0, var, 1.0), flag


def _pooled_fit(levels: list[CellStats], th: int, ridge: float, scale, floor) -> tuple:
    """The pooled regression of each finest cell (:func:`_levels_pool`,
    :func:`~estimators.stats.gaussian.cell_regression`): its moments, ``(a, b, rss)`` and
    the floored variance."""
    pool = _levels_pool(levels, th)
    a, b, s2 = cell_regression(pool, ridge, scale, floor, False)
    M, c = pool.M, b.shape[-1]
    rss = (M[..., c, c] - 2.0 * np.einsum("...c,...c->...", b, M[..., :c, c])
           + np.einsum("...i,...ij,...j->...", b, M[..., :c, :c], b))
    return pool, (a, b, rss), s2


def _gain_continuous(st: CellStats, m, mcr, vs, ridge):
    """f(v, C u D) for a continuous v (last coordinate), cells (H, U*m)."""
    H, S = st.n.shape[0], st.mean.shape[-1]
    c = S - 1
    cell = CellStats(st.n.reshape(H, -1, m), st.mean.reshape(H, -1, m, S),
                     st.M.reshape(H, -1, m, S, S))
    cls = merge_axes(cell, 1)
    glob = merge_axes(cls, 2)
    scale, flag = _scale(glob)
    flag = flag.reshape(H)
    floor = vs * scale[..., -1]  # (H, 1, 1)
    pool, (a, b, rss), s2 = _pooled_fit([cell, cls, glob], max(mcr, c + 2), ridge,
                                        scale[..., :c], floor)
    Mdiag = np.diagonal(pool.M, axis1=-2, axis2=-1)
    near = rss < TINY * (Mdiag[..., c] + np.einsum("...c,...c->...", b * b, Mdiag[..., :c]))
    flag |= (near & (cell.n > 0)).any(axis=(1, 2))
    full = cells_log_likelihood(cell, a, b, s2).sum(axis=(1, 2))
    # the P = {} factor: one Gaussian per class (pooled when small), on the same rows
    v_cls, v_glob = (CellStats(x.n, x.mean[..., c:], x.M[..., c:, c:]) for x in (cls, glob))
    _, (a0, b0, _), s20 = _pooled_fit([v_cls, v_glob], max(mcr, 2), ridge, None, floor)
    base = cells_log_likelihood(v_cls, a0, b0, s20).sum(axis=(1, 2))
    ntot = glob.n.reshape(H)
    return (full - base) / np.maximum(ntot, 1.0), ntot, flag


@st.composite
def cells(draw):
    rng = np.random.default_rng(draw(st.integers(0, 10_000)))
    s = draw(st.integers(1, 4))
    H, U, m = 5, draw(st.integers(1, 6)), draw(st.integers(1, 3))
    n = rng.integers(0, 12, size=(H, U, m)).astype(float)
    X = rng.normal(size=(H, U, m, 12, s)) * 10.0 ** rng.integers(-2, 3, size=s) + 3.0
    kind = draw(st.sampled_from(["plain", "constant", "collinear", "dependent"]))
    if kind == "constant":
        X[..., 0] = 2.0
    elif kind == "collinear" and s > 2:
        X[..., 1] = 3.0 * X[..., 0] + 1e-6 * rng.normal(size=X.shape[:-1])
    elif kind == "dependent":
        X[..., -1] = X[..., :-1].sum(axis=-1) + 0.1 * rng.normal(size=X.shape[:-1])
    mask = np.arange(12) < n[..., None]
    mean = (X * mask[..., None]).sum(-2) / np.maximum(n, 1.0)[..., None]
    D = (X - mean[..., None, :]) * mask[..., None]
    return n, mean, np.einsum("...ri,...rj->...ij", D, D)


@settings(max_examples=80, deadline=None)
@given(cells(), st.sampled_from([1, 5]), st.sampled_from([1e-8, 1e-3]))
def test_continuous_gains_equal_numpys(table, mcr, ridge):
    n, mean, M = table
    H, U, m = n.shape
    s = mean.shape[-1]
    st_ = CellStats(n.reshape(H, U * m), mean.reshape(H, U * m, s),
                    M.reshape(H, U * m, s, s))
    want, want_n, want_flag = _gain_continuous(st_, m, mcr, 1e-9, ridge)
    got, got_n, got_flag = continuous_gains(n, mean, M, mcr, 1e-9, ridge, TINY)
    np.testing.assert_array_equal(got_n, want_n)
    np.testing.assert_array_equal(got_flag, want_flag)
    ok = ~want_flag  # flagged: scored on the row path
    np.testing.assert_allclose(got[ok], want[ok], rtol=1e-10, atol=1e-12)
