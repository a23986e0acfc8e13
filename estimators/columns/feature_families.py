"""The ``features`` parameter of the (k-)TAN classifiers: one family for every column.

Column types are decided once by :class:`estimators.columns.MixedEncoder` (the
``feature_types`` parameter every classifier shares; its rule is in
:mod:`estimators.columns._types`). ``features`` is a shortcut kept for the k-TAN family and
the command line's ``--features``: ``"auto"`` (the default) leaves the types to
``feature_types``; ``"discrete"`` makes every column categorical and ``"gaussian"`` every
column continuous, as a mapping naming all columns would. Giving both ``features`` other
than ``"auto"`` and a ``feature_types`` mapping is an error.

With ``features="discrete"`` a numeric column may have at most :data:`MAX_DISCRETE_LEVELS`
distinct values; more is taken as continuous data and rejected with a message that
suggests discretising it or ``features="gaussian"``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from estimators.columns import column_values, missing_mask, numeric_values

#: A numeric column with more distinct values than this is refused by features="discrete".
MAX_DISCRETE_LEVELS = 32

FEATURE_FAMILIES = ("auto", "discrete", "gaussian")


def feature_types_of(raw, features: str, feature_types, names: Sequence[str],
                     estimator: str):
    """The ``feature_types`` the encoder gets: ``feature_types`` itself under
    ``features="auto"``, else every column mapped to the family's type.

    Parameters
    ----------
    raw : DataFrame or ndarray
        Training input (what the encoder reads).
    features : {"auto", "discrete", "gaussian"}
    feature_types : "auto" or mapping
        The ``feature_types`` parameter (keys already those of the encoder).
    names : sequence of str
        Feature names, used in messages.
    estimator : str
        The estimator's class name, used in messages.

    Raises
    ------
    ValueError
        ``features`` and a ``feature_types`` mapping together, or a numeric column with more
        than :data:`MAX_DISCRETE_LEVELS` values under ``"discrete"``.

    Examples
    --------
    >>> import numpy as np
    >>> feature_types_of(np.array([[0, 1.5], [1, 2.5]]), "discrete", "auto", ["a", "b"],
    ...                  "TANClassifier")
    {0: 'categorical', 1: 'categorical'}
    """
    if features == "auto":
        return feature_types
    if not isinstance(feature_types, str):
        raise ValueError(f"{estimator} got features={features!r} and a feature_types mapping; "
                         "give one of them (features='auto' leaves the types to "
                         "feature_types).")
    keys, cols = column_values(raw)
    if features == "gaussian":
        return dict.fromkeys(keys, "continuous")
    for name, (col, _) in zip(names, cols, strict=True):
        miss = missing_mask(col)
        values = numeric_values(col, miss) if col.dtype.kind != "b" else None
        n_values = 0 if values is None else pd.unique(values[~miss]).size
        if n_values > MAX_DISCRETE_LEVELS:
            raise ValueError(
                f"Column {name!r} has {n_values} distinct numeric values, more than the "
                f"{MAX_DISCRETE_LEVELS} that {estimator}(features='discrete') accepts for a "
                "numeric column: it looks continuous. Discretise it: discretize='mdl' "
                "with features='auto' cuts it at its supervised MDL cut points (or "
                "sklearn.preprocessing.KBinsDiscretizer first); or use features='gaussian'."
            )
    return dict.fromkeys(keys, "categorical")


def family_of(types: Sequence[str]) -> str:
    """``"discrete"``, ``"gaussian"`` or ``"mixed"`` from the modelled columns' types.

    Examples
    --------
    >>> family_of(["categorical", "continuous"]), family_of(["continuous"])
    ('mixed', 'gaussian')
    """
    kinds = set(types)
    if kinds == {"categorical"}:
        return "discrete"
    return "gaussian" if kinds == {"continuous"} else "mixed"
