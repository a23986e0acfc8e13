"""Chan's merge of cell statistics in compiled loops: the compiled CG kernels'
:func:`~estimators.stats.cell_statistics.merge_axes`, the same formula in the same order."""

from __future__ import annotations

from estimators.base.numba_cache import jit

__all__ = ["merge_cells"]


# one specialisation (any layout): the kernels pass strided views and contiguous arrays
@jit("float64(float64[:, :], float64[:, :, :], float64[:, :, :, :], float64[:], float64[:, :])",
     error_model="numpy")
def merge_cells(n, mean, M, out_mean, out_M):
    """Merge a grid of cells ``n`` (a, b), ``mean`` (a, b, c), ``M`` (a, b, c, c), added in
    row-major order, into one: ``out_mean`` (c,) and ``out_M`` (c, c) are filled; returns
    the rows. ``sum n_i mean_i / max(N, 1)`` and ``sum M_i + n_i (mean_i - mean)(mean_i -
    mean)^T``.

    Examples
    --------
    >>> import numpy as np
    >>> n = np.array([[2.0, 1.0]])
    >>> mean, M = np.array([[[1.0], [4.0]]]), np.array([[[[2.0]], [[0.0]]]])
    >>> out_mean, out_M = np.empty(1), np.empty((1, 1))
    >>> float(merge_cells(n, mean, M, out_mean, out_M)), out_mean.tolist(), out_M.tolist()
    (3.0, [2.0], [[8.0]])
    """
    A, B = n.shape
    c = out_mean.size
    tot = 0.0
    for a in range(A):
        for b in range(B):
            tot += n[a, b]
    t1 = max(tot, 1.0)
    for i in range(c):
        s = 0.0
        for a in range(A):
            for b in range(B):
                s += n[a, b] * mean[a, b, i]
        out_mean[i] = s / t1
    for i in range(c):
        for j in range(c):
            s = 0.0
            for a in range(A):
                for b in range(B):
                    s += M[a, b, i, j] + n[a, b] * (
                        (mean[a, b, i] - out_mean[i]) * (mean[a, b, j] - out_mean[j]))
            out_M[i, j] = s
    return tot
