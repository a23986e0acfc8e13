"""The conditional Gaussian score and the mixed TAN from partitions equal the in-memory ones."""

import numpy as np
import pandas as pd
import pytest
from dask_partitions import cuts, split
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from estimators.distributed import collect, predict_dask
from estimators.ktan import TANClassifier
from estimators.scores import ConditionalGaussianScore
from estimators.stats.cell_statistics import CellStats
from estimators.stats.mixed_statistics import level_moments, mixed_stats

dd = pytest.importorskip("dask.dataframe")
dask = pytest.importorskip("dask")

RTOL, ATOL = 1e-9, 1e-12


def _frame(seed, n=300):
    """Two categorical columns (one driving a continuous one), three continuous, 3 classes."""
    rng = np.random.default_rng(seed)
    y = rng.choice(["neg", "pos", "mid"], n)
    z = rng.integers(0, 3, n)
    df = pd.DataFrame({"z": np.array(["a", "b", "c"])[z],
                       "x": rng.normal(z + (y == "pos"), 1.0) + 1e3,  # a large mean
                       "w": rng.normal(size=n)})
    df["w"] += (0.3 + 0.5 * (y == "mid")) * (df["x"] - 1e3)
    df["q"] = np.where(df["w"] + rng.normal(size=n) > 0, "hi", "lo")
    df["v"] = rng.normal(size=n) + 2.0 * (df["q"] == "hi")
    # typed by their values, as in memory: many whole numbers -> continuous; few -> categorical
    df["age"] = rng.integers(18, 80, n) + 10 * (y == "pos")
    df["code"] = rng.integers(0, 4, n).astype(float)
    return df, pd.Series(y, name="y")


hyp = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@hyp
@given(seed=st.integers(0, 10**6), cuts=cuts)
def test_merged_cell_moments_equal_grouped_moments_on_all_rows(seed, cuts):
    """Per (level, class) counts, means and centred sums of squares, merged over a random
    partitioning, equal the two-pass moments of all rows (CellStats.from_arrays, in memory)."""
    frame, y = _frame(seed)
    cats = [np.array(["a", "b", "c"]), np.array(["hi", "lo"])]
    classes = np.array(["mid", "neg", "pos"])
    cont = ["x", "w", "v"]
    bounds = [0, *sorted(set(cuts)), len(frame)]
    parts = [mixed_stats(frame.iloc[a:b], y.iloc[a:b], cont, ["z", "q"], cats, classes, "T")
             for a, b in zip(bounds, bounds[1:], strict=False) if b > a]
    merged = parts[0]
    for p in parts[1:]:
        merged = merged.merge(p)
    yc = pd.Index(classes).get_indexer(y)
    Xc = frame[cont].to_numpy()
    for i, name in enumerate(["z", "q"]):
        codes = pd.Index(cats[i]).get_indexer(frame[name])
        ref = CellStats.from_arrays(Xc, codes * 3 + yc, cats[i].size * 3)
        rows = merged.cells.rows(i)
        np.testing.assert_array_equal(merged.cells.n[rows].ravel(), ref.n)
        np.testing.assert_allclose(merged.cells.mean[rows].reshape(-1, 3), ref.mean, rtol=RTOL)
        np.testing.assert_allclose(merged.cells.S[rows].reshape(-1, 3),
                                   np.diagonal(ref.M, axis1=1, axis2=2), rtol=RTOL)
        table = merged.counts.table(i, 1 - i)
        for c in range(3):
            ref_table = pd.crosstab(frame[name][yc == c], frame[["q", "z"][i]][yc == c])
            np.testing.assert_array_equal(table[c], ref_table.to_numpy())
    one = level_moments(Xc, np.column_stack([pd.Index(c).get_indexer(frame[k]) for c, k in
                                             zip(cats, ["z", "q"], strict=True)]),
                       np.array([3, 2]), yc, 3)
    np.testing.assert_allclose(merged.cells.S, one.S, rtol=RTOL)


@hyp
@given(seed=st.integers(0, 10**6), cuts=cuts)
def test_cg_score_from_partitions_equals_in_memory(seed, cuts):
    """Every pair score f(v, {p}) (all four type combinations, directed) from a random
    partitioning equals the in-memory conditional Gaussian score."""
    frame, y = _frame(seed)
    ref = ConditionalGaussianScore().fit(frame, y)
    with dask.config.set(scheduler="sync"):
        got = ConditionalGaussianScore().fit(split(frame, y, cuts))
    assert got.feature_types_ == ref.feature_types_
    assert (ref.feature_types_["age"], ref.feature_types_["code"]) == ("continuous", "categorical")
    np.testing.assert_array_equal(got.classes_, ref.classes_)
    np.testing.assert_allclose(got.class_prior_, ref.class_prior_, rtol=1e-15)
    np.testing.assert_allclose(got.edge_matrix(), ref.edge_matrix(), rtol=RTOL, atol=ATOL)
    items = [("q", {"x"}), ("x", {"z"}), ("z", {"q"}), ("w", {"x"}), ("v", ())]
    np.testing.assert_allclose(got.score_many(items), ref.score_many(items), rtol=RTOL,
                               atol=ATOL)


def test_cg_score_from_dask_with_small_cells_and_settings():
    """Pooled cells (a rare level, min_cell_rows large) and non-default settings."""
    frame, y = _frame(3, n=200)
    frame.loc[frame.index[:3], "z"] = "rare"
    kw = dict(min_cell_rows=12, var_smoothing=1e-3, ridge=1e-4)
    ref = ConditionalGaussianScore(**kw).fit(frame, y)
    with dask.config.set(scheduler="sync"):
        got = ConditionalGaussianScore(**kw).fit(split(frame, y, [50, 120]))
    np.testing.assert_allclose(got.edge_matrix(), ref.edge_matrix(), rtol=RTOL, atol=ATOL)


