"""CG factors: normalisation and agreement with an independent per-cell computation."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import multivariate_normal, norm

from estimators.columns import MixedEncoder
from estimators.network.factors import (
    BayesCategoricalFactor,
    CategoricalFactor,
    LinearGaussianFactor,
)
from estimators.network.fitting import fit_cg_factor


def _table(seed=0, n=600):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    d = rng.integers(0, 2, n)
    c = (d + y + (rng.random(n) < 0.4) * rng.integers(0, 3, n)) % 3
    x1 = rng.normal(c - d + y, 1.0 + 0.3 * c)
    x2 = 0.7 * x1 + rng.normal(c, 1.0)
    X = pd.DataFrame({"c": np.array(list("pqr"))[c], "d": np.array(["no", "yes"])[d],
                      "x1": x1, "x2": x2})
    enc = MixedEncoder().fit(X)
    return X, y, enc


def _with_codes(enc_rows, col, code):
    codes = enc_rows.codes.copy()
    codes[:, col] = code
    return type(enc_rows)(enc_rows.values, codes, enc_rows.types, enc_rows.n_levels,
                          enc_rows.names, enc_rows.n_unseen)


@pytest.mark.parametrize("parents", [(), (1,), (2,), (1, 2), (2, 3), (1, 2, 3)])
def test_categorical_factor_sums_to_one(parents):
    X, y, encoder = _table()
    enc = encoder.transform(X)
    f = fit_cg_factor(enc, y, 2, 0, parents, alpha=0.5)
    assert isinstance(f, BayesCategoricalFactor if {2, 3} & set(parents) else CategoricalFactor)
    test = encoder.transform(pd.DataFrame({"c": ["p"] * 3, "d": ["no", "yes", "yes"],
                                           "x1": [-3.0, 0.5, 8.0], "x2": [0.0, 1.0, -6.0]}))
    total = sum(np.exp(f.log_prob(_with_codes(test, 0, k))) for k in range(3))
    np.testing.assert_allclose(total, 1.0, atol=1e-12)


@pytest.mark.parametrize("parents", [(), (0,), (2,), (0, 1, 2)])
def test_linear_gaussian_factor_integrates_to_one(parents):
    X, y, encoder = _table()
    enc = encoder.transform(X)
    f = fit_cg_factor(enc, y, 2, 3, parents)
    assert isinstance(f, LinearGaussianFactor)
    grid = np.linspace(-40, 40, 40001)
    rows = pd.DataFrame({"c": "q", "d": "yes", "x1": 0.3, "x2": grid})
    dens = np.exp(f.log_prob(encoder.transform(rows)))  # (grid, classes)
    np.testing.assert_allclose(np.trapezoid(dens, grid, axis=0), 1.0, atol=1e-8)


def test_linear_gaussian_factor_matches_least_squares_per_cell():
    X, y, encoder = _table(1)
    enc = encoder.transform(X)
    f = fit_cg_factor(enc, y, 2, 3, (0, 2), ridge=0.0, var_smoothing=0.0)
    lp = f.log_prob(enc)
    for cls in range(2):
        for lev in "pqr":
            cell = (y == cls) & (X["c"] == lev).to_numpy()
            A = np.column_stack([np.ones(cell.sum()), X["x1"][cell]])
            beta, rss, *_ = np.linalg.lstsq(A, X["x2"][cell], rcond=None)
            rows = (X["c"] == lev).to_numpy()
            mu = beta[0] + beta[1] * X["x1"][rows]
            ref = norm.logpdf(X["x2"][rows], mu, np.sqrt(rss[0] / cell.sum()))
            np.testing.assert_allclose(lp[rows, cls], ref, rtol=0, atol=1e-9)


def test_small_cells_pool_to_the_class_regression():
    X, y, encoder = _table(2)
    X.loc[np.flatnonzero((X["c"] == "r") & (y == 0))[3:], "c"] = "p"  # 3 rows in (r, y=0)
    enc = encoder.fit(X).transform(X)
    f = fit_cg_factor(enc, y, 2, 2, (0,), ridge=0.0)
    pooled = fit_cg_factor(enc, y, 2, 2, (), ridge=0.0)
    r = list(encoder.categories_["c"]).index("r")
    assert f.intercept[r, 0] == pytest.approx(pooled.intercept[0, 0], abs=1e-12)
    assert f.var[r, 0] == pytest.approx(pooled.var[0, 0], abs=1e-12)
    assert f.intercept[r, 1] != pytest.approx(pooled.intercept[0, 1], abs=1e-3)


def test_constant_cells_pool_instead_of_a_floored_variance():
    """oj's DiscCH is 0 on every row with SpecialMM = 1 of class MM; the floored variance
    (1e-9 var) of that cell gave a test row with DiscCH = 0.5 -1e10 nats. A cell in which
    x_v (or a coordinate of x_C) is constant now keeps its mean and borrows the coarser
    cell's variance."""
    X, y, encoder = _table(6)
    cell = ((X["d"] == "yes") & (y == 1)).to_numpy()
    X.loc[cell, "x1"] = 0.0  # x1 constant in the cell (d = yes, y = 1); 150 rows
    enc = encoder.fit(X).transform(X)
    yes = list(encoder.categories_["d"]).index("yes")
    f = fit_cg_factor(enc, y, 2, 2, (1,))  # x1 | d, y: a linear-Gaussian factor
    cls = fit_cg_factor(enc, y, 2, 2, ())  # x1 | y
    assert f.var[yes, 1] == pytest.approx(cls.var[0, 1], rel=1e-12)
    assert f.intercept[yes, 1] == 0.0  # the cell's own mean
    assert f.var[yes, 0] == pytest.approx(X["x1"][(X["d"] == "yes") & (y == 0)].var(ddof=0))
    test = encoder.transform(pd.DataFrame({"c": ["p"], "d": ["yes"], "x1": [0.5], "x2": [0.0]}))
    ref = norm.logpdf(0.5, 0.0, X["x1"][y == 1].std(ddof=0))
    assert f.log_prob(test)[0, 1] == pytest.approx(ref, rel=1e-9)
    # the Bayes-rule factor c | x1, d, y: its Gaussian of x1 in the constant cells pooled
    b = fit_cg_factor(enc, y, 2, 0, (1, 2))
    lp = b.log_prob(test)
    assert np.isfinite(lp).all() and lp.min() > -50.0
    var = np.linalg.inv(b.precision[yes, 1])[:, 0, 0]  # x1's variance per category c
    assert (var > 0.1 * X["x1"][y == 1].var()).all()


