"""scikit-learn conformance of LatentCNB (the classifier's is in
tests/estimators/test_sklearn_conformance.py), and the classifier's values."""

import numpy as np
import pandas as pd
import pytest
from scipy.special import softmax
from sklearn.utils.estimator_checks import parametrize_with_checks

from estimators.base.validation import DegenerateFeatureWarning
from estimators.latent import LatentCNB, LatentCNBClassifier


@parametrize_with_checks([LatentCNB(n_components=2, max_iter=20)])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_classifier_is_argmax_of_prior_plus_class_elbo():
    rng = np.random.default_rng(0)
    X = np.concatenate([rng.normal(0, 1, (40, 3)), rng.normal(2, 1, (60, 3))])
    X[::5, 2] = np.nan
    y = np.array(["a"] * 40 + ["b"] * 60)
    clf = LatentCNBClassifier(n_components=2, random_state=0).fit(X, y)
    per_class = [
        LatentCNB(n_components=2, random_state=0).fit(X[y == c]).score_samples(X) for c in "ab"
    ]
    joint = np.column_stack(per_class) + np.log([0.4, 0.6])
    np.testing.assert_allclose(clf.predict_proba(X), softmax(joint, axis=1), rtol=1e-10)
    np.testing.assert_array_equal(clf.predict(X), np.array(list("ab"))[joint.argmax(axis=1)])
    assert clf.score(X, y) > 0.8


def test_classifier_categorical_strings_and_bad_rows():
    X = np.array([["r", "s"], ["r", "t"], ["g", "t"], ["g", None]] * 10, dtype=object)
    y = np.array([0, 0, 1, 1] * 10)
    clf = LatentCNBClassifier(n_components=2, family="categorical", random_state=0).fit(X, y)
    assert clf.score(X, y) == 1.0
    assert np.isfinite(clf.predict_proba(np.array([["blue", "t"]], dtype=object))).all()
    # a row with nothing observed (or only unseen categories) marginalises to the prior
    proba = clf.predict_proba(np.array([["r", "s"], [None, None], ["blue", None]], dtype=object))
    np.testing.assert_allclose(proba[1:], [[0.5, 0.5]] * 2, rtol=1e-12)


def test_one_row_class_fits_with_the_pooled_variance_floor():
    rng = np.random.default_rng(3)
    X = pd.DataFrame({"x": rng.normal(0, 2, 41), "c": rng.choice(["u", "v"], 41)})
    y = np.array(["a"] * 20 + ["b"] * 20 + ["lone"])
    with pytest.warns(DegenerateFeatureWarning, match=r"class\(es\) \['lone'\] have a single"):
        clf = LatentCNBClassifier(n_components=2, random_state=0).fit(X, y)
    lone = clf.estimators_[2]
    # the single row is every component's mean; the variance is var_floor x the pooled variance
    np.testing.assert_allclose(lone.params_["means"][:, 0], X["x"].iloc[-1])
    np.testing.assert_allclose(lone.params_["variances"][:, 0], 1e-3 * X["x"].var(ddof=0))
    proba = clf.predict_proba(X)
    assert np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1.0)
    assert clf.predict(X.iloc[[-1]])[0] == "lone"


def test_forced_gaussian_names_a_string_column():
    X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "c": ["u", "v", "u", "v"]})
    with pytest.raises(ValueError, match="Column 'c' was asked to be continuous but holds the non-numeric"):
        LatentCNBClassifier(family="gaussian").fit(X, [0, 0, 1, 1])
