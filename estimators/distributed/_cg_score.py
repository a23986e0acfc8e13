"""The conditional Gaussian score of a mixed Dask table (complete rows, one parent at most).

Three passes over the partitions, each a map and a tree reduction:

1. the categories of the categorical columns and the class labels;
2. :class:`~estimators.distributed._cg_stats.MixedStats` (class moments, pair counts, cell
   moments);
3. for every categorical vertex with a continuous parent, ``sum_rows ln p(x_v | x_p, y)`` of
   its Bayes'-rule factor (fitted on the client from pass 2; the log-sum-exp over the
   categories is not a function of moments), evaluated by the in-memory factor code.

Every other pair score ``f(v, {p}) = (1/n) sum_rows [ln p(x_v | x_p, y) - ln p(x_v | y)]``
is closed form in the pass-2 statistics (:func:`~estimators.distributed._cg_pairs.log_likelihood_from_stats`).

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

from estimators.columns import MAX_INTEGER_LEVELS, MAX_NUMERIC_LEVELS, auto_column_type
from estimators.distributed._cg_pairs import (
    StatsTable,
    factor_from_stats,
    log_likelihood_from_stats,
)
from estimators.distributed._cg_stats import mixed_stats
from estimators.distributed._collect import categories_of
from estimators.distributed._factors import empty_encoded, encoder_order, fit_encoder
from estimators.distributed._stats import encode
from estimators.network.factors import LOG_2PI as _LOG_2PI

__all__ = ["column_kinds", "fit_cg_score_from_dask", "mixed_table", "pair_gains"]

KINDS = ("continuous", "categorical")


def column_kinds(data, feature_types, owner: str) -> np.ndarray:
    """Continuous mask of the columns by the in-memory rule (see the module docstring), a
    ``feature_types`` mapping (``"continuous"`` / ``"categorical"``) overriding."""
    given = {} if isinstance(feature_types, str) else dict(feature_types)
    unknown = [k for k in given if k not in data.names]
    bad = {k: t for k, t in given.items() if t not in KINDS}
    if unknown or bad:
        raise ValueError(f"{owner}: feature_types for a Dask X maps column names of X "
                         f"{data.names} to one of {list(KINDS)}; got unknown columns {unknown}"
                         f" and types {bad}.")
    dtypes = dict(data.X.dtypes.items())
    numeric = [c for c in data.names if c not in given
               and pd.api.types.is_numeric_dtype(dtypes[c])
               and not pd.api.types.is_bool_dtype(dtypes[c])]
    levels = data.map_reduce(_few_levels, _merge_levels, numeric) if numeric else {}
    return np.array([given[c] == "continuous" if c in given
                     else c in levels and _continuous_levels(levels[c]) for c in data.names])


#: a numeric column with more distinct values than this is continuous by either rule
_MAX_LEVELS = max(MAX_INTEGER_LEVELS, MAX_NUMERIC_LEVELS)


def _continuous_levels(levels: np.ndarray | None) -> bool:
    """Whether a numeric column with these distinct values (None: too many) is continuous."""
    if levels is None:
        return True
    whole = bool(np.all(levels == np.round(levels)))
    return auto_column_type(True, levels.size, whole) == "continuous"


def _few_levels(x: pd.DataFrame, y, columns: list) -> dict:
    """Per column: its distinct observed values when there are at most ``_MAX_LEVELS``,
    else None."""
    out = {}
    for c in columns:
        values = pd.unique(x[c].dropna().to_numpy(dtype=float))
        out[c] = np.sort(values) if values.size <= _MAX_LEVELS else None
    return out


def _merge_levels(a: dict, b: dict) -> dict:
    out = {}
    for c, levels in a.items():
        both = None if levels is None or b[c] is None else np.union1d(levels, b[c])
        out[c] = both if both is not None and both.size <= _MAX_LEVELS else None
    return out


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
    stats = data.map_reduce(mixed_stats, lambda a, b: a + b, cont, cat, cat_levels, classes,
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
            lj = log_cpt[c] - 0.5 * (_LOG_2PI + logdet[c] + r * precision[c] * r)
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


def fit_cg_score_from_dask(score, data):
    """Fit a :class:`~estimators.scores.ConditionalGaussianScore` from :class:`DaskData`:
    the pair scores (one parent at most; a larger parent set raises ``ValueError``)."""
    owner = type(score).__name__
    continuous = column_kinds(data, score.feature_types, owner)
    encoder, enc, table, classes = mixed_table(data, continuous)
    if classes.size < 2:
        raise ValueError(f"{owner} needs at least 2 classes in y; got only one class "
                         f"{classes.tolist()}.")
    constant = [data.names[j] for j, t in enumerate(enc.types) if t == "constant"]
    if constant:
        raise ValueError(f"{owner}: column(s) {constant} of X are constant; every feature "
                         "needs at least two distinct values.")
    score.encoder_ = encoder
    score.classes_ = classes
    score.variables_ = list(data.names)
    score.feature_types_ = dict(zip(data.names, enc.types, strict=True))
    score.n_features_in_ = len(data.names)
    counts = table.class_counts
    score.class_prior_ = counts / counts.sum()
    score._index = {v: i for i, v in enumerate(score.variables_)}
    score.data_ = None  # no rows on the client: pairs only, from the statistics
    score.stats_ = table
    score._max_parents = 1
    d = len(data.names)
    W = pair_gains(data, table, classes, list(range(d)),
                   var_smoothing=float(score.var_smoothing), ridge=float(score.ridge),
                   min_cell_rows=int(score.min_cell_rows))
    score._edge_matrix = W
    ii, jj = np.nonzero(~np.eye(d, dtype=bool))
    score._cache = {(int(j), frozenset({int(i)})): float(W[i, j])
                    for i, j in zip(ii, jj, strict=True)}
    return score
