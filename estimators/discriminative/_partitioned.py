"""Discriminative parameters from row partitions that are never gathered (issue 49).

The CLL and its gradient are sums over rows (:mod:`._cll`), so the fit of
:func:`._model.fit_parameters` runs on partitions
(:class:`~estimators.stats.partitions.Partitions`: one in memory, or a Dask DataFrame
through ``estimators.distributed.collect``) in three steps:

1. one pass: the class codes of every row (one small integer each, gathered to the client)
   and the standardisation of the continuous columns (their moments merged by Chan's
   update, :class:`~estimators.stats.cell_statistics.CellStats`), which the in-memory fit
   computes from all training rows (:func:`._design.standardisation`);
2. for ``"auto"`` settings, the rows of inner cross-validation: the same stratified
   subsample of :data:`._select.INNER_ROWS` rows that :func:`._select.inner_rows` draws in
   memory (drawn on the gathered class codes, then the chosen rows taken from their
   partitions), and :func:`._select.select_on_sample` on it, as in memory;
3. every partition's design and offset built where it lives and kept there
   (:class:`._cll.RowBlock`, ``Partitions.persist``): L-BFGS runs on the client, each
   evaluation's value and gradient summed over the blocks (:class:`._cll.PartitionedCLL`).

The result equals the in-memory fit up to the order of the floating-point sums (the penalty
chosen on the same rows, the same convex objective, the same start). The rows are encoded,
and their generative ``ln p(y, x_O)`` computed, by the classifier (``rows``, below), so this
module reads no classifier attribute.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from estimators.discriminative._cll import PartitionedCLL, RowBlock
from estimators.discriminative._design import layout
from estimators.discriminative._discriminative_model import (
    Discriminative,
    DiscriminativeParameters,
    _chooses,
    _chosen,
    _maximise,
    _terms,
)
from estimators.discriminative._select import inner_rows, select_on_sample
from estimators.stats.cell_statistics import CellStats

__all__ = ["fit_parameters_partitioned"]


def fit_parameters_partitioned(factors, data, rows, counts: np.ndarray, spec: Discriminative,
                               refit: Callable | None = None,
                               random_state: int = 0) -> DiscriminativeParameters:
    """:func:`._model.fit_parameters` on training rows in partitions (module docstring).

    Parameters
    ----------
    factors : sequence
        The fitted CG factors (one per modelled feature).
    data : Partitions
        The training table (complete rows).
    rows : object
        ``rows.encode(x, y) -> (EncodedColumns, class codes)`` of a partition (pandas ``x``
        and ``y``) and ``rows.likelihood(enc) -> ln p(y, x_O)`` (n, m), or a function with
        a ``class_log_prior`` (``network.NetworkLikelihood``); picklable: it is sent to
        where the partitions live.
    counts : ndarray of shape (m,)
        Training rows per class.
    spec : Discriminative
    refit : callable, optional
        ``refit(enc, codes) -> (factors, jll)``: the generative factors refitted on rows of
        the inner cross-validation (for ``"auto"`` settings).
    random_state : int, default=0

    Returns
    -------
    DiscriminativeParameters

    Examples
    --------
    On one in-memory partition it gives the parameters of :func:`fit_parameters`:

    >>> import numpy as np, pandas as pd
    >>> from estimators.columns import MixedEncoder
    >>> from estimators.discriminative import Discriminative, fit_parameters
    >>> from estimators.stats.partitions import InMemory
    >>> from estimators.network.fitting import fit_cg_factor
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 300)
    >>> X = np.column_stack([(rng.random(300) < 0.3 + 0.4 * y), rng.normal(y, 1.0)])
    >>> encoder = MixedEncoder({0: "categorical"}).fit(X)
    >>> enc = encoder.transform(X)
    >>> factors = [fit_cg_factor(enc, y, 2, 0), fit_cg_factor(enc, y, 2, 1, [0])]
    >>> prior = np.log(np.bincount(y) / 300)
    >>> class Rows:
    ...     def encode(self, x, y):
    ...         return encoder.transform(x.to_numpy()), np.asarray(y)
    ...     def likelihood(self, enc):
    ...         return prior + sum(f.log_prob(enc) for f in factors)
    >>> spec = Discriminative(l2=1.0, centre="generative", scale=1.0)
    >>> data = InMemory(pd.DataFrame(X), pd.Series(y))
    >>> fitted = fit_parameters_partitioned(factors, data, Rows(), np.bincount(y), spec)
    >>> in_memory = fit_parameters(factors, enc, y, Rows().likelihood(enc), spec)
    >>> bool(np.allclose(fitted.coef, in_memory.coef, atol=1e-6))
    True
    """
    first = data.map_each(_codes_and_moments, rows)
    y = np.concatenate([codes for codes, _, _ in first])
    table = None
    if _chooses(spec, refit):
        enc, codes = _sample(data, rows, y, [c.size for c, _, _ in first],
                             inner_rows(y, counts, random_state))
        l2, centre, scale, table = select_on_sample(
            spec, enc, codes, counts, lambda r: refit(enc.take(r), codes[r]), _terms,
            random_state=random_state, factors=factors)
        spec = _chosen(spec, l2, centre, scale)
    design = layout(factors, *_standardisation(first),
                    spec.scale if spec.form == "cells" else None)
    blocks = data.persist(_row_block, rows, spec, design)
    p = design.n_columns if spec.form == "cells" else len(factors)
    return _maximise(spec, design, PartitionedCLL(blocks, y.size, p, counts.size, spec.l2),
                     table)


def _codes_and_moments(x: pd.DataFrame, y: pd.Series, rows) -> tuple:
    """A partition's class codes, the continuous mask of its encoded columns and their
    moments (no cross products)."""
    enc, codes = rows.encode(x, y)
    cont = enc.continuous
    stats = CellStats.from_arrays(enc.values[:, cont], np.zeros(codes.size, int), 1, cross=False)
    # the codes in the smallest integer type (the client gathers one per training row)
    return codes.astype(np.min_scalar_type(max(int(codes.max(initial=0)), 0))), cont, stats


def _standardisation(first: list) -> tuple[np.ndarray, np.ndarray]:
    """``(mean, sd)`` of every encoded column from the partitions' moments, as
    :func:`._design.standardisation` computes them from all rows."""
    cont = first[0][1]
    stats = first[0][2]
    for _, _, st in first[1:]:
        stats = stats.merge(st)
    mean, sd = np.zeros(cont.size), np.ones(cont.size)
    with np.errstate(all="ignore"):
        m = stats.mean[0]
        s = np.sqrt(stats.M[0] / stats.n[0])
    mean[cont] = np.where(np.isfinite(m), m, 0.0)
    sd[cont] = np.where(np.isfinite(s) & (s > 0), s, 1.0)
    return mean, sd


def _sample(data, rows, y: np.ndarray, sizes: list, sub: np.ndarray | None):
    """The encoded rows ``sub`` (all rows when None) of the partitioned table and their
    class codes, in row order."""
    index = np.arange(y.size) if sub is None else sub
    bounds = np.cumsum([0, *sizes])
    local = [index[(index >= a) & (index < b)] - a
             for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
    pieces = data.map_each(_take, each=local)
    return rows.encode(pd.concat([x for x, _ in pieces]), pd.concat([y for _, y in pieces]))


def _take(x: pd.DataFrame, y: pd.Series, local: np.ndarray) -> tuple:
    return x.iloc[local], y.iloc[local]


#: rows of a partition encoded and turned into one :class:`._cll.RowBlock` at a time (the
#: design's assembly takes ~25 bytes per nonzero while it is built, the block ~4 to 12)
CHUNK_ROWS = 100_000


def _row_block(x: pd.DataFrame, y: pd.Series, rows, spec: Discriminative, design) -> list:
    """A partition's share of the objective: the design and offset (``_model._terms``) of
    its rows, in chunks of :data:`CHUNK_ROWS`."""
    out = []
    for start in range(0, max(len(x), 1), CHUNK_ROWS):
        enc, codes = rows.encode(x.iloc[start:start + CHUNK_ROWS],
                                 y.iloc[start:start + CHUNK_ROWS])
        offset, matrix = _terms(spec, design, enc, rows.likelihood)
        out.append(RowBlock(matrix, offset, codes))
    return out
