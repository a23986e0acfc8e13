"""Markov-blanket feature selection: the G-tests against scipy and pgmpy, the semiparametric
test's calibration on sparse tables, IAMB against the true blanket of a known network, and
KTANClassifier(feature_selection=...)."""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.stats import chi2, chi2_contingency
from sklearn.metrics import log_loss
from sklearn.model_selection import StratifiedKFold

from estimators.ktan import KTANClassifier
from estimators.learning.feature_selection import g_test, markov_blanket, sp_g_test


def _table(a, b):
    """Contingency table of the levels of a and b that occur."""
    return pd.crosstab(a, b).to_numpy()


@pytest.fixture(scope="module")
def triple():
    rng = np.random.default_rng(3)
    n = 600
    z = rng.integers(0, 4, n)
    x = (z + rng.integers(0, 3, n)) % 3
    y = (x + z + (rng.random(n) < 0.3)) % 2
    return x, y, z


def test_g_test_is_scipys_log_likelihood_ratio_summed_over_strata(triple):
    x, y, z = triple
    g, dof, log_p = g_test(x, y, z)
    parts = [chi2_contingency(_table(x[z == s], y[z == s]), correction=False, lambda_="log-likelihood")
             for s in np.unique(z)]
    assert g == pytest.approx(sum(p.statistic for p in parts), rel=1e-10)
    assert dof == sum(p.dof for p in parts)
    assert np.exp(log_p) == pytest.approx(chi2.sf(g, dof), rel=1e-9)
    unconditional = chi2_contingency(_table(x, y), correction=False, lambda_="log-likelihood")
    assert g_test(x, y)[:2] == (pytest.approx(unconditional.statistic, rel=1e-10), unconditional.dof)


def test_g_test_agrees_with_pgmpy_on_tables_without_yates_correction():
    # pgmpy corrects 2 x 2 strata (Yates); with three levels each there is no correction
    pytest.importorskip("pgmpy")
    from pgmpy.estimators.CITests import log_likelihood

    rng = np.random.default_rng(5)
    n = 900
    data = pd.DataFrame({"z": rng.integers(0, 2, n), "x": rng.integers(0, 3, n)})
    data["y"] = np.where(rng.random(n) < 0.1, data["x"], rng.integers(0, 3, n))  # pgmpy's 1 - cdf
    # loses p-values below 1e-16: a weak dependence keeps p moderate
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        stat, p_value, dof = log_likelihood("x", "y", ["z"], data, boolean=False)
    g, ours_dof, log_p = g_test(data["x"].to_numpy(), data["y"].to_numpy(), data[["z"]].to_numpy())
    assert (g, ours_dof) == (pytest.approx(stat, rel=1e-10), dof)
    assert 1e-6 < p_value < 0.5
    assert np.exp(log_p) == pytest.approx(p_value, rel=1e-6)


def test_sp_test_is_calibrated_on_sparse_strata_where_the_asymptotic_test_is_not():
    rng = np.random.default_rng(0)
    n, reps = 600, 40
    rejected = {"g": 0, "sp": 0}
    for r in range(reps):
        z = rng.integers(0, 200, n)  # about three rows per stratum; X ⊥ Y | Z holds
        x = (z + rng.integers(0, 2, n)) % 3
        y = (z // 2 + rng.integers(0, 2, n)) % 2
        rejected["g"] += g_test(x, y, z)[2] < np.log(0.05)
        rejected["sp"] += sp_g_test(x, y, z, random_state=r)[2] < np.log(0.05)
    assert rejected["g"] / reps > 0.5
    assert rejected["sp"] / reps <= 0.15


def test_sp_test_on_a_dense_table_is_the_asymptotic_test(triple):
    x, y, z = triple
    g, dof, _ = g_test(x, y, z)
    g_sp, dof_sp, _ = sp_g_test(x, y, z, n_permutations=400)
    assert g_sp == pytest.approx(g, rel=1e-12)
    assert dof_sp == pytest.approx(dof, rel=0.1)


def _sample_known_network(n, seed):
    """P -> Y, Y -> A, Y -> B <- C, A -> D, E alone: the Markov blanket of Y is {P, A, B, C}."""
    rng = np.random.default_rng(seed)
    flip = lambda v, p: np.where(rng.random(n) < p, rng.integers(0, 3, n), v)  # noqa: E731
    P = rng.integers(0, 3, n)
    Y = np.where(rng.random(n) < 0.7, P % 2, 1 - P % 2)
    A = flip(Y * 2, 0.4)
    C = rng.integers(0, 2, n)
    B = flip(Y + C, 0.3)
    D = flip(A, 0.3)
    E = rng.integers(0, 3, n)
    return pd.DataFrame({"P": P, "A": A, "B": B, "C": C, "D": D, "E": E}), Y


def test_iamb_finds_the_true_markov_blanket_at_large_n():
    X, y = _sample_known_network(20_000, 1)
    assert [X.columns[j] for j in markov_blanket(X.to_numpy(), y)] == ["P", "A", "B", "C"]
    # the asymptotic test finds the blanket too but, once it is large, also takes in others
    assert {"P", "A", "B", "C"} <= {X.columns[j] for j in markov_blanket(X.to_numpy(), y, test="g")}


def test_markov_blanket_tops_up_to_min_features():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 400)
    X = np.column_stack([rng.integers(0, 2, 400), np.where(rng.random(400) < 0.9, y, 1 - y),
                         rng.integers(0, 3, 400)])
    assert markov_blanket(X, y) == [1]
    top = markov_blanket(X, y, min_features=2)
    others = [0, 2]
    strongest = min(others, key=lambda j: g_test(X[:, j], y)[2])
    assert top == sorted([1, strongest])


