"""Densities of the form c_R(z_1, ..., z_k) * prod f_i(x_i) with a Gaussian copula c_R.

Both the Gaussian model (z = standardised x, f = normal density: then c_R * prod f is the
multivariate normal) and the Gaussian copula with KDE marginals (z = Phi^-1(F_i(x_i))) have
this form; subclasses give the per-class marginal transform ``(ln f, z)`` and the class
correlation matrices of z. The marginal of such a density on any subset is of the same form
with the sub-matrix of R, so univariate densities are exactly the marginals of the pair ones.
"""

from __future__ import annotations

import warnings
from abc import abstractmethod
from collections.abc import Sequence

import numpy as np

from estimators.densities._pair_density import PairDensity

RHO_MAX = 1.0 - 1e-9  # |rho| is clipped here so that ln(1 - rho^2) stays finite
#: smallest eigenvalue kept by :func:`positive_definite_correlation`
EIGEN_FLOOR = 1e-6
#: per-row standard deviation below which a column is checked for being exactly constant
CONSTANT_SD = 1e-8
#: an eigenvalue of a correlation matrix above -PSD_TOL is rounding, not indefiniteness
PSD_TOL = 1e-10


def clip_correlation(corr: np.ndarray) -> np.ndarray:
    """``corr`` with every ``|rho|`` at most ``RHO_MAX`` (unit diagonal kept), so that
    ``ln(1 - rho^2)`` is finite and the matrix has smallest eigenvalue ``>= 1 - RHO_MAX``
    in the directions of perfectly correlated pairs."""
    return np.clip(corr, -RHO_MAX, RHO_MAX) + (1.0 - RHO_MAX) * np.eye(corr.shape[0])


def log_gauss_copula_pair(zi: np.ndarray, zj: np.ndarray, rho: float) -> np.ndarray:
    """ln c_rho(u_i, u_j) of the bivariate Gaussian copula at normal scores z = Phi^-1(u).

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.stats import multivariate_normal, norm
    >>> z = np.array([[0.3, -1.2]])
    >>> ref = multivariate_normal([0, 0], [[1, .5], [.5, 1]]).logpdf(z) - norm.logpdf(z).sum()
    >>> bool(np.isclose(log_gauss_copula_pair(z[:, 0], z[:, 1], 0.5)[0], ref))
    True
    """
    r2 = rho * rho
    return -0.5 * np.log1p(-r2) - (r2 * (zi * zi + zj * zj) - 2.0 * rho * zi * zj) / (
        2.0 * (1.0 - r2)
    )


def pairwise_correlation(z: np.ndarray, *, clip: bool = True) -> np.ndarray:
    """Pearson correlation of each pair of columns of z on the rows where both are observed
    (NaN is missing; available cases, MATH.md §8); 0 for a pair with fewer than 2 such rows
    or a column constant on them. ``clip``: pass through :func:`clip_correlation`.

    Examples
    --------
    >>> import numpy as np
    >>> z = np.array([[0.0, 1.0], [1.0, 3.0], [2.0, 2.0], [np.nan, 9.0]])
    >>> bool(np.isclose(pairwise_correlation(z)[0, 1], np.corrcoef(z[:3].T)[0, 1]))
    True
    """
    M = ~np.isnan(z)
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a column without observed value
        constant = ~(np.nanmax(z, axis=0) > np.nanmin(z, axis=0))  # on its observed rows
    Z = np.where(M, z, 0.0)
    Mf = M.astype(float)
    n = Mf.T @ Mf
    sx = Z.T @ Mf  # sx[i, j]: sum of z_i over the rows where i and j are observed
    nn = np.maximum(n, 1.0)
    cov = Z.T @ Z - sx * sx.T / nn
    var = (Z * Z).T @ Mf - sx * sx / nn  # var[i, j]: of z_i on the rows of the pair
    denom = var * var.T
    ok = (n >= 2) & (var > 0) & (var.T > 0) & ~constant[:, None] & ~constant[None, :]
    corr = np.divide(cov, np.sqrt(np.where(ok, denom, 1.0)), out=np.zeros_like(cov), where=ok)
    np.fill_diagonal(corr, 1.0)
    return clip_correlation(corr) if clip else corr


