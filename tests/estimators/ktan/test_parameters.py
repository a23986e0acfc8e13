"""Values of the k-TAN parameter layer (:mod:`estimators.network.model`): CPTs by direct
counting, Gaussian log-likelihoods by scipy.stats, and the ``features`` override."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from estimators.columns import MixedEncoder
from estimators.columns.feature_families import MAX_DISCRETE_LEVELS
from estimators.ktan import KTANClassifier, TANClassifier
from estimators.network.model import fit_network

# a 2-tree over 4 features: 0 | 1 <- 0 | 2 <- 0, 1 | 3 <- 1, 2
PARENTS = [(), (0,), (0, 1), (1, 2)]


@pytest.fixture
def discrete_data():
    rng = np.random.default_rng(3)
    n_levels = np.array([2, 3, 2, 4])
    frame = pd.DataFrame({c: np.array(list("pqrs"))[rng.integers(0, r, 300)]
                          for c, r in zip("abcd", n_levels, strict=True)})
    y = rng.integers(0, 3, 300)
    return frame, y, n_levels


def _network(frame, y, n_classes, parents, alpha=1.0, ess=None):
    enc = MixedEncoder().fit_transform(frame)
    net = fit_network(enc, y, n_classes, range(frame.shape[1]), parents, alpha=alpha,
                      var_smoothing=1e-9, ridge=0.0, min_cell_rows=5, ess=ess)
    return enc, net


@pytest.mark.parametrize(("alpha", "ess"), [(0.5, None), (1.0, None), (2.0, None), (1.0, 1.0),
                                             (1.0, 10.0)])
def test_cpts_equal_direct_counting(discrete_data, alpha, ess):
    frame, y, n_levels = discrete_data
    enc, net = _network(frame, y, 3, PARENTS, alpha, ess=ess)
    logp = net.log_likelihood(enc)
    data = frame.assign(y=y)
    for v, pa in enumerate(PARENTS):
        keys = ["y", *(frame.columns[p] for p in pa)]
        joint = data.groupby([*keys, frame.columns[v]]).size()
        margin = data.groupby(keys).size()
        one = net.factors[v].log_prob(enc)
        a = alpha
        if ess is not None:  # BDeu: ess spread over the r_v * q_v * m cells of the family
            a = ess / (n_levels[v] * np.prod([n_levels[p] for p in pa]) * 3)
        for i in range(0, 300, 37):
            for c in range(3):
                key = (c, *frame.iloc[i, list(pa)])
                expected = (joint.get((*key, frame.iloc[i, v]), 0) + a) / (
                    margin.get(key if len(key) > 1 else key[0], 0) + a * n_levels[v])
                assert np.exp(one[i, c]) == pytest.approx(expected, rel=1e-12)
    assert np.isfinite(logp).all()


def test_unseen_category_is_marginalised_like_a_missing_cell(discrete_data):
    frame, y, _ = discrete_data
    clf = KTANClassifier(k=2, backbone="given").fit(frame, y)
    row = frame.iloc[:1].copy()
    unseen, missing = row.copy(), row.copy()
    unseen.iloc[0, 3] = "never-seen"
    missing.iloc[0, 3] = None
    np.testing.assert_allclose(clf.predict_proba(unseen), clf.predict_proba(missing),
                               rtol=0, atol=1e-15)
    assert not np.allclose(clf.predict_proba(unseen), clf.predict_proba(row))


def _reference_regression(Xc, v, pa):
    """Intercept and slopes: the mean, scipy's linregress, or the normal equations."""
    if len(pa) == 0:
        return Xc[:, v].mean(), np.zeros(0)
    if len(pa) == 1:
        fit = stats.linregress(Xc[:, pa[0]], Xc[:, v])
        return fit.intercept, np.array([fit.slope])
    D = np.column_stack([np.ones(len(Xc)), Xc[:, list(pa)]])
    beta = np.linalg.solve(D.T @ D, D.T @ Xc[:, v])
    return beta[0], beta[1:]


