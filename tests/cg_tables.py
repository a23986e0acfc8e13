"""Helpers of the conditional Gaussian score tests: empty cells in a table, its
:class:`~estimators.scores._conditional_gaussian.CGData` (columns named ``x...`` are
continuous, the others categorical), and the row path of the score and of its BIC -- each
hyperedge's two factors fitted on its rows -- the independent computation the batched
scores are compared with."""

from __future__ import annotations

import numpy as np
import pandas as pd

from estimators.columns import MixedEncoder
from estimators.network.fitting import fit_cg_factor
from estimators.scores._cg_bic import cg_extra_parameters
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


def cg_gain(data: CGData, v: int, parents: tuple) -> float:
    """``f(v, parents)`` on the complete rows (-inf when too few)."""
    enc = data.enc
    obs = enc.observed[:, [v, *parents]].all(axis=1)
    n_cont = int(enc.continuous[list(parents)].sum())
    if obs.sum() < max(data.min_cell_rows, n_cont + 2):
        return -np.inf
    sub, y = enc.take(obs), data.y[obs]
    settings = dict(alpha=0.0, var_smoothing=data.var_smoothing, ridge=data.ridge,
                    min_cell_rows=data.min_cell_rows, pool_constant=False)  # plug-in CMI
    full = fit_cg_factor(sub, y, data.m, v, parents, **settings).log_prob_at(sub, y)
    base = fit_cg_factor(sub, y, data.m, v, (), **settings).log_prob_at(sub, y)
    return float(np.mean(full - base))


def cg_block_rows(data: CGData, items) -> np.ndarray:
    """``f(v, P)`` for each ``(v, P)`` item on the row path (the independent computation
    the tests compare :func:`cg_block` with)."""
    return np.array([cg_gain(data, int(v), tuple(int(p) for p in ps)) for v, ps in items])


def cg_bic_gain(data: CGData, v: int, parents: tuple) -> float:
    """``f_BIC(v, parents)`` on the available cases (-inf when too few; non-empty parents)."""
    gain = cg_gain(data, v, parents)
    if not np.isfinite(gain):
        return gain
    n = int(data.enc.observed[:, [v, *parents]].all(axis=1).sum())
    return n * gain - 0.5 * np.log(n) * cg_extra_parameters(data, v, parents)


def cg_bic_block_rows(data: CGData, items) -> np.ndarray:
    """``f_BIC(v, P)`` for each ``(v, P)`` item on the row path (the tests' oracle)."""
    return np.array([cg_bic_gain(data, int(v), tuple(int(p) for p in ps)) for v, ps in items])
