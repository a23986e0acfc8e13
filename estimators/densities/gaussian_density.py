"""Class-conditional Gaussian densities (paper 1 §3.1): bivariate / univariate normal per class."""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np

from estimators.densities._normal_scores import (
    NormalScoreDensity,
    clip_correlation,
    safe_correlation,
)
from estimators.densities._pair_density import class_rows
from estimators.stats.cell_statistics import ClassMoments
from estimators.stats.gaussian import LOG_2PI

_LOG_SQRT_2PI = 0.5 * LOG_2PI


def smoothed_correlation(corr: np.ndarray, raw_var: np.ndarray, eps: float) -> np.ndarray:
    """Correlation matrix of the smoothed covariance ``D R D + eps I``, ``D = diag(sqrt(
    raw_var))``: ``R``'s off-diagonal times ``sqrt(v_i v_j / ((v_i + eps)(v_j + eps)))``.

    ``corr`` (``R``) is the unclipped correlation of the raw data, ``raw_var`` its
    variances and ``eps`` the variance smoothing, in the data's units and the same for
    every class. That is what keeps collinear columns harmless: an exact copy ``x_j = x_i``
    has conditional variance ``v_j (1 - rho^2) ~ 2 eps`` in every class, so it adds the
    same log-density to every class and leaves the class posterior as it was (correlations
    clipped or floored on the correlation scale would make that variance proportional to
    the class's ``v_j`` instead, and the copy would count ``-ln sd_j`` once more). With
    ``eps = 0`` the result is passed through :func:`clip_correlation` to stay finite.

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[1.0, 1.0], [1.0, 1.0]])  # an exact copy
    >>> S = smoothed_correlation(R, np.array([4.0, 4.0]), 1e-6)
    >>> bool(np.isclose(4.000001 * (1 - S[0, 1] ** 2), 2e-6, rtol=1e-5))
    True
    """
    sd = np.sqrt(raw_var)
    smoothed = np.outer(np.sqrt(raw_var + eps), np.sqrt(raw_var + eps))
    out = corr * np.divide(np.outer(sd, sd), smoothed, out=np.zeros_like(smoothed),
                           where=smoothed > 0)  # 0 for a column without variance
    np.fill_diagonal(out, 1.0)
    return out if eps > 0 else clip_correlation(out)


