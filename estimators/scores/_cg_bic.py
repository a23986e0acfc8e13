"""BIC/MDL of the conditional Gaussian model on mixed tables with missing cells.

The conditional Gaussian score (MATH.md §7) is a per-row mean over the available cases of
each hyperedge (MATH.md §8), so its BIC counts rows per hyperedge::

    f_BIC(v, P) = n_vP f_CG(v, P) - 1/2 ln n_vP * Delta_dim(v, P)

``n_vP`` is the number of rows where v, every member of P and y are observed (the rows the
factor is fitted on), ``n_vP f_CG`` the training log-likelihood gain of giving v the
parents P on them, and ``Delta_dim`` the free parameters this adds to v's factor over its
``P = {}`` factor, counted per class (``m`` classes). With ``P = C u D`` (C continuous, D
categorical), ``q_D = prod_{p in D} r_p`` the configurations of D (``q_D = 1`` for D = {})
and ``r_v`` the categories of a categorical v::

    v categorical, C = {}:   Delta_dim = m (r_v - 1)(q_D - 1)                  (CPT)
    v continuous:            Delta_dim = m [q_D (|C| + 2) - 2]   (intercept, slopes, variance)
    v categorical, C != {}:  Delta_dim = m [q_D (r_v - 1)(1 + |C| + |C|(|C| + 1)/2) - (r_v - 1)]

The last line is the dimension of the Bayes-rule factor ``p(c | x_C, d, y)``: its log-odds
against a reference category are quadratic in ``x_C`` (one Gaussian per category with its
own covariance), ``1 + |C| + |C|(|C|+1)/2`` coefficients per non-reference category and cell
(d, y). The three lines agree where they meet (C = {} in the third is the first), and on
complete tables of one type they are the counts of the discrete and Gaussian BIC
(:class:`~estimators.scores.BIC`): ``m (r_v - 1)(q_P - 1)`` and ``m |P|``, with
``n_vP = n``. An ineligible hyperedge (too few complete rows) stays -inf.
"""

from __future__ import annotations

from math import prod

import numpy as np

from estimators.base.parameters import declare, declared_parameters
from estimators.scores._cg_batch import Hyperedges
from estimators.scores._conditional_gaussian import (
    CGData,
    ConditionalGaussianScore,
    cg_gains_and_rows,
)

__all__ = ["ConditionalGaussianBIC", "cg_extra_parameters"]


def cg_extra_parameters(data: CGData, v: int, parents: tuple) -> int:
    """``Delta_dim(v, P)`` of the module docstring (column indices of ``data.enc``)."""
    enc, m = data.enc, data.m
    cont = [p for p in parents if enc.continuous[p]]
    q = prod(int(enc.n_levels[p]) for p in parents if not enc.continuous[p])
    c = len(cont)
    if enc.continuous[v]:
        return m * (q * (c + 2) - 2)
    r1 = int(enc.n_levels[v]) - 1
    return m * (q * r1 * (1 + c + c * (c + 1) // 2) - r1)


def cg_bic_block(data: CGData, items) -> np.ndarray:
    """``f_BIC(v, P)`` for each ``(v, P)`` item (P a sorted tuple), from the batched gains."""
    items = items.items() if isinstance(items, Hyperedges) else list(items)
    gain, n = cg_gains_and_rows(data, items)
    dims = np.array([cg_extra_parameters(data, int(v), tuple(int(p) for p in ps))
                     for v, ps in items], dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = n * gain - 0.5 * np.log(np.maximum(n, 1.0)) * dims
    return np.where(np.isfinite(gain), out, gain)


@declare(*declared_parameters(ConditionalGaussianScore))
class ConditionalGaussianBIC(ConditionalGaussianScore):
    """BIC of the conditional Gaussian score, rows counted per hyperedge (module docstring).

    ``f(v, P) = n_vP f_CG(v, P) - 1/2 ln n_vP * Delta_dim(v, P)`` in nats of total
    log-likelihood; negative when the parents do not pay for their parameters. Takes the
    parameters of :class:`ConditionalGaussianScore` and is fitted the same way.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 600)
    >>> z = rng.integers(0, 3, 600)
    >>> X = pd.DataFrame({"z": np.array(["a", "b", "c"])[z], "x": rng.normal(z + y, 1.0),
    ...                   "w": rng.normal(size=600)})
    >>> X.loc[:99, "w"] = np.nan  # w's hyperedges use the 500 rows where it is observed
    >>> bic = ConditionalGaussianBIC().fit(X, y)
    >>> bic("x", {"z"}) > 0 > bic("x", {"w"})  # a real parent pays, noise does not
    True
    >>> cg = ConditionalGaussianScore().fit(X, y)
    >>> dim = 2 * (1 * (1 + 2) - 2)  # m [q_D (|C| + 2) - 2] for x given the continuous w
    >>> bool(np.isclose(bic("x", {"w"}), 500 * cg("x", {"w"}) - 0.5 * np.log(500) * dim))
    True
    """

    _block = staticmethod(cg_bic_block)

    def extra_parameters(self, vi: int, parents: frozenset) -> int:
        """``Delta_dim(vi, parents)`` (column indices), as in the module docstring."""
        return cg_extra_parameters(self.data_, vi, tuple(sorted(parents)))
