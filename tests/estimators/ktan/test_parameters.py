"""Values of the k-TAN parameter layer: CPTs by direct counting, Gaussian log-likelihoods by
scipy.stats, the column rule and the discrete encoding."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from estimators.ktan._columns import (
    AUTO_MAX_INTEGER_LEVELS,
    MAX_DISCRETE_LEVELS,
    DiscreteEncoding,
    column_kinds,
    resolve_family,
)
from estimators.ktan._cpt import fit_cpts
from estimators.ktan._linear_gaussian import fit_linear_gaussian

# a 2-tree over 4 features: 0 | 1 <- 0 | 2 <- 0, 1 | 3 <- 1, 2
PARENTS = [(), (0,), (0, 1), (1, 2)]


@pytest.fixture
def discrete_data():
    rng = np.random.default_rng(3)
    n_levels = np.array([2, 3, 2, 4])
    codes = np.column_stack([rng.integers(0, r, 300) for r in n_levels])
    y = rng.integers(0, 3, 300)
    return codes, y, n_levels


@pytest.mark.parametrize(("alpha", "ess"), [(0.5, None), (1.0, None), (2.0, None), (1.0, 1.0),
                                             (1.0, 10.0)])
def test_cpts_equal_direct_counting(discrete_data, alpha, ess):
    codes, y, n_levels = discrete_data
    cpts = fit_cpts(codes, y, 3, n_levels, PARENTS, alpha, ess=ess)
    frame = pd.DataFrame(codes, columns=["a", "b", "c", "d"]).assign(y=y)
    cols = list(frame.columns[:4])
    for v, pa in enumerate(PARENTS):
        keys = ["y", *(cols[p] for p in pa)]
        joint = frame.groupby([*keys, cols[v]]).size()
        margin = frame.groupby(keys).size()
        if ess is not None:  # BDeu: ess spread over the r_v * q_v * m cells of the family
            alpha = ess / (n_levels[v] * np.prod([n_levels[p] for p in pa]) * 3)
        for idx in np.ndindex(3, *(n_levels[p] for p in pa), n_levels[v]):
            key = idx[:-1] if len(idx) > 2 else idx[0]
            n_joint = joint.get(idx, 0)
            n_margin = margin.get(key, 0)
            expected = (n_joint + alpha) / (n_margin + alpha * n_levels[v])
            assert np.exp(cpts.log_tables[v][idx]) == pytest.approx(expected, rel=1e-12)


def test_unseen_categories_are_scored_by_the_smoothing(discrete_data):
    codes, y, n_levels = discrete_data
    alpha = 1.0
    cpts = fit_cpts(codes, y, 3, n_levels, PARENTS, alpha)
    seen = codes[:1].copy()
    unseen_child = seen.copy()
    unseen_child[0, 3] = n_levels[3]  # a value of feature 3 never seen in training
    jll_seen = cpts.joint_log_likelihood(seen)
    jll_unseen = cpts.joint_log_likelihood(unseen_child)
    pa = tuple(seen[0, [1, 2]])
    for c in range(3):
        n = np.sum((y == c) & (codes[:, 1] == pa[0]) & (codes[:, 2] == pa[1]))
        m = np.sum((y == c) & (codes[:, 1] == pa[0]) & (codes[:, 2] == pa[1]) & (codes[:, 3] == seen[0, 3]))
        delta = np.log(alpha / (n + alpha * 4)) - np.log((m + alpha) / (n + alpha * 4))
        assert jll_unseen[0, c] - jll_seen[0, c] == pytest.approx(delta, rel=1e-12)
    # an unseen parent value: feature 3's conditional becomes uniform 1/r_3 for every class
    unseen_parent = seen.copy()
    unseen_parent[0, 2] = n_levels[2]
    table = cpts.log_tables[3].reshape(3, -1)[:, cpts.flat_index(unseen_parent, 3)]
    np.testing.assert_allclose(np.exp(table), 0.25, rtol=1e-12)


def test_joint_log_likelihood_gathers_the_tables(discrete_data):
    codes, y, n_levels = discrete_data
    cpts = fit_cpts(codes, y, 3, n_levels, PARENTS, 1.0)
    jll = cpts.joint_log_likelihood(codes[:20])
    for i in range(20):
        for c in range(3):
            expected = sum(
                cpts.log_tables[v][(c, *codes[i, list(pa)], codes[i, v])] for v, pa in enumerate(PARENTS)
            )
            assert jll[i, c] == pytest.approx(expected, rel=1e-12)


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
    model = fit_linear_gaussian(X, y, 2, parents)
    test = rng.normal(size=(5, 3))
    jll = model.joint_log_likelihood(test)
    floor = 1e-9 * np.var(X, axis=0).max()
    for c in range(2):
        Xc = X[y == c]
        total = np.zeros(5)
        for v, pa in enumerate(parents):
            a, slopes = _reference_regression(Xc, v, pa)
            resid = Xc[:, v] - (a + Xc[:, list(pa)] @ slopes)
            sd = np.sqrt(np.mean(resid**2) + floor)
            total += stats.norm.logpdf(test[:, v], a + test[:, list(pa)] @ slopes, sd)
        np.testing.assert_allclose(jll[:, c], total, rtol=1e-10)


def test_gaussian_constant_feature_in_a_class_is_finite():
    X = np.array([[0.0, 1.0], [0.0, 2.0], [1.0, 3.0], [2.0, 5.0]])
    model = fit_linear_gaussian(X, np.array([0, 0, 1, 1]), 2, [(), (0,)])
    assert np.all(np.isfinite(model.joint_log_likelihood(X)))


def test_column_kinds_rule():
    n = 40
    df = pd.DataFrame(
        {
            "s": ["a", "b"] * (n // 2),
            "cat": pd.Categorical([1, 2] * (n // 2)),
            "flag": [True, False] * (n // 2),
            "small": np.arange(n) % AUTO_MAX_INTEGER_LEVELS,
            "many": np.arange(n) % (AUTO_MAX_INTEGER_LEVELS + 1),
            "real": np.linspace(0, 1, n),
            "numeric_objects": np.linspace(0, 1, n).astype(object),
        }
    )
    assert column_kinds(df) == [
        "categorical",
        "categorical",
        "categorical",
        "small-integer",
        "continuous",
        "continuous",
        "continuous",
    ]


def test_resolve_family():
    names = ["a", "b"]
    ints = np.array([[0, 1], [1, 2], [2, 0]])
    mixed = pd.DataFrame({"a": ["u", "v", "w"], "b": [0.1, 0.25, 0.3]})
    assert resolve_family(ints, "auto", names, "K") == "discrete"
    assert resolve_family(ints, "gaussian", names, "K") == "gaussian"
    assert resolve_family(ints + 0.5, "auto", names, "K") == "gaussian"
    with pytest.raises(ValueError, match=r"categorical columns \['a'\] and continuous columns \['b'\]"):
        resolve_family(mixed, "auto", names, "K")
    with pytest.raises(ValueError, match="Column 'a' is not numeric.*features='discrete'"):
        resolve_family(mixed, "gaussian", names, "K")
    real = np.random.default_rng(0).normal(size=(MAX_DISCRETE_LEVELS + 1, 2))
    with pytest.raises(ValueError, match="Column 'a' has 33 distinct.*KBinsDiscretizer.*features='gaussian'"):
        resolve_family(real, "discrete", names, "K")


def test_encoding_keeps_training_categories():
    X = np.array([["b", 2], ["a", 10], ["b", 2]], dtype=object)
    enc = DiscreteEncoding.fit(X)
    assert [c.tolist() for c in enc.categories] == [["a", "b"], [2, 10]]
    codes = enc.transform(np.array([["a", 10], ["z", 3], ["b", 2]], dtype=object))
    assert codes.tolist() == [[0, 1], [2, 2], [1, 0]]
    mixed = DiscreteEncoding.fit(np.array([["x"], [1], ["x"]], dtype=object))
    assert mixed.categories[0].tolist() == ["x", 1]  # not orderable: first appearance
