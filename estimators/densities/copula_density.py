"""Class-conditional Gaussian copula with KDE marginals (paper 1 §3.3, thm 14).

Per class y: 1-D Gaussian KDEs f_i, F_i (Scott's bandwidth or a given factor times the class
standard deviation); normal scores z_i = Phi^-1(F_i(x_i)) with u clipped into
[1e-9, 1 - 1e-9]; the copula correlation R_y is the Pearson correlation of the class's
training normal scores. Pair density c_rho(F_i, F_j) f_i f_j, whose marginals are f_i, f_j.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.special import ndtri

from estimators.base.blas_threads import one_blas_thread
from estimators.densities._normal_scores import NormalScoreDensity, safe_correlation
from estimators.densities._pair_density import class_block, class_rows
from estimators.densities.kde import KDE1D, bandwidth_factor, class_kde, kernel_bandwidth

U_EPS = 1e-9


class ClassGaussianCopula(NormalScoreDensity):
    """Gaussian copula of the class-y normal scores with class-y KDE marginals.

    Parameters
    ----------
    bandwidth : {"scott", "silverman"} or float, default="scott"
        Kernel bandwidth rule or factor (:func:`~estimators.densities.kde.bandwidth_factor`):
        h = factor * std.
    min_std : float, default=0.0
        Floor on the standard deviation used for the bandwidth (constant features).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> Z = rng.multivariate_normal([0, 0], [[1, .7], [.7, 1]], size=2000)
    >>> X = np.exp(Z)  # log-normal marginals, Gaussian copula with rho = 0.7
    >>> m = ClassGaussianCopula().fit(X, np.zeros(2000, dtype=int), 1)
    >>> round(float(m.corr_[0, 0, 1]), 1)
    0.7
    """

    def __init__(self, bandwidth: str | float = "scott", min_std: float = 0.0) -> None:
        self.bandwidth = bandwidth
        self.min_std = min_std

    def fit(
        self,
        X: np.ndarray,
        codes: np.ndarray,
        n_classes: int,
        pairs: Sequence[tuple[int, int]] = (),
    ) -> ClassGaussianCopula:
        """Marginal KDEs of every feature per class and the class copula correlations."""
        X = np.asarray(X, dtype=float)
        self.n_classes_ = n_classes
        d = X.shape[1]
        self.kdes_: list[list[KDE1D]] = []
        self.corr_ = np.empty((n_classes, d, d))
        missing = np.isnan(X).any(axis=0)
        for c, rows in enumerate(class_rows(codes, n_classes)):
            factor = bandwidth_factor(self.bandwidth, rows.size, 1)
            block = class_block(X, rows)  # the class's values, each column contiguous
            kdes, z = [], np.empty((rows.size, d), order="F")
            for s in range(d):
                col = block[:, s]
                if missing[s] or rows.size < 2:  # observed values only (or the column's
                    # spread for a one-row class); z is NaN where missing
                    kdes.append(class_kde(X[:, s], rows, factor, self.min_std, col))
                    z[:, s] = kdes[-1].cdf(col)
                else:  # the same values, reusing the sample's bin positions
                    h = kernel_bandwidth(col, factor, self.min_std)
                    kdes.append(KDE1D.with_sample_cdf(col, h, out=z[:, s])[0])
                # normal scores while the column is in cache (element-wise: the same values
                # as one call on the whole matrix)
                ndtri(np.clip(z[:, s], U_EPS, 1.0 - U_EPS, out=z[:, s]), out=z[:, s])
            self.kdes_.append(kdes)
            with one_blas_thread():  # one Gram product: threads only wait on a busy machine
                self.corr_[c] = safe_correlation(z, overwrite=True)
        return self

    def _marginals(
        self, X: np.ndarray, c: int, cols: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        kdes = self.kdes_[c]
        z = np.empty((X.shape[0], len(cols)), order="F")
        for i, s in enumerate(cols):
            z[:, i] = kdes[s].cdf(X[:, s])
        ndtri(np.clip(z, U_EPS, 1.0 - U_EPS, out=z), out=z)
        lf = np.column_stack([kdes[s].logpdf(X[:, s]) for s in cols])
        return lf, z
