"""BIC of the conditional Gaussian score: the discrete and Gaussian BIC where the tables
reduce to them, hand counts and least squares on available cases, the exact DP."""

import numpy as np
import pandas as pd
import pytest

from estimators.ktan import KTANClassifier
from estimators.scores import (
    BIC,
    ConditionalGaussianBIC,
    ConditionalGaussianScore,
    DiscreteCMI,
    GaussianCMI,
    make_score,
)
from estimators.search import backbone_dp, brute_force_ktree

from .test_penalised import mixed_cardinality_data

ITEMS = [("x1", ("x0",)), ("x0", ("x1",)), ("x2", ("x1", "x3")), ("x5", ("x0", "x2", "x4")),
         ("x4", ("x3",))]


def mixed_with_holes(n=400, seed=0, rate=0.1):
    """Two categorical and four continuous columns with dependencies; a share ``rate`` of
    the cells missing at random."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    z0 = rng.integers(0, 3, n)
    x0 = rng.normal(z0 + y, 1.0)
    x1 = rng.normal(0.8 * x0 - y, 1.0)
    z1 = np.where(rng.random(n) < 0.3 + 0.4 * (x1 > 0), "p", "q")
    x2 = rng.normal(size=n)
    x3 = rng.normal(x2 * (1 + y), 1.0)
    X = pd.DataFrame({"z0": np.array(["a", "b", "c"])[z0], "x0": x0, "x1": x1, "z1": z1,
                      "x2": x2, "x3": x3})
    return X.mask(rng.random(X.shape) < rate), y


def test_all_categorical_equals_the_discrete_bic():
    X, y = mixed_cardinality_data(n=500, seed=4)
    cg = ConditionalGaussianBIC().fit(X.astype(str), y)
    ref = BIC(DiscreteCMI()).fit(X, y)
    np.testing.assert_allclose(cg.score_many(ITEMS), ref.score_many(ITEMS), rtol=1e-9, atol=1e-8)
    np.testing.assert_allclose(cg.edge_matrix(), ref.edge_matrix(), rtol=1e-9, atol=1e-8)


def test_all_continuous_equals_the_gaussian_bic():
    rng = np.random.default_rng(3)
    X = pd.DataFrame(rng.normal(size=(500, 5)), columns=[f"x{i}" for i in range(5)])
    y = rng.integers(0, 3, 500)
    X["x1"] += (0.5 + 0.3 * y) * X["x0"]
    X["x4"] += 0.4 * X["x2"] - 0.3 * X["x3"]
    items = [("x1", ("x0",)), ("x4", ("x2", "x3")), ("x0", ("x1", "x2", "x3"))]
    cg = ConditionalGaussianBIC().fit(X, y)
    ref = BIC(GaussianCMI()).fit(X, y)
    np.testing.assert_allclose(cg.score_many(items), ref.score_many(items), rtol=0, atol=1e-6)
    np.testing.assert_allclose(cg.edge_matrix(), ref.edge_matrix(), rtol=0, atol=1e-6)


def test_categorical_child_on_available_cases_is_the_hand_count():
    X, y = mixed_with_holes(seed=1, rate=0.15)
    rows = X[["z1", "z0"]].notna().all(axis=1)
    frame = X.loc[rows, ["z1", "z0"]].assign(y=y[rows])
    n = int(rows.sum())

    def loglik(cols):  # sum_i ln N(z1, cols) / N(cols)
        joint = frame.groupby([*cols, "z1"]).size()
        margin = frame.groupby(cols).size()
        return float((joint * np.log(joint / margin.reindex(joint.index.droplevel(-1)).values)).sum())

    gain = loglik(["y", "z0"]) - loglik(["y"])
    dim = 2 * (2 - 1) * (3 - 1)  # m (r_v - 1)(q_D - 1)
    expected = gain - 0.5 * np.log(n) * dim
    assert ConditionalGaussianBIC().fit(X, y)("z1", {"z0"}) == pytest.approx(expected, rel=1e-9)


def test_continuous_child_on_available_cases_is_least_squares():
    X, y = mixed_with_holes(seed=2, rate=0.1)
    rows = X[["x1", "x0", "z0"]].notna().all(axis=1).to_numpy()
    n = int(rows.sum())
    gain = 0.0
    for c in (0, 1):
        sub = X[rows & (y == c)]
        full = 0.0
        for _, cell in sub.groupby("z0"):  # one regression per (z0, y) cell
            design = np.column_stack([np.ones(len(cell)), cell["x0"]])
            resid = cell["x1"] - design @ np.linalg.lstsq(design, cell["x1"], rcond=None)[0]
            full += -0.5 * len(cell) * (np.log(2 * np.pi * resid.var(ddof=0)) + 1)
        base = -0.5 * len(sub) * (np.log(2 * np.pi * sub["x1"].var(ddof=0)) + 1)
        gain += full - base
    dim = 2 * (3 * (1 + 2) - 2)  # m [q_D (|C| + 2) - 2]
    got = ConditionalGaussianBIC().fit(X, y)("x1", {"x0", "z0"})
    assert got == pytest.approx(gain - 0.5 * np.log(n) * dim, rel=1e-6)


def test_bayes_rule_child_counts_the_quadratic_log_odds():
    X, y = mixed_with_holes(seed=3)
    bic, cg = ConditionalGaussianBIC().fit(X, y), ConditionalGaussianScore().fit(X, y)
    rows = int(X[["z1", "x0", "x1", "z0"]].notna().all(axis=1).sum())
    # m [q_D (r_v - 1)(1 + |C| + |C|(|C|+1)/2) - (r_v - 1)], |C| = 2, q_D = 3, r_v = 2
    dim = 2 * (3 * 1 * (1 + 2 + 3) - 1)
    assert bic.extra_parameters(3, frozenset({0, 1, 2})) == dim
    assert bic("z1", {"x0", "x1", "z0"}) == pytest.approx(
        rows * cg("z1", {"x0", "x1", "z0"}) - 0.5 * np.log(rows) * dim, rel=1e-12)
    # with no continuous parent the count is the CPT's, as in the discrete BIC
    assert bic.extra_parameters(3, frozenset({0})) == 2 * 1 * (3 - 1)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_dp_with_the_cg_bic_equals_brute_force(k):
    X, y = mixed_with_holes(n=250, seed=k)
    score = ConditionalGaussianBIC().fit(X, y)
    W = score.edge_matrix()
    assert (W[~np.eye(6, dtype=bool)] < 0).any()  # the test exercises negative scores
    backbone = ["x1", "z0", "x3", "x0", "z1", "x2"]
    dp = backbone_dp(score, backbone, k)
    assert dp.score == pytest.approx(brute_force_ktree(score, k, backbone=backbone).score,
                                     rel=1e-12, abs=1e-9)
    assert dp.structure.score(score) == pytest.approx(dp.score, rel=1e-12, abs=1e-9)


def test_ktan_bic_on_a_mixed_table_is_the_brute_force_optimum():
    X, y = mixed_with_holes(n=250, seed=6)
    names = list(X.columns)
    clf = KTANClassifier(k=2, backbone="given", structure_score="bic").fit(X, y)
    oracle = brute_force_ktree(ConditionalGaussianBIC().fit(X, y), 2, backbone=names)
    assert clf.score_ == pytest.approx(oracle.score, abs=1e-9)
    assert clf.structure_score_ == "bic"


def test_auto_on_a_table_with_missing_cells_tries_the_mixed_scores():
    X, y = mixed_cardinality_data(n=300, seed=2)
    X = X.astype(str).mask(np.random.default_rng(0).random(X.shape) < 0.05)
    clf = KTANClassifier(k=[1], structure_score="auto").fit(X, y)
    assert clf.cv_results_["structure_score"] == ["cmi", "bic"]  # BDeu needs complete tables


def test_bdeu_on_missing_cells_names_the_usable_scores():
    X, y = mixed_with_holes(n=120)
    with pytest.raises(ValueError, match=r"'bdeu' needs a complete table.*\['bic', 'cmi'\]"):
        KTANClassifier(k=1, structure_score="bdeu").fit(X, y)
    assert isinstance(make_score("bic", "mixed"), ConditionalGaussianBIC)
