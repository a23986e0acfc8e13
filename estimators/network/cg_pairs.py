"""The conditional Gaussian pair scores of a mixed table in partitions (complete rows, one
parent at most).

Three passes over the partitions, each a map and a tree reduction:

1. the categories of the categorical columns and the class labels;
2. :class:`~estimators.stats.mixed_statistics.MixedStats` (class moments, pair counts,
   level moments);
3. for every categorical vertex with a continuous parent, ``sum_rows ln p(x_v | x_p, y)`` of
   its Bayes'-rule factor (fitted on the client from pass 2; the log-sum-exp over the
   categories is not a function of moments), evaluated by the in-memory factor code.

Every other pair score ``f(v, {p}) = (1/n) sum_rows [ln p(x_v | x_p, y) - ln p(x_v | y)]``
is closed form in the pass-2 statistics (:func:`~estimators.network.stats_factors.log_likelihood_from_stats`).

Column types of a Dask ``X`` follow the in-memory rule (:func:`estimators.columns.
infer_feature_types`), unless a ``feature_types`` mapping says otherwise: strings, bools and
other non-numeric dtypes are categorical; a numeric column is categorical when it holds at
most :data:`~estimators.columns.MAX_NUMERIC_LEVELS` distinct values, or at most
:data:`~estimators.columns.MAX_INTEGER_LEVELS` all whole numbers, and continuous otherwise
(:func:`~estimators.columns.auto_column_type`). That needs the values: one extra map-reduce
over the numeric columns the mapping does not name, each partition reporting its distinct
values up to the limit.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from estimators.network.stats_factors import (
    StatsTable,
    factor_from_stats,
    log_likelihood_from_stats,
    single_type_table,
)
from estimators.stats.cell_statistics import encode
from estimators.stats.gaussian import LOG_2PI
from estimators.stats.mixed_statistics import MixedStats, mixed_stats
from estimators.stats.partitions import (
    categories_of,
    column_kinds,
    counts_of,
    empty_encoded,
    encoder_order,
    fit_encoder,
    moments_of,
)

__all__ = ["cg_pair_statistics", "mixed_table", "pair_gains", "statistics_table"]


def mixed_table(data, continuous: np.ndarray):
    """Passes 1 and 2: ``(encoder, empty encoded table, StatsTable, classes)``."""
    names = data.names
    cont = [c for c, k in zip(names, continuous, strict=True) if k]
    cat = [c for c, k in zip(names, continuous, strict=True) if not k]
    found, classes = categories_of(data, cat)
    by_name = dict(zip(cat, found, strict=True))
    categories = [None if k else by_name[c] for c, k in zip(names, continuous, strict=True)]
    d = len(names)
    draft = fit_encoder(data, continuous, categories, np.zeros(d), np.ones(d))
    ordered = encoder_order(draft, categories)
    cat_levels = [ordered[j] for j in range(d) if not continuous[j]]
    stats = data.map_reduce(mixed_stats, MixedStats.merge, cont, cat, cat_levels, classes,
                            data.owner)
    lo, hi = np.zeros(d), np.zeros(d)
    if cont:
        lo[continuous] = stats.moments.lo.min(axis=0)
        hi[continuous] = stats.moments.hi.max(axis=0)
    encoder = fit_encoder(data, continuous, categories, lo, hi)
    enc = empty_encoded(encoder)
    position = {j: int(np.sum(continuous[:j] == continuous[j])) for j in range(d)}
    levels = {j: ordered[j] for j in range(d) if not continuous[j]}
    return encoder, enc, StatsTable(stats, enc.continuous, enc.n_levels, position, levels), \
        classes


def statistics_table(data, continuous: np.ndarray) -> tuple:
    """``(encoder, StatsTable, classes)`` of a table in partitions, for families with at most
    one feature parent (or only continuous ones): the class moments (all continuous), the
    pair counts after the categories (all categorical), or both and the level moments
    (:func:`mixed_table`)."""
    d = len(data.names)
    if continuous.any() and not continuous.all():
        encoder, _, table, classes = mixed_table(data, continuous)
        return encoder, table, classes
    if continuous.all():
        mo = moments_of(data)
        encoder = fit_encoder(data, continuous, [None] * d, mo.lo.min(axis=0), mo.hi.max(axis=0))
        return encoder, single_type_table(empty_encoded(encoder), mo.classes, moments=mo), \
            mo.classes
    categories, classes = categories_of(data)
    encoder = fit_encoder(data, continuous, categories, None, None)
    counts = counts_of(data, encoder_order(encoder, categories), classes)
    return encoder, single_type_table(empty_encoded(encoder), classes, counts=counts), classes


def _bayes_part(x, y, classes, specs) -> np.ndarray:
    """``sum_rows ln p(x_v | x_p, y)`` of each Bayes'-rule factor (one continuous parent, no
    categorical one) on one partition: the in-memory formula (``_log_joint``) per class."""
    yc = pd.Index(classes).get_indexer(y.to_numpy())
    by_class = [np.flatnonzero(yc == c) for c in range(classes.size)]
    codes, values, out = {}, {}, np.zeros(len(specs))
    for k, (v, p, levels, log_cpt, mean, precision, logdet) in enumerate(specs):
        if v not in codes:
            codes[v] = encode(x[[v]], [levels])[:, 0]
        if p not in values:
            values[p] = x[p].to_numpy(dtype=float)
        for c, rows in enumerate(by_class):  # loop over classes, not rows
            r = values[p][rows][:, None] - mean[c]
            lj = log_cpt[c] - 0.5 * (LOG_2PI + logdet[c] + r * precision[c] * r)
            top = lj.max(axis=1)
            lse = top + np.log(np.exp(lj - top[:, None]).sum(axis=1))
            out[k] += float(np.sum(lj[np.arange(rows.size), codes[v][rows]] - lse))
    return out


def _bayes_spec(table: StatsTable, names, factor) -> tuple:
    """What :func:`_bayes_part` needs of a Bayes'-rule factor (configuration 0)."""
    v, p = factor.v, factor.continuous_parents[0]
    return (names[v], names[p], table.levels[v], factor.log_cpt[0], factor.mean[0, :, :, 0],
            factor.precision[0, :, :, 0, 0], factor.logdet[0])


