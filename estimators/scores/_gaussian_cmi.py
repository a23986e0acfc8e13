"""Gaussian and Gaussian-copula class-conditional mutual information (MATH.md §1).

Both use the closed form

    I(X_v; X_P | Y) = 1/2 sum_y p(y) [ln det R_{P|y} - ln det R_{vP|y}]

on one correlation matrix ``R_y`` per class (of the raw features, or of their class-y normal
scores for the copula); one parent gives ``-1/2 sum_y p(y) ln(1 - r_y^2)``. A feature constant
within a class gets a unit row/column in that class's ``R_y``, so it contributes nothing there.
Parents collinear within a class (``R_{P|y}`` singular, e.g. a class of 4 rows and 3
features) contribute ``-1/2 ln(1 - R^2)`` there, R^2 the squared multiple correlation of v on
their span: the information of their independent part (a limit, not a NaN).

A class with fewer than ``min_class_rows`` rows (when that is set) has no correlation of its
own worth the name (two rows always correlate perfectly: +inf nats): its ``R_y`` is then the
correlation matrix of all rows, as the classifiers pool such a class's Gaussian cells with
the other classes (``estimators.learning.structure_scores.MIN_CELL_ROWS``), so the structure is scored under the
model it fits.
"""

from __future__ import annotations

from abc import abstractmethod
from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from estimators.base.parameters import Parameter, declare
from estimators.base.validation import ValidatedData
from estimators.densities.kde import BANDWIDTH
from estimators.scores._score_base import SCORE_N_JOBS

from ._correlation_blocks import (
    CorrelationData,
    correlation_positions,
    gaussian_hyperedge_block,
    gaussian_pair_block,
)
from ._marginals import normal_scores
from ._positions import PositionsCMI
from .partition_scores import gaussian_from_data

__all__ = ["GaussianCMI", "GaussianCopulaCMI"]

def class_correlations(Z: list[np.ndarray], constant: np.ndarray, *,
                       overwrite: bool = False) -> np.ndarray:
    """One correlation matrix per class; constant features get unit rows/columns.

    Parameters
    ----------
    Z : list of ndarray, ``Z[c]`` of shape (n_c, d)
    constant : ndarray of bool, shape (m, d)
    overwrite : bool, default=False
        Centre and scale each ``Z[c]`` in place (the same operations) instead of in copies.

    Returns
    -------
    ndarray of shape (m, d, d)

    Examples
    --------
    >>> import numpy as np
    >>> Z = [np.array([[0.0, 1.0], [1.0, 3.0], [2.0, 2.0]])]
    >>> class_correlations(Z, np.array([[False, False]]))[0].round(3)
    array([[1. , 0.5],
           [0.5, 1. ]])
    """
    m, d = constant.shape
    R = np.empty((m, d, d))
    for c in range(m):  # one matrix product per class
        A = np.subtract(Z[c], Z[c].mean(axis=0), out=Z[c] if overwrite else None)
        sd = np.sqrt((A * A).sum(axis=0))
        sd[constant[c] | (sd == 0)] = np.inf
        A /= sd
        Rc = A.T @ A
        Rc = np.clip((Rc + Rc.T) / 2.0, -1.0, 1.0)
        np.fill_diagonal(Rc, 1.0)
        R[c] = Rc
    return R


def gaussian_pair_matrix(data: CorrelationData) -> np.ndarray:
    """:func:`gaussian_pair_block` for every pair at once, as a (d, d) matrix with a zero
    diagonal, computed in place class by class (the same operations, so the same bits)."""
    W = np.zeros(data.R.shape[1:])
    t = np.empty_like(W)
    with np.errstate(divide="ignore"):
        for c, Rc in enumerate(data.R):
            np.multiply(Rc, Rc, out=t)
            np.negative(t, out=t)
            np.log1p(t, out=t)
            t *= data.prior[c]
            W += t
    W *= -0.5
    np.fill_diagonal(W, 0.0)
    return W


