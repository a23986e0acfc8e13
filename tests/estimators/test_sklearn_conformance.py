"""One conformance test over every classifier of the package: scikit-learn's estimator
checks at default parameters with no expected failure, and the same bad input rejected with
the same error by every family (the template :class:`estimators.template.joint_likelihood.JointLogLikelihoodClassifier`)."""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator
from sklearn.exceptions import NotFittedError
from sklearn.utils.estimator_checks import parametrize_with_checks

from estimators import (
    A2DEClassifier,
    AODEClassifier,
    BANClassifier,
    GNBClassifier,
    KGNBClassifier,
    KTANClassifier,
    LatentCNBClassifier,
    NaiveBayesClassifier,
    TANClassifier,
)
from estimators.discriminative import Discriminative
from estimators.scores import ConditionalGaussianScore, make_score

#: a discriminative fit without the inner cross-validation (keeps the checks fast)
FIXED_PENALTY = Discriminative(l2=1.0, centre="generative", scale=1.0)
CLASSIFIERS = [GNBClassifier, KGNBClassifier, TANClassifier, KTANClassifier, LatentCNBClassifier,
               NaiveBayesClassifier, AODEClassifier, A2DEClassifier, BANClassifier]


class EveryFamily(BaseEstimator):
    """A score object following the protocol of estimators.scores (no BaseCMI), serving
    every family: the registered plug-in CMI on complete tables, the conditional Gaussian
    score (fit_encoded) on mixed or incomplete ones."""

    families = ("discrete", "gaussian", "mixed")

    def __init__(self, var_smoothing=1e-9, ridge=1e-8, min_cell_rows=5):
        self.var_smoothing, self.ridge, self.min_cell_rows = var_smoothing, ridge, min_cell_rows

    def fit(self, X, y):
        kind = "discrete" if all(np.issubdtype(t, np.integer) for t in X.dtypes) else "gaussian"
        self.base_ = make_score("cmi", kind).fit(X, y)
        return self

    def fit_encoded(self, enc, y_codes, classes):
        self.base_ = ConditionalGaussianScore(**self.get_params()).fit_encoded(enc, y_codes,
                                                                               classes)
        return self

    def score(self, v, parents):
        return self.base_.score(v, parents)


#: the default run checks the latent CNB with fewer components and EM steps and the k-TANs
#: with a non-default score at a fixed k (no inner cross-validation per check); the same
#: checks at their defaults run in the ``slow`` step (test_sklearn_compatible_at_defaults)
AT_DEFAULTS = [LatentCNBClassifier(), KTANClassifier(structure_score=EveryFamily()),
               KTANClassifier(structure_score="bic")]


@parametrize_with_checks([cls() for cls in CLASSIFIERS if cls is not LatentCNBClassifier]
                         + [LatentCNBClassifier(n_components=2, max_iter=20),
                            NaiveBayesClassifier(parameters=FIXED_PENALTY),
                            TANClassifier(parameters=FIXED_PENALTY),
                            KTANClassifier(k=2, structure_score=EveryFamily()),
                            KTANClassifier(k=2, structure_score="bic")])
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.mark.slow
@parametrize_with_checks(AT_DEFAULTS)
def test_sklearn_compatible_at_defaults(estimator, check):
    check(estimator)


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b"], 30)
    X = pd.DataFrame(rng.normal(size=(60, 4)) + (y == "b")[:, None], columns=list("pqrs"))
    return X, y


@pytest.mark.parametrize("case, expected", [
    ("one-class", "<clf> needs samples of at least 2 classes in y; got one class only ('a')."),
    ("infinity", "<clf>: Input X contains infinity in column 'r' (1 rows); it needs finite values"),
    ("length", "Found input variables with inconsistent numbers of samples: [60, 59]"),
    ("one-row", "Found array with 1 sample(s) (shape=(1, 4)) while a minimum of 2 is required"),
    ("predict-features", "X has 3 features, but <clf> is expecting 4 features as input."),
    ("predict-names", "Feature names seen at fit time, yet now missing:\n- s"),
])
def test_same_bad_input_same_error_in_every_family(data, case, expected):
    X, y = data

    def bad(cls):
        clf = cls()
        if case == "one-class":
            return lambda: clf.fit(X, np.full(len(y), "a"))
        if case == "infinity":
            Xb = X.copy()
            Xb.iloc[5, 2] = np.inf
            return lambda: clf.fit(Xb, y)
        if case == "length":
            return lambda: clf.fit(X, y[:-1])
        if case == "one-row":
            return lambda: clf.fit(X.iloc[:1], y[:1])
        fitted = cls().fit(X, y)
        if case == "predict-names":
            return lambda: fitted.predict(X.iloc[:, :3])
        return lambda: fitted.predict(X.iloc[:, :3].to_numpy())

    messages = {}
    for cls in CLASSIFIERS:
        with pytest.raises(ValueError) as info:
            bad(cls)()
        messages[cls.__name__] = str(info.value).replace(cls.__name__, "<clf>")
    assert all(expected in m for m in messages.values()), messages


def test_nan_is_refused_by_the_complete_data_families_and_named(data):
    X, y = data
    Xb = X.copy()
    Xb.iloc[3, 1] = np.nan
    # NaN is an unobserved feature for the latent family (paper 3) and a missing cell for
    # GNB, k-GNB, TAN and k-TAN (available cases, marginalised at prediction), so all fit
    assert LatentCNBClassifier(random_state=0).fit(Xb, y).n_features_in_ == 4
    for cls in [GNBClassifier, KGNBClassifier, TANClassifier, KTANClassifier]:
        proba = cls().fit(Xb, y).predict_proba(Xb)
        assert np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1.0)


@pytest.mark.parametrize("cls", CLASSIFIERS)
def test_predict_before_fit_is_not_fitted_error(cls, data):
    for method in ("predict", "predict_proba", "predict_log_proba"):
        with pytest.raises(NotFittedError, match=f"This {cls.__name__} instance is not fitted"):
            getattr(cls(), method)(data[0])


@pytest.mark.parametrize("cls", CLASSIFIERS)
def test_posteriors_are_the_softmax_of_the_joint_log_likelihood(cls, data):
    X, y = data
    clf = cls().fit(X, y)
    jll = clf._joint_log_likelihood(clf._check_X(X))
    post = np.exp(jll - jll.max(axis=1, keepdims=True))
    post /= post.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(clf.predict_proba(X), post, rtol=1e-12, atol=1e-300)
    np.testing.assert_array_equal(clf.predict(X), clf.classes_[jll.argmax(axis=1)])
