import numpy as np
import pytest


def grid_integral(logpdf, row: np.ndarray, miss: list[int], lo, hi, n: int = 1601) -> np.ndarray:
    """ln of the trapezoid integral of exp(logpdf) over the missing coordinates of ``row``
    (one or two), on a uniform grid of n points per axis over [lo, hi] (per-axis bounds).

    ``logpdf`` maps rows of shape (m, d) to (m, n_classes). For densities that are smooth
    and negligible at the bounds the trapezoid rule converges faster than any power of the
    spacing, which is what makes it a brute-force reference here.
    """
    axes = [np.linspace(a, b, n) for a, b in zip(np.atleast_1d(lo), np.atleast_1d(hi), strict=True)]
    mesh = np.meshgrid(*axes, indexing="ij")
    pts = np.tile(row, (mesh[0].size, 1))
    for j, m in zip(miss, mesh, strict=True):
        pts[:, j] = m.ravel()
    vals = np.exp(logpdf(pts)).reshape(*mesh[0].shape, -1)
    for ax in axes:
        vals = np.trapezoid(vals, ax, axis=0)
    return np.log(vals)


@pytest.fixture
def integrate_grid():
    return grid_integral
