"""The compiled pooled Gaussians of the Bayes-rule factor
(:mod:`estimators.scores._cg_bayes_kernel`) against numpy: the cells merged by
:func:`~estimators.stats.cell_statistics.merge_axes`, pooled level by level, inverted and
log-determined by LAPACK (``numpy.linalg``), the class table by ``scipy.special.xlogy``."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import xlogy

from estimators.scores._cg_batch import TINY
from estimators.scores._cg_bayes_kernel import bayes_parameters
from estimators.stats.cell_statistics import CellStats, merge_axes

LOG_2PI = np.log(2.0 * np.pi)


def numpy_parameters(n, mean, M, mcr, vs, ridge):
    """Cells (H, K, U, m): pooled means, precisions, constants, class-table log-likelihood,
    rows and flags, in numpy."""
    cell = CellStats(n, mean, M)
    c = mean.shape[-1]
    cy = merge_axes(cell, 2)
    cc = merge_axes(cy, 3)
    glob = merge_axes(cc, 1)
    th = max(mcr, c + 2)
    pn, pmean, pM = glob.n, glob.mean, glob.M
    for lv in (cc, cy, cell):
        ok = lv.n >= th
        pn = np.where(ok, lv.n, pn)
        pmean = np.where(ok[..., None], lv.mean, pmean)
        pM = np.where(ok[..., None, None], lv.M, pM)
    var = np.diagonal(glob.M, axis1=-2, axis2=-1) / np.maximum(glob.n, 1.0)[..., None]
    flag = ((var != 0) & (var < TINY * (var + glob.mean ** 2))).any(axis=-1).reshape(-1)
    scale = np.where(var > 0, var, 1.0)
    cov = pM / np.maximum(pn, 1.0)[..., None, None] + max(ridge, vs) * (
        scale[..., :, None] * np.eye(c))
    if c > 1:
        sd = np.sqrt(np.maximum(np.diagonal(pM, axis1=-2, axis2=-1), 1e-300))
        corr = np.linalg.slogdet(pM / (sd[..., :, None] * sd[..., None, :]))[1]
        flag |= ((n > 0) & (corr < np.log(TINY))).any(axis=(1, 2, 3))
    Nuy = n.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        lcpt = np.log(n / np.where(Nuy > 0, Nuy, 1.0))
    const = lcpt - 0.5 * (c * LOG_2PI + np.linalg.slogdet(cov)[1])
    Ncy = n.sum(axis=2)
    Ny = Ncy.sum(axis=1, keepdims=True)
    class_ll = xlogy(Ncy, Ncy / np.where(Ny > 0, Ny, 1.0)).sum(axis=(1, 2))
    return pmean, np.linalg.inv(cov), const, class_ll, n.sum(axis=(1, 2, 3)), flag


@st.composite
def cells(draw):
    """Cells (H, A, K, B, m) of c continuous parents: counts 0 to 9 (empty cells, cells
    below and above the pooling threshold), columns on different scales, sometimes one
    constant column or two nearly collinear ones."""
    rng = np.random.default_rng(draw(st.integers(0, 10_000)))
    c = draw(st.integers(1, 4))
    H, A, K, B, m = 4, draw(st.integers(1, 2)), draw(st.integers(2, 4)), \
        draw(st.integers(1, 3)), draw(st.integers(1, 3))
    shape = (H, A, K, B, m)
    n = rng.integers(0, 10, size=shape).astype(float)
    X = rng.normal(size=shape + (9, c)) * 10.0 ** rng.integers(-2, 3, size=c) + 5.0
    kind = draw(st.sampled_from(["plain", "constant", "collinear"]))
    if kind == "constant":
        X[..., 0] = 3.0
    elif kind == "collinear" and c > 1:
        X[..., 1] = 2.0 * X[..., 0] + 1e-7 * rng.normal(size=X.shape[:-1])
    mask = np.arange(9) < n[..., None]
    mean = (X * mask[..., None]).sum(-2) / np.maximum(n, 1.0)[..., None]
    D = (X - mean[..., None, :]) * mask[..., None]
    return n, mean, np.einsum("...ri,...rj->...ij", D, D)


@settings(max_examples=60, deadline=None)
@given(cells(), st.sampled_from([1, 5]), st.sampled_from([0.0, 1e-8]))
def test_pooled_gaussians_equal_numpys(table, mcr, ridge):
    n, mean, M = table
    H, A, K, B, m = n.shape
    c = mean.shape[-1]

    def arranged(a):  # (H, K, A * B, m, ...): the state axis first, as the kernel returns
        return np.moveaxis(a, 2, 1).reshape(H, K, A * B, m, *a.shape[5:])

    want = numpy_parameters(arranged(n), arranged(mean), arranged(M), mcr, 1e-9, ridge)
    pm, pp = np.empty((H, K, A, B, m, c)), np.empty((H, K, A, B, m, c, c))
    pc = np.empty((H, K, A, B, m))
    got = bayes_parameters(n, mean, M, mcr, 1e-9, ridge, TINY, pm, pp, pc)
    np.testing.assert_array_equal(got[2], want[5])
    np.testing.assert_array_equal(got[1], want[4])
    np.testing.assert_allclose(got[0], want[3], rtol=1e-13, atol=1e-10)
    np.testing.assert_array_equal(pm.reshape(want[0].shape), want[0])
    # the precisions of flagged hyperedges (nearly collinear parents; scored on the row
    # path) are as ill-conditioned as their covariances: compared where not flagged
    ok = ~want[5]
    np.testing.assert_allclose(pp.reshape(want[1].shape)[ok], want[1][ok], rtol=1e-9,
                               atol=1e-12 * np.abs(want[1][ok]).max(initial=0.0))
    const = pc.reshape(want[2].shape)
    assert np.array_equal(np.isfinite(const), np.isfinite(want[2]))
    fin = np.isfinite(want[2]) & ok[:, None, None, None]
    np.testing.assert_allclose(const[fin], want[2][fin], rtol=1e-12, atol=1e-9)
