"""Class-conditional bivariate KDE densities (paper 1 §3.2, the general "GNB KDE" model).

Per class y and selected pair (i, j): a Gaussian product-kernel KDE with bandwidths
h_s = factor * std(x_s | y) (factor = Scott's n_y^(-1/6) for two dimensions, or the given
float). The single-feature densities are 1-D KDEs with the *same* h_s: exactly the marginals
of every pair KDE containing s (a product kernel integrates out to the 1-D kernel), so the
eq. 1 ratio is a proper density and the same separator density serves all pairs of s.
Evaluation is on binned grids (see :mod:`estimators.densities.kde`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from estimators.densities._base import PairDensity, class_rows
from estimators.densities.copula import bandwidth_factor
from estimators.densities.kde import KDE1D, KDE2D, class_kde


class ClassKDE(PairDensity):
    """Bivariate product-kernel KDE per class for the given pairs, with matching 1-D marginals.

    Parameters
    ----------
    bandwidth : "scott" or float, default="scott"
        Bandwidth factor (scipy's ``bw_method`` convention) shared by the 2-D and 1-D kernels.
    min_std : float, default=0.0
        Floor on the standard deviation used for the bandwidth (constant features).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 3)); y = np.repeat([0, 1], 150)
    >>> m = ClassKDE().fit(X, y, 2, [(0, 1), (1, 2)])
    >>> m.logpdf2(X[:2], 0, 1).shape
    (2, 2)
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
        features: Sequence[int] = (),
    ) -> ClassKDE:
        """Fit the pair KDEs of ``pairs`` and the 1-D marginals of their features and of
        ``features`` (roots of a rooted model), per class."""
        X = np.asarray(X, dtype=float)
        self.n_classes_ = n_classes
        feats = sorted({s for p in pairs for s in p} | {int(s) for s in features})
        self.h_: list[dict[int, float]] = []
        self.kde1_: list[dict[int, KDE1D]] = []
        self.kde2_: list[dict[tuple[int, int], KDE2D]] = []
        for rows in class_rows(codes, n_classes):
            Xc = X[rows]
            factor = bandwidth_factor(self.bandwidth, Xc.shape[0], 2)
            kde1 = {s: class_kde(X[:, s], rows, factor, self.min_std) for s in feats}
            h = {s: k.h for s, k in kde1.items()}
            self.h_.append(h)
            self.kde1_.append(kde1)
            self.kde2_.append({(a, b): _pair_kde(X, rows, Xc, a, b, h)
                               for a, b in {(min(p), max(p)) for p in pairs}})
        return self

    def logpdf1(self, X: np.ndarray, s: int) -> np.ndarray:
        """ln f_s(x_s | y) (the marginal of the pair KDEs), shape (n_rows, n_classes)."""
        return np.column_stack([k[s].logpdf(X[:, s]) for k in self.kde1_])

    def logpdf2(self, X: np.ndarray, i: int, j: int) -> np.ndarray:
        """ln f_ij(x_i, x_j | y), shape (n_rows, n_classes); the pair must have been fitted."""
        a, b = min(i, j), max(i, j)
        return np.column_stack([k[(a, b)].logpdf(X[:, a], X[:, b]) for k in self.kde2_])


def _pair_kde(X: np.ndarray, rows: np.ndarray, Xc: np.ndarray, a: int, b: int,
              h: dict) -> KDE2D:
    """The class pair KDE on the class rows where both features are observed (available
    cases); the whole table's complete rows of the pair if the class has none."""
    both = Xc[:, [a, b]]
    both = both[~np.isnan(both).any(axis=1)]
    if both.shape[0] == 0:
        both = X[:, [a, b]][~np.isnan(X[:, [a, b]]).any(axis=1)]
    return KDE2D(both[:, 0], both[:, 1], (h[a], h[b]))
