"""Column types of mixed tables, decided once, and their encoding (MATH.md §7, §8).

Examples
--------
>>> import pandas as pd
>>> from estimators.columns import infer_feature_types
>>> infer_feature_types(pd.DataFrame({"a": ["x", "y", "x", "y"], "b": [0.5, 1.25, 2.0, 0.75],
...                                   "c": [0.5, 1.0, 0.5, 0.5]}))
{'a': 'categorical', 'b': 'continuous', 'c': 'categorical'}
"""

from estimators.columns._encoder import EncodedColumns, MixedEncoder
from estimators.columns._types import (
    FEATURE_TYPES,
    MAX_INTEGER_LEVELS,
    MAX_NUMERIC_LEVELS,
    auto_column_type,
    column_values,
    infer_feature_types,
    missing_mask,
    numeric_values,
)
from estimators.columns.discretised_encoder import DISCRETIZERS, DiscretisingEncoder

__all__ = ["DISCRETIZERS", "FEATURE_TYPES", "MAX_INTEGER_LEVELS", "MAX_NUMERIC_LEVELS", "DiscretisingEncoder",
           "EncodedColumns", "MixedEncoder", "auto_column_type", "column_values", "infer_feature_types",
           "missing_mask", "numeric_values"]
