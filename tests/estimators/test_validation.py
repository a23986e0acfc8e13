"""The shared input validation of the estimators package."""

import warnings

import numpy as np
import pandas as pd
import pytest

from estimators.base.user_warnings import named_errors
from estimators.base.validation import (
    DegenerateFeatureWarning,
    check_features_target,
    encode_classes,
    non_constant_columns,
    variable_names,
    within_class_constant,
)


def test_pandas_names_and_integer_names():
    df = pd.DataFrame({"height": [1.0, 2.0, 3.0], 7: [0.5, 0.1, 0.2]})
    data = check_features_target(df, ["a", "b", "a"])
    assert data.names == ["height", 7]
    assert check_features_target(df.to_numpy(), [0, 1, 0]).names == [0, 1]
    assert data.classes.tolist() == ["a", "b"] and data.y.tolist() == [0, 1, 0]


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_nonfinite_names_the_column(bad):
    df = pd.DataFrame({"ok": [1.0, 2.0, 3.0], "broken": [1.0, bad, 2.0]})
    what = "NaN" if np.isnan(bad) else "infinity"
    with pytest.raises(ValueError, match=rf"^T: Input X contains {what} in column 'broken' "
                                         r"\(1 rows\); it needs finite values"), named_errors("T"):
        check_features_target(df, [0, 1, 0])
    with pytest.raises(ValueError, match=rf"contains {what} in column 1 \("):
        check_features_target(df.to_numpy(), [0, 1, 0])


def test_discrete_missing_names_the_column():
    df = pd.DataFrame({"a": ["x", "y", "x"], "b": ["u", None, "v"]})
    with pytest.raises(ValueError, match=r"contains NaN in column 'b'"):
        check_features_target(df, [0, 1, 0], kind="discrete")


def test_constant_columns_are_named():
    df = pd.DataFrame({"a": [1.0, 2.0, 3.0], "flat": [4.0, 4.0, 4.0], "flat2": [0.0, 0, 0]})
    with pytest.raises(ValueError, match=r"\['flat', 'flat2'\] of X are constant"):
        check_features_target(df, [0, 1, 0])
    with pytest.raises(ValueError, match=r"\['flat'\] of X are constant"):
        check_features_target(df[["a", "flat"]].astype(str), [0, 1, 0], kind="discrete")


def test_one_class_and_length_mismatch():
    X = np.arange(6.0).reshape(3, 2)
    with pytest.raises(ValueError, match=r"at least 2 classes in y; got only one class \['k'\]"):
        check_features_target(X, ["k", "k", "k"])
    with pytest.raises(ValueError, match="y has 2 labels but X has 3 rows"):
        check_features_target(X, [0, 1])
    with pytest.raises(ValueError, match="missing labels"):
        encode_classes(np.array([0.0, np.nan, 1.0]), 3)


def test_shape_and_dtype_errors():
    with pytest.raises(ValueError, match="2-D array"):
        check_features_target(np.zeros(4), [0, 1, 0, 1])
    with pytest.raises(ValueError, match="needs numeric X"):
        check_features_target(np.array([["a", "b"], ["c", "d"]]), [0, 1])
    with pytest.raises(ValueError, match="repeated"):
        variable_names(pd.DataFrame([[1, 2]], columns=["a", "a"]))
    with pytest.raises(ValueError, match="kind must be"):
        check_features_target(np.eye(2), [0, 1], kind="ordinal")


def test_within_class_constant_warns_with_feature_and_class():
    X = np.array([[1.0, 0.0, 5.0], [1.0, 1.0, 5.0], [0.0, 2.0, 1.0], [2.0, 3.0, 1.0]])
    y = np.array([0, 0, 1, 1])
    with pytest.warns(DegenerateFeatureWarning) as rec:
        mask = within_class_constant(X, y, np.array(["A", "B"]), ["u", "v", "w"], owner="T")
    msgs = [str(w.message) for w in rec]
    assert mask.tolist() == [[True, False, True], [False, False, True]]
    assert any("['u', 'w']" in m and "class 'A'" in m for m in msgs)
    assert any("['w']" in m and "class 'B'" in m for m in msgs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        within_class_constant(X, y, np.array(["A", "B"]), ["u", "v", "w"], owner="T", warn=False)


def test_non_constant_columns_counts_and_names_the_constant_ones():
    types = ["categorical", "constant", "continuous", "constant"]
    assert non_constant_columns(types, 2, ["b", "d"]) == [
        j for j, t in enumerate(types) if t != "constant"]
    with pytest.raises(ValueError, match=r"^needs at least 3 non-constant feature columns; "
                                         r"X has 2 \(constant: \['b', 'd'\]\)"):
        non_constant_columns(types, 3, ["b", "d"])


def test_families_refuse_too_few_non_constant_columns():
    from estimators.bnc import AODEClassifier
    from estimators.ktan import NaiveBayesClassifier, TANClassifier

    X = np.column_stack([np.zeros(20), np.arange(20) % 3])
    y = np.arange(20) % 2
    with pytest.raises(ValueError, match=r"TANClassifier: needs at least 2 non-constant feature "
                                         r"columns; X has 1 \(constant: \['x0'\]\)"):
        TANClassifier().fit(X, y)
    for clf in (NaiveBayesClassifier(), AODEClassifier()):
        with pytest.raises(ValueError, match="needs at least 1 non-constant feature column; "
                                             "X has 0"):
            clf.fit(X[:, :1], y)
