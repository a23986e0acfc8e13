"""The template's column contract, the same in every classifier: types decided once by
:class:`estimators.columns.MixedEncoder` (``feature_types``), constant columns named in one
warning, infinity refused naming the column, cells that are no scalar refused."""

import warnings

import numpy as np
import pandas as pd
import pytest

from estimators import (
    GNBClassifier,
    KGNBClassifier,
    KTANClassifier,
    LatentCNBClassifier,
    TANClassifier,
)
from estimators.base.validation import DegenerateFeatureWarning

CLASSIFIERS = [GNBClassifier, KGNBClassifier, TANClassifier, KTANClassifier, LatentCNBClassifier]


@pytest.fixture(scope="module")
def table():
    rng = np.random.default_rng(1)
    y = np.repeat([0, 1], 40)
    X = pd.DataFrame({"a": rng.normal(size=80) + y, "b": rng.normal(size=80) - y,
                      "c": rng.normal(size=80) * (1 + y), "k": 5.0})
    return X, y


# GNB and k-GNB drop constant columns from their densities with issue 11 (branch gnbmix)
@pytest.mark.parametrize("cls", [TANClassifier, KTANClassifier, LatentCNBClassifier])
def test_types_recorded_and_constant_column_named_once(cls, table):
    X, y = table
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        clf = cls().fit(X, y)
    constant = [w for w in caught if issubclass(w.category, DegenerateFeatureWarning)
                and "fewer than two distinct values" in str(w.message)]
    assert len(constant) == 1 and "['k']" in str(constant[0].message)
    assert clf.feature_types_ == {"a": "continuous", "b": "continuous", "c": "continuous",
                                  "k": "constant"}
    assert clf.constant_features_ == ["k"]
    assert clf.encoder_.feature_types_["k"] == "constant"


@pytest.mark.parametrize("cls", CLASSIFIERS)
def test_two_valued_numeric_column_recorded_categorical(cls, table):
    """A column taking 0.48 and 1.0 (UCI ecoli's ``lip``) is categorical in every family,
    its two values are its categories, and a mapping can still make it continuous."""
    X, y = table
    X = X.drop(columns="k").assign(dose=np.where(np.arange(80) % 3 == 0, 0.48, 1.0))
    clf = cls().fit(X, y)
    assert clf.feature_types_["dose"] == "categorical"
    assert clf.encoder_.categories_["dose"].tolist() == [0.48, 1.0]
    assert np.isfinite(clf.predict_proba(X)).all()
    forced = cls(feature_types={"dose": "continuous"}).fit(X, y)
    assert forced.feature_types_["dose"] == "continuous"


@pytest.mark.parametrize("cls", CLASSIFIERS)
def test_feature_types_mapping_by_default_names_on_arrays(cls, table):
    X, y = table
    arr = X[["a", "b", "c"]].to_numpy().copy()
    arr[:, 2] = np.round(arr[:, 2] * 3) / 3  # continuous values, forced below anyway
    clf = cls(feature_types={"x2": "continuous"}).fit(arr, y)
    assert clf.feature_types_ == {"x0": "continuous", "x1": "continuous", "x2": "continuous"}


@pytest.mark.parametrize("cls", CLASSIFIERS)
def test_infinity_named_at_fit_and_predict(cls, table):
    X, y = table
    X = X.drop(columns="k")
    bad = X.copy()
    bad.loc[3, "b"] = -np.inf
    with pytest.raises(ValueError, match=r"Input X contains infinity in column 'b' \(1 rows\)"):
        cls().fit(bad, y)
    clf = cls().fit(X, y)
    with pytest.raises(ValueError, match=r"infinity in column 'b' \(1 rows\)"):
        clf.predict(bad)


@pytest.mark.parametrize("cls", CLASSIFIERS)
def test_a_cell_that_is_no_scalar_is_a_type_error_naming_the_column(cls, table):
    X, y = table
    bad = X.astype(object)
    bad.at[0, "c"] = {"no": "scalar"}
    with pytest.raises(TypeError, match=r"Column 'c' holds a value of type dict"):
        cls().fit(bad, y)


@pytest.mark.parametrize("cls", CLASSIFIERS)
def test_bad_feature_types_named(cls, table):
    X, y = table
    with pytest.raises(ValueError, match=r"feature_types\['a'\] must be 'continuous' or "
                                         r"'categorical'; got 'ordinal'"):
        cls(feature_types={"a": "ordinal"}).fit(X, y)
    with pytest.raises(ValueError, match="feature_types names column 'zz', which is not in X"):
        cls(feature_types={"zz": "continuous"}).fit(X, y)
