"""Repeated stratified hold-out evaluation with paper 1's metrics (§6.1, appendix D).

:func:`split_metrics` scores one fitted prediction; :func:`cross_validated_metrics` repeats
``train_test_split(test_size=0.15, random_state=s, stratify=y)`` for s = seed .. seed + n - 1
(paper 1 uses seeds 42..51) and averages. Metrics: accuracy, weighted precision / recall / F1
and, for two classes, the binary precision / recall / F1 of a positive label.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np
from sklearn.base import clone
from sklearn.metrics import accuracy_score, precision_recall_fscore_support
from sklearn.model_selection import train_test_split

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
