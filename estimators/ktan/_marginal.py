"""Prediction with missing cells: the k-TAN's CG factors handed to the exact
marginalisation engine of :mod:`estimators.marginal` (MATH.md §8).

The fitted factors (:mod:`estimators.scores._cg_factors`) keep one cell per parent
configuration seen in training plus an "unseen" slot; the engine's factors
(:mod:`estimators.marginal.factors`) are indexed by every configuration of the categorical
parents, with the class on axis 0. :func:`marginal_factors` lays the first out as the second
(a configuration not seen in training gets the unseen slot, as at complete rows) and
renumbers the modelled columns ``0 .. d - 1``. :func:`log_marginal` then returns
``ln p(y, x_O)`` for rows with missing cells: the engine groups the rows by missing pattern,
drops missing vertices without an observed descendant, sums categorical vertices,
integrates linear-Gaussian blocks in closed form and a continuous vertex with a categorical
descendant by a Gauss–Hermite rule (order :data:`estimators.marginal.GH_ORDER`; its error is
stated in :mod:`estimators.marginal.mixed`).
"""

from __future__ import annotations

import numpy as np

from estimators.columns import EncodedColumns
from estimators.marginal import BayesFactor, LinearGaussianFactor, TableFactor, cg_log_marginal
from estimators.scores._cg_factors import BayesCategoricalFactor, CategoricalFactor


def _by_configuration(factor, array: np.ndarray) -> np.ndarray:
    """``array`` of shape (U + 1, m, ...) laid out as (m, r_d1, ..., r_dk, ...) over every
    configuration of the factor's categorical parents."""
    codes = np.arange(int(np.prod(factor.radix)))
    pos = np.minimum(np.searchsorted(factor.configs, codes), factor.n_configs - 1)
    u = np.where(factor.configs[pos] == codes, pos, factor.n_configs)
    full = np.moveaxis(array[u], 1, 0)  # (m, P, ...)
    return full.reshape(full.shape[:1] + tuple(int(r) for r in factor.radix) + full.shape[2:])


def marginal_factors(network) -> list:
    """The engine's factors of a :class:`~estimators.ktan._network.CGNetwork`, vertex ``i``
    being ``network.columns[i]``."""
    pos = {v: i for i, v in enumerate(network.columns)}
    out = []
    for i, f in enumerate(network.factors):
        cat = tuple(pos[p] for p in f.categorical_parents)
        cont = tuple(pos[p] for p in f.continuous_parents)
        if isinstance(f, CategoricalFactor):
            out.append(TableFactor(i, cat, _by_configuration(f, f.log_cpt),
                                   int(f.log_cpt.shape[2])))
        elif isinstance(f, BayesCategoricalFactor):
            out.append(BayesFactor(i, cat, cont, _by_configuration(f, f.log_cpt),
                                   _by_configuration(f, f.mean),
                                   _by_configuration(f, np.linalg.inv(f.precision))))
        else:
            out.append(LinearGaussianFactor(i, cat, cont, _by_configuration(f, f.intercept),
                                            _by_configuration(f, f.coef),
                                            _by_configuration(f, f.var)))
    return out


def log_marginal(network, enc: EncodedColumns, class_log_prior: np.ndarray) -> np.ndarray:
    """``ln p(y, x_O)`` of every row and class, the missing (or unseen) cells of the
    modelled columns marginalised; shape (n_samples, n_classes)."""
    cols = list(network.columns)
    X = np.where(enc.continuous[cols], enc.values[:, cols], enc.codes[:, cols].astype(float))
    missing = ~enc.observed[:, cols]
    return cg_log_marginal(marginal_factors(network), np.asarray(class_log_prior), X, missing)
