"""Gaussian KDE with a full kernel covariance, evaluated by an exact kernel sum.

This is the kernel of :class:`scipy.stats.gaussian_kde`: for a sample of n points in d
dimensions the kernel covariance is ``factor**2 * S`` with S the sample covariance (ddof=1)
and ``factor`` Scott's ``n ** (-1 / (d + 4))`` by default, so a pair KDE follows the
correlation of its two features, and a single feature gets its own 1-D KDE with its own
factor ``n ** (-1 / 5)``. Paper 1's companion code builds its KDEs with scipy's
``gaussian_kde`` (it exposes scipy's ``bw_method`` separately for the 1-D and the 2-D KDEs),
so ``ClassKDE(kernel="full")`` with the default bandwidth is the paper's implementation.

Evaluation: the sample and the points are whitened by the Cholesky factor L of the kernel
covariance (``z = L^-1 x``), and ``ln f(x) = logsumexp_i(-|z - z_i|^2 / 2) - ln n -
ln det(L) - (d / 2) ln(2 pi)``, in chunks of points. The cost is O(n_train * n_points) per
density, exact (the tests compare with scipy to 1e-10); the binned-grid product kernel of
:mod:`estimators.densities.kde` is the fast default.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import solve_triangular
from scipy.special import logsumexp

from estimators.stats.gaussian import LOG_2PI

_CELLS = 2**22  # points x sample pairs per chunk of the kernel sum


def kernel_covariance(data: np.ndarray, factor: float, floor: float = 0.0,
                      spread: np.ndarray | None = None) -> np.ndarray:
    """``factor**2`` times the sample covariance (ddof=1) of ``data`` (n, d), scipy's kernel
    covariance; eigenvalues below ``floor**2`` (and below 1e-10 of the largest, so that the
    Cholesky factor exists; 1e-24 if all are 0) are raised to that.

    ``spread`` (d, d), if given, replaces the sample covariance (a class too small to have
    one borrows the whole column's).

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.stats import gaussian_kde
    >>> xy = np.random.default_rng(0).normal(size=(50, 2))
    >>> bool(np.allclose(kernel_covariance(xy, 50 ** (-1 / 6)), gaussian_kde(xy.T).covariance))
    True
    >>> kernel_covariance(np.ones((5, 1)), 0.5, floor=0.1)
    array([[0.01]])
    """
    data = np.asarray(data, dtype=float).reshape(data.shape[0], -1)
    if spread is None:
        spread = (np.cov(data, rowvar=False, ddof=1).reshape(data.shape[1], -1)
                  if data.shape[0] > 1 else np.zeros((data.shape[1],) * 2))
    cov = factor**2 * np.asarray(spread, dtype=float)
    vals, vecs = np.linalg.eigh(cov)
    low = max(floor**2, 1e-10 * vals.max(), 1e-24)
    if vals.min() < low:
        cov = (vecs * np.maximum(vals, low)) @ vecs.T
    return cov


class FullKDE:
    """Gaussian KDE in d dimensions with kernel covariance ``cov``, exact kernel sum.

    Parameters
    ----------
    data : ndarray of shape (n,) or (n, d)
        The sample.
    cov : ndarray of shape (d, d) or float
        Kernel covariance (absolute; see :func:`kernel_covariance`).

    Attributes
    ----------
    h : float
        The kernel standard deviation along the first coordinate (``sqrt(cov[0, 0])``).

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.stats import gaussian_kde
    >>> xy = np.random.default_rng(0).multivariate_normal([0, 0], [[1, .8], [.8, 1]], 300)
    >>> ref = gaussian_kde(xy.T)
    >>> kde = FullKDE(xy, ref.covariance)
    >>> pts = np.array([[0.1, -0.2], [1.5, 1.0]])
    >>> bool(np.allclose(kde.logpdf(pts[:, 0], pts[:, 1]), ref.logpdf(pts.T), rtol=1e-12))
    True
    """

    def __init__(self, data: np.ndarray, cov: np.ndarray | float) -> None:
        data = np.asarray(data, dtype=float)
        self.data = data.reshape(data.shape[0], -1)
        d = self.data.shape[1]
        self.cov = np.asarray(cov, dtype=float).reshape(d, d)
        self._chol = np.linalg.cholesky(self.cov)
        self._z = self._whiten(self.data)
        self._norm = (np.log(self.data.shape[0]) + np.log(np.diag(self._chol)).sum()
                      + 0.5 * d * LOG_2PI)
        self.h = float(np.sqrt(self.cov[0, 0]))

    def _whiten(self, pts: np.ndarray) -> np.ndarray:
        return solve_triangular(self._chol, pts.T, lower=True).T

    def logpdf(self, *columns: np.ndarray) -> np.ndarray:
        """Log-density at the points whose coordinates are ``columns`` (d arrays of equal
        length: ``logpdf(x)`` in 1-D, ``logpdf(x, y)`` for a pair)."""
        pts = np.column_stack([np.asarray(c, dtype=float).ravel() for c in columns])
        if pts.shape[1] != self.data.shape[1]:
            raise ValueError(f"FullKDE.logpdf takes {self.data.shape[1]} coordinate "
                             f"array(s); got {pts.shape[1]}.")
        z = self._whiten(pts)
        out = np.empty(pts.shape[0])
        step = max(1, _CELLS // self._z.shape[0])
        for s in range(0, z.shape[0], step):
            d2 = np.zeros((min(step, z.shape[0] - s), self._z.shape[0]))
            for k in range(z.shape[1]):
                diff = z[s : s + step, k, None] - self._z[None, :, k]
                d2 += diff * diff
            out[s : s + step] = logsumexp(-0.5 * d2, axis=1)
        return out - self._norm