def test_bayes_factor_matches_scipy_per_cell():
    X, y, encoder = _table(3)
    enc = encoder.transform(X)
    alpha = 0.7
    f = fit_cg_factor(enc, y, 2, 0, (1, 2, 3), alpha=alpha, ridge=0.0, var_smoothing=0.0)
    lp = f.log_prob(enc)
    xc = X[["x1", "x2"]].to_numpy()
    for cls in range(2):
        for dv in ("no", "yes"):
            cell = (y == cls) & (X["d"] == dv).to_numpy()
            rows = (X["d"] == dv).to_numpy()
            joint = []
            for lev in "pqr":
                sub = cell & (X["c"] == lev).to_numpy()
                prior = (sub.sum() + alpha) / (cell.sum() + 3 * alpha)
                cov = np.cov(xc[sub].T, bias=True)
                joint.append(prior * multivariate_normal(xc[sub].mean(0), cov).pdf(xc[rows]))
            joint = np.array(joint)
            own = np.searchsorted(list("pqr"), X["c"][rows].to_numpy())
            ref = np.log(joint[own, np.arange(rows.sum())] / joint.sum(axis=0))
            np.testing.assert_allclose(lp[rows, cls], ref, rtol=0, atol=1e-9)


def test_cpt_matches_counts():
    X, y, encoder = _table(4)
    enc = encoder.transform(X)
    f = fit_cg_factor(enc, y, 2, 0, (1,), alpha=1.0)
    lp = f.log_prob_at(enc, y)
    counts = pd.crosstab([y, X["d"]], X["c"])
    ref = [np.log((counts.loc[(a, b), c] + 1) / (counts.loc[(a, b)].sum() + 3))
           for a, b, c in zip(y, X["d"], X["c"], strict=True)]
    np.testing.assert_allclose(lp, ref, atol=1e-12)


def test_missing_cells_and_unseen_configurations():
    X, y, encoder = _table(5)
    enc = encoder.transform(X)
    f = fit_cg_factor(enc, y, 2, 3, (0, 2))
    test = encoder.transform(pd.DataFrame({"c": ["p", None, "zz"], "d": "no",
                                           "x1": [np.nan, 1.0, 1.0], "x2": [np.nan, 2.0, 2.0]}))
    lp = f.log_prob(test)
    assert (lp[0] == 0).all()  # x_v missing: integrates to 1
    assert np.isnan(lp[1]).all()  # a parent missing: to be marginalised on the structure
    assert test.n_unseen[0] == 1 and np.isnan(lp[2]).all()  # unseen category = missing