def pair_gains(data, table: StatsTable, classes, columns, *, var_smoothing: float,
               ridge: float, min_cell_rows: int) -> np.ndarray:
    """``W[i, j] = f(columns[j], {columns[i]})`` of the conditional Gaussian score (pass 3
    for the categorical vertices with a continuous parent); -inf when ineligible."""
    settings = dict(alpha=0.0, var_smoothing=var_smoothing, ridge=ridge,
                    min_cell_rows=min_cell_rows)
    n = table.n_rows
    d = len(columns)
    W = np.zeros((d, d))
    base = {}
    for v in columns:  # loop over features, not rows
        base[v] = log_likelihood_from_stats(*factor_from_stats(table, v, (), **settings))
    pending = []
    for i, p in enumerate(columns):  # loop over pairs (d^2), not rows
        for j, v in enumerate(columns):
            if i == j:
                continue
            if n < max(min_cell_rows, int(table.continuous[p]) + 2):
                W[i, j] = -np.inf
                continue
            factor, own = factor_from_stats(table, v, (p,), **settings)
            ll = log_likelihood_from_stats(factor, own)
            if ll is None:
                pending.append((i, j, factor))
            else:
                W[i, j] = (ll - base[v]) / n
    if pending:
        specs = [_bayes_spec(table, data.names, f) for _, _, f in pending]
        sums = data.map_reduce(_bayes_part, np.add, classes, specs)
        for (i, j, _), s in zip(pending, sums, strict=True):
            W[i, j] = (float(s) - base[columns[j]]) / n
    return W


def cg_pair_statistics(data, feature_types, *, var_smoothing: float, ridge: float,
                       min_cell_rows: int) -> tuple:
    """What a :class:`~estimators.scores.ConditionalGaussianScore` fitted from
    :class:`~estimators.stats.partitions.Partitions` holds: ``(encoder, encoded table of
    no rows, StatsTable, classes, W)`` with ``W[i, j] = f(j, {i})`` every pair score (one
    parent at most: a larger parent set needs the joint tables of the parents)."""
    owner = data.owner
    continuous = column_kinds(data, feature_types)
    encoder, enc, table, classes = mixed_table(data, continuous)
    if classes.size < 2:
        raise ValueError(f"{owner} needs at least 2 classes in y; got only one class "
                         f"{classes.tolist()}.")
    constant = [data.names[j] for j, t in enumerate(enc.types) if t == "constant"]
    if constant:
        raise ValueError(f"{owner}: column(s) {constant} of X are constant; every feature "
                         "needs at least two distinct values.")
    W = pair_gains(data, table, classes, list(range(len(data.names))),
                   var_smoothing=var_smoothing, ridge=ridge, min_cell_rows=min_cell_rows)
    return encoder, enc, table, classes, W
