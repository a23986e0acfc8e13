"""Class-conditional bivariate KDE densities (paper 1 §3.2, the general "GNB KDE" model).

Two kernels (``ClassKDE(kernel=...)``):

* ``"product"`` (default): per class y and selected pair (i, j), a Gaussian product-kernel
  KDE with bandwidths h_s = factor * std(x_s | y) (factor = Scott's n_y^(-1/6) for two
  dimensions, or the given float). The single-feature densities are 1-D KDEs with the *same*
  h_s: exactly the marginals of every pair KDE containing s (a product kernel integrates out
  to the 1-D kernel), so the eq. 1 ratio is a proper density and the same separator density
  serves all pairs of s. Evaluation is on binned grids (see :mod:`estimators.densities.kde`).
* ``"full"``: :class:`scipy.stats.gaussian_kde` with its defaults, as paper 1's own code:
  each pair KDE has the kernel covariance factor^2 * Cov(x_i, x_j | y) (Scott's factor
  n^(-1/6) of its sample), each single feature its own 1-D KDE (factor n^(-1/5)). The 1-D
  KDE is then not the marginal of the pair KDEs (the eq. 1 ratio is not exactly
  normalised), and evaluation is an exact kernel sum (:mod:`estimators.densities.kde_full`),
  O(n_train * n_points).

Which rows: every KDE of class y uses the class rows where its features are observed
(available cases); a class without such rows uses the whole table's.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from estimators.densities._pair_density import PairDensity, class_rows
from estimators.densities.kde import KDE1D, KDE2D, bandwidth_factor, class_kde, class_sample
from estimators.densities.kde_full import FullKDE, kernel_covariance

#: the kernels of ClassKDE (see the module docstring)
KERNELS = ("product", "full")


class ClassKDE(PairDensity):
    """Bivariate KDE per class for the given pairs, with 1-D KDEs of their features.

    Parameters
    ----------
    bandwidth : {"scott", "silverman"} or float, default="scott"
        Bandwidth rule or factor (:func:`~estimators.densities.kde.bandwidth_factor`, scipy's
        ``bw_method`` convention) of the 2-D and 1-D kernels.
    min_std : float, default=0.0
        Floor on the kernel standard deviations (constant features).
    kernel : {"product", "full"}, default="product"
        ``"product"``: axis-aligned product kernel whose 1-D marginals are the single-feature
        KDEs, on binned grids. ``"full"``: scipy ``gaussian_kde``'s kernel (covariance
        factor^2 times the class covariance of the pair; single features with their own
        1-D factor), exact kernel sums: paper 1's implementation.

    Attributes
    ----------
    h_ : list of dict
        Per class, the 1-D kernel standard deviation of each feature.
    kde1_, kde2_ : list of dict
        Per class, the fitted 1-D KDE of each feature and 2-D KDE of each pair ``(i, j)``,
        ``i < j`` (:class:`KDE1D` / :class:`KDE2D`, or :class:`FullKDE`).

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.stats import gaussian_kde
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 3)); y = np.repeat([0, 1], 150)
    >>> m = ClassKDE().fit(X, y, 2, [(0, 1), (1, 2)])
    >>> m.logpdf2(X[:2], 0, 1).shape
    (2, 2)
    >>> full = ClassKDE(kernel="full").fit(X, y, 2, [(0, 1), (1, 2)])
    >>> ref = gaussian_kde(X[y == 1][:, [0, 1]].T).logpdf(X[:2, [0, 1]].T)
    >>> bool(np.allclose(full.logpdf2(X[:2], 1, 0)[:, 1], ref, rtol=1e-10))
    True
    """

    def __init__(self, bandwidth: str | float = "scott", min_std: float = 0.0,
                 kernel: str = "product") -> None:
        self.bandwidth = bandwidth
        self.min_std = min_std
        self.kernel = kernel

    def fit(
        self,
        X: np.ndarray,
        codes: np.ndarray,
        n_classes: int,
        pairs: Sequence[tuple[int, int]] = (),
        features: Sequence[int] = (),
    ) -> ClassKDE:
        """Fit the pair KDEs of ``pairs`` and the 1-D KDEs of their features and of
        ``features`` (roots of a rooted model), per class."""
        if self.kernel not in KERNELS:
            raise ValueError(f"ClassKDE: kernel must be one of {list(KERNELS)}; got "
                             f"{self.kernel!r}.")
        X = np.asarray(X, dtype=float)
        self.n_classes_ = n_classes
        feats = sorted({s for p in pairs for s in p} | {int(s) for s in features})
        pairs = sorted({(min(p), max(p)) for p in pairs})
        self.h_: list[dict[int, float]] = []
        self.kde1_: list[dict] = []
        self.kde2_: list[dict] = []
        fit_class = _product_class if self.kernel == "product" else _full_class
        for rows in class_rows(codes, n_classes):
            kde1, kde2 = fit_class(X, rows, feats, pairs, self.bandwidth, self.min_std)
            self.h_.append({s: k.h for s, k in kde1.items()})
            self.kde1_.append(kde1)
            self.kde2_.append(kde2)
        return self

    def logpdf1(self, X: np.ndarray, s: int) -> np.ndarray:
        """ln f_s(x_s | y), shape (n_rows, n_classes)."""
        return np.column_stack([k[s].logpdf(X[:, s]) for k in self.kde1_])

    def logpdf2(self, X: np.ndarray, i: int, j: int) -> np.ndarray:
        """ln f_ij(x_i, x_j | y), shape (n_rows, n_classes); the pair must have been fitted."""
        a, b = min(i, j), max(i, j)
        return np.column_stack([k[(a, b)].logpdf(X[:, a], X[:, b]) for k in self.kde2_])


def _product_class(X, rows, feats, pairs, bandwidth, min_std) -> tuple[dict, dict]:
    """One class's product-kernel KDEs: one factor (for two dimensions) for all of them."""
    factor = bandwidth_factor(bandwidth, rows.size, 2)
    kde1: dict[int, KDE1D] = {s: class_kde(X[:, s], rows, factor, min_std) for s in feats}
    kde2: dict[tuple[int, int], KDE2D] = {}
    for a, b in pairs:
        both = _pair_sample(X, rows, a, b)
        kde2[(a, b)] = KDE2D(both[:, 0], both[:, 1], (kde1[a].h, kde1[b].h))
    return kde1, kde2