def test_cg_score_from_dask_refuses_what_it_cannot_score():
    frame, y = _frame(4, n=60)
    data = split(frame, y, [30])
    with dask.config.set(scheduler="sync"):
        score = ConditionalGaussianScore().fit(data)
        with pytest.raises(ValueError, match="supports at most 1 parent"):
            score("x", {"z", "w"})
        bad = frame.copy()
        bad.loc[5, "w"] = np.nan
        with pytest.raises(ValueError, match="NaN or infinity in column 'w'.*complete rows"):
            ConditionalGaussianScore().fit(split(bad, y, [30]))
        bad = frame.copy()
        bad.loc[5, "q"] = None
        with pytest.raises(ValueError, match="missing values in column 'q'"):
            ConditionalGaussianScore().fit(split(bad, y, [30]))
        bad = frame.assign(w=1.0)
        with pytest.raises(ValueError, match=r"column\(s\) \['w'\] of X are constant"):
            ConditionalGaussianScore().fit(split(bad, y, [30]))
        with pytest.raises(ValueError, match="feature_types for a Dask X maps column names"):
            ConditionalGaussianScore(feature_types={"nope": "continuous"}).fit(data)


def _assert_same_tan(clf, frame, y, npartitions):
    """Same fitted attributes, skeleton, scores and predictions. A continuous pair scores
    f(x, {z}) = f(z, {x}) up to rounding (MATH.md §7: the Gaussian CMI), so the arborescence
    may orient such a tied edge either way on rounding-level differences; any edge whose
    direction differs must be such a tie, and the factors are compared when none differs."""
    features = list(frame.columns)
    ddf = dd.from_pandas(frame.assign(y=y), npartitions=npartitions)
    with dask.config.set(scheduler="sync"):
        got = clf.fit(collect(ddf[features], ddf["y"]))
        proba = predict_dask(got, ddf[features], "predict_proba").compute().to_numpy()
        pred = predict_dask(got, ddf[features]).compute().to_numpy()
    ref = type(clf)(**clf.get_params()).fit(frame, y)
    fitted = {k for k in vars(ref) if k.endswith("_") and not k.startswith("_")}
    assert {k for k in vars(got) if k.endswith("_") and not k.startswith("_")} == fitted
    assert got.family_ == ref.family_ == "mixed"
    assert got.search_ == ref.search_ == "arborescence"
    assert got.feature_types_ == ref.feature_types_
    assert (ref.feature_types_["age"], ref.feature_types_["code"]) == ("continuous", "categorical")
    np.testing.assert_allclose(got.edge_scores_, ref.edge_scores_, rtol=RTOL, atol=ATOL)
    assert got.score_ == pytest.approx(ref.score_, rel=RTOL)
    assert {frozenset(e) for e in got.structure_.edges} == \
        {frozenset(e) for e in ref.structure_.edges}
    kept = [c for c in features if c not in ref.constant_features_]
    W = ref.edge_scores_
    for p, c in set(got.structure_.edges) - set(ref.structure_.edges):
        i, j = kept.index(p), kept.index(c)
        assert W[i, j] == pytest.approx(W[j, i], rel=RTOL), (p, c)
    if got.structure_.edges == ref.structure_.edges:
        for a, b in zip(got.network_.factors, ref.network_.factors, strict=True):
            assert type(a) is type(b)
            for name in ("log_cpt", "intercept", "coef", "var", "mean", "precision", "logdet"):
                if hasattr(b, name):
                    np.testing.assert_allclose(getattr(a, name), getattr(b, name), rtol=1e-8,
                                               atol=1e-10, err_msg=name)
    np.testing.assert_allclose(proba, ref.predict_proba(frame), rtol=0, atol=1e-7)
    assert (pred == ref.predict(frame)).mean() > 0.99


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), npartitions=st.integers(1, 5))
def test_mixed_tan_from_dask_equals_in_memory(seed, npartitions):
    frame, y = _frame(seed, n=500)
    _assert_same_tan(TANClassifier(), frame, y, npartitions)


@pytest.mark.parametrize("params", [dict(alpha=0.3), dict(ess=4.0, var_smoothing=1e-4)])
def test_mixed_tan_settings_and_a_constant_column(params):
    frame, y = _frame(11, n=400)
    frame["k"] = "same"
    with pytest.warns(UserWarning, match=r"\['k'\]"):
        _assert_same_tan(TANClassifier(**params), frame, y, 3)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), cuts=cuts)
def test_dask_typing_rule_equals_in_memory(seed, cuts):
    """The Dask path types few-valued numeric columns as in memory, partitions apart: two or
    three values of any kind are categorical (issue 25), four non-integer values are not,
    up to 10 integers are."""
    frame, y = _frame(seed)
    rng = np.random.default_rng(seed)
    n = len(frame)
    frame = frame.assign(dose=np.where(rng.random(n) < 0.3 + 0.4 * (y == "pos"), 0.48, 1.0),
                         tri=rng.choice([0.0, 0.5, 0.83], n),
                         quad=rng.choice([0.0, 0.5, 0.83, 1.25], n))
    with dask.config.set(scheduler="sync"):
        got = ConditionalGaussianScore().fit(split(frame, y, cuts))
    ref = ConditionalGaussianScore().fit(frame, y)
    assert got.feature_types_ == ref.feature_types_
    assert [ref.feature_types_[c] for c in ("age", "code", "dose", "tri", "quad")] == [
        "continuous", "categorical", "categorical", "categorical", "continuous"]
