"""Column types decided once, and the mixed-table encoder."""

from importlib.resources import files

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from estimators.columns import (
    MAX_INTEGER_LEVELS,
    MAX_NUMERIC_LEVELS,
    MixedEncoder,
    infer_feature_types,
)


@pytest.mark.parametrize(("name", "column", "kind"), [
    ("heart_failure", "anaemia", "categorical"),  # 0/1
    ("heart_failure", "ejection_fraction", "continuous"),  # integers, many values
    ("balance_scale", "left_weight", "categorical"),  # 1-5 codes
    ("abalone", "rings", "continuous"),  # integers, 28 values
    ("yeast", "mcg", "continuous"),
    ("yeast", "erl", "categorical"),  # 0.5 / 1.0: two values, typed categorical (issue 25)
    ("yeast", "pox", "categorical"),  # 0 / 0.5 / 0.83: three non-integer values
])
def test_shipped_tables(name, column, kind):
    X = pd.read_csv(files("estimators.datasets") / "data" / f"{name}.csv")
    assert infer_feature_types(X)[column] == kind


def test_dtype_rules_and_missing_cells():
    n = 12
    X = pd.DataFrame({
        "cat": pd.Categorical(["a", "b"] * 6),
        "flag": [True, False] * 6,
        "text": pd.array(["u", "v", None] * 4, dtype="string"),
        "num_text": ["1.5", "2.25", "", "3.0", "0.5", "7.25"] * 2,  # numbers as text: continuous
        "ints": pd.array(list(range(MAX_INTEGER_LEVELS)) + [None, None], dtype="Int64"),
        "many": np.arange(n) % (MAX_INTEGER_LEVELS + 1),
        "half": [0.5, 1.0] * 6,  # two values, not integers: categorical all the same
        "thirds": [0.5, 1.0, 0.83] * 4,  # three: categorical too (MAX_NUMERIC_LEVELS)
        "fourths": [0.5, 1.0, 0.83, 0.25] * 3,  # four non-integer values: continuous
        "nan_const": [np.nan] * 11 + [4.0],
        "blank_const": ["", " ", "x"] * 4,
    })
    assert infer_feature_types(X) == {
        "cat": "categorical", "flag": "categorical", "text": "categorical",
        "num_text": "continuous", "ints": "categorical", "many": "continuous",
        "half": "categorical", "thirds": "categorical", "fourths": "continuous",
        "nan_const": "constant",
        "blank_const": "constant",
    }
    enc = MixedEncoder().fit(X).transform(X)
    assert (enc.codes[:, 2] == -1).sum() == 4  # None is missing, never a category
    assert np.isnan(enc.values[:, 3]).sum() == 2  # blank strings are missing
    assert list(MixedEncoder().fit(X).categories_["text"]) == ["u", "v"]


def test_mapping_overrides_and_errors():
    X = pd.DataFrame({"a": [1, 2, 3, 1], "s": ["x", "y", "x", "y"], "k": [1, 1, 1, 1]})
    assert infer_feature_types(X, {"a": "continuous", "k": "categorical"}) == {
        "a": "continuous", "s": "categorical", "k": "constant"}
    with pytest.raises(ValueError, match="column 'b'.*the columns are \\['a', 's', 'k'\\]"):
        infer_feature_types(X, {"b": "continuous"})
    with pytest.raises(ValueError, match="feature_types\\['a'\\].*'continuous' or "
                                         "'categorical'; got 'ordinal'"):
        infer_feature_types(X, {"a": "ordinal"})
    with pytest.raises(ValueError, match="Column 's'.*non-numeric value 'x'"):
        infer_feature_types(X, {"s": "continuous"})
    with pytest.raises(ValueError, match="'auto' or a mapping"):
        infer_feature_types(X, "numeric")
    with pytest.raises(TypeError, match="'auto' or a mapping"):
        infer_feature_types(X, ["a"])
    with pytest.raises(ValueError, match="Column 'v' holds infinite values"):
        infer_feature_types(pd.DataFrame({"v": [0.5, np.inf, 1.5, 2.5]}))


