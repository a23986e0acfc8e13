"""The evidence weight of a semiparametric network (estimators/semiparametric/calibration.py):
the conditional log-likelihood against scikit-learn's log-loss, its maximiser against a
dense search, and the fitted network's weight against out-of-fold likelihoods computed
independently (each fold's network fitted on the fold's own table)."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import softmax
from sklearn.metrics import log_loss

from estimators import TANClassifier
from estimators.columns import MixedEncoder
from estimators.semiparametric import Semiparametric, fit_semiparametric_network
from estimators.semiparametric.calibration import (
    BOUNDS,
    conditional_log_likelihood,
    evidence_weight,
)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.floats(0.1, 1.9))
def test_conditional_log_likelihood_is_sklearn_log_loss(seed, w):
    rng = np.random.default_rng(seed)
    L = rng.normal(scale=3.0, size=(40, 3))
    y = rng.integers(0, 3, 40)
    prior = np.log(rng.dirichlet(np.ones(3)))
    proba = softmax(w * L + prior, axis=1)
    expected = -40 * log_loss(y, proba, labels=[0, 1, 2])
    assert conditional_log_likelihood(w, L, y, prior) == pytest.approx(expected, rel=1e-9)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000), st.floats(0.5, 6.0))
def test_weight_is_the_dense_search_maximum(seed, steep):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 300)
    m = rng.normal(size=300) + np.where(y == 1, 1.0, -1.0)
    L = np.column_stack([np.zeros(300), steep * m])
    prior = np.log([0.4, 0.6])
    grid = np.linspace(*BOUNDS, 801)
    values = [conditional_log_likelihood(w, L, y, prior) for w in grid]
    w = evidence_weight(L, y, prior)
    assert conditional_log_likelihood(w, L, y, prior) >= max(values) - 1e-4


def test_network_weight_from_independent_out_of_fold_likelihoods():
    rng = np.random.default_rng(4)
    n = 150
    y = rng.integers(0, 2, n)
    a = rng.gamma(2.0 + y, size=n)
    X = pd.DataFrame({"a": a, "b": a + rng.normal(size=n), "c": a - rng.normal(size=n) + y,
                      "d": np.where(rng.random(n) < 0.3 + 0.4 * y, "u", "v")})
    X.loc[rng.random(n) < 0.1, "b"] = np.nan
    spec = Semiparametric("ckde", bw_floor=0.0, tail=0.0)
    clf = TANClassifier(continuous=spec).fit(X, y)
    net = clf.network_
    enc = MixedEncoder().fit_transform(X)
    fold = np.random.default_rng(0).permutation(n) % spec.folds
    oof = np.empty((n, 2))
    for k in range(spec.folds):
        train, test = fold != k, fold == k
        sub = fit_semiparametric_network(
            enc.take(train), y[train], 2, net.columns, net.parents,
            Semiparametric("ckde", bw_floor=0.0, tail=0.0, calibrate=False), alpha=clf.alpha,
            var_smoothing=clf.var_smoothing, min_cell_rows=5)
        oof[test] = sub.feature_log_likelihood(enc.take(test), 2)
    expected = evidence_weight(oof, y, np.log(np.bincount(y) / n))
    assert net.weight == pytest.approx(expected, abs=1e-6)
    assert net.weight != pytest.approx(1.0)
    proba = softmax(clf.class_log_prior_ + net.weight * net.feature_log_likelihood(enc, 2),
                    axis=1)
    np.testing.assert_allclose(clf.predict_proba(X), proba, rtol=1e-9)
    plain = TANClassifier(continuous=Semiparametric("ckde", bw_floor=0.0, tail=0.0,
                                                    calibrate=False)).fit(X, y)
    assert plain.network_.weight == 1.0


def test_calibrate_must_be_boolean():
    with pytest.raises(TypeError, match="calibrate must be True or False"):
        Semiparametric("auto", calibrate="yes")


def test_auto_weight_on_complete_rows_equals_the_refitted_networks():
    """On complete rows the "auto" network's weight comes from the choice's out-of-fold
    tables (network.py): the same weight as from the networks of the chosen kinds refitted
    without each fold (the path rows with missing cells take)."""
    from estimators.semiparametric import network

    rng = np.random.default_rng(5)
    n = 200
    y = rng.integers(0, 2, n)
    a = rng.gamma(2.0 + y, size=n)
    X = pd.DataFrame({"a": a, "b": a + rng.normal(size=n), "c": np.exp(rng.normal(size=n) + y),
                      "d": np.where(rng.random(n) < 0.3 + 0.4 * y, "u", "v")})
    clf = TANClassifier(continuous="auto").fit(X, y)
    net = clf.network_
    assert len(set(net.kinds)) > 1
    enc = MixedEncoder().fit_transform(X)
    fitter = network._Fitter(enc, y, 2, Semiparametric("auto"), alpha=clf.alpha,
                             var_smoothing=clf.var_smoothing, min_cell_rows=5,
                             columns=net.columns)
    loglik = network._out_of_fold(fitter, net.columns, net.parents, net.kinds)
    expected = evidence_weight(loglik, y, np.log(np.bincount(y) / n))
    assert net.weight == pytest.approx(expected, abs=1e-5)
    assert net.weight != pytest.approx(1.0)
