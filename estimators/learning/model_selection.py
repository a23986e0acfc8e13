"""Choosing k (the structure score, the feature selection) of a k-TAN, or the order of a
k-GNB, by inner cross-validated log-loss.

Every candidate (a dict of parameters, e.g. ``{"k": 2, "structure_score": "bic",
"feature_selection": "markov-blanket"}``) is fitted from scratch -- feature selection,
structure and parameters -- on each
training part of a stratified K-fold split of the *training* data and scored by its log-loss
on the held-out part (what scikit-learn's ``cross_val_score`` does, fold by fold with all
candidates on a fold in turn, so that a k-TAN fitted inside
:func:`estimators.learning.structure_scores.shared_scores` scores each training part once). A class with fewer rows than folds
is missing from some training parts; its held-out rows there are left out of that fold's
log-loss (the same rows for every candidate), so a rare class never stops the choice.

Which candidate wins is the selection ``rule`` (:data:`SELECTION_RULES`); the grids list
simpler models first (smaller k, then the score order of the registry, then all features
before a selection; fewer latent components), and both rules break ties toward the earlier
candidate, a tie being a difference within :func:`estimators.base.tie_tolerance.tolerance` of the
losses (``TIE_RTOL = 1e-9`` relative): candidates equal in exact arithmetic (the same
losses on every fold but one make ``mean(d)`` and ``sd(d) / sqrt(F)`` below equal) choose
the same on every CPU:

- ``"min"``: the smallest mean held-out log-loss.
- ``"one-se"`` (the one-standard-error rule; what ``KTANClassifier(k="auto")`` and
  ``LatentCNBClassifier(n_components="auto")`` use): the *first* candidate whose loss is
  within one standard error of the best one's, the error taken over the paired fold
  differences: with ``d_f = loss_f(candidate) - loss_f(best)`` over the F folds, the
  candidate qualifies when ``mean(d) <= sd(d) / sqrt(F)`` (``sd`` with ``ddof=1``). Five
  inner folds rarely tell a more complex model from a simpler one; when they cannot, the
  simpler model (TAN for a k-TAN, naive Bayes for a latent CNB) is kept, since its extra
  parameters would be fitted on the same few rows (``benchmarks/defaults_check.py``).

With ``grow="k"`` (what ``k="auto"`` uses) the candidates are tried one value of k at a time,
smallest first (every fold, every candidate of that k), and the next k is tried only while
the best mean held-out log-loss of this k is below that of the previous one by more than
the tolerance: a
table whose k = 2 does not beat k = 1 never fits (nor scores the hyperedges of) k = 3. The
winner is the best of the candidates tried, with the same ties; the table lists only them.
This early stop can differ from trying every k only when the held-out loss is not unimodal
in k (k + 1 no better than k, but k + 2 better); ``benchmarks/ktan_auto_rule.py`` measures how
often on the benchmark tables.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from numbers import Integral

import numpy as np
from sklearn.base import clone
from sklearn.metrics import log_loss
from sklearn.model_selection import StratifiedKFold
from sklearn.utils import check_random_state

from estimators.base.progress import progress
from estimators.base.tie_tolerance import first_best, tolerance

#: k tried by ``k="auto"`` (capped at n_features - 1)
AUTO_K = (1, 2, 3)
#: folds of the inner cross-validation (fewer only when no class has that many rows)
AUTO_FOLDS = 5


def smallest_mean(fold_losses: np.ndarray) -> int:
    """Index of the candidate (row) with the smallest mean loss; the first on ties (means
    within :func:`~estimators.base.tie_tolerance.tolerance` of the smallest).

    Examples
    --------
    >>> smallest_mean(np.array([[0.5, 0.7], [0.4, 0.7], [0.4, 0.7]]))
    1
    >>> smallest_mean(np.array([[0.5, 0.7], [0.4 + 1e-15, 0.7], [0.4, 0.7]]))
    1
    """
    return first_best(np.asarray(fold_losses, dtype=float).mean(axis=1), minimise=True)


def one_standard_error(fold_losses: np.ndarray) -> int:
    """Index of the first candidate (row) whose mean loss exceeds the best one's by at most
    one standard error of their paired fold differences (module docstring).

    Parameters
    ----------
    fold_losses : ndarray of shape (n_candidates, n_folds)
        Held-out loss of each candidate on each fold (the same folds), simplest first.

    Examples
    --------
    The second candidate has the smaller mean loss, but by little against the spread of
    the fold differences (mean 0.0175, standard error 0.0218), so the first is kept; with
    steady differences (mean 0.015, standard error 0.0029) the second wins:

    >>> one_standard_error(np.array([[0.50, 0.40, 0.60, 0.55], [0.52, 0.32, 0.60, 0.54]]))
    0
    >>> one_standard_error(np.array([[0.50, 0.40, 0.60, 0.55], [0.48, 0.39, 0.58, 0.54]]))
    1

    Losses equal on every fold but one make ``mean(d)`` equal to ``sd(d) / sqrt(F)`` in
    exact arithmetic; rounding puts it above here, the tolerance keeps the simpler model:

    >>> a = 0.00598739
    >>> one_standard_error(np.array([[0.5, 0.4, 0.6, 0.55, 0.3], [0.5, 0.4 - a, 0.6, 0.55, 0.3]]))
    0
    """
    losses = np.asarray(fold_losses, dtype=float)
    best = smallest_mean(losses)
    diff = losses - losses[best]
    n_folds = losses.shape[1]
    error = diff.std(axis=1, ddof=1) / np.sqrt(n_folds) if n_folds > 1 else 0.0
    atol = tolerance(losses.mean(axis=1))  # equal in exact arithmetic: qualifies everywhere
    return int(np.flatnonzero(diff.mean(axis=1) <= error + atol)[0])


#: the rules that pick the winner from the fold losses of the candidates (simplest first)
SELECTION_RULES = {"min": smallest_mean, "one-se": one_standard_error}


def candidate_grid(k, score: str, names: Sequence[str], n_features: int,
                   selections: Sequence = (None,)) -> list[dict]:
    """The k-TAN candidates: ``k`` ("auto" or a sequence) times the structure scores times
    the feature selections (None: all features).

    ``"auto"`` tries the k of :data:`AUTO_K` that ``n_features`` allows (k <= n_features - 1;
    k = 1 at least). A requested sequence is taken as it is: every k in it must lie in
    ``[1, max(n_features - 1, 1)]``.

    Raises
    ------
    ValueError
        If a requested k lies outside that range; the message names the range (none is
        dropped silently).

    Examples
    --------
    >>> [tuple(c.values()) for c in candidate_grid("auto", "cmi", ["cmi", "bic"], 3)]
    [(1, 'cmi', None), (2, 'cmi', None)]
    >>> [tuple(c.values()) for c in candidate_grid([2, 1], "auto", ["cmi", "bic"], 5)]
    [(1, 'cmi', None), (1, 'bic', None), (2, 'cmi', None), (2, 'bic', None)]
    >>> [tuple(c.values()) for c in candidate_grid([1], "cmi", ["cmi"], 5, [None, "markov-blanket"])]
    [(1, 'cmi', None), (1, 'cmi', 'markov-blanket')]
    >>> candidate_grid([1, 3], "cmi", ["cmi"], 3)
    Traceback (most recent call last):
    ...
    ValueError: k=[1, 3] asks for k=3, outside 1..2: a k-tree over 3 features has k <= 2 ...
    """
    if isinstance(k, str):
        ks = [v for v in AUTO_K if 1 <= v < n_features] or [1]
    else:
        ks = sorted({int(v) for v in k})
        top = max(n_features - 1, 1)
        outside = [v for v in ks if not 1 <= v <= top]
        if outside:
            raise ValueError(
                f"k={list(k)!r} asks for k={', '.join(map(str, outside))}, outside 1..{top}: "
                f"a k-tree over {n_features} features has k <= {top} (k >= 1); give only k "
                f"in 1..{top}, or k='auto'.")
    scores = list(names) if score == "auto" else [score]
    return [{"k": v, "structure_score": s, "feature_selection": f}
            for v in ks for s in scores for f in selections]


def held_out_log_loss(estimator, X, y) -> float:
    """Negated log-loss of ``estimator`` on the rows of ``(X, y)`` whose class it was fitted on.

    A scikit-learn scorer (greater is better). Rows of a class absent from the training part
    cannot be scored by a model that never saw the class; they are left out, and the loss is
    taken over the fitted classes (``labels=estimator.classes_``).
    """
    y = np.asarray(y)
    seen = np.isin(y, estimator.classes_)
    proba = estimator.predict_proba(X)
    return -log_loss(y[seen], proba[seen], labels=estimator.classes_)


def _rows_of(X):
    """Row selection of a DataFrame or an array (as scikit-learn's ``_safe_indexing``)."""
    from sklearn.utils import _safe_indexing

    if not hasattr(X, "__getitem__"):  # an array-like known by __array__ only
        X = np.asarray(X)
    return lambda rows: _safe_indexing(X, rows)


def fixed_seed(random_state) -> int:
    """An int seed from an estimator's ``random_state``: the int itself, 0 for None (the
    randomised steps of a fit stay reproducible by default), one draw from a
    ``RandomState``.

    Examples
    --------
    >>> import numpy as np
    >>> fixed_seed(None), fixed_seed(7), 0 <= fixed_seed(np.random.RandomState(1)) < 2**31
    (0, 7, True)
    """
    if random_state is None:
        return 0
    if isinstance(random_state, Integral):
        return int(random_state)
    return int(check_random_state(random_state).randint(2**31))


def select_by_cv(estimator, X, y, candidates: list[dict], random_state=None,
                 grow: str | None = None, rule: str = "min"):
    """Mean held-out log-loss of each candidate; returns ``(best, table)``.

    Parameters
    ----------
    estimator : classifier with ``predict_proba``
        Cloned and given the parameters of each candidate.
    X, y : training data
    candidates : list of dict
        Parameters of each candidate (the same keys in each).
    random_state : int, RandomState or None
        Seed of the fold shuffling (the same folds for every candidate); None: the
        estimator's own ``random_state``, and 0 when that is None too (deterministic).
    grow : str or None
        A parameter (e.g. ``"k"``) whose values are tried in increasing order, stopping at
        the first value whose best mean log-loss is not strictly below the previous value's
        (module docstring). None: every candidate is tried.
    rule : {"min", "one-se"}, default="min"
        How the winner is picked from the fold losses (:data:`SELECTION_RULES`).

    Returns
    -------
    best : dict
        The winning candidate's parameters.
    table : dict
        One list per parameter name, plus ``"mean_log_loss"``, ``"std_log_loss"`` (the
        sample standard deviation over the folds, ddof=1, the convention of
        :func:`estimators.learning.evaluation.summarise`), ``"fold_log_loss"`` (ndarray
        (n_candidates, n_folds)) and ``"n_folds"``, over the candidates tried.
    """
    if rule not in SELECTION_RULES:
        raise ValueError(f"The selection rule must be one of {sorted(SELECTION_RULES)}; "
                         f"got {rule!r}.")
    _, counts = np.unique(np.asarray(y), return_counts=True)
    n_folds = int(min(AUTO_FOLDS, counts.max()))
    if n_folds < 2:
        raise ValueError(
            "Choosing a model by cross-validation ('auto') needs a class with at least 2 training rows for its "
            f"inner cross-validation; every class of the {len(counts)} has 1. Give the parameter as an int instead."
        )
    if random_state is None:
        random_state = getattr(estimator, "random_state", None)
    if random_state is None:
        random_state = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "the least populated class has only ..."
        splits = list(StratifiedKFold(n_splits=n_folds, shuffle=True,
                                      random_state=random_state).split(X, y))
    losses = np.full((len(candidates), n_folds), np.nan)
    X_rows, y = _rows_of(X), np.asarray(y)
    groups = _groups(candidates, grow)
    bar = iter(progress(range(n_folds * len(candidates)),
                        "model selection (inner CV): candidate fits left", unit="fit"))
    tried: list[int] = []
    previous = np.inf
    for group in groups:
        # fold by fold, every candidate on it: fits sharing a training part follow each other
        # (k-TAN shares its hyperedge scores between them, estimators.learning.structure_scores.shared_scores)
        for f, i in [(f, i) for f in range(n_folds) for i in group]:
            next(bar, None)
            train, test = splits[f]
            model = clone(estimator).set_params(**candidates[i])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)  # per-fold constant-column notes
                losses[i, f] = -held_out_log_loss(model.fit(X_rows(train), y[train]),
                                                  X_rows(test), y[test])
        tried += group
        current = losses[group].mean(axis=1).min()
        if grow is not None and not current < previous - tolerance([current, previous]):
            break
        previous = current
    for _ in bar:  # an early stop: close the bar
        pass
    losses = losses[tried]
    mean = losses.mean(axis=1)
    best = SELECTION_RULES[rule](losses)
    kept = [candidates[i] for i in tried]
    table = {
        **{key: [c[key] for c in kept] for key in candidates[0]},
        "mean_log_loss": mean.tolist(),
        "std_log_loss": losses.std(axis=1, ddof=1).tolist(),  # as the CLI's outer folds
        "fold_log_loss": losses,
        "n_folds": n_folds,
        "rule": rule,
    }
    return kept[best], table


def _groups(candidates: list[dict], grow: str | None) -> list[list[int]]:
    """Indices of ``candidates`` grouped by increasing value of ``grow`` (in list order
    within a group); one group of all when ``grow`` is None.

    Examples
    --------
    >>> _groups([{"k": 2}, {"k": 1}, {"k": 2}], "k"), _groups([{"k": 2}, {"k": 1}], None)
    ([[1], [0, 2]], [[0, 1]])
    """
    if grow is None:
        return [list(range(len(candidates)))]
    values = sorted({c[grow] for c in candidates})
    return [[i for i, c in enumerate(candidates) if c[grow] == v] for v in values]
