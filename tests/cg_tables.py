"""Helpers of the conditional Gaussian score tests: empty cells in a table, and its
:class:`~estimators.scores._conditional_gaussian.CGData` (columns named ``x...`` are
continuous, the others categorical)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from estimators.columns import MixedEncoder
from estimators.scores._conditional_gaussian import CGData


def hide_cells(X: pd.DataFrame, rng: np.random.Generator, missing: float) -> pd.DataFrame:
    """Each cell of ``X`` empty with probability ``missing`` (NaN or None), in place."""
    for c in X.columns:
        X.loc[rng.random(len(X)) < missing, c] = np.nan if c.startswith("x") else None
    return X


def cg_data(X: pd.DataFrame, y: np.ndarray) -> CGData:
    """The score's data (var_smoothing 1e-9, ridge 1e-8, min_cell_rows 5)."""
    enc = MixedEncoder(feature_types={c: "continuous" if c.startswith("x") else "categorical"
                                      for c in X.columns}).fit_transform(X)
    return CGData(enc, y, int(y.max()) + 1, 1e-9, 1e-8, 5)