def safe_correlation(z: np.ndarray, *, overwrite: bool = False, clip: bool = True) -> np.ndarray:
    """Pearson correlation of the columns of z; a constant column is uncorrelated with all.
    With missing entries (NaN): :func:`pairwise_correlation` made positive definite by
    :func:`positive_definite_correlation` (pairs estimated on different rows need not be
    jointly positive semi-definite, and the junction-tree marginals factor it).
    ``overwrite=True`` centres and scales z in place (the same operations, so the same
    result) instead of in two copies.

    ``clip=False`` returns the correlation without :func:`clip_correlation`, for a caller
    that regularises it itself (:class:`~estimators.densities.ClassGaussian` adds its
    variance smoothing in the data's units): a positive semi-definite matrix, perhaps
    singular (exact copies of a column correlate 1); with missing entries, projected by
    :func:`positive_definite_correlation` only when it has an eigenvalue below
    ``-PSD_TOL``."""
    if np.isnan(z).any():
        if clip:
            return positive_definite_correlation(pairwise_correlation(z))
        corr = pairwise_correlation(z, clip=False)
        if np.linalg.eigvalsh(corr)[0] < -PSD_TOL:
            return positive_definite_correlation(corr)
        return corr
    mean = z.mean(axis=0)
    zc = np.subtract(z, mean, out=z if overwrite else None)
    sd = np.sqrt(np.einsum("ij,ij->j", zc, zc))
    sd[_constant_columns(zc, sd)] = 0.0
    scaled = np.divide(zc, sd, out=zc if overwrite else np.zeros_like(zc), where=sd > 0)
    if overwrite:
        scaled[:, sd == 0] = 0.0  # as the zeros of the copy
    corr = scaled.T @ scaled
    np.fill_diagonal(corr, 1.0)
    return clip_correlation(corr) if clip else corr


def _constant_columns(zc: np.ndarray, sd: np.ndarray) -> np.ndarray:
    """Columns of the centred ``zc`` that are exactly constant. The rounding of the mean
    leaves such a column at one tiny value (~1e-16 |z|), not 0, whose "correlation" with
    another constant column would be +-1; only columns with ``sd`` below ``CONSTANT_SD``
    per row are examined, so the check costs nothing on ordinary data."""
    small = np.flatnonzero(sd <= CONSTANT_SD * np.sqrt(zc.shape[0]))
    if not small.size:
        return small
    sub = zc[:, small]
    return small[sub.max(axis=0) == sub.min(axis=0)]


def positive_definite_correlation(corr: np.ndarray, floor: float = EIGEN_FLOOR) -> np.ndarray:
    """``corr`` itself when its smallest eigenvalue is at least ``floor``; otherwise its
    eigenvalues raised to ``floor`` (the nearest matrix in Frobenius norm with that spectrum
    bound) and the result rescaled to a unit diagonal, a correlation matrix whose clusters'
    blocks are all positive definite.

    Pairwise-complete correlations (available cases, MATH.md §8) are each a correlation of
    their own rows; with many missing cells the matrix can have a negative eigenvalue and
    the class-conditional Gaussian of a k-GNB cluster would not exist (Cholesky failed with
    20 % of wine's cells missing).

    Examples
    --------
    >>> import numpy as np
    >>> bad = np.array([[1.0, 0.9, -0.9], [0.9, 1.0, 0.9], [-0.9, 0.9, 1.0]])
    >>> bool(np.linalg.eigvalsh(bad).min() < 0)
    True
    >>> good = positive_definite_correlation(bad)
    >>> bool(np.linalg.eigvalsh(good).min() > 0), np.diag(good).tolist()
    (True, [1.0, 1.0, 1.0])
    >>> ok = np.array([[1.0, 0.5], [0.5, 1.0]])
    >>> positive_definite_correlation(ok) is ok
    True
    """
    w, V = np.linalg.eigh(corr)
    if w.min() >= floor:
        return corr
    A = (V * np.maximum(w, floor)) @ V.T
    d = np.sqrt(np.diag(A))
    out = A / np.outer(d, d)
    np.fill_diagonal(out, 1.0)
    return out


