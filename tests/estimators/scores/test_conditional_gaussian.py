"""The conditional Gaussian score: exact reductions, directedness, available cases."""

from itertools import combinations

import numpy as np
import pandas as pd
import pytest

from estimators.scores import ConditionalGaussianScore, DiscreteCMI, GaussianCMI


def _continuous(seed, n=300, d=4, shift=100.0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    A = rng.normal(size=(d, d))
    X = rng.normal(size=(n, d)) @ A + shift + y[:, None] * rng.normal(size=d)
    return pd.DataFrame(X, columns=[f"x{i}" for i in range(d)]), y


def _categorical(seed, n=300, d=4):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = np.empty((n, d), dtype=object)
    X[:, 0] = np.array(list("abc"))[rng.integers(0, 3, n)]
    for i in range(1, d):
        flip = rng.random(n) < 0.3 + 0.3 * y
        X[:, i] = np.where(flip, np.array(list("pqrs"))[rng.integers(0, 4, n)], X[:, i - 1])
    return pd.DataFrame(X, columns=[f"c{i}" for i in range(d)]), y


def _hyperedges(names, k):
    return [(v, frozenset(p)) for s in range(1, k + 1) for p in combinations(names, s)
            for v in names if v not in p]


@pytest.mark.parametrize("seed", [0, 1])
def test_all_continuous_equals_gaussian_cmi(seed):
    X, y = _continuous(seed)
    items = _hyperedges(list(X.columns), 3)
    cg = ConditionalGaussianScore().fit(X, y).score_many(items)
    ref = GaussianCMI().fit(X, y).score_many(items)
    np.testing.assert_allclose(cg, ref, rtol=0, atol=1e-10)


@pytest.mark.parametrize("seed", [0, 1])
def test_all_categorical_equals_discrete_cmi(seed):
    X, y = _categorical(seed)
    items = _hyperedges(list(X.columns), 3)
    cg = ConditionalGaussianScore().fit(X, y).score_many(items)
    ref = DiscreteCMI(alpha=0.0).fit(X, y).score_many(items)
    np.testing.assert_allclose(cg, ref, rtol=0, atol=1e-10)


def test_integer_columns_follow_their_type():
    """Small-integer columns are categorical under "auto": the discrete score; forced
    continuous: the Gaussian score."""
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 400)
    a = rng.integers(0, 3, 400)
    X = pd.DataFrame({"a": a, "b": (a + y + rng.integers(0, 2, 400)) % 4})
    auto = ConditionalGaussianScore().fit(X, y)
    assert auto.feature_types_ == {"a": "categorical", "b": "categorical"}
    assert auto("b", {"a"}) == pytest.approx(DiscreteCMI().fit(X, y)("b", {"a"}), abs=1e-12)
    forced = ConditionalGaussianScore(feature_types={"a": "continuous", "b": "continuous"})
    assert forced.fit(X, y)("b", {"a"}) == pytest.approx(
        GaussianCMI().fit(X.astype(float), y)("b", {"a"}), abs=1e-10)


def _mixed(seed, n=400):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    z = rng.integers(0, 3, n)
    x = rng.normal(z * (1 + y), 1.0 + 0.5 * z)
    return pd.DataFrame({"z": np.array(list("abc"))[z], "x": x,
                         "w": 0.5 * x + rng.normal(size=n)}), y


def test_mixed_pair_is_directed_and_matches_the_closed_forms():
    X, y = _mixed(0)
    f = ConditionalGaussianScore().fit(X, y)
    W = f.edge_matrix()
    names = list(X.columns)
    assert W[names.index("z"), names.index("x")] == f("x", {"z"})
    assert abs(f("x", {"z"}) - f("z", {"x"})) > 1e-3
    # f(x, {z}): per (z, y) Gaussian against the class Gaussian, ML variances
    xs, zs = X["x"].to_numpy(), X["z"].to_numpy()
    gain = 0.0
    for c in range(2):
        sel = y == c
        gain += sel.mean() * 0.5 * np.log(xs[sel].var())
        for lev in "abc":
            cell = sel & (zs == lev)
            gain -= cell.mean() * 0.5 * np.log(xs[cell].var())
    assert f("x", {"z"}) == pytest.approx(gain, abs=1e-10)