def _full_class(X, rows, feats, pairs, bandwidth, min_std) -> tuple[dict, dict]:
    """One class's scipy-``gaussian_kde`` KDEs: each with the factor of its own sample size
    and dimension."""
    kde1: dict[int, FullKDE] = {}
    for s in feats:
        n_obs = int(np.count_nonzero(~np.isnan(X[rows, s]))) or int(
            np.count_nonzero(~np.isnan(X[:, s])))
        values, h = class_sample(X[:, s], rows, bandwidth_factor(bandwidth, n_obs, 1),
                                 min_std)
        kde1[s] = FullKDE(values, h * h)
    kde2: dict[tuple[int, int], FullKDE] = {}
    for a, b in pairs:
        both = _pair_sample(X, rows, a, b)
        factor = bandwidth_factor(bandwidth, both.shape[0], 2)
        spread = None
        if both.shape[0] < 2:  # too few rows for a class covariance: the whole table's
            table = _pair_sample(X, np.arange(X.shape[0]), a, b)
            spread = np.cov(table, rowvar=False) if table.shape[0] > 1 else np.zeros((2, 2))
        kde2[(a, b)] = FullKDE(both, kernel_covariance(both, factor, min_std, spread))
    return kde1, kde2


def _pair_sample(X: np.ndarray, rows: np.ndarray, a: int, b: int) -> np.ndarray:
    """The class rows where both features are observed (available cases); the whole
    table's complete rows of the pair if the class has none."""
    both = X[rows][:, [a, b]]
    both = both[~np.isnan(both).any(axis=1)]
    if both.shape[0] == 0:
        both = X[:, [a, b]][~np.isnan(X[:, [a, b]]).any(axis=1)]
    return both