def test_gaussian_log_likelihood_against_scipy():
    rng = np.random.default_rng(7)
    n = 60
    y = np.repeat([0, 1], n // 2)
    x0 = rng.normal(loc=y, size=n)
    x1 = 1.5 * x0 - y + rng.normal(scale=0.7, size=n)
    x2 = -0.5 * x0 + 0.8 * x1 + rng.normal(scale=0.3, size=n)
    X = np.column_stack([x0, x1, x2])
    parents = [(), (0,), (0, 1)]
    _, net = _network(pd.DataFrame(X), y, 2, parents)
    test = rng.normal(size=(5, 3))
    enc_test = MixedEncoder().fit(pd.DataFrame(X)).transform(pd.DataFrame(test))
    jll = net.log_likelihood(enc_test)
    floor = 1e-9 * np.var(X, axis=0).max()  # added to every variance, as GaussianNB
    for c in range(2):
        Xc = X[y == c]
        total = np.zeros(5)
        for v, pa in enumerate(parents):
            a, slopes = _reference_regression(Xc, v, pa)
            resid = Xc[:, v] - (a + Xc[:, list(pa)] @ slopes)
            sd = np.sqrt(np.mean(resid**2) + floor)
            total += stats.norm.logpdf(test[:, v], a + test[:, list(pa)] @ slopes, sd)
        np.testing.assert_allclose(jll[:, c], total, rtol=1e-10)


def test_constant_and_collinear_within_a_class_are_finite_and_named():
    rng = np.random.default_rng(2)
    y = np.repeat([0, 1], 20)
    x0 = np.where(y == 0, 1.0, rng.normal(size=40))  # constant in class 0
    X = pd.DataFrame({"u": x0, "v": 2.0 * x0 + 1.0, "w": rng.normal(size=40)})  # v = 2u + 1
    # u's constant class-0 cell borrows the class-pooled variance (not floored); v = 2u + 1
    # is collinear with its parent u in class 1: floored, named
    with pytest.warns(UserWarning, match=r"column\(s\) \['v'\] are constant or collinear"):
        clf = TANClassifier().fit(X, y)
    proba = clf.predict_proba(X)
    assert np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1.0)


@pytest.mark.parametrize("search", ["backbone-dp", "greedy"])
@pytest.mark.parametrize("k", [2, 3])
def test_duplicated_continuous_column_never_stops_a_k_tan(k, search):
    """Collinear parents score as their independent part (no NaN) and the DP's
    +inf/-inf meetings raise no RuntimeWarning."""
    import warnings

    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(200, 4)), columns=list("abcd"))
    X["e"] = X["b"]
    y = (X.a + X.b > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        warnings.simplefilter("ignore", UserWarning)
        proba = KTANClassifier(k=k, search=search).fit(X, y).predict_proba(X)
    assert np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1.0)


def test_features_override_sets_every_column_type():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.integers(0, 3, 50), "b": rng.normal(size=50)})
    y = rng.integers(0, 2, 50)
    assert TANClassifier().fit(X, y).feature_types_ == {"a": "categorical", "b": "continuous"}
    assert set(TANClassifier(features="gaussian").fit(X, y).feature_types_.values()) == {
        "continuous"}
    with pytest.raises(ValueError, match="Column 'b' has 50 distinct.*discretize='mdl' with "
                                         "features='auto'.*KBinsDiscretizer.*"
                                         "features='gaussian'"):
        TANClassifier(features="discrete").fit(X, y)
    signal = X.assign(b=X["b"] + 3 * y)  # what the message offers works
    assert TANClassifier(discretize="mdl").fit(signal, y).feature_types_["b"] == "categorical"
    few = X.assign(b=np.round(X["b"]))
    assert TANClassifier(features="discrete").fit(few, y).family_ == "discrete"
    assert MAX_DISCRETE_LEVELS == 32
    with pytest.raises(ValueError, match="got features='gaussian' and a feature_types mapping"):
        TANClassifier(features="gaussian", feature_types={"a": "continuous"}).fit(X, y)
    strings = X.assign(a=np.array(list("pqr"))[X["a"]])
    with pytest.raises(ValueError, match="Column 'a' was asked to be continuous but holds the "
                                         "non-numeric value"):
        TANClassifier(features="gaussian").fit(strings, y)


def test_a_class_with_collinear_rows_does_not_stop_ktan():
    """yeast's class ERL has 4 rows in a training fold: 3 parents are collinear there, which
    made the Gaussian CMI NaN and stopped KTANClassifier(k=2)."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(84, 4))
    y = np.repeat([0, 1, 2], [40, 40, 4])
    X[y == 2, 3] = X[y == 2, 1] - X[y == 2, 2]  # collinear within the small class
    clf = KTANClassifier(k=2).fit(X, y)
    proba = clf.predict_proba(X)
    assert not np.isnan(clf.score_) and np.isfinite(proba).all()  # +inf: 3 = 1 - 2 there
    assert np.allclose(proba.sum(axis=1), 1.0)


def test_bayes_rule_scores_with_empty_class_cells_raise_no_runtime_warning():
    """A binary categorical child whose cells are empty in a class (helpmiss: the
    one-row class 'missing') met -inf - -inf in the batched Bayes-rule score, and numpy's
    'invalid value encountered in subtract' reached the user on every fit."""
    import warnings

    from estimators.datasets import load_dataset

    X, y = load_dataset("helpmiss")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warnings.simplefilter("error", RuntimeWarning)
        TANClassifier().fit(X, y)
