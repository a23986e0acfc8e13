"""A discrete structure's discriminative parameters as one log-table per family.

On a complete row (every value observed, a training category) the scores of
:class:`estimators.discriminative.DiscriminativeParameters` on a structure of categorical factors are

    s_y(x) = a_y + Σ_v θ_v(x_v, u_v(x), y)

with ``a_y = class_log_prior_y + intercept_y`` and, per family ``v`` with parent cell ``u``:

* a parent cell seen in training (the family is active): the cells' weight times the
  family's scale, plus the main effect ``1[x_v = c]`` of the hierarchy, plus the
  generative ``ln p(c | u, y)`` for ``centre="generative"``; for ``form="weights"``,
  ``(w_{v,y} + [centre="generative"]) ln p(c | u, y)``;
* an unseen parent cell (the family is inactive): the generative factor's unseen slot
  ``ln p(c | unseen, y)``, which the offset ``o`` keeps (:mod:`estimators.discriminative`).

:func:`log_tables` gives these ``θ_v`` in the factors' per-cell layout ``(U + 1, m, K)``;
:mod:`estimators.network.equivalent` turns them into CPTs.
"""

from __future__ import annotations

import numpy as np

from estimators.network.factors import CategoricalFactor

__all__ = ["log_tables"]


def log_tables(fitted, class_log_prior) -> tuple[np.ndarray, list[np.ndarray]]:
    """``(a, [θ_f])``: the class term (m,) and each family's table (U + 1, m, K) of a
    :class:`estimators.discriminative.DiscriminativeParameters` fitted on categorical factors (module
    docstring).

    Raises
    ------
    ValueError
        For a family that is not a CPT of categorical parents (a continuous feature or
        parent).

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.columns import MixedEncoder
    >>> from estimators.discriminative import Discriminative, fit_parameters
    >>> from estimators.network.fitting import fit_cg_factor
    >>> rng = np.random.default_rng(0)
    >>> X = rng.integers(0, 2, (60, 2)).astype(str)
    >>> y = rng.integers(0, 2, 60)
    >>> enc = MixedEncoder().fit_transform(X)
    >>> factors = [fit_cg_factor(enc, y, 2, 0), fit_cg_factor(enc, y, 2, 1, [0])]
    >>> prior = np.log(np.bincount(y) / 60)
    >>> jll = prior + sum(f.log_prob(enc) for f in factors)
    >>> fitted = fit_parameters(factors, enc, y, jll, Discriminative(l2=1.0, scale=None))
    >>> a, (t0, t1) = log_tables(fitted, prior)
    >>> s = a + t0[0, :, enc.codes[:, 0]] + t1[factors[1].config_index(enc), :, enc.codes[:, 1]]
    >>> bool(np.allclose(s - s[:, :1], (f := fitted.scores(enc, jll)) - f[:, :1]))
    True
    """
    spec, design, coef = fitted.spec, fitted.design, fitted.coef
    generative = spec.centre == "generative"
    out = []
    for j, f in enumerate(design.factors):
        if not isinstance(f, CategoricalFactor) or len(f.continuous_parents):
            raise ValueError(f"family {j} ({type(f).__name__}) is not a table of categorical "
                             "values")
        U, m, K = f.n_configs, f.log_cpt.shape[1], f.log_cpt.shape[2]
        theta = np.array(f.log_cpt, dtype=float) if generative else np.zeros_like(f.log_cpt)
        theta[U] = f.log_cpt[U]  # inactive: the generative factor, kept in the offset
        if spec.form == "weights":
            theta[:U] += coef[j][None, :, None] * f.log_cpt[:U]
        else:
            scale = 1.0 if design.scales is None else float(design.scales[j])
            cells = coef[design.offsets[j]:design.offsets[j + 1]].reshape(U, K, m)
            theta[:U] += scale * cells.transpose(0, 2, 1)
            if design.main is not None and design.main[j + 1] > design.main[j]:
                start = design.n_cells + int(design.main[j])
                theta[:U] += coef[start:start + K].T[None]
        out.append(theta)
    return np.asarray(class_log_prior, float) + fitted.intercept, out
