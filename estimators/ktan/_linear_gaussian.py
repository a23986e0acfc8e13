"""Class-conditional linear-Gaussian regressions of a Gaussian k-TAN, given its parent map.

For class ``c`` and feature ``v`` with parents ``pa``:

    x_v | y = c, x_pa  ~  N(beta_c0 + sum_p beta_cp x_p, sigma_cv^2),

fitted by least squares on the class-``c`` rows, with the maximum-likelihood residual
variance plus ``var_floor`` (a small multiple of the largest feature variance, as
scikit-learn's ``GaussianNB.var_smoothing``) so that a feature constant within a class
does not give an infinite density.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: Relative variance floor: var_floor = VAR_SMOOTHING * max feature variance.
VAR_SMOOTHING = 1e-9


@dataclass(frozen=True)
class LinearGaussianCPDs:
    """Regressions of every feature on its parents, per class.

    Attributes
    ----------
    parents : tuple of tuple of int
        Feature parents of each feature (column indices, sorted).
    coef : tuple of ndarray
        ``coef[v]`` of shape ``(n_classes, 1 + len(parents[v]))``: intercept, then one
        coefficient per parent in the order of ``parents[v]``.
    var : ndarray of shape (n_classes, n_features)
        Residual variances.
    """

    parents: tuple[tuple[int, ...], ...]
    coef: tuple[np.ndarray, ...]
    var: np.ndarray

    def joint_log_likelihood(self, X: np.ndarray) -> np.ndarray:
        """``sum_v ln N(x_v; mean_cv(x_pa), var_cv)`` per row and class, shape (n, n_classes)."""
        n_classes = self.var.shape[0]
        out = np.zeros((X.shape[0], n_classes))
        for v, pa in enumerate(self.parents):
            design = np.column_stack([np.ones(X.shape[0]), X[:, list(pa)]])
            resid = X[:, [v]] - design @ self.coef[v].T  # (n, n_classes)
            out += -0.5 * (np.log(2 * np.pi * self.var[:, v]) + resid**2 / self.var[:, v])
        return out


def fit_linear_gaussian(
    X: np.ndarray,
    y_codes: np.ndarray,
    n_classes: int,
    parents: Sequence[Sequence[int]],
) -> LinearGaussianCPDs:
    """Least-squares regression of each feature on its parents within each class.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Training data (float).
    y_codes : ndarray of shape (n_samples,)
        Class codes in ``0 .. n_classes - 1``.
    n_classes : int
        Number of classes.
    parents : sequence of sequence of int
        Feature parents of each feature (column indices).

    Returns
    -------
    LinearGaussianCPDs

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> x0 = rng.normal(size=2000)
    >>> X = np.column_stack([x0, 2.0 * x0 + 1.0 + 0.5 * rng.normal(size=2000)])
    >>> cpds = fit_linear_gaussian(X, np.zeros(2000, dtype=int), 1, [(), (0,)])
    >>> np.round(cpds.coef[1][0], 1), round(float(cpds.var[0, 1]), 2)
    (array([1., 2.]), 0.25)
    """
    parents = tuple(tuple(sorted(int(p) for p in pa)) for pa in parents)
    floor = VAR_SMOOTHING * max(float(np.var(X, axis=0).max()), np.finfo(float).tiny)
    coef = [np.zeros((n_classes, 1 + len(pa))) for pa in parents]
    var = np.zeros((n_classes, X.shape[1]))
    for c in range(n_classes):
        Xc = X[y_codes == c]
        for v, pa in enumerate(parents):
            design = np.column_stack([np.ones(Xc.shape[0]), Xc[:, list(pa)]])
            beta = np.linalg.lstsq(design, Xc[:, v], rcond=None)[0]
            coef[v][c] = beta
            var[c, v] = np.mean((Xc[:, v] - design @ beta) ** 2) + floor
    return LinearGaussianCPDs(parents, tuple(coef), var)
