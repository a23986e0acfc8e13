"""Choosing the reduced GNB model (paper 1 §5.2, §6.1): F1 of every cluster prefix.

The cluster order is that of the structure learned on all the training data, so m indexes
the same forests (prefixes) as the final model. For each of ``n_splits`` random stratified
splits of the *training* data (85 % / 15 %), the class-conditional densities of those pairs
are refit on the larger part and the weighted F1 of the forest of the first m clusters is
measured on the held-out part, for every m = 1 .. d-1. The curves are averaged over the splits
and the best mean wins (ties: the smaller m). Paper 1 measures the F1 "on the training data"
without saying more; held-out parts of the training data keep the test data unseen and do
not always favour the largest model. Refitting only the densities (not the structure) per
split keeps the cost at one structure search per fit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
from joblib import Parallel, delayed
from sklearn.metrics import f1_score
from sklearn.model_selection import train_test_split
from sklearn.utils import check_random_state

from estimators.base.progress import progress
from estimators.base.tie_tolerance import first_best

#: fit_split(train_rows) -> prefix_jll(test_rows), an iterator of ln p(y, x) (n_test, m) of
#: the forests of the first 1, 2, ... clusters
FitFn = Callable[[np.ndarray], Callable[[np.ndarray], Iterator[np.ndarray]]]


def increments_jll(log_prior: np.ndarray, density, edges: list, X: np.ndarray
                   ) -> Iterator[np.ndarray]:
    """``ln p(y, x)`` of the forests of the first m edges, m = 1 .. len(edges), built edge
    by edge from the density's increments (complete all-continuous data)."""
    jll = np.broadcast_to(log_prior, (X.shape[0], log_prior.size)).copy()
    for inc in density.edge_increments(X, edges):
        jll += inc
        yield jll


def prefix_f1_curve(jlls: Iterator[np.ndarray], codes: np.ndarray) -> np.ndarray:
    """Weighted F1 on ``codes`` of each forest's predictions."""
    return np.array([f1_score(codes, np.argmax(j, axis=1), average="weighted", zero_division=0)
                     for j in jlls])


def _one_split(fit_split: FitFn, codes, seed: int) -> np.ndarray:
    """Stratified 85 / 15 split; the rows of a class with fewer than 2 rows stay in the
    training part (they cannot be stratified, and the model needs them)."""
    small = np.isin(codes, np.flatnonzero(np.bincount(codes) < 2))
    rest = np.flatnonzero(~small)
    a, b = train_test_split(rest, test_size=0.15, random_state=seed, stratify=codes[rest])
    return prefix_f1_curve(fit_split(np.concatenate([a, np.flatnonzero(small)])
                                     if small.any() else a)(b), codes[b])


def reduction_scores(
    fit_split: FitFn,
    codes: np.ndarray,
    n_splits: int,
    random_state=None,
    n_jobs: int | None = None,
) -> np.ndarray:
    """The (n_splits, d - 1) array of held-out weighted F1 per split and number of clusters."""
    seeds = check_random_state(random_state).randint(0, 2**31 - 1, size=n_splits)
    rows = Parallel(n_jobs=n_jobs)(delayed(_one_split)(fit_split, codes, s)
                                   for s in progress(seeds, "n_clusters='auto' splits"))
    return np.vstack(rows)


def best_n_clusters(scores: np.ndarray) -> int:
    """The m with the largest mean F1 over the splits; ties go to the smaller m.

    Examples
    --------
    >>> import numpy as np
    >>> best_n_clusters(np.array([[0.5, 0.7, 0.7], [0.6, 0.8, 0.8]]))
    2
    """
    return first_best(scores.mean(axis=0)) + 1  # ties (TIE_RTOL): the fewer clusters