def test_markov_blanket_refuses_missing_codes_and_unknown_tests():
    X, y = np.array([[0, 1], [-1, 0]]), np.array([0, 1])
    with pytest.raises(ValueError, match=r"complete categorical codes.*code -1"):
        markov_blanket(X, y)
    with pytest.raises(ValueError, match=r"unknown test 'chi'.*\['g', 'sp-g'\]"):
        markov_blanket(np.zeros((2, 2), int), y, test="chi")


@pytest.fixture(scope="module")
def known():
    X, y = _sample_known_network(3_000, 4)
    return X.astype(str), y


def test_ktan_on_the_blanket_is_ktan_on_its_columns(known):
    X, y = known
    clf = KTANClassifier(k=2, feature_selection="markov-blanket").fit(X, y)
    codes = np.column_stack([pd.factorize(X[c])[0] for c in X.columns])
    expected = [X.columns[j] for j in markov_blanket(codes, y, min_features=2)]
    assert clf.selected_features_ == expected == ["P", "A", "B", "C"]
    alone = KTANClassifier(k=2, feature_selection=None).fit(X[expected], y)
    np.testing.assert_allclose(clf.predict_proba(X), alone.predict_proba(X[expected]), rtol=1e-12)
    assert KTANClassifier(k=2).fit(X, y).selected_features_ == list(X.columns)
    from estimators.network.export.structure_graph import structure_graph

    graph = structure_graph(clf)  # the columns left out have no node
    assert sorted(map(str, graph.nodes())) == sorted([*expected, clf.class_node_])
    network = clf.to_pgmpy()  # the columns left out are isolated uniform roots there, so a
    assert sorted(network.nodes()) == sorted([*X.columns, clf.class_node_])  # whole row queries
    assert {v for edge in network.edges() for v in edge} == {*expected, clf.class_node_}


def test_auto_chooses_the_selection_by_cross_validation(known):
    X, y = known
    clf = KTANClassifier(k=[1]).fit(X, y)
    table = clf.cv_results_
    assert table["feature_selection"] == [None, "markov-blanket"]
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    for row, selection in enumerate(table["feature_selection"]):
        losses = []
        for train, test in folds.split(X, y):
            model = KTANClassifier(k=1, feature_selection=selection).fit(X.iloc[train], y[train])
            losses.append(log_loss(y[test], model.predict_proba(X.iloc[test]), labels=model.classes_))
        assert table["mean_log_loss"][row] == pytest.approx(np.mean(losses), rel=1e-10)
    assert clf.feature_selection_ == table["feature_selection"][int(np.argmin(table["mean_log_loss"]))]


def test_auto_skips_the_blanket_on_continuous_columns(known):
    X, y = known
    mixed = X.assign(g=np.random.default_rng(0).normal(size=len(X)))
    assert KTANClassifier(k=[1]).fit(mixed, y).cv_results_["feature_selection"] == [None]


def test_blanket_on_continuous_or_missing_columns_is_refused(known):
    X, y = known
    mixed = X.assign(g=np.random.default_rng(0).normal(size=len(X)))
    with pytest.raises(ValueError, match=r"feature_selection='markov-blanket'.*\['g'\] are continuous or have missing"):
        KTANClassifier(k=1, feature_selection="markov-blanket").fit(mixed, y)
    holed = X.copy()
    holed.loc[0, "E"] = np.nan
    with pytest.raises(ValueError, match=r"\['E'\] are continuous or have missing cells"):
        KTANClassifier(k=1, feature_selection="markov-blanket").fit(holed, y)
    with pytest.raises(ValueError, match="'feature_selection' parameter of KTANClassifier must be"):
        KTANClassifier(feature_selection="lasso").fit(X, y)


def test_blanket_from_dask_is_refused(known):
    dd = pytest.importorskip("dask.dataframe")
    from estimators.distributed import collect

    X, y = known
    with pytest.raises(ValueError, match=r"feature_selection='markov-blanket'.*rows in memory"):
        KTANClassifier(k=1, feature_selection="markov-blanket").fit(collect(
            dd.from_pandas(X, npartitions=2), dd.from_array(y, chunksize=1500)))
