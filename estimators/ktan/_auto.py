"""Choosing k (and the structure score) of a k-TAN by inner cross-validated log-loss.

Every candidate ``(k, score)`` is fitted from scratch -- structure and parameters -- on each
training part of a stratified K-fold split of the *training* data and scored by its log-loss
on the held-out part (scikit-learn's ``cross_val_score`` with ``scoring="neg_log_loss"``). The
candidate with the smallest mean held-out log-loss wins; ties go to the earlier candidate
(smaller k, then the score order of the grid), so the simpler model is preferred.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold, cross_val_score

#: k tried by ``k="auto"`` (capped at n_features - 1)
AUTO_K = (1, 2, 3)
#: folds of the inner cross-validation (fewer when the rarest class has fewer rows)
AUTO_FOLDS = 5


def candidate_grid(k, score: str, names: Sequence[str], n_features: int) -> list[tuple[int, str]]:
    """The ``(k, score)`` candidates: ``k`` ("auto" or a sequence) times the scores.

    Examples
    --------
    >>> candidate_grid("auto", "cmi", ["cmi", "bic"], 3)
    [(1, 'cmi'), (2, 'cmi')]
    >>> candidate_grid([2, 1], "auto", ["cmi", "bic"], 5)
    [(1, 'cmi'), (1, 'bic'), (2, 'cmi'), (2, 'bic')]
    """
    ks = AUTO_K if isinstance(k, str) else sorted({int(v) for v in k})
    ks = [v for v in ks if 1 <= v < n_features] or [1]
    scores = list(names) if score == "auto" else [score]
    return [(v, s) for v in ks for s in scores]


def select_by_cv(estimator, X, y, candidates: list[tuple[int, str]], random_state=0):
    """Mean held-out log-loss of each candidate; returns ``(best, table)``.

    Parameters
    ----------
    estimator : KTANClassifier
        Cloned and given ``k`` and ``structure_score`` of each candidate.
    X, y : training data
    candidates : list of (k, score name)
    random_state : int
        Seed of the fold shuffling (the same folds for every candidate).

    Returns
    -------
    best : (int, str)
    table : dict
        ``{"k": [...], "score": [...], "mean_log_loss": [...], "std_log_loss": [...],
        "fold_log_loss": ndarray (n_candidates, n_folds), "n_folds": int}``.
    """
    _, counts = np.unique(np.asarray(y), return_counts=True)
    n_folds = int(min(AUTO_FOLDS, counts.min()))
    if n_folds < 2:
        raise ValueError(
            "k='auto' needs at least 2 training rows of every class for its inner "
            f"cross-validation; the rarest class has {counts.min()}. Give an int k instead."
        )
    folds = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=random_state)
    losses = np.empty((len(candidates), n_folds))
    for i, (k, score) in enumerate(candidates):
        model = clone(estimator).set_params(k=k, structure_score=score)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # per-fold constant-column notes
            losses[i] = -cross_val_score(model, X, y, cv=folds, scoring="neg_log_loss")
    mean = losses.mean(axis=1)
    best = int(np.argmin(mean))
    table = {
        "k": [c[0] for c in candidates],
        "score": [c[1] for c in candidates],
        "mean_log_loss": mean.tolist(),
        "std_log_loss": losses.std(axis=1).tolist(),
        "fold_log_loss": losses,
        "n_folds": n_folds,
    }
    return candidates[best], table
