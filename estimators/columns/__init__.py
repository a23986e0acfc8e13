"""Column types of mixed tables, decided once, and their encoding (MATH.md §7, §8).

Examples
--------
>>> import pandas as pd
>>> from estimators.columns import infer_feature_types
>>> infer_feature_types(pd.DataFrame({"a": ["x", "y"], "b": [0.5, 1.25]}))
{'a': 'categorical', 'b': 'continuous'}
"""

from estimators.columns._encoder import EncodedColumns, MixedEncoder
from estimators.columns._types import FEATURE_TYPES, MAX_INTEGER_LEVELS, infer_feature_types

__all__ = ["FEATURE_TYPES", "MAX_INTEGER_LEVELS", "EncodedColumns", "MixedEncoder",
           "infer_feature_types"]
