"""KGNBClassifier: order 3 is GNBClassifier; order d + 1 is the full class-conditional
Gaussian; the backbone search keeps the backbone; bad input."""

import numpy as np
import pytest
from scipy.special import logsumexp
from scipy.stats import multivariate_normal
from sklearn.datasets import load_wine

from estimators.gnb import GNBClassifier, KGNBClassifier


@pytest.fixture(scope="module")
def wine():
    X, y = load_wine(return_X_y=True)
    return X[:, :7], y


@pytest.mark.parametrize("dependence", ["gaussian", "gaussian-copula"])
def test_order_3_is_gnb(wine, dependence):
    X, y = wine
    gnb = GNBClassifier(dependence=dependence).fit(X, y)
    kgnb = KGNBClassifier(order=3, dependence=dependence).fit(X, y)
    assert set(map(frozenset, gnb.structure_.edges)) == set(map(frozenset, kgnb.structure_.edges))
    assert np.array_equal(gnb.predict(X), kgnb.predict(X))
    assert np.allclose(gnb.predict_proba(X), kgnb.predict_proba(X), atol=1e-10)


def test_full_order_is_the_class_conditional_multivariate_normal(wine):
    X, y = wine[0][:, :4], wine[1]
    clf = KGNBClassifier(order=5, var_smoothing=0.0).fit(X, y)
    logs = np.column_stack(
        [
            np.log(np.mean(y == c))
            + multivariate_normal(X[y == c].mean(0), np.cov(X[y == c].T, bias=True)).logpdf(X)
            for c in np.unique(y)
        ]
    )
    assert np.allclose(clf.predict_log_proba(X), logs - logsumexp(logs, axis=1, keepdims=True))


def test_backbone_dp_keeps_the_backbone(wine):
    X, y = wine
    backbone = [3, 0, 6, 1, 5, 2, 4]
    clf = KGNBClassifier(order=4, search="backbone-dp", backbone=backbone).fit(X, y)
    skeleton = set(map(frozenset, clf.structure_.edges))
    names = clf.feature_names()
    assert all(
        frozenset((names[a], names[b])) in skeleton
        for a, b in zip(backbone, backbone[1:], strict=False)
    )
    greedy = KGNBClassifier(order=4).fit(X, y)
    assert clf.structure_.k == greedy.structure_.k == 2


def test_bad_backbone_is_rejected(wine):
    X, y = wine
    with pytest.raises(ValueError, match=r"^KGNBClassifier: The backbone misses variable\(s\) \['x3', 'x4', 'x5', 'x6'\]"):
        KGNBClassifier(search="backbone-dp", backbone=[0, 1, 2]).fit(X, y)


def test_order_below_3_and_above_d_plus_1(wine):
    X, y = wine
    with pytest.raises(ValueError, match="'order' parameter of KGNBClassifier must be an int"):
        KGNBClassifier(order=2).fit(X, y)
    with pytest.warns(UserWarning, match=r"order=9\) needs at least 8 features; X has 7"):
        clf = KGNBClassifier(order=9).fit(X, y)
    assert clf.order_ == 8


def test_unknown_dependence_lists_the_valid_values(wine):
    X, y = wine
    with pytest.raises(ValueError, match="'dependence'.*'gaussian'.*Got 'kde'"):
        KGNBClassifier(dependence="kde").fit(X, y)


def test_backbone_dp_without_backbone_at_order_3_is_the_gnb_spanning_tree(wine):
    # one rule for every family (estimators.search): no backbone and k = 1 is the exact
    # maximum spanning tree, so order 3 is GNBClassifier's structure and weight
    X, y = wine
    clf = KGNBClassifier(order=3, search="backbone-dp").fit(X, y)
    gnb = GNBClassifier().fit(X, y)
    assert {frozenset(e) for e in clf.structure_.edges} == {
        frozenset(e) for e in gnb.structure_.edges}
    assert clf.weight_ == pytest.approx(gnb.weight_, rel=1e-12)


def test_pairwise_correlations_not_jointly_psd_still_fit_and_predict():
    """Regression test (KGNBClassifier on wine with 20 % of the cells missing raised
    LinAlgError): the pairs (a, b), (b, c), (a, c) observed on disjoint rows with
    correlations +1, +1, -1 are not a correlation matrix; the fitted one is positive
    definite, has a unit diagonal, and the missing-cell marginal is the closed-form Gaussian
    marginal of that class covariance (a row with c missing)."""
    rng = np.random.default_rng(0)
    n = 60
    t = rng.normal(size=(3, n))
    nan = np.full(n, np.nan)
    X = np.vstack([np.column_stack([t[0], t[0] + 0.01 * rng.normal(size=n), nan]),
                   np.column_stack([nan, t[1], t[1] + 0.01 * rng.normal(size=n)]),
                   np.column_stack([t[2], nan, -t[2] + 0.01 * rng.normal(size=n)])])
    y = np.tile([0, 1], 3 * n // 2)
    clf = KGNBClassifier(order=4, dependence="gaussian").fit(X, y)
    for c in range(2):
        corr = clf.density_.corr_[c]
        assert np.linalg.eigvalsh(corr).min() > 0
        np.testing.assert_allclose(np.diag(corr), 1.0)
    rows = np.array([[0.5, 0.4, np.nan], [1.0, -1.0, 0.2]])
    proba = clf.predict_proba(rows)
    assert np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1.0)
    d = clf.density_
    ref = [multivariate_normal(d.mean_[c, :2], d.covariance(c)[:2, :2]).logpdf(rows[0, :2])
           for c in range(2)]
    jll = clf._joint_log_likelihood(clf._check_X(rows[:1]))[0] - clf.class_log_prior_
    np.testing.assert_allclose(jll, ref, atol=1e-9)