class _CorrelationCMI(PositionsCMI):
    #: the feature families it serves (the score protocol; :mod:`estimators.scores`)
    families = ("gaussian",)
    _pair_block = staticmethod(gaussian_pair_block)
    _hyperedge_block = staticmethod(gaussian_hyperedge_block)
    _dense_pairs = staticmethod(gaussian_pair_matrix)

    @abstractmethod
    def _normal_data(self, data: ValidatedData) -> list[np.ndarray]:
        ...

    def _positions(self, V: np.ndarray, P: np.ndarray) -> np.ndarray:
        """Each parent set's log-determinant computed once (:func:`correlation_positions`)."""
        return correlation_positions(self.data_, V, P, self._position_cache, self.n_jobs)

    def extra_parameters(self, vi: int, parents: frozenset) -> int:
        """Free parameters that giving feature ``vi`` the parents ``parents`` adds to its
        class-conditional linear-Gaussian regression: one coefficient per parent and class."""
        return self.data_.R.shape[0] * len(parents)

    def extra_parameter_matrix(self) -> np.ndarray:
        """``extra_parameters(i, {j})`` for all pairs: ``m`` off the diagonal."""
        m, d = self.data_.R.shape[:2]
        return m * (1.0 - np.eye(d))

    def _prepare(self, data: ValidatedData) -> CorrelationData:
        Z = self._normal_data(data)  # fresh arrays (class rows, or their normal scores)
        counts = np.array([len(z) for z in Z])
        small = counts < (self.min_class_rows or 0)
        pooled = (class_correlations([np.concatenate(Z)], self.constant_in_class_.all(axis=0)[None])
                  if small.any() and not small.all() else None)
        R = class_correlations(Z, self.constant_in_class_, overwrite=True)
        if pooled is not None:  # too few rows for a class correlation: all rows' (module doc)
            R[small] = pooled[0]
        return CorrelationData(R, self.class_prior_)


#: the smallest class scored with its own correlation (GaussianCMI, GaussianCopulaCMI)
MIN_CLASS_ROWS = Parameter(
    "min_class_rows", None, [Interval(Integral, 1, None, closed="left"), None], "int or None",
    "A class with fewer rows is scored with the correlation of all rows (module "
    "docstring); None: every class with its own.")


@declare(
    MIN_CLASS_ROWS,
    SCORE_N_JOBS,
)
class GaussianCMI(_CorrelationCMI):
    """Gaussian class-conditional mutual information ``I(X_v; X_P | Y)`` (closed form).

    Any parent-set size, from one correlation matrix per class (MATH.md §1).

    Attributes
    ----------
    variables_, classes_, class_prior_, constant_in_class_, n_features_in_, data_
        See :class:`BaseCMI`; ``data_.R`` holds the per-class correlation matrices.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.multivariate_normal([0, 0, 0], [[1, .6, 0], [.6, 1, 0], [0, 0, 1]], 5000)
    >>> y = rng.integers(0, 2, 5000)
    >>> cmi = GaussianCMI().fit(X, y)
    >>> print(f"{cmi.score(0, {1}):.3f} vs population {-0.5 * np.log(1 - 0.36):.3f}")
    0.227 vs population 0.223
    >>> cmi.edge_matrix().shape
    (3, 3)
    """

    def __init__(self, *, min_class_rows: int | None = None, n_jobs: int | None = None):
        self.min_class_rows = min_class_rows
        self.n_jobs = n_jobs

    def fit_correlations(self, names, classes, counts, constant, R: np.ndarray) -> GaussianCMI:
        """Fit from the per-class correlation matrices themselves, without rows (class
        moments merged over partitions, a fitted copula's correlations).

        Parameters
        ----------
        names : list
            The variable names, one per row/column of ``R``.
        classes : ndarray of shape (m,)
            The class labels.
        counts : ndarray of shape (m,)
            Rows per class (the class prior is their share).
        constant : ndarray of bool, shape (m, d)
            Columns constant within a class (``constant_in_class_``).
        R : ndarray of shape (m, d, d)
            The correlation matrix of each class.

        Returns
        -------
        self

        Examples
        --------
        >>> import numpy as np
        >>> R = np.array([[[1.0, 0.6], [0.6, 1.0]], [[1.0, 0.0], [0.0, 1.0]]])
        >>> cmi = GaussianCMI().fit_correlations(["u", "v"], np.array([0, 1]), [30, 10],
        ...                                      np.zeros((2, 2), bool), R)
        >>> bool(np.isclose(cmi("u", {"v"}), -0.5 * 0.75 * np.log(1 - 0.36)))
        True
        """
        self._set_fitted(names, classes, counts, constant)
        self.data_ = CorrelationData(R, self.class_prior_)
        return self

    def _normal_data(self, data: ValidatedData) -> list[np.ndarray]:
        return [data.X[data.y == c] for c in range(data.classes.size)]

    def _fit_from_statistics(self, data) -> GaussianCMI:
        """From the class moments merged over the partitions (every parent-set size)."""
        mo, constant, R = gaussian_from_data(data)
        self.fit_correlations(data.names, mo.classes, mo.n, constant, R)
        self.moments_ = mo
        return self


