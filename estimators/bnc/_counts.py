"""The categorical factors of a SPODE from one pass of counts.

A categorical child v with categorical super-parents S has the CPT
``p(x_v | x_S, y) = (n_{x_S, y, x_v} + alpha) / (n_{x_S, y} + K_v alpha)`` on the rows where
v, S and y are observed (available cases), exactly what
:func:`estimators.network.fitting.fit_cg_factor` fits; here it is one ``bincount`` per family and a
:class:`~estimators.network.factors.CategoricalFactor` built from it, without the per-factor
bookkeeping of the general fit (continuous families still go through ``fit_cg_factor``).
"""

from __future__ import annotations

import numpy as np

from estimators.columns import EncodedColumns
from estimators.network.factors import CategoricalFactor
from estimators.network.fitting import log_cpt_table

__all__ = ["categorical_factor"]


def categorical_factor(enc: EncodedColumns, y: np.ndarray, n_classes: int, v: int,
                       parents: tuple, alpha: float, observed: np.ndarray
                       ) -> tuple[CategoricalFactor, float]:
    """``p(x_v | x_parents, y)`` for a categorical v with categorical ``parents`` (sorted),
    from counts (``observed``: ``enc.observed``, computed once by the caller), and the mean
    ``ln p(x_v | x_parents, y_i)`` of the training rows where the family is observed (from
    the same counts: ``sum n_{u,y,x} ln p(x | u, y) / sum n_{u,y,x}``; 0 without such rows)."""
    parents = tuple(parents)
    radix = enc.n_levels[list(parents)].astype(np.int64)
    ok = observed[:, [v, *parents]].all(axis=1)
    codes = enc.codes[ok]
    config = (np.ravel_multi_index(tuple(codes[:, list(parents)].T), tuple(radix))
              if parents else np.zeros(codes.shape[0], np.int64))
    K, m = int(enc.n_levels[v]), n_classes
    P = int(np.prod(radix)) if parents else 1
    counts = np.bincount((config * m + y[ok]) * K + codes[:, v], minlength=P * m * K)
    counts = counts.reshape(P, m, K).astype(float)
    configs = np.flatnonzero(counts.sum(axis=(1, 2)) > 0)
    if configs.size == 0:
        configs = np.zeros(1, np.int64)
    table = np.concatenate([counts[configs], np.zeros((1, m, K))])  # slot U: unseen
    log_cpt = log_cpt_table(table, alpha, configs=configs, radix=radix, v=v, parents=parents)
    rows = int(ok.sum())
    mean = float((table * log_cpt).sum() / rows) if rows else 0.0
    return CategoricalFactor(v=v, continuous_parents=(), categorical_parents=parents,
                             n_classes=m, radix=radix, configs=configs.astype(np.int64),
                             n_rows=rows, log_cpt=log_cpt), mean
