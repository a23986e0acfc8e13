"""What the CG engine's two paths (:mod:`.mixed`, :mod:`.posterior`) share: the summed
variables and values of a missing pattern, and the linear-Gaussian regressions of the
factors evaluated on those broadcast arrays."""

from __future__ import annotations

import numpy as np

from estimators.marginal._elimination import axis_shape, check_summed


def regression_at(factor, values: dict, ndim: int):
    """The factor's ``(intercept, coef, var)`` at the parents' values, lifted to ``ndim``
    leading axes (a factor without parents returns arrays of rows x classes only)."""
    intercept, coef, var = factor.regression({p: values[p] for p in factor.parents})

    def lift(a, trailing=0):
        a = np.asarray(a, dtype=float)
        lead = a.ndim - trailing
        return a.reshape(a.shape[:lead] + (1,) * (ndim - lead) + a.shape[lead:])

    return lift(intercept), lift(coef, 1), lift(var)


def mean_at(factor, values: dict, intercept: np.ndarray, coef: np.ndarray, skip=()) -> np.ndarray:
    """``intercept + sum_j coef_j x_j`` over the continuous parents not in ``skip``."""
    out = intercept
    for j, p in enumerate(factor.continuous_parents):
        if p not in skip:
            out = out + coef[..., j] * values[p]
    return out


def linear_in(factor, values: dict, ndim: int, pos: dict) -> tuple:
    """The factor's regression as a linear function of the vertices ``pos`` (vertex ->
    position among ``len(pos)``): ``(mean over its other parents, coefficient of each
    vertex -- 0.0 where it is not a parent --, variance)``, lifted to ``ndim`` axes."""
    intercept, coef, var = regression_at(factor, values, ndim)
    row = [0.0] * len(pos)
    for j, p in enumerate(factor.continuous_parents):
        if p in pos:
            row[pos[p]] = coef[..., j]
    return mean_at(factor, values, intercept, coef, skip=pos), row, var


def pattern_values(factors, order, X: np.ndarray, pattern: np.ndarray, keep: np.ndarray,
                   quad: np.ndarray):
    """The summed variables of a pattern (missing kept categorical vertices and the
    Gauss-Hermite vertices ``quad``, in ``order``) and the values of the kept vertices on
    arrays of ``2 + len(summed)`` axes: observed columns (codes as integers), each summed
    categorical vertex's states on its axis, zeros for a missing continuous vertex (a
    placeholder: regressions select cells by categorical parents only). Returns
    ``(summed, axis of each summed vertex, values)``."""
    continuous = np.array([f.continuous for f in factors])
    summed = [v for v in order if keep[v] and pattern[v] and (quad[v] or not continuous[v])]
    check_summed(len(summed), "categorical features or Gauss-Hermite vertices")
    n_vars = len(summed)
    axis = {v: a for a, v in enumerate(summed)}
    lead = (X.shape[0], 1) + (1,) * n_vars
    values: dict[int, np.ndarray] = {}
    for v in order:
        if not keep[v]:
            continue
        if not pattern[v]:
            col = X[:, v].reshape(lead)
            values[v] = col if continuous[v] else col.astype(np.intp)
        elif continuous[v]:
            values[v] = np.zeros(lead)
        else:
            size = factors[v].n_states
            values[v] = np.arange(size).reshape(axis_shape(n_vars, axis[v], size))
    return summed, axis, values
