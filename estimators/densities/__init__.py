"""Class-conditional densities for the GNB classifiers (MATH.md §3).

``DENSITIES`` maps each ``dependence`` name to its model class.
"""

from estimators.densities._normal_scores import NormalScoreDensity
from estimators.densities._pair_density import PairDensity
from estimators.densities.copula_density import ClassGaussianCopula
from estimators.densities.gaussian_density import ClassGaussian
from estimators.densities.kde import KDE1D, KDE2D
from estimators.densities.kde_pair import ClassKDE

DENSITIES: dict[str, type[PairDensity]] = {
    "gaussian": ClassGaussian,
    "gaussian-copula": ClassGaussianCopula,
    "kde": ClassKDE,
}

__all__ = [
    "DENSITIES",
    "KDE1D",
    "KDE2D",
    "ClassGaussian",
    "ClassGaussianCopula",
    "ClassKDE",
    "NormalScoreDensity",
    "PairDensity",
]
