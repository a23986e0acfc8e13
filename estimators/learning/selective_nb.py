"""Selective naive Bayes: the features a naive Bayes needs, chosen by forward selection.

Langley and Sage (1994) grow the feature set of a naive Bayes greedily: start from none,
add the feature whose addition most improves the classifier, stop when no addition
improves it by at least ``tol`` (1e-3 nats per row by default: pure-noise columns
otherwise enter by chance in about half of small samples). Here the criterion is the stratified ``n_folds``-fold cross-validated
log-loss of the naive Bayes on the candidate set (accuracy, Langley and Sage's choice, is
flat over most additions and ties often). Because a naive Bayes's joint log-likelihood is a
sum of one term per feature, each fold's term of every feature is computed once
(:func:`~estimators.network.fitting.fit_cg_factor` without parents on the training part, as the
naive Bayes fits it (a column with missing cells shrunk, ``shrink=True``), evaluated
on the held-out part; a missing cell contributes 0, as at prediction, MATH.md §8) and the
greedy search only adds stored ``(n, m)`` arrays: ``d`` factor fits per fold, then
``O(d^2 n m)`` additions, no refits. Ties go to the earlier column. Any column types.

Examples
--------
>>> import numpy as np
>>> from estimators.columns import MixedEncoder
>>> from estimators.learning.selective_nb import selective_nb
>>> rng = np.random.default_rng(0)
>>> y = rng.integers(0, 2, 600)
>>> x0 = np.where(rng.random(600) < 0.85, y, 1 - y)       # informative
>>> x1 = x0.copy()                                        # a copy of x0: adds nothing new
>>> x2 = rng.integers(0, 3, 600)                          # noise
>>> enc = MixedEncoder().fit_transform(np.column_stack([x0, x1, x2]))
>>> selective_nb(enc, y, [0, 1, 2])
[0]
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp
from sklearn.model_selection import StratifiedKFold

from estimators.base.tie_tolerance import first_best
from estimators.columns import EncodedColumns
from estimators.learning.structure_scores import MIN_CELL_ROWS
from estimators.network.fitting import fit_cg_factor
from estimators.network.model import var_floor

__all__ = ["fold_terms", "selective_nb"]

#: folds of the cross-validated log-loss
N_FOLDS = 5
#: the least decrease of the mean log-loss (nats per row) that adds a column
TOL = 1e-3


def fold_terms(enc: EncodedColumns, y: np.ndarray, columns, *, n_folds: int = N_FOLDS,
               alpha: float = 1.0, var_smoothing: float = 1e-9, random_state: int = 0
               ) -> tuple[np.ndarray, np.ndarray]:
    """Out-of-fold naive-Bayes terms: ``(prior, terms)`` with ``prior`` (n, m) the held-out
    rows' ``ln p(y)`` and ``terms`` (len(columns), n, m) their ``ln p(x_v | y)``, each fitted
    on the other folds (0 where the cell is missing)."""
    m = int(y.max()) + 1
    n = y.size
    folds = min(n_folds, int(np.bincount(y).min()))
    prior = np.zeros((n, m))
    terms = np.zeros((len(columns), n, m))
    if folds < 2:  # a class with one row: in-sample terms
        splits = [(np.arange(n), np.arange(n))]
    else:
        splits = StratifiedKFold(folds, shuffle=True, random_state=random_state).split(
            np.zeros(n), y)
    for train, test in splits:
        part, codes = enc.take(train), y[train]
        counts = np.bincount(codes, minlength=m) + alpha
        prior[test] = np.log(counts / counts.sum())
        floor = var_floor(part, columns, var_smoothing)
        held = enc.take(test)
        for i, v in enumerate(columns):
            factor = fit_cg_factor(part, codes, m, v, (), alpha=alpha,
                                   var_smoothing=var_smoothing, ridge=0.0,
                                   min_cell_rows=MIN_CELL_ROWS, var_floor=floor,
                                   shrink=not part.observed[:, v].all())
            terms[i, test] = np.nan_to_num(factor.log_prob(held), nan=0.0)
    return prior, terms


def selective_nb(enc: EncodedColumns, y: np.ndarray, columns, *, min_features: int = 1,
                 tol: float = TOL, n_folds: int = N_FOLDS, random_state: int = 0, alpha: float = 1.0,
                 var_smoothing: float = 1e-9) -> list[int]:
    """Forward selection of the naive Bayes's features by cross-validated log-loss.

    Parameters
    ----------
    enc : EncodedColumns
        The training table.
    y : ndarray of int, shape (n,)
        Class codes ``0 .. m - 1``.
    columns : sequence of int
        The candidate columns (indices into ``enc``).
    min_features : int, default=1
        Keep adding the best remaining column until this many are chosen, even when the
        log-loss does not improve.
    tol : float, default=1e-3
        A column is added only when it lowers the cross-validated mean log-loss by more
        than ``tol`` nats.
    n_folds, random_state : int
        The stratified folds (shuffled with ``random_state``).
    alpha, var_smoothing : float
        Smoothing of the naive Bayes's factors.

    Returns
    -------
    list of int
        The chosen columns (a subset of ``columns``), in increasing order.
    """
    y = np.asarray(y)
    columns = list(columns)
    prior, terms = fold_terms(enc, y, columns, n_folds=n_folds, alpha=alpha,
                              var_smoothing=var_smoothing, random_state=random_state)
    rows = np.arange(y.size)
    current = prior
    best_loss = _log_loss(current, y, rows)
    chosen: list[int] = []
    rest = list(range(len(columns)))
    while rest:
        candidate = current[None] + terms[rest]  # (r, n, m)
        losses = np.array([_log_loss(c, y, rows) for c in candidate])
        i = first_best(losses, minimise=True)  # ties (TIE_RTOL): the earlier column
        if not (losses[i] < best_loss - tol or len(chosen) < min_features):
            break
        best_loss, current = losses[i], candidate[i]
        chosen.append(rest.pop(i))
    return sorted(columns[i] for i in chosen)


def _log_loss(jll: np.ndarray, y: np.ndarray, rows: np.ndarray) -> float:
    """Mean ``-ln p(y_i | x_i)`` of the joint log-likelihoods ``jll`` (n, m)."""
    return float(np.mean(logsumexp(jll, axis=1) - jll[rows, y]))
