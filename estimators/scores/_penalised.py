"""Complexity-aware hyperedge scores: BIC/MDL around any likelihood score, and BDeu.

The plug-in scores of MATH.md §1 never decrease when a parent is added, so a larger k always
scores higher on training data. The two scores here trade fit against complexity, in nats of
total (not per-row) log-likelihood, and both can be negative:

* BIC/MDL (Schwarz), for any fitted score that can count its parameters::

      f_BIC(v, P) = n I(X_v; X_P | Y) - 1/2 ln n * Delta_dim(v, P)

  ``n I`` is the training log-likelihood gain of giving ``v`` the parents ``P`` (every
  class keeps its own model), ``Delta_dim`` the free parameters it adds, counted per class:
  ``m (r_v - 1)(q_P - 1)`` for a CPT (``r`` categories, ``q_P = prod_p r_p`` parent
  configurations, ``m`` classes) and ``m |P|`` for a linear-Gaussian regression.

* BDeu (Heckerman, Geiger & Chickering 1995) for categorical data: the log marginal
  likelihood of ``x_v`` given ``(x_P, y)`` minus that given ``y`` alone, each family under
  a Dirichlet prior with equivalent sample size ``ess`` spread uniformly over its cells::

      ML(v | Q) = sum_j [ lnG(a_j) - lnG(a_j + N_j) ] + sum_{j,k} [ lnG(a_jk + N_jk) - lnG(a_jk) ]
      a_jk = ess / (r_v q_Q),   a_j = ess / q_Q,
      f_BDeu(v, P) = ML(v | P u {y}) - ML(v | {y})

  with ``j`` over the ``q_Q`` configurations of the conditioning set ``Q`` and ``k`` over
  the values of ``x_v`` (configurations without rows contribute 0). BDeu is score
  equivalent, so its pair scores are symmetric and the sum over a k-tree does not depend on
  its creation order.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from numbers import Real

import numpy as np
from scipy.special import gammaln
from sklearn.base import BaseEstimator, clone
from sklearn.utils._param_validation import HasMethods, Interval
from sklearn.utils.validation import check_is_fitted

from estimators.base.parameters import Parameter, declare
from estimators.base.validation import ValidatedData
from estimators.scores._score_base import SCORE_N_JOBS

from ._discrete import CodeData, DiscreteCMI, hyperedge_table, map_pair_tables
from ._score_base import BaseCMI

__all__ = ["BIC", "DiscreteBDeu"]


@declare(
    Parameter("base", None, [None, HasMethods(["fit", "extra_parameters", "extra_parameter_matrix"])], 'score estimator',
              'An unfitted score with ``extra_parameters`` and '
              '``extra_parameter_matrix``; None means ``DiscreteCMI()``.'),
)
class BIC(BaseEstimator):
    """BIC/MDL hyperedge score ``n I(X_v; X_P | Y) - 1/2 ln n * Delta_dim(v, P)``.

    Wraps a likelihood score (see the module docstring for the formula): its plug-in
    class-conditional mutual information times the number of rows ``n`` is the training
    log-likelihood gain, and its ``extra_parameters`` count the free parameters added.
    ``DiscreteCMI()`` (the default; keep ``alpha=0`` for the maximum-likelihood gain) and
    ``GaussianCMI()`` can count theirs. Searchers take the fitted object like any score.

    Attributes
    ----------
    base_ : fitted score
        The fitted clone of ``base``.
    n_samples_ : int
        Rows ``n`` the score was fitted on.
    variables_, classes_, n_features_in_
        As in :class:`BaseCMI`.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 1000)
    >>> a = rng.integers(0, 3, 1000)
    >>> X = np.column_stack([a, (a + (rng.random(1000) < 0.2)) % 3, rng.integers(0, 3, 1000)])
    >>> bic = BIC().fit(X, y)
    >>> bic.score(1, [0]) > 0 > bic.score(2, [0])  # a real edge pays, noise does not
    True
    >>> bic.base_.extra_parameters(2, {0, 1})  # m (r_v - 1)(r_0 r_1 - 1) = 2 * 2 * 8
    32
    """

    def __init__(self, base: BaseCMI | None = None):
        self.base = base

    def fit(self, X, y) -> BIC:
        """Fit the wrapped score.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        if self.base is not None and not hasattr(self.base, "extra_parameters"):
            raise TypeError(
                f"BIC needs a score that counts its parameters (extra_parameters); "
                f"{type(self.base).__name__} does not. Use DiscreteCMI or GaussianCMI."
            )
        self._validate_params()
        self.base_ = clone(DiscreteCMI() if self.base is None else self.base).fit(X, y)
        self.n_samples_ = int(np.asarray(y).shape[0])
        self.variables_ = self.base_.variables_
        self.classes_ = self.base_.classes_
        self.n_features_in_ = self.base_.n_features_in_
        return self

    @property
    def families(self) -> tuple[str, ...] | None:
        """The feature families it serves: those of ``base`` (``DiscreteCMI()`` if None;
        None when ``base`` declares none)."""
        found = getattr(DiscreteCMI if self.base is None else self.base, "families", None)
        return None if found is None else tuple(found)

    @property
    def _half_log_n(self) -> float:
        return 0.5 * float(np.log(self.n_samples_))

    def score(self, v: Hashable, parents: Iterable[Hashable]) -> float:
        """``n I(X_v; X_P | Y) - 1/2 ln n * Delta_dim(v, P)`` in nats.

        Parameters
        ----------
        v : hashable
        parents : iterable of hashable

        Returns
        -------
        float
        """
        return float(self.score_many([(v, parents)])[0])

    __call__ = score

    def score_many(self, items: Iterable[tuple[Hashable, Iterable[Hashable]]]) -> np.ndarray:
        """The BIC score of many ``(v, parents)`` items (the CMIs through the base's cache).

        Returns
        -------
        ndarray of shape (len(items),)
        """
        check_is_fitted(self, "base_")
        items = [(v, tuple(p)) for v, p in items]
        gain = self.base_.score_many(items)
        dims = np.array(
            [self.base_.extra_parameters(*self.base_._resolve(v, p)) for v, p in items], dtype=float
        )
        return self.n_samples_ * gain - self._half_log_n * dims

    def edge_matrix(self) -> np.ndarray:
        """The symmetric matrix of pair scores (zero diagonal).

        Returns
        -------
        ndarray of shape (n_features, n_features)
        """
        check_is_fitted(self, "base_")
        return self.n_samples_ * self.base_.edge_matrix() - self._half_log_n * (
            self.base_.extra_parameter_matrix()
        )