def test_parent_configuration_unseen_in_training_falls_back_to_the_class():
    X, y, encoder = _table(6)
    keep = ~((X["c"] == "r") & (X["d"] == "no")).to_numpy()
    X, y = X[keep], y[keep]
    enc = encoder.fit(X).transform(X)
    f = fit_cg_factor(enc, y, 2, 2, (0, 1), ridge=0.0)
    pooled = fit_cg_factor(enc, y, 2, 2, (), ridge=0.0)
    test = encoder.transform(pd.DataFrame({"c": ["r"], "d": ["no"], "x1": [0.7], "x2": [0.0]}))
    np.testing.assert_allclose(f.log_prob(test), pooled.log_prob(test), atol=1e-12)
    cpt = fit_cg_factor(enc, y, 2, 0, (1, 3), alpha=1.0)
    probe = encoder.transform(pd.DataFrame({"c": ["p"], "d": ["no"], "x1": [0.0], "x2": [0.5]}))
    total = sum(np.exp(cpt.log_prob(_with_codes(probe, 0, k))) for k in range(3))
    np.testing.assert_allclose(total, 1.0, atol=1e-12)


def test_too_many_parent_configurations_is_a_clear_error():
    from estimators.stats.moments import parent_configurations
    with pytest.raises(ValueError, match="too many configurations"):
        parent_configurations(np.zeros((2, 5), np.int64), np.full(5, 10**5))


def _sigma_points(mean, cov, weight):
    """2p weighted points whose weighted mean and scatter are exactly ``mean`` and
    ``weight * cov`` (an independent way to write "weight pseudo-rows of N(mean, cov)")."""
    p = mean.size
    L = np.linalg.cholesky(cov) * np.sqrt(p)
    pts = np.vstack([mean + L.T, mean - L.T])
    return pts, np.full(2 * p, weight / (2 * p))


def test_shrunk_moments_are_the_cell_plus_pseudo_rows_of_the_coarser_cell():
    from estimators.stats.moments import grouped_moments, shrunk

    rng = np.random.default_rng(3)
    Z = rng.normal(size=(40, 3)) @ rng.normal(size=(3, 3))
    g = rng.integers(0, 4, 40)
    g[:2] = 3  # cell 3 keeps at least two rows; cell 4 is empty
    g[2:] = np.where(g[2:] == 3, 0, g[2:])
    fine, coarse = grouped_moments(Z, g, 5), grouped_moments(Z, np.zeros(40, int), 1)
    n0 = 4.0
    mo = shrunk([(fine, np.arange(5)), (coarse, np.zeros(5, int))], n0)
    S = coarse.M[0] / coarse.n[0]
    for cell in range(5):
        pts, w = _sigma_points(coarse.mean[0], S, n0)
        data = np.vstack([Z[g == cell], pts])
        wt = np.concatenate([np.ones((g == cell).sum()), w])
        mean = wt @ data / wt.sum()
        scatter = (wt[:, None] * (data - mean)).T @ (data - mean)
        assert mo.n[cell] == pytest.approx(wt.sum())
        np.testing.assert_allclose(mo.mean[cell], mean, atol=1e-12)
        np.testing.assert_allclose(mo.M[cell], scatter, rtol=1e-10, atol=1e-10)


def test_shrunk_regression_on_few_rows_keeps_a_residual_variance():
    """Regression test (k-TAN on wine, 40 % missing, log-loss 4.07): a class whose 5 rows lie
    on a plane had an ML residual variance at the floor. With shrinkage the fitted variance is
    at least n0 / (n + n0) times the residual variance of the all-rows regression (the Schur
    complement is monotone in the PSD order)."""
    rng = np.random.default_rng(1)
    n = 200
    y = np.r_[np.zeros(n - 5, int), np.ones(5, int)]
    x1, x2 = rng.normal(size=n), rng.normal(size=n)
    v = x1 - x2 + rng.normal(size=n)
    v[y == 1] = 2.0 * x1[y == 1] + 0.5 * x2[y == 1]  # exactly on a plane
    X = pd.DataFrame({"x1": x1, "x2": x2, "v": v})
    enc = MixedEncoder().fit_transform(X)
    ml = fit_cg_factor(enc, y, 2, 2, (0, 1), ridge=0.0, min_cell_rows=5)
    fit = fit_cg_factor(enc, y, 2, 2, (0, 1), ridge=0.0, min_cell_rows=5, shrink=True)
    A = np.column_stack([np.ones(n), x1, x2])
    resid = v - A @ np.linalg.lstsq(A, v, rcond=None)[0]
    n0 = 5  # max(min_cell_rows, |C| + 2) = max(5, 4)
    assert ml.var[0, 1] < 1e-6 * resid.var()
    assert fit.var[0, 1] >= n0 / (5 + n0) * resid.var() * (1 - 1e-12)
    # a class with many rows keeps its ML regression up to O(n0 / n)
    np.testing.assert_allclose(fit.coef[0, 0], ml.coef[0, 0], rtol=0.1)
