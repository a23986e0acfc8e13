"""Pair diagnostics data for paper 1's Appendix F: the selected feature pairs with the
correctly and wrongly classified points (the figure itself belongs to :mod:`viz`)."""

from __future__ import annotations

import numpy as np
import pandas as pd


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
    y = np.asarray(y)
    y_pred = model.predict(X)
    values = X.to_numpy(dtype=float) if isinstance(X, pd.DataFrame) else np.asarray(X, float)
    names = model.feature_names()
    n = values.shape[0]
    parts = []
    for c, (i, j) in enumerate(model.cluster_order_[: model.n_clusters_]):
        parts.append(
            pd.DataFrame(
                {
                    "cluster": c,
                    "feature_i": names[i],
                    "feature_j": names[j],
                    "row": np.arange(n),
                    "x_i": values[:, i],
                    "x_j": values[:, j],
                    "y_true": y,
                    "y_pred": y_pred,
                    "correct": y == y_pred,
                }
            )
        )
    return pd.concat(parts, ignore_index=True)
