"""LatentCNB: monotone ELBO, Dirichlet equivalence, recovery, hidden entries, bad input."""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from scipy.optimize import linear_sum_assignment
from scipy.special import digamma, gammaln, logsumexp

from estimators.latent import (
    BetaLiouvillePrior,
    GeneralizedDirichletPrior,
    LatentCNB,
)

PRIORS = ["dirichlet", "generalized-dirichlet", "beta-liouville"]
FAMILIES = ["gaussian", "categorical", "auto"]


def sample_lcnb(n, means, sds=None, probs=None, alpha=0.2, seed=0):
    """Rows from the generative model: pi_i ~ Dir(alpha), z_ij ~ Cat(pi_i), x_ij | z_ij."""
    rng = np.random.default_rng(seed)
    K, d = (means.shape if probs is None else probs.shape[:2])
    pi = rng.dirichlet(np.full(K, alpha), n)
    z = (rng.random((n, d, 1)) > np.cumsum(pi, axis=1)[:, None, :]).sum(axis=2)
    if probs is None:
        cols = np.arange(d)
        return rng.normal(means[z, cols], sds[z, cols])
    cum = np.cumsum(probs, axis=2)  # (K, d, r)
    u = rng.random((n, d, 1))
    codes = (u > cum[z, np.arange(d)]).sum(axis=2)
    return np.array(["abcdefgh"[c] for c in codes.ravel()], dtype=object).reshape(n, d)


