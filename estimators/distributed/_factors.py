"""The encoder and the statistics subsets of a TAN/GNB fitted from reduced Dask statistics.

A classifier fitted from Dask ends with exactly the attributes of an in-memory fit, so that
prediction runs through the ordinary code. Its ``encoder_`` is a
:class:`~estimators.columns.MixedEncoder` fitted on a small frame that holds, per column, the
values that decide its type and categories (a continuous column's minimum and maximum, a
categorical column's categories found in the first pass). The TAN's ``network_`` factors
come from :func:`estimators.distributed._cg_pairs.factor_from_stats`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from estimators.columns import MixedEncoder
from estimators.distributed._stats import ClassMoments, PairCounts

__all__ = ["empty_encoded", "encoder_order", "fit_encoder", "subset_counts", "subset_moments"]


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
