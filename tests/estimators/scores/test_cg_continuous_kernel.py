"""The compiled score of a continuous v (:mod:`estimators.scores._cg_continuous_kernel`)
against its numpy form (:func:`estimators.scores._cg_batch._gain_continuous`: merged cells
by :func:`~estimators.stats.cell_statistics.merge_axes`, ridge regressions by LAPACK's
``gesv``), on random cells with empty, small and large cells, columns on different
scales, constant and nearly collinear columns."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from estimators.scores._cg_batch import TINY, _gain_continuous
from estimators.scores._cg_continuous_kernel import continuous_gains
from estimators.stats.cell_statistics import CellStats


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
