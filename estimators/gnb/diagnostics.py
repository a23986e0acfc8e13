"""Pair diagnostics data for paper 1's Appendix F: the selected feature pairs with the
correctly and wrongly classified points and the class-conditional pair densities (the figure
itself belongs to :mod:`viz`, which draws these data and computes nothing from the model).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["PairData", "pair_data", "pair_diagnostics"]

LogDensity = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class PairData:
    """What one diagnostic panel shows.

    Parameters
    ----------
    x : ndarray of shape (n, 2)
        The two features of every row.
    y_true, y_pred : ndarray of shape (n,)
        True and predicted classes.
    log_density : mapping class -> callable
        For each class y, ``f(points) -> ln p(x_i, x_j | y)`` with ``points`` of shape (m, 2),
        returning shape (m,).
    names : (str, str)
        The feature names (axis labels).

    Examples
    --------
    Made by :func:`pair_data` from a fitted GNB (one panel per pair), or by hand:

    >>> import numpy as np
    >>> from scipy.stats import multivariate_normal
    >>> x = np.array([[0.0, 0.1], [1.0, 0.9], [0.2, 0.0]])
    >>> panel = PairData(x, np.array([0, 1, 1]), np.array([0, 1, 0]),
    ...                  {c: multivariate_normal([c, c]).logpdf for c in (0, 1)}, ("a", "b"))
    >>> panel.misclassified.tolist(), panel.log_density[1](x).shape
    ([False, False, True], (3,))
    """

    x: np.ndarray
    y_true: np.ndarray
    y_pred: np.ndarray
    log_density: Mapping[Hashable, LogDensity]
    names: tuple[str, str] = ("x_i", "x_j")

    def __post_init__(self) -> None:
        x = np.asarray(self.x, dtype=float)
        if x.ndim != 2 or x.shape[1] != 2:
            raise ValueError(f"PairData.x must have shape (n, 2); got {x.shape}.")
        y_true, y_pred = np.asarray(self.y_true), np.asarray(self.y_pred)
        if y_true.shape != (x.shape[0],) or y_pred.shape != (x.shape[0],):
            raise ValueError(f"PairData.y_true and y_pred must have shape ({x.shape[0]},) like "
                             f"the rows of x; got {y_true.shape} and {y_pred.shape}.")
        missing = [c for c in np.unique(y_true).tolist() if c not in self.log_density]
        if missing:
            raise ValueError(f"PairData.log_density has no density for class {missing[0]!r}; "
                             f"it has {list(self.log_density)}.")
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "y_true", y_true)
        object.__setattr__(self, "y_pred", y_pred)

    @property
    def misclassified(self) -> np.ndarray:
        """Boolean mask of the rows predicted wrongly."""
        return self.y_true != self.y_pred


def pair_data(model: Any, X: Any, y: Any) -> list[PairData]:
    """The diagnostic panels of a fitted GNB classifier: its first ``n_clusters_`` pairs
    (on mixed tables, those of two continuous features).

    Uses ``cluster_order_`` (column indices in selection order), ``n_clusters_``,
    ``classes_``, ``predict`` and ``density_.logpdf2(X, i, j)`` (shape (rows, classes)),
    which only reads columns i and j. Draw them with :func:`viz.plot_pair_diagnostics`.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from estimators.gnb import GNBClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> panels = pair_data(GNBClassifier().fit(X, y), X, y)
    >>> len(panels), panels[0].names, int(panels[0].misclassified.sum())
    (3, ('x0', 'x2'), 4)
    """
    if hasattr(model, "encoder_"):  # a fitted classifier: its own encoding of X
        enc = model._check_X(X)
        values, continuous = enc.values, enc.continuous
    else:
        values = X.to_numpy(dtype=float) if isinstance(X, pd.DataFrame) else np.asarray(X, float)
        continuous = np.ones(values.shape[1], dtype=bool)
    names = (model.feature_names() if hasattr(model, "feature_names")
             else [f"x{j}" for j in range(values.shape[1])])
    y_pred = model.predict(X)
    panels = []
    for i, j in np.asarray(model.cluster_order_)[: model.n_clusters_]:
        if not (continuous[i] and continuous[j]):  # a pair with a categorical end: no 2-D density
            continue
        densities = {c: _column_density(model.density_, values.shape[1], int(i), int(j), k)
                     for k, c in enumerate(model.classes_)}
        panels.append(PairData(values[:, [i, j]], np.asarray(y), y_pred, densities,
                               (names[i], names[j])))
    return panels


def _column_density(density: Any, d: int, i: int, j: int, k: int) -> LogDensity:
    def logpdf(points: np.ndarray) -> np.ndarray:
        full = np.zeros((points.shape[0], d))
        full[:, i], full[:, j] = points[:, 0], points[:, 1]
        return np.asarray(density.logpdf2(full, i, j))[:, k]

    return logpdf



def pair_diagnostics(model, X, y) -> pd.DataFrame:
    """Tidy table: one row per (selected pair, data row) of a fitted GNB classifier.

    Parameters
    ----------
    model : fitted GNBClassifier
        Its first ``n_clusters_`` pairs (selection order) are listed.
    X, y : the data to diagnose (for example the test split).

    Returns
    -------
    DataFrame with columns ``cluster`` (position in selection order, 0-based), ``feature_i``,
    ``feature_j``, ``row``, ``x_i``, ``x_j``, ``y_true``, ``y_pred``, ``correct``.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from estimators.gnb import GNBClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> table = pair_diagnostics(GNBClassifier().fit(X, y), X, y)
    >>> len(table), int((~table["correct"]).sum())  # 3 pairs x 150 rows; 4 errors x 3 pairs
    (450, 12)
    """
    parts = [
        pd.DataFrame(
            {
                "cluster": c,
                "feature_i": p.names[0],
                "feature_j": p.names[1],
                "row": np.arange(p.x.shape[0]),
                "x_i": p.x[:, 0],
                "x_j": p.x[:, 1],
                "y_true": p.y_true,
                "y_pred": p.y_pred,
                "correct": ~p.misclassified,
            }
        )
        for c, p in enumerate(pair_data(model, X, y))
    ]
    return pd.concat(parts, ignore_index=True)
