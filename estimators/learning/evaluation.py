"""Evaluation: paper 1's repeated hold-out (§6.1, appendix D) and the CLI's k-fold metrics.

:func:`split_metrics` scores one fitted prediction; :func:`cross_validated_metrics` repeats
``train_test_split(test_size=0.15, random_state=s, stratify=y)`` for s = seed .. seed + n - 1
(paper 1 uses seeds 42..51) and averages. Metrics: accuracy, weighted precision / recall / F1
and, for two classes, the binary precision / recall / F1 of a positive label.

:func:`classification_metrics` scores predicted probabilities: accuracy, balanced accuracy,
F1 (macro, weighted), log-loss, Brier score and one-vs-rest macro ROC AUC;
:func:`fold_metrics` gives them per fold of a stratified k-fold, folds in parallel through
scikit-learn's ``cross_validate`` (and, on request, the warnings each fold raised, also from
parallel workers); :func:`summarise` their mean and standard deviation.
:func:`split_scores` fits and scores one train/test split (with the fit and predict times),
the unit of work of ``kgraph compare``.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Hashable

import numpy as np
from joblib import effective_n_jobs
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.metrics import (
    accuracy_score,
    brier_score_loss,
    f1_score,
    log_loss,
    precision_recall_fscore_support,
    roc_auc_score,
)
from sklearn.model_selection import StratifiedKFold, cross_validate, train_test_split

WEIGHTED = ("precision", "recall", "f1")


def split_metrics(y_true, y_pred, positive: Hashable | None = None) -> dict[str, float]:
    """Accuracy, weighted precision / recall / F1 and (if ``positive`` is given) binary ones.

    Examples
    --------
    >>> m = split_metrics(["a", "b", "b", "a"], ["a", "b", "a", "a"], positive="b")
    >>> round(m["accuracy"], 2), round(m["f1_binary"], 3)
    (0.75, 0.667)
    """
    out = {"accuracy": float(accuracy_score(y_true, y_pred))}
    p, r, f, _ = precision_recall_fscore_support(
        y_true, y_pred, average="weighted", zero_division=0
    )
    out.update(precision=float(p), recall=float(r), f1=float(f))
    if positive is not None:
        p, r, f, _ = precision_recall_fscore_support(
            y_true, y_pred, average="binary", pos_label=positive, zero_division=0
        )
        out.update(precision_binary=float(p), recall_binary=float(r), f1_binary=float(f))
    return out


def cross_validated_metrics(
    model,
    X,
    y,
    *,
    n_splits: int = 10,
    test_size: float = 0.15,
    seed: int = 42,
    positive: Hashable | None = None,
) -> dict[str, float]:
    """Mean (and ``*_std``) of :func:`split_metrics` over paper 1's stratified splits.

    Parameters
    ----------
    model : scikit-learn classifier
        Cloned and fitted on each training part.
    X, y : data (array or DataFrame, labels).
    n_splits : int, default=10
        Seeds ``seed .. seed + n_splits - 1``.
    positive : label, optional
        Positive class of the binary metrics (two classes only).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> X, y = load_iris(return_X_y=True)
    >>> round(cross_validated_metrics(GaussianNB(), X, y)["f1"], 4)
    0.9563
    """
    rows = []
    y = np.asarray(y)
    if positive is not None and positive not in set(y.tolist()):
        raise ValueError(f"positive={positive!r} is not a class of y; classes: {sorted(set(y))}.")
    for s in range(seed, seed + n_splits):
        Xa, Xb, ya, yb = train_test_split(X, y, test_size=test_size, random_state=s, stratify=y)
        fitted = clone(model).fit(Xa, ya)
        rows.append(split_metrics(yb, fitted.predict(Xb), positive))
    out: dict[str, float] = {}
    for key in rows[0]:
        vals = np.array([r[key] for r in rows])
        out[key] = float(vals.mean())
        out[f"{key}_std"] = float(vals.std())
    return out


def _ovr_auc(y_true: np.ndarray, proba: np.ndarray, classes: np.ndarray) -> float:
    """Macro one-vs-rest ROC AUC over the classes with positives and negatives in y_true."""
    aucs = [roc_auc_score(y_true == c, proba[:, k]) for k, c in enumerate(classes)
            if 0 < np.sum(y_true == c) < y_true.size]
    return float(np.mean(aucs)) if aucs else float("nan")


def classification_metrics(y_true, proba, classes) -> dict[str, float]:
    """Label and probability metrics of one test part.

    The Brier score is Brier's original one, ``mean_i sum_k (p_ik - [y_i = k])^2`` in
    [0, 2], for two classes as for more (twice the binary ``(p - y)^2`` form).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels.
    proba : array-like of shape (n, len(classes))
        Predicted probabilities, columns in the order of ``classes``.
    classes : array-like
        Every class of the data set (``labels=classes``), so a class absent from this test
        part is handled: log-loss and Brier score use all columns; the ROC AUC averages
        the classes present (with at least one row outside them), as does the balanced
        accuracy (without scikit-learn's warning); F1 counts a class absent
        from the part only if it is predicted (scikit-learn's labels of y_true and y_pred).

    Examples
    --------
    >>> m = classification_metrics(["a", "b", "b"], [[0.8, 0.2], [0.4, 0.6], [0.3, 0.7]],
    ...                            ["a", "b"])
    >>> m["accuracy"], m["roc_auc_ovr"], round(m["log_loss"], 4), round(m["brier"], 4)
    (1.0, 1.0, 0.3635, 0.1933)
    """
    y_true = np.asarray(y_true)
    classes = np.asarray(classes)
    proba = np.asarray(proba, dtype=float)
    y_pred = classes[np.argmax(proba, axis=1)]
    # the recall of each class present in this part, averaged (scikit-learn's balanced
    # accuracy, without its warnings on a part holding one class or lacking a predicted one)
    balanced = float(np.mean([np.mean(y_pred[y_true == c] == c) for c in np.unique(y_true)]))
    return {
        "accuracy": float(accuracy_score(y_true, y_pred)),
        "balanced_accuracy": balanced,
        "f1_macro": float(f1_score(y_true, y_pred, average="macro", zero_division=0)),
        "f1_weighted": float(f1_score(y_true, y_pred, average="weighted", zero_division=0)),
        "log_loss": float(log_loss(y_true, proba, labels=classes)),
        "brier": float(brier_score_loss(y_true, proba, labels=classes, scale_by_half=False)),
        "roc_auc_ovr": _ovr_auc(y_true, proba, classes),
    }


class _FoldScorer:
    """``cross_validate`` scorer: the fold model's probabilities over all ``classes``."""

    def __init__(self, classes: np.ndarray, done=None) -> None:
        self.classes, self.done = classes, done

    def __call__(self, estimator, X, y) -> dict[str, float]:
        proba = np.zeros((len(y), self.classes.size))
        columns = np.searchsorted(self.classes, estimator.classes_)
        proba[:, columns] = estimator.predict_proba(X)
        out = classification_metrics(y, proba, self.classes)
        if self.done is not None:  # a fold scored (in this process: folds one by one)
            self.done()
        return out


def chosen_values(model) -> dict:
    """What a fitted model chose for each of its options left to inner cross-validation
    (``"auto"`` or a list of candidates): ``{option: model.<option>_}``.

    Examples
    --------
    >>> from estimators.ktan import KTANClassifier
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True, as_frame=True)
    >>> model = KTANClassifier(k=[1, 2], feature_selection=None, random_state=0).fit(X, y)
    >>> chosen_values(model) == {"k": model.k_}, model.k_ in (1, 2)
    (True, True)
    """
    params = model.get_params(deep=False) if hasattr(model, "get_params") else {}
    found = {k: getattr(model, f"{k}_", None) for k, v in params.items()
             if isinstance(v, list) or (isinstance(v, str) and v == "auto")}
    # one value each (feature_types="auto" gives a mapping per column: a rule, not a choice)
    return {k: v.item() if isinstance(v, np.generic) else v for k, v in found.items()
            if isinstance(v, int | float | str | np.generic) and not isinstance(v, bool)}


class _Recording(MetaEstimatorMixin, ClassifierMixin, BaseEstimator):
    """``estimator`` fitted and asked for probabilities with every warning recorded in
    ``warnings_`` (``(category, message)`` in the order raised), not shown: a fold's
    warnings travel back with the fitted copy, also from a parallel worker."""

    def __init__(self, estimator=None):
        self.estimator = estimator

    def fit(self, X, y):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            self.estimator_ = clone(self.estimator).fit(X, y)
        self.warnings_ = [(w.category, str(w.message)) for w in caught]
        self.classes_ = self.estimator_.classes_
        self.choices_ = chosen_values(self.estimator_)
        return self

    def predict_proba(self, X):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            proba = self.estimator_.predict_proba(X)
        self.warnings_ += [(w.category, str(w.message)) for w in caught]
        return proba


def split_scores(model, X, y, train, test, classes=None, *, return_estimator: bool = False):
    """Fit a clone of ``model`` on the rows ``train`` and score it on the rows ``test``.

    The same fit and scoring as one fold of :func:`fold_metrics`: the probabilities are
    placed in the columns of every class of ``classes`` (default: those of ``y``), a class
    missing from the training rows getting probability 0.

    Parameters
    ----------
    model : scikit-learn classifier with ``predict_proba``
    X, y : data (a DataFrame or array, labels)
    train, test : integer arrays
        Row positions.
    classes : array-like, optional
        Every class of the data set.
    return_estimator : bool, default=False
        Also return the fitted clone.

    Returns
    -------
    dict
        :func:`classification_metrics` of the test rows, with ``fit_time`` (the fit) and
        ``predict_time`` (``predict_proba`` on the test rows and these metrics), seconds
        of wall time.
    estimator
        Only with ``return_estimator``: the clone fitted on the training rows.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> X, y = load_iris(return_X_y=True)
    >>> train, test = next(StratifiedKFold(3, shuffle=True, random_state=0).split(X, y))
    >>> scores = split_scores(GaussianNB(), X, y, train, test)
    >>> round(scores["accuracy"], 2), scores["fit_time"] >= 0
    (0.96, True)
    """
    from sklearn.utils import _safe_indexing

    classes = np.unique(np.asarray(y)) if classes is None else np.asarray(classes)
    X_train, X_test = _safe_indexing(X, train), _safe_indexing(X, test)
    start = time.perf_counter()
    fitted = clone(model).fit(X_train, _safe_indexing(y, train))
    middle = time.perf_counter()
    scores = _FoldScorer(classes)(fitted, X_test, np.asarray(_safe_indexing(y, test)))
    end = time.perf_counter()
    scores = {**scores, "fit_time": middle - start, "predict_time": end - middle}
    return (scores, fitted) if return_estimator else scores


def fold_metrics(model, X, y, *, n_splits: int = 5, random_state: int | None = 0,
                 n_jobs: int | None = None, verbose: bool = False,
                 record_warnings: bool = False, choices: list | None = None):
    """:func:`classification_metrics` of each fold of a shuffled stratified k-fold.

    Parameters
    ----------
    model : scikit-learn classifier with ``predict_proba``
        Cloned and fitted on each training part.
    X, y : data
    n_splits : int, default=5
    random_state : int or None, default=0
        Seeds the shuffle of the folds.
    n_jobs : int or None, default=None
        Folds fitted in parallel (joblib), as scikit-learn's ``cross_validate``.
    verbose : bool, default=False
        A tqdm bar on stderr counting the folds scored, when they are fitted one by one
        (``n_jobs`` None or 1); it vanishes when done. With folds in parallel there is no
        bar, and a model's own ``verbose`` is switched off in the fold copies, whose bars
        would overwrite each other.
    record_warnings : bool, default=False
        Record the warnings each fold's fit and prediction raise instead of letting them
        through (from parallel workers too, where they would otherwise be lost).
    choices : list, optional
        With ``record_warnings``: filled with each fold's :func:`chosen_values` (what the
        fold's model chose by its own inner cross-validation).

    Returns
    -------
    pandas.DataFrame
        One row per fold, one column per metric.
    list of list of (type, str)
        Only with ``record_warnings``: per fold, each warning raised (category, message),
        in the order raised.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> X, y = load_iris(return_X_y=True)
    >>> folds = fold_metrics(GaussianNB(), X, y, n_splits=3)
    >>> folds.shape, round(float(folds["accuracy"].mean()), 2)
    ((3, 7), 0.96)
    >>> from sklearn.linear_model import LogisticRegression
    >>> _, caught = fold_metrics(LogisticRegression(max_iter=1), X, y, n_splits=3,
    ...                          record_warnings=True)
    >>> [sorted({category.__name__ for category, _ in fold}) for fold in caught]
    [['ConvergenceWarning'], ['ConvergenceWarning'], ['ConvergenceWarning']]
    """
    import pandas as pd
    from tqdm.auto import tqdm

    if hasattr(model, "_validate_params"):
        # a bad parameter fails here under the model's own name: inside cross_validate,
        # scikit-learn's validator renames it "The 'k' parameter of cross_validate ..."
        model._validate_params()
    classes = np.unique(np.asarray(y))
    splitter = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
    if n_jobs not in (None, 1) and "verbose" in model.get_params():
        model = clone(model).set_params(verbose=False)
    splits = list(splitter.split(X, y))
    serial = effective_n_jobs(n_jobs) == 1
    bar = tqdm(total=len(splits), desc="cross-validation folds", unit="fold",
               disable=not (verbose and serial), leave=False)
    try:
        scores = cross_validate(_Recording(model) if record_warnings else model, X, y,
                                cv=splits, scoring=_FoldScorer(classes, bar.update if serial
                                                               else None),
                                n_jobs=n_jobs, error_score="raise",
                                return_estimator=record_warnings)
    finally:
        bar.close()
    frame = pd.DataFrame({name[len("test_"):]: values for name, values in scores.items()
                          if name.startswith("test_")})
    if record_warnings:
        if choices is not None:
            choices.extend(fitted.choices_ for fitted in scores["estimator"])
        return frame, [fitted.warnings_ for fitted in scores["estimator"]]
    return frame


def summarise(folds) -> dict[str, dict[str, float]]:
    """``{metric: {"mean": ..., "std": ..., "n_folds": ...}}`` of :func:`fold_metrics`: the
    mean and sample standard deviation (ddof=1) over the ``n_folds`` folds where the metric
    is defined (NaN when none is, and the std with fewer than two; the ROC AUC is undefined
    on a test part holding one class).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> summarise(pd.DataFrame({"roc_auc_ovr": [0.5, np.nan, 1.0]}))
    {'roc_auc_ovr': {'mean': 0.75, 'std': 0.3535533905932738, 'n_folds': 2}}
    """
    return {m: {"mean": float(folds[m].mean()), "std": float(folds[m].std(ddof=1)),
                "n_folds": int(folds[m].notna().sum())} for m in folds.columns}