class ClassGaussian(NormalScoreDensity):
    """Per-class multivariate normal N(mu_y, Sigma_y), of which pairs and singles are marginals.

    Moments are maximum-likelihood (as scikit-learn's ``GaussianNB``); ``var_smoothing`` times
    the largest feature variance is added to every variance, as in ``GaussianNB``.

    Parameters
    ----------
    var_smoothing : float, default=1e-9

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.stats import multivariate_normal
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3)); y = (X[:, 0] > 0).astype(int)
    >>> g = ClassGaussian(var_smoothing=0.0).fit(X, y, 2, [])
    >>> Xc = X[y == 1][:, [0, 2]]
    >>> ref = multivariate_normal(Xc.mean(0), np.cov(Xc.T, bias=True)).logpdf(X[:4, [0, 2]])
    >>> bool(np.allclose(g.logpdf2(X[:4], 0, 2)[:, 1], ref))
    True
    """

    def __init__(self, var_smoothing: float = 1e-9) -> None:
        self.var_smoothing = var_smoothing

    def fit(
        self,
        X: np.ndarray,
        codes: np.ndarray,
        n_classes: int,
        pairs: Sequence[tuple[int, int]] = (),
    ) -> ClassGaussian:
        """Class means, standard deviations and correlation matrices (pairs are not needed)."""
        X = np.asarray(X, dtype=float)
        self.n_classes_ = n_classes
        if np.isnan(X).any():
            return self._fit_available(X, codes, n_classes)
        return self.fit_moments(ClassMoments.from_arrays(X, codes, np.arange(n_classes)))

    def fit_moments(self, moments: ClassMoments) -> ClassGaussian:
        """Fit from class moments (:class:`~estimators.stats.cell_statistics.ClassMoments` of
        the rows in memory, or merged over the partitions of a Dask DataFrame).

        The standard deviations carry ``eps = var_smoothing`` times the largest variance of
        all rows; the correlations are those of the smoothed covariance ``D R D + eps I``
        (:func:`smoothed_correlation`, here in one pass over each Gram matrix: entry
        ``M_ij / sqrt((M_ii + n eps)(M_jj + n eps))``), a column constant in a class
        uncorrelated with the others there.

        Examples
        --------
        >>> import numpy as np
        >>> from estimators.stats.cell_statistics import ClassMoments
        >>> X = np.array([[0.0, 1.0], [1.0, 3.0], [2.0, 2.0], [5.0, 5.0]])
        >>> g = ClassGaussian(var_smoothing=0.0).fit_moments(
        ...     ClassMoments.from_arrays(X, np.array([0, 0, 0, 1]), np.arange(2)))
        >>> g.corr_[0].round(3).tolist(), g.corr_[1].tolist()
        ([[1.0, 0.5], [0.5, 1.0]], [[1.0, 0.0], [0.0, 1.0]])
        """
        mo = moments
        eps = self.var_smoothing * float(mo.pooled_variance().max())
        self.n_classes_ = mo.classes.size
        self.mean_ = mo.mean.copy()
        raw_var = mo.variances()
        self.std_ = np.sqrt(raw_var + eps)
        self.corr_ = np.empty_like(mo.M)
        constant = mo.constant()
        for c, M in enumerate(mo.M):  # one pass over each class's Gram matrix
            diag = np.diagonal(M)
            t = np.zeros(diag.size)
            keep = ~constant[c] & (diag > 0)
            t[keep] = 1.0 / np.sqrt(diag[keep] + max(mo.n[c], 1.0) * eps)
            out = np.multiply(t[:, None], t[None, :], out=self.corr_[c])
            out *= M  # M is exactly symmetric, and so is out
            np.fill_diagonal(out, 1.0)
            if eps <= 0:
                self.corr_[c] = clip_correlation(out)
        return self

    def _fit_available(self, X: np.ndarray, codes: np.ndarray, n_classes: int) -> ClassGaussian:
        """Available cases (MATH.md §8): each mean and variance on the rows where the feature
        is observed, each correlation on the rows where both are; a class without any
        observed value of a feature takes the pooled moments of that feature."""
        pooled_mean, pooled_var = np.nanmean(X, axis=0), np.nanvar(X, axis=0)
        eps = self.var_smoothing * float(np.nanmax(pooled_var))
        self._allocate(n_classes, X.shape[1])
        for c, rows in enumerate(class_rows(codes, n_classes)):
            Xc = X[rows]
            seen = (~np.isnan(Xc)).any(axis=0)
            with np.errstate(invalid="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                mean = np.where(seen, np.nanmean(Xc, axis=0), pooled_mean)
                raw_var = np.where(seen, np.nanvar(Xc, axis=0), pooled_var)
            self.mean_[c] = mean
            self._set_class(c, Xc - mean, raw_var, eps)
        return self

    def _allocate(self, n_classes: int, d: int) -> None:
        self.mean_ = np.empty((n_classes, d))
        self.std_ = np.empty((n_classes, d))
        self.corr_ = np.empty((n_classes, d, d))

    def _set_class(self, c: int, centred: np.ndarray, raw_var: np.ndarray, eps: float) -> None:
        """Standard deviations and correlations of class c from its centred rows: the
        Pearson correlation of the raw data, smoothed for the added eps on the variances
        (:func:`smoothed_correlation`)."""
        self.std_[c] = np.sqrt(raw_var + eps)
        self.corr_[c] = smoothed_correlation(safe_correlation(centred, clip=False), raw_var, eps)

    def _marginals(self, X: np.ndarray, c: int, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        sd = self.std_[c, cols]
        z = (X[:, cols] - self.mean_[c, cols]) / sd
        return -0.5 * z * z - np.log(sd) - _LOG_SQRT_2PI, z

    def _marginal_logsum(self, X: np.ndarray, c: int, cols: np.ndarray):
        sd = self.std_[c, cols]
        Xs = (
            X
            if cols.size == X.shape[1] and np.array_equal(cols, np.arange(X.shape[1]))
            else X[:, cols]
        )
        z = (Xs - self.mean_[c, cols]) / sd
        const = np.log(sd).sum() + cols.size * _LOG_SQRT_2PI
        return -0.5 * np.einsum("ij,ij->i", z, z) - const, z

    def covariance(self, c: int) -> np.ndarray:
        """Covariance matrix of class code c implied by the fitted moments."""
        return self.corr_[c] * np.outer(self.std_[c], self.std_[c])
