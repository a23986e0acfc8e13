"""Partition statistics equal the in-memory ones on random row partitionings."""

import warnings

import numpy as np
import pandas as pd
import pytest
from dask_partitions import cuts, pieces, split
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from estimators.distributed import collect
from estimators.scores import DiscreteCMI, GaussianCMI
from estimators.stats.cell_statistics import ClassMoments
from estimators.stats.partitions import InMemory, counts_of

dd = pytest.importorskip("dask.dataframe")
dask = pytest.importorskip("dask")

RTOL, ATOL = 1e-9, 1e-13  # relative, plus an absolute floor for entries that are ~0


def _data(seed, n, d, discrete=False):
    rng = np.random.default_rng(seed)
    y = rng.choice(["neg", "pos", "mid"], n)
    X = np.empty((n, d))
    X[:, 0] = rng.normal(size=n) * 10 + 1e3  # a large mean: the centring must survive merging
    for j in range(1, d):
        X[:, j] = (0.3 + 0.4 * (y == "pos")) * X[:, j - 1] + rng.normal(size=n)
    names = [f"x{j}" for j in range(d)]
    frame = pd.DataFrame(X, columns=names)
    if discrete:
        frame = (frame - frame.mean()).apply(lambda c: pd.Series(np.digitize(c, np.quantile(c, [0.3, 0.7]))))
        frame = frame.astype(str) if seed % 2 else frame
    return frame, pd.Series(y, name="y")


hyp = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@hyp
@given(seed=st.integers(0, 10**6), cuts=cuts)
def test_merged_moments_equal_two_pass_moments(seed, cuts):
    frame, y = _data(seed, 300, 4)
    X = frame.to_numpy()
    bounds = [0, *sorted(set(cuts)), 300]
    parts = [ClassMoments.from_arrays(X[a:b], y.to_numpy()[a:b])
             for a, b in zip(bounds, bounds[1:], strict=False)]
    merged = parts[0]
    for p in parts[1:]:
        merged = merged.merge(p)
    for c, label in enumerate(merged.classes):
        Xc = X[y.to_numpy() == label]
        assert merged.n[c] == Xc.shape[0]
        np.testing.assert_allclose(merged.mean[c], Xc.mean(axis=0), rtol=RTOL)
        A = Xc - Xc.mean(axis=0)
        np.testing.assert_allclose(merged.M[c], A.T @ A, rtol=RTOL, atol=ATOL * np.abs(A).max() ** 2)
        np.testing.assert_array_equal(merged.lo[c], Xc.min(axis=0))


@hyp
@given(seed=st.integers(0, 10**6), cuts=cuts)
def test_gaussian_cmi_from_partitions_equals_in_memory(seed, cuts):
    frame, y = _data(seed, 300, 5)
    ref = GaussianCMI().fit(frame, y)
    with dask.config.set(scheduler="sync"):
        got = GaussianCMI().fit(split(frame, y, cuts))
    np.testing.assert_allclose(got.data_.R, ref.data_.R, rtol=RTOL, atol=ATOL)
    np.testing.assert_array_equal(got.class_prior_, ref.class_prior_)
    np.testing.assert_allclose(got.edge_matrix(), ref.edge_matrix(), rtol=RTOL, atol=ATOL)
    items = [("x0", {"x1", "x2"}), ("x4", {"x0", "x1", "x3"})]
    np.testing.assert_allclose(got.score_many(items), ref.score_many(items), rtol=RTOL)


@pytest.mark.filterwarnings("ignore::estimators.base.validation.DegenerateFeatureWarning")
@hyp
@given(seed=st.integers(0, 10**6), cuts=cuts, alpha=st.sampled_from([0.0, 0.5]))
def test_discrete_cmi_from_partitions_equals_in_memory(seed, cuts, alpha):
    frame, y = _data(seed, 300, 4, discrete=True)
    ref = DiscreteCMI(alpha=alpha).fit(frame, y)
    with dask.config.set(scheduler="sync"):
        got = DiscreteCMI(alpha=alpha).fit(split(frame, y, cuts))
    assert [c.tolist() for c in got.categories_] == [c.tolist() for c in ref.categories_]
    np.testing.assert_allclose(got.edge_matrix(), ref.edge_matrix(), rtol=RTOL, atol=ATOL)


def test_pair_counts_are_the_contingency_tables():
    frame, y = _data(3, 200, 3, discrete=True)
    cats = [np.sort(frame[c].unique()) for c in frame]
    classes = np.unique(y)
    counts = counts_of(InMemory(frame, y), cats, classes)
    brute = pd.crosstab([y, frame["x0"]], frame["x2"]).to_numpy().reshape(3, 3, 3)
    np.testing.assert_array_equal(counts.table(0, 2), brute)


def test_discrete_score_from_dask_answers_pairs_only():
    frame, y = _data(1, 100, 3, discrete=True)
    with dask.config.set(scheduler="sync"):
        got = DiscreteCMI().fit(split(frame, y, [50]))
    with pytest.raises(ValueError, match="at most 1 parent"):
        got("x0", {"x1", "x2"})


def test_constant_column_and_unsupported_score_are_refused():
    from estimators.scores import GaussianCopulaCMI

    frame, y = _data(2, 60, 3)
    frame["x1"] = 4.0
    with dask.config.set(scheduler="sync"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=r"column\(s\) \['x1'\] of X are constant"):
            GaussianCMI().fit(split(frame, y, [30]))
        with pytest.raises(TypeError, match=r"GaussianCopulaCMI cannot be fitted from partition "
                                            r"statistics \(a Dask collection\); the scores "
                                            r"that can are "
                                            r"\['ConditionalGaussianScore', 'DiscreteCMI', "
                                            r"'GaussianCMI'\]"):
            GaussianCopulaCMI().fit(split(frame, y, [30]))


def test_misaligned_partitions_are_refused():
    frame, y = _data(0, 60, 3)
    X, _ = pieces(frame, y, [20, 40])
    _, Y = pieces(frame, y, [30])
    with pytest.raises(ValueError, match="X has 3 partitions but y has 2"):
        collect(X, Y)
