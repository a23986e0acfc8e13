"""Small dense matrices in compiled loops: the inverse and log |det| of a k x k matrix
(k a handful: the continuous parents of a hyperedge) by LU with partial pivoting, as
LAPACK's ``getrf`` / ``getri`` compute them up to rounding (not its blocked order)."""

from __future__ import annotations

import numpy as np

from estimators.base.numba_cache import jit
from estimators.scores._cg_kernel import log

__all__ = ["lu_inverse", "lu_inverse_2", "lu_solve"]


@jit(error_model="numpy")
def lu_inverse(A, inv, piv, work):
    """The log |det A| of a small square matrix by LU with partial pivoting (in place in
    ``work``), and its inverse in ``inv``; -inf where singular (``inv`` then undefined).

    Parameters
    ----------
    A : ndarray (k, k)
    inv, work : ndarray (k, k)
        Filled: the inverse, and the LU factors.
    piv : ndarray of int64 (k,)
        Filled: the row permutation.

    Examples
    --------
    >>> A = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> inv, work, piv = np.empty((2, 2)), np.empty((2, 2)), np.empty(2, dtype=np.int64)
    >>> logdet = lu_inverse(A, inv, piv, work)
    >>> bool(np.isclose(logdet, np.log(2.0))), bool(np.allclose(inv @ A, np.eye(2)))
    (True, True)
    """
    c = A.shape[0]
    logdet = _factor(A, piv, work)
    if logdet == -np.inf:
        return logdet
    for e in range(c):  # column e of the inverse: L U x = P e
        for i in range(c):
            inv[i, e] = 1.0 if piv[i] == e else 0.0
        _substitute(work, inv[:, e])
    return logdet


@jit(error_model="numpy")
def lu_solve(A, rhs, x, piv, work):
    """``x = A^-1 rhs`` by LU with partial pivoting and substitution (LAPACK's ``gesv``
    for one right-hand side, up to rounding: more accurate than the inverse times
    ``rhs`` when A is ill-conditioned); returns log |det A|, -inf where singular.

    Examples
    --------
    >>> A, b = np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([5.0, 6.0])
    >>> x, work, piv = np.empty(2), np.empty((2, 2)), np.empty(2, dtype=np.int64)
    >>> _ = lu_solve(A, b, x, piv, work)
    >>> bool(np.allclose(x, np.linalg.solve(A, b)))
    True
    """
    logdet = _factor(A, piv, work)
    if logdet == -np.inf:
        return logdet
    for i in range(A.shape[0]):
        x[i] = rhs[piv[i]]
    _substitute(work, x)
    return logdet


@jit(error_model="numpy")
def _factor(A, piv, work):
    """LU with partial pivoting of A into ``work`` (L below the diagonal, unit diagonal
    implied; U on and above) and the row order ``piv``; log |det A| (-inf if singular)."""
    c = A.shape[0]
    for i in range(c):
        for j in range(c):
            work[i, j] = A[i, j]
        piv[i] = i
    logdet = 0.0
    for col in range(c):
        best, at = abs(work[col, col]), col
        for r in range(col + 1, c):
            if abs(work[r, col]) > best:
                best, at = abs(work[r, col]), r
        if best == 0.0:
            return -np.inf
        if at != col:
            for j in range(c):
                work[col, j], work[at, j] = work[at, j], work[col, j]
            piv[col], piv[at] = piv[at], piv[col]
        p = work[col, col]
        logdet += log(abs(p))
        for r in range(col + 1, c):
            f = work[r, col] / p
            work[r, col] = f
            for j in range(col + 1, c):
                work[r, j] -= f * work[col, j]
    return logdet


@jit("void(float64[:, :], float64[:])", error_model="numpy")  # columns of inv and vectors alike
def _substitute(work, x):
    """Solve ``L U x = x`` in place (forward, then back substitution)."""
    c = x.size
    for i in range(c):
        s = x[i]
        for j in range(i):
            s -= work[i, j] * x[j]
        x[i] = s
    for i in range(c - 1, -1, -1):
        s = x[i]
        for j in range(i + 1, c):
            s -= work[i, j] * x[j]
        x[i] = s / work[i, i]


@jit(error_model="numpy")
def lu_inverse_2(a00, a01, a10, a11):
    """:func:`lu_inverse` of a 2 x 2 matrix in scalars, operation for operation (a call
    with array arguments costs more than this arithmetic): ``(log |det|, i00, i01, i10,
    i11)``; -inf and nan where singular.

    Examples
    --------
    >>> out = lu_inverse_2(1.0, 2.0, 3.0, 4.0)
    >>> bool(np.isclose(out[0], np.log(2.0))), np.allclose(out[1:], [-2.0, 1.0, 1.5, -0.5])
    (True, True)
    """
    nan = np.nan
    swap = abs(a10) > abs(a00)
    if swap:
        a00, a01, a10, a11 = a10, a11, a00, a01
    if a00 == 0.0:
        return -np.inf, nan, nan, nan, nan
    f = a10 / a00
    u11 = a11 - f * a01
    if u11 == 0.0:
        return -np.inf, nan, nan, nan, nan
    logdet = log(abs(a00)) + log(abs(u11))
    # column e of the inverse: x = P e, forward (unit L), then back substitution
    x0, x1 = (0.0, 1.0) if swap else (1.0, 0.0)
    x1 = (x1 - f * x0) / u11
    i00, i10 = (x0 - a01 * x1) / a00, x1
    x0, x1 = (1.0, 0.0) if swap else (0.0, 1.0)
    x1 = (x1 - f * x0) / u11
    i01, i11 = (x0 - a01 * x1) / a00, x1
    return logdet, i00, i01, i10, i11