@declare(
    Parameter("marginals", "rank-kernel", [StrOptions({"rank-kernel", "kernel", "rank"})], '{"rank-kernel", "kernel", "rank"}',
              '``"rank-kernel"``: ``F_hat`` is the class-y Gaussian-kernel CDF (MATH.md) '
              'computed on the class-y ranks, so the score depends on ranks only and is '
              'exactly invariant under increasing transforms of a feature, as a copula '
              'quantity should be. ``"kernel"``: the kernel CDF of the values themselves '
              '(close to, but not exactly, invariant). ``"rank"``: the class-y empirical '
              'CDF ``rank / (n_y + 1)``.'),
    BANDWIDTH,
    Parameter("eps", 1e-6, [Interval(Real, 0, 0.5, closed="neither")], 'float',
              '``u`` is clipped into ``(eps, 1 - eps)`` before ``Phi^-1``.'),
    MIN_CLASS_ROWS,
    SCORE_N_JOBS,
)
class GaussianCopulaCMI(_CorrelationCMI):
    """Gaussian-copula class-conditional mutual information (paper 1 thm 14, MATH.md §1).

    The Gaussian closed form on class-y normal scores ``z = Phi^-1(F_hat_{i|y}(x))``.

    Attributes
    ----------
    variables_, classes_, class_prior_, constant_in_class_, n_features_in_, data_
        See :class:`BaseCMI`.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> Z = rng.multivariate_normal([0, 0], [[1, .6], [.6, 1]], 3000)
    >>> X = np.column_stack([np.exp(Z[:, 0]), Z[:, 1] ** 3])  # Gaussian copula, other margins
    >>> y = rng.integers(0, 2, 3000)
    >>> ranks = GaussianCopulaCMI(marginals="rank").fit(X, y)
    >>> print(f"{ranks(0, {1}):.3f} vs population {-0.5 * np.log(1 - 0.36):.3f}")
    0.231 vs population 0.223
    >>> bool(ranks(0, {1}) == GaussianCopulaCMI(marginals="rank").fit(Z, y)(0, {1}))
    True
    """

    def __init__(
        self,
        *,
        marginals: str = "rank-kernel",
        bandwidth: str | float = "scott",
        eps: float = 1e-6,
        min_class_rows: int | None = None,
        n_jobs: int | None = None,
    ):
        self.marginals = marginals
        self.bandwidth = bandwidth
        self.eps = eps
        self.min_class_rows = min_class_rows
        self.n_jobs = n_jobs

    def _normal_data(self, data: ValidatedData) -> list[np.ndarray]:
        return normal_scores(
            data.X,
            data.y,
            data.classes.size,
            marginals=self.marginals,
            bandwidth=self.bandwidth,
            eps=self.eps,
        )