def small_data(family, seed):
    if family == "auto":  # a mixed table: five continuous and five string columns
        cont, cat = small_data("gaussian", seed), small_data("categorical", seed + 100)
        return pd.concat([pd.DataFrame(cont).add_prefix("g"), pd.DataFrame(cat).add_prefix("c")],
                         axis=1)
    rng = np.random.default_rng(seed)
    means = rng.normal(0, 3, (3, 5))
    probs = rng.dirichlet(np.full(4, 0.5), (3, 5))
    X = sample_lcnb(150, means, np.ones((3, 5)), None if family == "gaussian" else probs, seed=seed)
    hide = rng.random(X.shape) < 0.2
    hide[:, 0] = False
    X = X.astype(object) if family == "categorical" else X
    X[hide] = None if family == "categorical" else np.nan
    return X


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("prior", PRIORS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_elbo_never_decreases(prior, family, seed):
    X = small_data(family, seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = LatentCNB(3, prior=prior, family=family, max_iter=25, tol=0, random_state=seed)
        model.fit(X)
    bounds = np.array(model.lower_bounds_)
    kinds = {"gaussian": {"continuous"}, "categorical": {"categorical"},
             "auto": {"continuous", "categorical"}}[family]
    assert set(model.family_.kinds_) == kinds
    assert len(bounds) == 25
    assert np.all(np.diff(bounds) >= -1e-8 * np.abs(bounds[1:]))
    assert model.lower_bound_ == bounds[-1]


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize(
    ("prior", "cls"),
    [("generalized-dirichlet", GeneralizedDirichletPrior), ("beta-liouville", BetaLiouvillePrior)],
)
def test_dirichlet_equivalent_priors_fit_like_dirichlet(prior, cls, family):
    X = small_data(family, 3)
    alpha = np.array([0.5, 1.0, 2.0])
    kw = dict(family=family, max_iter=15, tol=0, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = LatentCNB(3, prior="dirichlet", prior_params={"alpha": alpha}, **kw).fit(X)
        other = LatentCNB(3, prior=prior, prior_params=cls.dirichlet_equivalent(alpha), **kw)
        other.fit(X)
    np.testing.assert_allclose(other.lower_bounds_, ref.lower_bounds_, rtol=1e-8)
    for key in ref.params_:
        for a, b in zip(np.atleast_1d(other.params_[key]), np.atleast_1d(ref.params_[key]),
                        strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(other.transform(X), ref.transform(X), rtol=1e-8, atol=1e-12)


def test_mixed_one_component_elbo_is_the_exact_log_likelihood():
    # K = 1: every phi is 1, so the ELBO of a row is sum_j ln p(x_ij) with the ML Gaussian
    # moments (variance floored) and the smoothed category frequencies, observed cells only
    rng = np.random.default_rng(11)
    X = pd.DataFrame({"x": rng.normal(2.0, 3.0, 40), "c": rng.choice(["a", "b", "c"], 40),
                      "flag": rng.integers(0, 2, 40)})
    X.loc[::4, "x"] = np.nan
    X.loc[1::5, "c"] = None
    model = LatentCNB(1, pseudo_count=0.5).fit(X)
    assert model.feature_types_ == {"x": "continuous", "c": "categorical", "flag": "categorical"}
    x = X["x"].dropna()
    expected = np.where(X["x"].isna(), 0.0, stats.norm.logpdf(X["x"], x.mean(), x.std(ddof=0)))
    for col in ("c", "flag"):
        seen = X[col].dropna()
        counts = seen.value_counts()
        prob = (counts + 0.5) / (seen.size + (counts.size + 1) * 0.5)  # + the unseen slot
        expected += np.where(X[col].isna(), 0.0, np.log(X[col].map(prob).fillna(1.0)))
    np.testing.assert_allclose(model.score_samples(X), expected, rtol=1e-10)


def _match(true, fitted):
    """Permutation of fitted components that best matches the true ones."""
    cost = ((true[:, None, :] - fitted[None, :, :]) ** 2).sum(axis=2)
    return linear_sum_assignment(cost)[1]


def test_recovers_gaussian_components():
    # stated tolerance: means within 0.1 and standard deviations within 0.1 (n = 5000)
    means = np.array([[-6.0, 0.0, 6.0, 3.0], [0.0, 6.0, -6.0, -3.0], [6.0, -6.0, 0.0, 9.0]])
    sds = np.array([[1.0, 0.5, 1.5, 1.0], [0.7, 1.0, 1.0, 2.0], [1.2, 1.0, 0.6, 1.0]])
    X = sample_lcnb(5000, means, sds, alpha=0.2, seed=4)
    model = LatentCNB(3, prior_params={"alpha": 0.2}, n_init=2, random_state=0).fit(X)
    perm = _match(means, model.params_["means"])
    np.testing.assert_allclose(model.params_["means"][perm], means, atol=0.1)
    np.testing.assert_allclose(np.sqrt(model.params_["variances"][perm]), sds, atol=0.1)


def test_recovers_categorical_components():
    # stated tolerance: every probability within 0.05 (n = 5000, best of 10 restarts)
    rng = np.random.default_rng(5)
    probs = rng.dirichlet(np.full(4, 0.3), (3, 10))
    X = sample_lcnb(5000, None, probs=probs, alpha=0.1, seed=6)
    model = LatentCNB(
        3, family="categorical", prior_params={"alpha": 0.1}, pseudo_count=0.01, n_init=10,
        tol=1e-6, random_state=0,
    ).fit(X)
    fitted = np.stack([p[:, :4] for p in model.params_["probabilities"]], axis=1)  # (K, d, 4)
    # categories are the sorted letters a..d, i.e. the sampled codes 0..3
    assert all(list(c) == list("abcd") for c in model.encoder_.categories_.values())
    perm = _match(probs.reshape(3, -1), fitted.reshape(3, -1))
    np.testing.assert_allclose(fitted[perm], probs, atol=0.05)


def _reference_row_elbo(loglik, alpha):
    """Plain per-row coordinate ascent for a Dirichlet prior, ELBO from its five terms."""
    K = loglik.shape[1]
    gamma = alpha + loglik.shape[0] / K
    previous = -np.inf
    for _ in range(100_000):
        elog = digamma(gamma) - digamma(gamma.sum())
        logphi = loglik + elog
        phi = np.exp(logphi - logsumexp(logphi, axis=1, keepdims=True))
        gamma = alpha + phi.sum(axis=0)
        elog = digamma(gamma) - digamma(gamma.sum())
        e_log_prior = gammaln(alpha.sum()) - gammaln(alpha).sum() + ((alpha - 1) * elog).sum()
        elbo = (
            e_log_prior
            + (phi * elog).sum()
            + (phi * loglik).sum()
            + stats.dirichlet(gamma).entropy()
            - (phi * np.log(phi)).sum()
        )
        if elbo - previous < 1e-13:
            return elbo
        previous = elbo
    raise AssertionError("reference did not converge")


def test_hidden_entries_equal_the_observed_subvector():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(200, 6)) + rng.integers(0, 3, 200)[:, None] * 2.5
    alpha = np.array([0.5, 1.0, 1.5])
    model = LatentCNB(3, prior_params={"alpha": alpha}, max_iter=10, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(X)
    model.set_params(e_step_tol=1e-12, e_step_max_iter=100_000)
    rows = X[:5].copy()
    observed = [np.array([0, 2, 3]), np.array([1]), np.array([0, 1, 2, 3, 4, 5]),
                np.array([5, 4]), np.array([2, 3, 4])]
    for row, obs in zip(rows, observed, strict=True):
        row[np.setdiff1d(np.arange(6), obs)] = np.nan
    got = model.score_samples(rows)
    mu, sd = model.params_["means"], np.sqrt(model.params_["variances"])
    for i, obs in enumerate(observed):
        loglik = stats.norm.logpdf(X[i, obs][:, None], mu[:, obs].T, sd[:, obs].T)  # (m, K)
        assert got[i] == pytest.approx(_reference_row_elbo(loglik, alpha), abs=1e-7)


def test_perplexity_definitions():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(60, 4))
    X[::3, 1] = np.nan
    model = LatentCNB(2, max_iter=5, tol=0, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(X)
    elbo = model.score_samples(X)
    assert model.perplexity(X) == pytest.approx(np.exp(-elbo.sum() / (~np.isnan(X)).sum()))
    assert model.perplexity(X, per="row") == pytest.approx(np.exp(-elbo.mean()))
    assert model.score(X) == pytest.approx(elbo.mean())
    with pytest.raises(ValueError, match="per must be 'feature' or 'row'"):
        model.perplexity(X, per="cell")


def test_transform_predict_and_determinism():
    X = small_data("gaussian", 9)
    a = LatentCNB(3, max_iter=20, random_state=3).fit(X)
    b = LatentCNB(3, max_iter=20, random_state=3).fit(X)
    np.testing.assert_array_equal(a.lower_bounds_, b.lower_bounds_)
    weights = a.transform(X)
    np.testing.assert_allclose(weights.sum(axis=1), 1.0)
    np.testing.assert_array_equal(a.predict(X), weights.argmax(axis=1))
    # a row's result does not depend on the other rows it is scored with
    np.testing.assert_array_equal(a.score_samples(X[:7]), a.score_samples(X)[:7])


def test_convergence_warning_and_attributes():
    X = small_data("gaussian", 10)
    with pytest.warns(Warning, match="did not converge"):
        model = LatentCNB(3, max_iter=2, tol=0, random_state=0).fit(X)
    assert not model.converged_ and model.n_iter_ == 2 and len(model.lower_bounds_) == 2
    model = LatentCNB(3, max_iter=500, tol=1e-3, random_state=0).fit(X)
    assert model.converged_ and model.n_iter_ == len(model.lower_bounds_) < 500


def test_unseen_categorical_value_is_marginalised():
    X = np.array([["a", "x"], ["b", "y"], ["a", "y"], ["b", "x"]] * 5, dtype=object)
    one = LatentCNB(1, family="categorical", pseudo_count=0.5).fit(X)
    # K = 1: all 20 rows count for the component; slots a, b, unseen: p(unseen) = 0.5 / 21.5
    np.testing.assert_allclose(one.params_["probabilities"][0], [[10.5 / 21.5, 10.5 / 21.5,
                                                                  0.5 / 21.5]])
    # with one component the ELBO is the exact log-likelihood of the observed entries, and
    # a value never seen in training is coded missing: marginalised, like an empty cell
    row = np.array([["zzz", "x"], ["a", "qq"], [None, "x"]], dtype=object)
    np.testing.assert_allclose(one.score_samples(row), np.log(10.5 / 21.5))
    model = LatentCNB(2, family="categorical", random_state=0).fit(X)
    assert np.isfinite(model.score_samples(np.array([["c", "x"], [7, "y"]], dtype=object))).all()


@pytest.mark.parametrize(
    ("kwargs", "X", "match"),
    [
        ({"n_components": 0}, None, "'n_components' parameter of LatentCNB must be an int"),
        ({"prior_params": {"alpha": -1.0}}, None, "'alpha' of the dirichlet prior must be"),
        ({"prior": "generalized-dirichlet", "prior_params": {"beta": -2.0}}, None, "'beta'"),
        ({"prior": "gd"}, None, "'prior' parameter of LatentCNB must be a str among"),
        ({"family": "poisson"}, None, "'family' parameter of LatentCNB must be a str among"),
        ({}, [[1.0, 2.0], [np.nan, np.nan], [3.0, 1.0]], "Row 1 of X has no observed feature"),
        ({}, [[1.0, 2.0], [1.0, np.inf], [3.0, 1.0]], "infinity in column 1"),
        ({"family": "gaussian"}, [["a", 2.0], ["b", 1.0], ["a", 3.0]],
         "Column 0 .*non-numeric"),
        ({"family": "categorical", "feature_types": {0: "continuous"}}, None,
         r"feature_types\[0\] = 'continuous' contradicts family='categorical'"),
        ({}, [[1.0, 2.0], [1.0, 2.0], [1.0, 2.0]], r"Every column of X is constant \(\[0, 1\]\)"),
    ],
)
def test_bad_input(kwargs, X, match):
    X = np.array([[1.0, 2.0], [2.0, 1.0], [3.0, 1.0]]) if X is None else np.array(X, dtype=object if isinstance(X[0][0], str) else float)
    with pytest.raises(ValueError, match=match):
        LatentCNB(**kwargs).fit(X)


def test_bad_input_at_predict_names_row_and_column():

    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": [2.0, 1.0, 0.0, 1.0]})
    model = LatentCNB(2, random_state=0).fit(X)
    with pytest.raises(ValueError, match="infinity in column 'b'"):
        model.predict(pd.DataFrame({"a": [1.0], "b": [-np.inf]}))
    with pytest.raises(ValueError, match="Row 0 of X has no observed feature"):
        model.transform(pd.DataFrame({"a": [np.nan], "b": [np.nan]}))


def test_fitted_model_exposes_its_plate():

    from kgraph.plate import LatentCNBPlate

    X = pd.DataFrame({"u": np.arange(8.0) / 3, "v": np.arange(8.0) % 3, "w": 1.0})
    with pytest.warns(UserWarning, match=r"column\(s\) \['w'\] of X take fewer than two"):
        model = LatentCNB(2, prior="beta-liouville", random_state=0).fit(X)
    # v (three integer values) is categorical; the constant w leaves the model
    assert model.plate_graph() == LatentCNBPlate(["u", "v"], 2, "beta-liouville", "mixed")
    model.set_params(family="gaussian").fit(X)
    assert model.plate_graph() == LatentCNBPlate(["u", "v"], 2, "beta-liouville", "gaussian")


def test_unknown_family_lists_valid_ones():
    from estimators.latent import make_family

    with pytest.raises(ValueError, match=r"Unknown family 'poisson'; valid ones are \['auto', 'categorical', 'gaussian'\]"):
        make_family("poisson")
