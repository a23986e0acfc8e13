"""Choosing the penalty (λ and its centre) by inner cross-validation on the training rows.

``Discriminative(l2="auto")`` and/or ``centre="auto"`` try every pair of
:data:`L2_GRID` x centres on stratified :data:`INNER_FOLDS`-fold splits of the training rows
(seeded by ``random_state``, the estimator's, 0 when it has none): per fold the family refits its *generative* factors on the inner training rows
(the structure is kept), the discriminative weights are fitted along the λ path from the
largest λ down (each fit warm-started from the previous one) and scored by the log-loss of
the held-out rows. The pair with the smallest mean held-out log-loss wins (ties: the larger
λ, then the generative centre); the final fit uses it on all training rows.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.special import logsumexp
from sklearn.model_selection import StratifiedKFold

from estimators.columns import EncodedColumns
from estimators.discriminative._cll import CLLProblem, linear, maximise_cll
from estimators.discriminative._design import fit_design, generative_weights

__all__ = ["INNER_FOLDS", "L2_GRID", "select_penalty"]

#: the λ tried by ``l2="auto"`` (largest first: the path is warm-started downwards)
L2_GRID = (100.0, 10.0, 1.0, 0.1)
#: inner folds
INNER_FOLDS = 3
#: gradient tolerance of the inner fits (the final fit uses the spec's)
_INNER_TOL = 1e-4


def select_penalty(spec, enc: EncodedColumns, y: np.ndarray, n_classes: int,
                   refit: Callable, terms: Callable,
                   random_state: int = 0) -> tuple[float, str, dict]:
    """``(l2, centre, table)``: the penalty with the best inner-CV log-loss.

    Parameters
    ----------
    spec : Discriminative
        Its ``l2`` and ``centre`` (either may be ``"auto"``) and ``form``.
    enc, y, n_classes
        The training table and class codes.
    refit : callable
        ``refit(rows) -> (factors, jll)``: the generative factors fitted on the given rows
        and a function giving their ``ln p(y, x_O)`` of an encoded table.
    terms : callable
        ``terms(spec, design, enc, jll) -> (offset, design matrix)`` (:mod:`._model`).
    random_state : int, default=0
        Seed of the inner stratified folds.

    Returns
    -------
    l2 : float
    centre : str
    table : dict
        ``{(centre, l2): mean held-out log-loss}``.
    """
    grid = L2_GRID if spec.l2 == "auto" else (float(spec.l2),)
    centres = ("generative", "zero") if spec.centre == "auto" else (spec.centre,)
    counts = np.bincount(y, minlength=n_classes)
    folds = min(INNER_FOLDS, int(counts[counts > 0].min()))
    if folds < 2:  # a class with one row: no inner split; the documented defaults
        return (1.0 if spec.l2 == "auto" else float(spec.l2),
                "generative" if spec.centre == "auto" else spec.centre, {})
    losses = {(c, lam): [] for c in centres for lam in grid}
    split = StratifiedKFold(folds, shuffle=True, random_state=random_state)
    for train, test in split.split(np.zeros(y.size), y):
        factors, jll = refit(train)
        tr, te = enc.take(_mask(train, y.size)), enc.take(_mask(test, y.size))
        design = fit_design(factors, tr)
        jll_tr, jll_te = jll(tr), jll(te)
        for centre in centres:
            inner = type(spec)(form=spec.form, l2=grid[0], centre=centre)
            offset, matrix = terms(inner, design, tr, jll_tr)
            offset_te, matrix_te = terms(inner, design, te, jll_te)
            p = matrix.shape[1] if spec.form == "cells" else len(factors)
            W = (np.zeros((p, n_classes)) if centre == "generative" else
                 generative_weights(design, n_classes) if spec.form == "cells"
                 else np.ones((p, n_classes)))
            b = np.zeros(n_classes)
            for lam in grid:
                problem = CLLProblem(matrix, offset, y[train], lam)
                W, b, _ = maximise_cll(problem, W, b, max_iter=spec.max_iter, tol=_INNER_TOL)
                s = offset_te + b + linear(matrix_te, W)
                logp = s - logsumexp(s, axis=1, keepdims=True)
                losses[(centre, lam)].append(-logp[np.arange(test.size), y[test]].mean())
    table = {key: float(np.mean(v)) for key, v in losses.items()}
    order = {c: i for i, c in enumerate(("generative", "zero"))}
    best = min(table, key=lambda k: (round(table[k], 12), -k[1], order[k[0]]))
    return best[1], best[0], table


def _mask(rows: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros(n, dtype=bool)
    out[rows] = True
    return out