def test_encoder_codes_unseen_categories_as_missing():
    train = pd.DataFrame({"s": ["b", "a", "b", None], "x": [0.5, 1.5, 2.5, 3.5],
                          "i": [3, 1, 2, 1]})
    enc = MixedEncoder().fit(train)
    out = enc.transform(pd.DataFrame({"i": [2, 7, 1], "s": ["a", "zz", ""],
                                      "x": [1.0, None, 4.0]}))  # columns by name
    assert out.codes[:, 0].tolist() == [0, -1, -1] and out.codes[:, 2].tolist() == [1, -1, 0]
    assert out.n_unseen.tolist() == [1, 0, 1]
    np.testing.assert_array_equal(out.values[:, 1], [1.0, np.nan, 4.0])
    assert out.observed.tolist() == [[True, True, True], [False, False, False],
                                     [False, True, True]]
    with pytest.raises(ValueError, match="lacks the training column 'x'"):
        enc.transform(train.drop(columns="x"))
    with pytest.raises(ValueError, match="Column 'x' is continuous but holds the non-numeric"):
        enc.transform(train.assign(x=["p", "q", "r", "s"]))


def test_arrays_are_typed_per_column():
    X = np.array([[0.5, 1, "a"], [1.5, 2, "b"], [2.5, 1, "a"], [3.5, 2, "b"]], dtype=object)
    assert infer_feature_types(X) == {0: "continuous", 1: "categorical", 2: "categorical"}
    enc = MixedEncoder().fit_transform(X)
    assert enc.types == ("continuous", "categorical", "categorical")
    assert enc.n_levels.tolist() == [0, 2, 2]


def _expected_type(observed: list[float]) -> str:
    """The typing rule of a numeric column written out from its definition."""
    distinct = set(observed)
    if len(distinct) < 2:
        return "constant"
    if len(distinct) <= MAX_NUMERIC_LEVELS:
        return "categorical"
    whole = all(float(v).is_integer() for v in distinct)
    return "categorical" if whole and len(distinct) <= MAX_INTEGER_LEVELS else "continuous"


#: a pool of values: integers, halves, and awkward non-integers (negative, tiny, huge)
_POOL = st.sampled_from([0.0, 1.0, 2.0, 7.0, -3.0, 0.5, 0.48, 1e-9, -2.75, 3.3e12, 0.83])


@settings(max_examples=60, deadline=None)
@given(values=st.lists(st.one_of(_POOL, st.floats(-1e6, 1e6, allow_nan=False), st.none()),
                       min_size=2, max_size=80),
       form=st.sampled_from(["float", "Float64", "text", "object"]))
def test_numeric_column_typed_by_its_distinct_values(values, form):
    """Whatever the values, their count decides: up to three distinct observed values are
    always categorical; more are categorical only as at most 10 integers. Missing cells never
    count, and the column's storage (float, nullable Float64, numbers as text, objects)
    does not matter."""
    observed = [v for v in values if v is not None]
    if form == "float":
        col = pd.Series([np.nan if v is None else v for v in values], dtype=float)
    elif form == "Float64":
        col = pd.Series(values, dtype="Float64")
    elif form == "text":
        col = pd.Series(["" if v is None else repr(v) for v in values], dtype=object)
    else:
        col = pd.Series(values, dtype=object)
    assert infer_feature_types(pd.DataFrame({"c": col}))["c"] == _expected_type(observed)


@pytest.mark.parametrize("pair", [(0.48, 1.0), (0.0, 1.0), (-2.5, 1e9), (3, 7), (1e-12, 2e-12),
                                  (0.0, 0.5, 0.83)])
def test_few_valued_columns_are_categorical_and_keep_their_values(pair):
    X = pd.DataFrame({"c": [*pair, pair[0], np.nan, pair[1]]})
    enc = MixedEncoder().fit(X)
    assert enc.feature_types_ == {"c": "categorical"}
    assert sorted(enc.categories_["c"].tolist()) == sorted(pair)
    assert infer_feature_types(X, {"c": "continuous"}) == {"c": "continuous"}  # overridable


@pytest.mark.parametrize("at", [0, 15, 16, 500])
def test_numeric_values_refuses_a_text_anywhere_in_the_column(at):
    """A column of number strings is numeric; one text value, before or after the first
    values that are tried alone, makes it non-numeric (the same answer as converting the
    whole column)."""
    from estimators.columns._types import missing_mask, numeric_values

    col = np.array([str(v) for v in np.arange(600) * 0.5], dtype=object)
    np.testing.assert_array_equal(numeric_values(col, missing_mask(col)),
                                  np.arange(600) * 0.5)
    col[at] = "x1"
    assert numeric_values(col, missing_mask(col)) is None