class NormalScoreDensity(PairDensity):
    """Shared evaluation for the Gaussian and Gaussian-copula models.

    Subclasses set ``corr_`` (n_classes, d, d) and implement ``_marginals(X, c, cols)``
    returning ``(ln f, z)`` for the given columns in class c, each of shape (n_rows, len(cols)).

    Examples
    --------
    The Gaussian and Gaussian-copula models are both normal-score densities: a class's
    correlation matrix of normal scores and its margins. For the Gaussian model the margins
    are normal:

    >>> import numpy as np
    >>> from scipy.stats import norm
    >>> from estimators.densities import ClassGaussian, ClassGaussianCopula, NormalScoreDensity
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3))
    >>> codes = rng.integers(0, 2, 200)
    >>> density = ClassGaussian().fit(X, codes, 2, [(0, 1)])
    >>> issubclass(ClassGaussianCopula, NormalScoreDensity), density.corr_.shape
    (True, (2, 3, 3))
    >>> col = X[codes == 1, 2]
    >>> bool(np.allclose(density.logpdf1(X, 2)[:, 1], norm.logpdf(X[:, 2], col.mean(), col.std())))
    True
    """

    corr_: np.ndarray

    @abstractmethod
    def _marginals(
        self, X: np.ndarray, c: int, cols: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        ...

    def _per_class(self, X: np.ndarray, cols: Sequence[int], fn) -> np.ndarray:
        cols = np.asarray(cols, dtype=int)
        return np.column_stack(
            [fn(c, *self._marginals(X, c, cols)) for c in range(self.n_classes_)]
        )

    def logpdf1(self, X: np.ndarray, s: int) -> np.ndarray:
        """ln f_s(x_s | y), shape (n_rows, n_classes)."""
        return self._per_class(X, [s], lambda c, lf, z: lf[:, 0])

    def logpdf2(self, X: np.ndarray, i: int, j: int) -> np.ndarray:
        """ln [c_rho(F_i, F_j) f_i f_j](x_i, x_j | y), shape (n_rows, n_classes)."""

        def one(c, lf, z):
            rho = self.corr_[c, i, j]
            return lf[:, 0] + lf[:, 1] + log_gauss_copula_pair(z[:, 0], z[:, 1], rho)

        return self._per_class(X, [i, j], one)

    def logpdf_subset(self, X: np.ndarray, subset: Sequence[int]) -> np.ndarray:
        """ln p(x_A | y) for any feature subset A (k-GNB clusters), shape (n_rows, n_classes)."""
        subset = list(subset)
        if not subset:
            return np.zeros((X.shape[0], self.n_classes_))

        def one(c, lf, z):
            chol = np.linalg.cholesky(self.corr_[c][np.ix_(subset, subset)])
            w = np.linalg.solve(chol, z.T)
            log_c = (
                -np.log(np.diag(chol)).sum()
                - 0.5 * np.einsum("ij,ij->j", w, w)
                + 0.5 * np.einsum("ij,ij->i", z, z)
            )
            return log_c + lf.sum(axis=1)

        return self._per_class(X, subset, one)

    def _marginal_logsum(self, X: np.ndarray, c: int, cols: np.ndarray):
        """(sum over cols of ln f, z) for class c; subclasses may compute the sum directly."""
        lf, z = self._marginals(X, c, cols)
        return lf.sum(axis=1), z

    def log_density(self, X: np.ndarray, edges: Sequence[tuple[int, int]]) -> np.ndarray:
        """Vectorised forest log-density: sum of ln f over the covered features plus the sum
        of ln c_rho over the edges (the same value as the edge-by-edge base implementation).

        The copula part is a quadratic form: ``sum_e ln c_rho_e(z_i, z_j) =
        -1/2 sum_e ln(1 - rho_e^2) - 1/2 z' K z`` with K the tree-structured matrix
        ``K_ss = sum_{e at s} rho_e^2 / (1 - rho_e^2)``, ``K_ij = -rho_e / (1 - rho_e^2)``,
        so one matrix product per class replaces d - 1 pair evaluations.
        """
        edges = np.asarray(edges, dtype=int).reshape(-1, 2)
        cols = np.unique(edges)
        pos = np.searchsorted(cols, edges)

        def one(c, lf_sum, z):
            rho = self.corr_[c, edges[:, 0], edges[:, 1]]
            r2 = rho * rho
            K = np.zeros((cols.size, cols.size))
            np.add.at(K, (pos[:, 0], pos[:, 0]), r2 / (1.0 - r2))
            np.add.at(K, (pos[:, 1], pos[:, 1]), r2 / (1.0 - r2))
            np.add.at(K, (pos[:, 0], pos[:, 1]), -rho / (1.0 - r2))
            np.add.at(K, (pos[:, 1], pos[:, 0]), -rho / (1.0 - r2))
            quad = np.einsum("ij,ij->i", z @ K, z)
            return lf_sum - 0.5 * np.log1p(-r2).sum() - 0.5 * quad

        return np.column_stack(
            [one(c, *self._marginal_logsum(X, c, cols)) for c in range(self.n_classes_)]
        )
