"""GNB (Gaussian) and TAN fitted from Dask equal the in-memory fits; prediction is lazy."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from estimators.bnc import AODEClassifier
from estimators.distributed import collect, predict_dask
from estimators.gnb import GNBClassifier, KGNBClassifier
from estimators.ktan import KTANClassifier, NaiveBayesClassifier, TANClassifier
from estimators.scores import DiscreteCMI

dd = pytest.importorskip("dask.dataframe")
dask = pytest.importorskip("dask")

FEATURES = list("abcde")


def _frame(seed, n=600, discrete=False):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(rng.normal(size=(n, 5)), columns=FEATURES)
    df["y"] = rng.choice(["u", "v", "w"], n)
    df["b"] += df["a"] * (df.y == "u")
    df["c"] += df["b"]
    df["e"] += 2 * df["d"] * (df.y == "v")
    if discrete:
        df[FEATURES] = np.digitize(df[FEATURES], [-0.5, 0.5]).astype(str)
    return df


def _dask(df, npartitions):
    ddf = dd.from_pandas(df, npartitions=npartitions)
    return ddf[FEATURES], ddf["y"]


def _partitions(df, npartitions):
    return collect(*_dask(df, npartitions))


def _assert_same_fit(clf, df, npartitions):
    with dask.config.set(scheduler="sync"):
        X, y = _dask(df, npartitions)
        got = clf.fit(collect(X, y))
        proba = predict_dask(got, X, "predict_proba").compute().to_numpy()
        pred = predict_dask(got, X).compute().to_numpy()
    ref = type(clf)(**clf.get_params()).fit(df[FEATURES], df["y"])
    fitted = {k for k in vars(ref) if k.endswith("_") and not k.startswith("_")}
    assert {k for k in vars(got) if k.endswith("_") and not k.startswith("_")} == fitted
    assert got.structure_.edges == ref.structure_.edges
    assert got.feature_types_ == ref.feature_types_
    assert got.encoder_.feature_names_in_ == ref.encoder_.feature_names_in_
    for name, cats in ref.encoder_.categories_.items():
        np.testing.assert_array_equal(got.encoder_.categories_[name], cats)
    np.testing.assert_array_equal(got.classes_, ref.classes_)
    np.testing.assert_allclose(got.class_information_, ref.class_information_, rtol=1e-9,
                               atol=1e-12)  # the class-edge weights of the structure graph
    np.testing.assert_allclose(proba, ref.predict_proba(df[FEATURES]), rtol=0, atol=1e-9)
    np.testing.assert_array_equal(pred, ref.predict(df[FEATURES]))
    return got, ref


hyp = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@hyp
@given(seed=st.integers(0, 10**6), npartitions=st.integers(1, 6))
def test_gnb_gaussian_from_dask_equals_in_memory(seed, npartitions):
    got, ref = _assert_same_fit(GNBClassifier(dependence="gaussian"), _frame(seed), npartitions)
    assert got.feature_types_ == ref.feature_types_
    np.testing.assert_allclose(got.edge_weights_, ref.edge_weights_, rtol=1e-9)
    np.testing.assert_allclose(got.density_.corr_, ref.density_.corr_, rtol=1e-9, atol=1e-13)


@hyp
@given(seed=st.integers(0, 10**6), npartitions=st.integers(1, 6),
       features=st.sampled_from(["gaussian", "auto"]))
def test_tan_gaussian_from_dask_equals_in_memory(seed, npartitions, features):
    got, ref = _assert_same_fit(TANClassifier(features=features), _frame(seed), npartitions)
    assert got.feature_types_ == ref.feature_types_
    assert got.search_ == ref.search_
    assert got.family_ == ref.family_ == "gaussian"
    for a, b in zip(got.network_.factors, ref.network_.factors, strict=True):
        np.testing.assert_allclose(a.coef, b.coef, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(a.var, b.var, rtol=1e-9)
    np.testing.assert_allclose(got.score_, ref.score_, rtol=1e-9)


@hyp
@given(seed=st.integers(0, 10**6), npartitions=st.integers(1, 6),
       ess=st.sampled_from([None, 4.0]))
def test_tan_discrete_from_dask_equals_in_memory(seed, npartitions, ess):
    got, ref = _assert_same_fit(TANClassifier(ess=ess), _frame(seed, discrete=True), npartitions)
    assert got.family_ == "discrete"
    assert got.network_.parents == ref.network_.parents
    for a, b in zip(got.network_.factors, ref.network_.factors, strict=True):
        np.testing.assert_array_equal(a.configs, b.configs)
        np.testing.assert_allclose(a.log_cpt, b.log_cpt, rtol=0, atol=1e-12)
    assert got.hyperedge_scores_ == pytest.approx(ref.hyperedge_scores_, rel=1e-9, abs=1e-14)


def test_gaussian_tan_with_a_constant_column_matches():
    df = _frame(1)
    df["e"] = 3.0
    _assert_same_fit(TANClassifier(features="gaussian"), df, 3)


def test_dask_array_input_gives_dask_array_output():
    df = _frame(2)
    import dask.array as da

    X = da.from_array(df[FEATURES].to_numpy(), chunks=(150, 5))
    y = da.from_array(df["y"].to_numpy(), chunks=150)
    with dask.config.set(scheduler="sync"):
        got = GNBClassifier().fit(collect(X, y))
        proba = predict_dask(got, X, "predict_proba")
        assert isinstance(proba, da.Array)
        proba = proba.compute()
    ref = GNBClassifier().fit(df[FEATURES].to_numpy(), df["y"])
    np.testing.assert_allclose(proba, ref.predict_proba(df[FEATURES].to_numpy()), atol=1e-9)


@pytest.mark.parametrize(("clf", "error", "match"), [
    (GNBClassifier(dependence="kde"), ValueError,
     r"GNBClassifier\(dependence='kde'\) needs the rows in memory"),
    (GNBClassifier(n_clusters="auto"), ValueError, "n_clusters='auto'"),
    (KGNBClassifier(), TypeError, "KGNBClassifier cannot be fitted from a Dask collection"),
    (KTANClassifier(k="auto"), ValueError, r"KTANClassifier\(k='auto'\) needs the rows"),
    (KTANClassifier(k=2, structure_score="bic"), ValueError, "structure_score='bic'"),
    (TANClassifier(structure_score="bic"), ValueError,
     r"TANClassifier\(structure_score='bic'\) needs the rows in memory"),
    # the MDL cut points need each column's sorted values
    (NaiveBayesClassifier(discretize="mdl"), ValueError,
     r"NaiveBayesClassifier\(discretize='mdl'\) needs the rows in memory"),
    (TANClassifier(discretize="mdl"), ValueError,
     r"TANClassifier\(discretize='mdl'\) needs the rows in memory"),
    (AODEClassifier(discretize="mdl"), ValueError,
     r"AODEClassifier\(discretize='mdl'\) needs the rows in memory"),
])
def test_unsupported_models_name_what_is_supported(clf, error, match):
    with pytest.raises(error, match=match):  # y=None: fit(X, y) of every family takes it
        clf.fit(_partitions(_frame(0, n=60), 2), None)


@pytest.mark.parametrize("params", [dict(k=2), dict(k=3, backbone="given"),
                                    dict(k=2, search="greedy"), dict(k=2, candidates=3)])
def test_gaussian_ktan_from_dask_equals_in_memory(params):
    """k >= 2 on continuous features: the Gaussian CMI of every parent set from the class
    moments. Orientations of one skeleton tie exactly (score equivalence), so the searchers
    may break such a tie differently on rounding-level differences: the skeleton, the score
    and the predictions are compared."""
    df = _frame(5)
    with dask.config.set(scheduler="sync"):
        got = KTANClassifier(**params).fit(_partitions(df, 4))
    ref = KTANClassifier(**params).fit(df[FEATURES], df["y"])
    assert got.k_ == ref.k_ and got.search_ == ref.search_ and got.backbone_ == ref.backbone_
    assert {frozenset(e) for e in got.structure_.edges} == \
        {frozenset(e) for e in ref.structure_.edges}
    assert got.score_ == pytest.approx(ref.score_, rel=1e-9)
    np.testing.assert_allclose(got.predict_proba(df[FEATURES]), ref.predict_proba(df[FEATURES]),
                               atol=1e-7)


def test_ktan_with_parent_sets_on_discrete_or_mixed_dask_is_refused():
    for df in (_frame(0, n=60, discrete=True),
               _frame(0, n=60).assign(a=lambda f: (f["a"] > 0).astype(str))):
        with dask.config.set(scheduler="sync"), pytest.raises(
                ValueError, match=r"KTANClassifier\(k=2\) fits from a Dask collection on "
                                  r"continuous features only.*use k=1"):
            KTANClassifier(k=2).fit(_partitions(df, 2))


def test_mixed_dtypes_and_one_class_are_refused():
    df = _frame(0, n=60)
    df["a"] = df["a"].astype(str)
    with pytest.raises(ValueError, match=r"float \(continuous\) columns only"):
        GNBClassifier().fit(_partitions(df, 2))
    df = _frame(0, n=60)
    df["y"] = "u"
    with pytest.raises(ValueError, match="at least 2 classes in y; got one class only"):
        GNBClassifier().fit(_partitions(df, 2))


def test_local_cluster_fits_equal_in_memory_fits():
    """On a real 2-worker LocalCluster (threads: the suite's scores test does the same)."""
    distributed = pytest.importorskip("dask.distributed")
    df, dfd = _frame(7, n=1500), _frame(8, n=1500, discrete=True)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                 dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        assert len(client.scheduler_info()["workers"]) == 2
        mixed = df.assign(a=np.digitize(df["a"], [-0.5, 0.5]).astype(str))
        for clf, data in [(GNBClassifier(), df), (TANClassifier(), dfd), (TANClassifier(), mixed)]:
            X, y = _dask(data, 6)
            got = clf.fit(collect(X, y))
            proba = predict_dask(got, X, "predict_proba").compute().to_numpy()
            ref = type(clf)().fit(data[FEATURES], data["y"])
            # the skeleton: a mixed table's tied continuous pairs may be oriented either way
            assert {frozenset(e) for e in got.structure_.edges} == \
                {frozenset(e) for e in ref.structure_.edges}
            np.testing.assert_allclose(proba, ref.predict_proba(data[FEATURES]), atol=1e-7)
        W = DiscreteCMI().fit(_partitions(dfd, 4)).edge_matrix()
    np.testing.assert_allclose(W, DiscreteCMI().fit(dfd[FEATURES], dfd["y"]).edge_matrix(),
                               rtol=1e-9, atol=1e-14)


def test_dask_input_without_collect_says_how():
    X, y = _dask(_frame(0, n=60), 2)
    with pytest.raises(TypeError, match=r"got a Dask collection: fit with "
                                        r"clf.fit\(estimators.distributed.collect\(X, y\)\)"):
        GNBClassifier().fit(X, y)
    clf = GNBClassifier().fit(_frame(0, n=60)[FEATURES], _frame(0, n=60)["y"])
    with pytest.raises(TypeError, match=r"predict_dask\(clf, X\)"):
        clf.predict(X)


def test_in_memory_partition_fits_equal_the_array_fits():
    """One in-memory partition runs the statistics path without Dask: the same model."""
    from estimators.stats.partitions import InMemory

    df = _frame(3)
    for clf in (GNBClassifier(), TANClassifier()):
        got = clf.fit(InMemory(df[FEATURES], df["y"]))
        ref = type(clf)().fit(df[FEATURES], df["y"])
        assert got.structure_.edges == ref.structure_.edges
        np.testing.assert_allclose(got.predict_proba(df[FEATURES]),
                                   ref.predict_proba(df[FEATURES]), rtol=0, atol=1e-9)
