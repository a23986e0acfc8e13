"""The fitted parts of a main-line TAN/GNB built from reduced Dask statistics.

A classifier fitted from Dask ends with exactly the attributes of an in-memory fit, so that
prediction runs through the ordinary code:

* ``encoder_``: a :class:`~estimators.columns.MixedEncoder` fitted on a small frame that holds,
  per column, the values that decide its type and categories (a continuous column's minimum
  and maximum, a categorical column's categories found in the first pass);
* the TAN's ``network_``: the :class:`~estimators.ktan._network.CGNetwork` factors of
  :func:`~estimators.scores.fit_cg_factor`, with its own helpers (``_cpt``, ``pooled``,
  ``_regression``) applied to the pair contingency tables (a categorical vertex, k = 1) or to
  the class moments (a continuous vertex) instead of the rows. The Dask path takes complete
  tables of one column type, where the available cases are all rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from estimators.columns import MixedEncoder
from estimators.distributed._stats import ClassMoments, PairCounts
from estimators.ktan._network import CGNetwork, _pseudo_count
from estimators.scores._cg_factors import (
    CategoricalFactor,
    LinearGaussianFactor,
    _cpt,
    _regression,
)
from estimators.scores._cg_moments import Moments, pooled

__all__ = ["empty_encoded", "encoder_order", "fit_encoder", "network_from_counts", "network_from_moments", "subset_counts",
           "subset_moments"]


def fit_encoder(data, continuous, categories, lo, hi) -> MixedEncoder:
    """The encoder an in-memory fit would get: fitted on one small frame carrying each
    column's deciding values (``categories[j]`` for a categorical column, ``lo[j]``/``hi[j]``
    for a continuous one), the types fixed as decided from the dtypes."""
    values = [[lo[j], hi[j]] if continuous[j] else list(categories[j])
              for j in range(len(data.names))]
    length = max(len(v) for v in values)
    keys = list(range(len(values))) if data.from_array else list(data.names)
    frame = pd.DataFrame({j: pd.Series(v + [v[0]] * (length - len(v)),
                                       dtype=float if continuous[j] else object)
                          for j, v in enumerate(values)})
    frame.columns = keys
    kinds = {key: "continuous" if continuous[j] else "categorical" for j, key in enumerate(keys)}
    return MixedEncoder(kinds).fit(frame)


def encoder_order(encoder: MixedEncoder, categories) -> list:
    """``categories`` re-ordered as the encoder codes them (its sorted levels); None (a
    continuous column) stays None."""
    names = encoder.feature_names_in_
    base = {k: pd.Series([0.0] if c is None else [c[0]], dtype=float if c is None else object)
            for k, c in zip(names, categories, strict=True)}
    out = []
    for j, cats in enumerate(categories):
        if cats is None or len(cats) < 2:
            out.append(cats if cats is None else np.asarray(cats, dtype=object))
            continue
        frame = pd.DataFrame({k: col.iloc[[0] * len(cats)].reset_index(drop=True)
                              for k, col in base.items()})
        frame[names[j]] = pd.Series(list(cats), dtype=object)
        codes = encoder.transform(frame).codes[:, j]
        out.append(np.asarray(cats, dtype=object)[np.argsort(codes)])
    return out


def empty_encoded(encoder: MixedEncoder):
    """The encoder's :class:`~estimators.columns.EncodedColumns` of no rows (the column
    types and levels)."""
    return encoder.transform(pd.DataFrame(
        {k: pd.Series([], dtype=float if encoder.feature_types_[k] == "continuous" else object)
         for k in encoder.feature_names_in_}))


def subset_moments(mo: ClassMoments, kept) -> ClassMoments:
    """The class moments of the columns ``kept``."""
    k = np.asarray(kept)
    return ClassMoments(mo.classes, mo.n, mo.mean[:, k], mo.M[:, k][:, :, k], mo.lo[:, k],
                        mo.hi[:, k])


def subset_counts(counts: PairCounts, kept) -> PairCounts:
    """The pair tables of the columns ``kept``."""
    idx = np.concatenate([np.arange(counts.offsets[j], counts.offsets[j] + counts.K[j])
                          for j in kept])
    return PairCounts(counts.G[:, idx][:, :, idx], counts.K[np.asarray(kept)])


def _common(enc, v, parents, n_classes, configs, n_rows):
    cont = tuple(p for p in parents if enc.continuous[p])
    cat = tuple(p for p in parents if not enc.continuous[p])
    return dict(v=v, continuous_parents=cont, categorical_parents=cat, n_classes=n_classes,
                radix=enc.n_levels[list(cat)], configs=configs, n_rows=n_rows)


def network_from_counts(enc, counts: PairCounts, position, columns, parents, *, alpha, ess
                        ) -> CGNetwork:
    """The categorical factors of :func:`~estimators.ktan._network.fit_network` from the
    pair tables (``position[v]``: the index of encoded column v in ``counts``; k = 1)."""
    m = counts.G.shape[0]
    factors = []
    for v, pa in zip(columns, parents, strict=True):  # loop over features, not rows
        K = int(enc.n_levels[v])
        if pa:
            table = counts.table(position[pa[0]], position[v])  # (m, K_p, K_v)
            seen = np.flatnonzero(table.sum(axis=(0, 2)) > 0)
            configs = seen.astype(np.int64)
            cells = np.transpose(table[:, seen], (1, 0, 2))  # (U, m, K)
        else:
            configs = np.zeros(1, np.int64)
            cells = np.diagonal(counts.table(position[v], position[v]), axis1=1, axis2=2)[None]
        full = np.zeros((configs.size + 1, m, K))
        full[:-1] = cells
        a = _pseudo_count(enc, v, pa, m, alpha, ess)
        factors.append(CategoricalFactor(**_common(enc, v, pa, m, configs, int(cells.sum())),
                                         log_cpt=_cpt(full, a)))
    return CGNetwork(tuple(columns), tuple(parents), tuple(factors))


def network_from_moments(enc, mo: ClassMoments, position, columns, parents, *, floor,
                         min_cell_rows) -> CGNetwork:
    """The linear-Gaussian factors of :func:`~estimators.ktan._network.fit_network`
    (``ridge=0``, ``floor`` added to the residual variances) from the class moments: the
    cells (configuration, class) are the classes, pooled as ``fit_cg_factor`` pools them."""
    m = mo.classes.size
    n_all, mean_all, M_all = mo.pooled()
    factors = []
    for v, pa in zip(columns, parents, strict=True):  # loop over features, not rows
        z = [position[p] for p in pa] + [position[v]]
        cls = Moments(mo.n.astype(float), mo.mean[:, z], mo.M[:, z][:, :, z])
        empty = Moments(np.zeros(m), np.zeros((m, len(z))), np.zeros((m, len(z), len(z))))
        fine = Moments(np.concatenate([cls.n, empty.n]), np.concatenate([cls.mean, empty.mean]),
                       np.concatenate([cls.M, empty.M]))
        alls = Moments(np.array([float(n_all)]), mean_all[z][None], M_all[np.ix_(z, z)][None])
        F = 2 * m
        levels = [(fine, np.arange(F)), (cls, np.arange(F) % m), (alls, np.zeros(F, np.int64))]
        threshold = max(min_cell_rows, len(pa) + 2)
        scale = np.diagonal(M_all)[z[:-1]] / n_all
        a, b, s2 = _regression(pooled(levels, threshold), 0.0, np.where(scale > 0, scale, 1.0),
                               floor, True)
        factors.append(LinearGaussianFactor(
            **_common(enc, v, pa, m, np.zeros(1, np.int64), int(n_all)),
            intercept=a.reshape(2, m), coef=b.reshape(2, m, len(pa)), var=s2.reshape(2, m)))
    return CGNetwork(tuple(columns), tuple(parents), tuple(factors))