@dataclass(eq=False)
class BDeuData(CodeData):
    """Payload of :class:`DiscreteBDeu`: the codes plus the equivalent sample size."""

    ess: float = 1.0


def _log_ml(N: np.ndarray, q: np.ndarray, r: np.ndarray, ess: float) -> np.ndarray:
    """BDeu log marginal likelihood of count tables ``N[..., j, k]`` (last axis: the child),
    summed over the last two axes; ``q``, ``r`` broadcast against ``N[..., 0, 0]``."""
    a_j = (ess / q)[..., None]
    a_jk = (ess / (q * r))[..., None, None]
    per_config = gammaln(a_j) - gammaln(a_j + N.sum(axis=-1))
    per_cell = gammaln(a_jk + N) - gammaln(a_jk)
    return per_config.sum(axis=-1) + per_cell.sum(axis=(-2, -1))


def _pair_bdeu(N: np.ndarray, pairs: np.ndarray, data: BDeuData) -> np.ndarray:
    """BDeu gain of ``x_j`` given ``x_i`` from tables (k, m, K_i, K_j) (symmetric in i, j)."""
    k, m, K = N.shape[0], N.shape[1], N.shape[2]
    Ki = data.K[pairs[:, 0]].astype(float)
    Kj = data.K[pairs[:, 1]].astype(float)
    with_parent = _log_ml(N.reshape(k, m * K, K), m * Ki, Kj, data.ess)
    without = _log_ml(N.sum(axis=2), np.full(k, float(m)), Kj, data.ess)
    return with_parent - without


def bdeu_pair_block(data: BDeuData, pairs: np.ndarray) -> np.ndarray:
    """BDeu gain for each pair (rows of ``pairs``), from the shared pair tables."""
    return map_pair_tables(data, pairs, lambda N, p: _pair_bdeu(N, p, data))


def bdeu_hyperedge_block(data: BDeuData, items: list) -> np.ndarray:
    """BDeu gain ``ML(v | P u {y}) - ML(v | {y})`` for each ``(v, parents)`` item."""
    out = np.empty(len(items))
    for t, (v, parents) in enumerate(items):  # loop over hyperedges, not rows
        N, n_configs = hyperedge_table(data, v, parents)
        m, r = float(data.m), float(data.K[v])
        out[t] = _log_ml(N.reshape(-1, N.shape[2]), np.float64(m * n_configs), r, data.ess) - (
            _log_ml(N.sum(axis=1), np.float64(m), r, data.ess)
        )
    return out


@declare(
    Parameter("ess", 1.0, [Interval(Real, 0, None, closed="neither")], 'float',
              'Equivalent sample size of the BDeu prior (> 0).'),
    SCORE_N_JOBS,
)
class DiscreteBDeu(DiscreteCMI):
    """BDeu marginal-likelihood gain of categorical features (formula: module docstring).

    ``f(v, P) = ML(v | P u {y}) - ML(v | {y})`` in nats: the log Bayes factor of giving
    ``v`` the feature parents ``P`` in a Bayesian network where the class is a parent of
    every feature. Negative when the data do not support the parents.

    Attributes
    ----------
    variables_, classes_, class_prior_, constant_in_class_, n_features_in_, data_,
    categories_
        See :class:`DiscreteCMI`.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 300)
    >>> a = rng.integers(0, 3, 300)
    >>> X = np.column_stack([a, (a + (rng.random(300) < 0.3)) % 3, rng.integers(0, 2, 300)])
    >>> bdeu = DiscreteBDeu(ess=2.0).fit(X, y)
    >>> bool(np.isclose(bdeu(0, [1]), bdeu(1, [0])))  # score equivalence
    True
    >>> bdeu(1, [0]) > 0 > bdeu(2, [0])  # a real edge is supported, noise is not
    True
    """

    _pair_block = staticmethod(bdeu_pair_block)
    _hyperedge_block = staticmethod(bdeu_hyperedge_block)
    alpha = 0.0  # the counts are used raw (the prior lives in the score)

    def __init__(self, *, ess: float = 1.0, n_jobs: int | None = None):
        self.ess = ess
        self.n_jobs = n_jobs

    def _prepare(self, data: ValidatedData) -> BDeuData:
        codes = super()._prepare(data)
        return BDeuData(**vars(codes), ess=float(self.ess))

