"""Every bad input named in issue 5 gets a clear error."""

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import NotFittedError

from estimators.ktan import KTANClassifier, TANClassifier


@pytest.fixture
def small():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.choice(["p", "q", "r"], (60, 4)), columns=["a", "b", "c", "d"])
    return X, rng.integers(0, 2, 60)


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"k": 0}, r"The 'k' parameter of KTANClassifier must be an int in the range \[1, inf\), a str among \{'auto'\} or an array-like\. Got 0"),
        ({"k": 1.5}, "The 'k' parameter of KTANClassifier must be an int"),
        ({"search": "exhaustive"}, "The 'search' parameter of KTANClassifier must be a str among"),
        ({"backbone": "random"}, "The 'backbone' parameter of KTANClassifier must be"),
        ({"features": "mixed"}, "The 'features' parameter of KTANClassifier must be a str among"),
        ({"alpha": 0.0}, r"The 'alpha' parameter of KTANClassifier must be a float in the range \(0"),
    ],
)
def test_parameter_table(small, params, match):
    with pytest.raises(ValueError, match=match):
        KTANClassifier(**params).fit(*small)


@pytest.mark.parametrize("k", [4, 5])
def test_k_at_least_number_of_features_is_lowered_with_one_warning(small, k):
    with pytest.warns(UserWarning, match=rf"KTANClassifier\(k={k}\) needs at least {k + 1} features; X has 4, so k=3 is used") as caught:
        clf = KTANClassifier(k=k).fit(*small)
    assert len([w for w in caught if "needs at least" in str(w.message)]) == 1
    assert clf.k_ == 3 and clf.structure_ == KTANClassifier(k=3).fit(*small).structure_


def test_one_feature(small):
    X, y = small
    with pytest.raises(ValueError, match=r"1 feature\(s\).*a minimum of 2 is required by TANClassifier"):
        TANClassifier().fit(X[["a"]], y)


@pytest.mark.parametrize(
    ("backbone", "match"),
    [
        (["a", "b", "c"], r"^KTANClassifier: The backbone misses variable\(s\) \['d'\]"),
        (["a", "b", "c", "c", "d"], r"^KTANClassifier: The backbone repeats variable\(s\) \['c'\]"),
        (["a", "b", "c", "zeta"], r"has 'zeta', which is neither a variable nor a column index in \[0, 3\]"),
        (["a", "b", "c", 9], r"has 9, which is neither a variable nor a column index in \[0, 3\]"),
    ],
)
def test_bad_backbone_names_the_feature(small, backbone, match):
    with pytest.raises(ValueError, match=match):
        KTANClassifier(k=2, backbone=backbone).fit(*small)


def test_backbone_with_greedy(small):
    with pytest.raises(ValueError, match="search='greedy'.*without a backbone.*backbone='given'"):
        KTANClassifier(search="greedy", backbone="given").fit(*small)


def test_continuous_data_with_discrete_features():
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"u": rng.integers(0, 3, 100), "temp": rng.normal(size=100), "v": rng.integers(0, 2, 100)})
    with pytest.raises(ValueError, match="Column 'temp' has 100 distinct numeric values.*Discretise.*features='gaussian'"):
        TANClassifier(features="discrete").fit(X, rng.integers(0, 2, 100))


@pytest.mark.parametrize("value", [np.nan, None, ""])
def test_missing_cells_are_accepted(small, value):
    X, y = small
    X = X.astype(object)
    X.loc[3, "c"] = value
    clf = KTANClassifier(k=2).fit(X, y)
    proba = clf.predict_proba(X)
    assert np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1.0)


def test_inf_in_gaussian_data_names_the_column():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(50, 3))
    y = rng.integers(0, 2, 50)
    bad = X.copy()
    bad[0, 1] = np.inf
    with pytest.raises(ValueError, match="contains infinity in column 'x1'"):
        TANClassifier().fit(bad, y)
    with pytest.raises(ValueError, match="contains infinity in column 'x1'"):
        TANClassifier().fit(X, y).predict(bad)


def test_one_class(small):
    X, _ = small
    with pytest.raises(ValueError, match=r"TANClassifier needs samples of at least 2 classes in y; got one class only \(0\.0\)"):
        TANClassifier().fit(X, np.zeros(len(X)))


def test_predict_before_fit(small):
    with pytest.raises(NotFittedError):
        TANClassifier().predict(small[0])


def test_wrong_number_of_features_at_predict(small):
    X, y = small
    clf = TANClassifier().fit(X, y)
    with pytest.raises(ValueError, match="X has 3 features, but TANClassifier is expecting 4 features"):
        clf.predict(X.to_numpy()[:, :3])
