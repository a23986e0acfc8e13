"""Structure learning for the GNB classifiers: the seam to :mod:`estimators.scores` and
:mod:`estimators.search` (paper 1 Algorithm 1: CMI edge weights, then Kruskal).

Everything the classifiers need from those packages goes through this module.
"""

from __future__ import annotations

import numpy as np

from estimators.densities import DENSITIES, PairDensity
from estimators.densities.kde_pair import KERNELS
from estimators.scores import GaussianCMI, GaussianCopulaCMI, KDECopulaCMI
from estimators.search import maximum_spanning_tree

#: the CMI score matching each dependence model (MATH.md §1)
SCORES = {
    "gaussian": GaussianCMI,
    "gaussian-copula": GaussianCopulaCMI,
    "kde": KDECopulaCMI,
}
#: the dependence models of GNBClassifier (the registry the command line offers)
DEPENDENCES = tuple(SCORES)
__all__ = ["DEPENDENCES", "KERNELS", "SCORES", "learn_tree", "make_density", "make_score"]


def make_score(dependence: str, bandwidth: str | float = "scott", n_jobs: int | None = None):
    """An unfitted CMI score for ``dependence`` (bandwidth goes to the kernel-based ones).

    The Gaussian-copula score uses ``marginals="kernel"``: normal scores from the class-y
    kernel CDF of the raw values, the same transform as the fitted copula density
    (:class:`~estimators.densities.ClassGaussianCopula`), so structure and density agree.
    """
    if dependence == "gaussian":
        return GaussianCMI(n_jobs=n_jobs)
    if dependence == "gaussian-copula":
        return GaussianCopulaCMI(marginals="kernel", bandwidth=bandwidth, n_jobs=n_jobs)
    return SCORES[dependence](bandwidth=bandwidth, n_jobs=n_jobs)


def learn_tree(
    X: np.ndarray, codes: np.ndarray, dependence: str, bandwidth: str | float, n_jobs: int | None
) -> tuple[list[tuple[int, int]], np.ndarray]:
    """Maximum-weight spanning tree of the CMI edge matrix.

    Returns the edges as column-index pairs in Kruskal's selection order and their weights
    I(X_i; X_j | Y) in nats.
    """
    W = make_score(dependence, bandwidth, n_jobs).fit(X, codes).edge_matrix()
    edges = [(int(i), int(j)) for i, j in maximum_spanning_tree(W).edges]
    weights = np.array([W[i, j] for i, j in edges])
    return edges, weights


def make_density(
    dependence: str, bandwidth: str | float, var_smoothing: float, X: np.ndarray,
    kernel: str = "product",
) -> PairDensity:
    """The unfitted class-conditional density model of ``dependence`` (``kernel`` goes to
    the KDE: :class:`~estimators.densities.ClassKDE`)."""
    if dependence == "gaussian":
        return DENSITIES["gaussian"](var_smoothing=var_smoothing)
    min_std = float(np.sqrt(var_smoothing * np.nanmax(np.nanvar(X, axis=0))))
    if dependence == "kde":
        return DENSITIES["kde"](bandwidth=bandwidth, min_std=min_std, kernel=kernel)
    return DENSITIES[dependence](bandwidth=bandwidth, min_std=min_std)