def test_missing_cells_use_available_cases_and_few_rows_are_ineligible():
    X, y = _continuous(4, n=200, d=3, shift=0.0)
    Xm = X.copy()
    Xm.iloc[:120, 0] = np.nan
    f = ConditionalGaussianScore().fit(Xm, y)
    keep = ~Xm["x0"].isna().to_numpy()
    ref = GaussianCMI().fit(X[keep], y[keep])
    assert f("x0", {"x1"}) == pytest.approx(ref("x0", {"x1"}), abs=1e-10)
    assert f("x1", {"x2"}) == pytest.approx(GaussianCMI().fit(X, y)("x1", {"x2"}), abs=1e-10)
    Xm.iloc[:197, 1] = np.nan  # 3 complete rows for x1 < min_cell_rows = 5
    g = ConditionalGaussianScore().fit(Xm, y)
    assert g("x1", {"x2"}) == -np.inf and g("x2", {"x1"}) == -np.inf
    assert np.isfinite(g("x2", {"x0"}))


def test_constant_and_collinear_columns_give_finite_scores():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 100)
    x = rng.normal(size=100)
    X = pd.DataFrame({"x": x, "twice": 2 * x, "k": 3.0, "s": "same"})
    f = ConditionalGaussianScore().fit(X, y)
    assert f.feature_types_["k"] == "constant" and f.feature_types_["s"] == "constant"
    assert f("x", {"k"}) == pytest.approx(0.0, abs=1e-12)
    assert f("k", {"x"}) == pytest.approx(0.0, abs=1e-12)
    assert np.isfinite(f("x", {"twice", "s"}))
    assert np.isfinite(f.edge_matrix()).all()


def test_bad_inputs_name_what_is_wrong():
    X, y = _mixed(1, n=50)
    with pytest.raises(ValueError, match="'nope'"):
        ConditionalGaussianScore(feature_types={"nope": "continuous"}).fit(X, y)
    with pytest.raises(ValueError, match="'z'.*non-numeric"):
        ConditionalGaussianScore(feature_types={"z": "continuous"}).fit(X, y)
    f = ConditionalGaussianScore().fit(X, y)
    with pytest.raises(ValueError, match="unknown variable 'q'"):
        f("q", {"x"})


def test_parallel_blocks_give_the_same_matrix():
    import pickle

    from joblib import parallel_config

    from estimators.scores._conditional_gaussian import cg_block
    X, y = _mixed(2, n=150)
    f = ConditionalGaussianScore(n_jobs=1).fit(X, y)
    W1 = f.edge_matrix()
    with parallel_config(backend="threading"):
        W2 = ConditionalGaussianScore(n_jobs=2).fit(X, y).edge_matrix()
    np.testing.assert_array_equal(W1, W2)
    shipped = pickle.loads(pickle.dumps(f.data_))  # what a process or Dask worker receives
    assert cg_block(shipped, [(1, (0,)), (0, (1, 2))]).tolist() == [W1[0, 1],
                                                                    f("z", {"x", "w"})]


def test_fit_encoded_equals_fit():
    from estimators.columns import MixedEncoder
    X, y = _mixed(3, n=120)
    enc = MixedEncoder().fit_transform(X)
    a = ConditionalGaussianScore().fit(X, y).edge_matrix()
    b = ConditionalGaussianScore().fit_encoded(enc, y, np.unique(y)).edge_matrix()
    np.testing.assert_array_equal(a, b)


@pytest.mark.filterwarnings("ignore::estimators.base.validation.DegenerateFeatureWarning")
def test_within_class_constant_columns_match_gaussian_cmi():
    X, y = _continuous(7, n=200, d=3, shift=0.0)
    X.loc[y == 1, "x1"] = 2.5  # constant in class 1 only
    items = _hyperedges(list(X.columns), 2)
    np.testing.assert_allclose(ConditionalGaussianScore().fit(X, y).score_many(items),
                               GaussianCMI().fit(X, y).score_many(items), rtol=0, atol=1e-10)
