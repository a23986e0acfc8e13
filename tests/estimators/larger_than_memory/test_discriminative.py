"""parameters="discriminative" from Dask partitions equals the in-memory fit (issue 49).

The reference is the in-memory fit of the same classifier: its inner cross-validation, its
structure and its L-BFGS fit on all rows. Where a structure search may orient tied parent
sets differently on rounding-level differences (k-TAN on Gaussian features: every order of
one clique scores the same), the reference is the in-memory discriminative fit on the
structure learned from the partitions (the template's ``_fit_parameters`` on all rows).
"""

import numpy as np
import pandas as pd
import pytest
from dask_partitions import cuts, split
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from estimators.discriminative import Discriminative
from estimators.discriminative._select import INNER_ROWS, inner_rows
from estimators.distributed import collect, predict_dask
from estimators.gnb import GNBClassifier
from estimators.ktan import KTANClassifier, NaiveBayesClassifier, TANClassifier

dd = pytest.importorskip("dask.dataframe")
dask = pytest.importorskip("dask")

#: predict_proba of the partitioned fit within this of the in-memory fit (issue 49)
ATOL = 1e-6


def _table(kind: str, seed: int, n: int = 300) -> tuple[pd.DataFrame, pd.Series]:
    rng = np.random.default_rng(seed)
    y = pd.Series(rng.choice(["u", "v", "w"], n), name="y")
    code = y.map({"u": 0, "v": 1, "w": 2}).to_numpy()
    a = rng.normal(code * 0.7, 1.0)
    X = pd.DataFrame({"a": a, "b": 0.6 * a + rng.normal(size=n),
                      "c": rng.normal(size=n) + (code == 1) * a,
                      "d": rng.normal(-0.4 * code, 1.0)})
    if kind == "discrete":
        X = X.apply(lambda col: pd.Series(np.digitize(col, [-0.5, 0.5]).astype(str)))
    elif kind == "mixed":
        X["b"] = np.digitize(X["b"], [-0.5, 0.5]).astype(str)
        X["d"] = np.where(X["d"] > 0, "p", "q")
    return X, y


def _dask(X, y, npartitions):
    frame = dd.from_pandas(X.assign(y=y), npartitions=npartitions)
    return frame.drop(columns="y"), frame["y"]


def _in_memory_parameters(got, X, y):
    """The in-memory discriminative fit on ``got``'s structure and generative factors."""
    import copy

    ref = copy.deepcopy(got)
    enc = ref._check_X(X)
    codes = pd.Index(ref.classes_).get_indexer(np.asarray(y))
    ref._fit_parameters(enc, codes, got.parameters, got.random_state)
    return ref


CASES = [(NaiveBayesClassifier, {}, kind) for kind in ("discrete", "gaussian", "mixed")] + \
    [(TANClassifier, {}, kind) for kind in ("discrete", "gaussian", "mixed")] + \
    [(KTANClassifier, dict(k=2, feature_selection=None), "gaussian")]


@pytest.mark.parametrize(("cls", "params", "kind"), CASES)
def test_auto_penalty_from_partitions_equals_in_memory(cls, params, kind):
    """``parameters="discriminative"`` (λ, scale chosen by inner CV): the same choice, the
    same inner-CV table and predict_proba within 1e-6 on 1-5 partitions."""
    X, y = _table(kind, seed=len(kind))
    npartitions = 1 + len(kind) % 5
    with dask.config.set(scheduler="synchronous"):
        Xd, yd = _dask(X, y, npartitions)
        got = cls(parameters="discriminative", **params).fit(collect(Xd, yd))
        lazy = predict_dask(got, Xd, "predict_proba").compute().to_numpy()
    if cls is KTANClassifier:  # tied orientations of a clique: the same structure
        ref = _in_memory_parameters(got, X, y)
    else:
        ref = cls(parameters="discriminative", **params).fit(X, y)
        assert got.network_.parents == ref.network_.parents
    fitted = {k for k in vars(ref) if k.endswith("_") and not k.startswith("_")}
    assert {k for k in vars(got) if k.endswith("_") and not k.startswith("_")} == fitted
    a, b = got.discriminative_, ref.discriminative_
    assert a.spec == b.spec
    assert a.info["cv"].keys() == b.info["cv"].keys()
    np.testing.assert_allclose(list(a.info["cv"].values()), list(b.info["cv"].values()),
                               rtol=1e-9)
    assert a.info["converged"] and b.info["converged"]
    assert a.info["cll"] == pytest.approx(b.info["cll"], rel=1e-9)
    expected = ref.predict_proba(X)
    np.testing.assert_allclose(got.predict_proba(X), expected, rtol=0, atol=ATOL)
    np.testing.assert_allclose(lazy, expected, rtol=0, atol=ATOL)


hyp = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@hyp
@given(seed=st.integers(0, 10**6), cuts=cuts,
       kind=st.sampled_from(["discrete", "gaussian", "mixed"]),
       spec=st.sampled_from([Discriminative(l2=1.0, scale=0.3), Discriminative(l2=0.1, scale=None),
                             Discriminative(form="weights", l2=1.0),
                             Discriminative(l2=3.0, centre="generative", scale=1.0)]))
def test_random_partitionings_give_the_in_memory_fit(seed, cuts, kind, spec):
    """Random cuts (empty pieces dropped, 1-9 partitions), every form and centre."""
    X, y = _table(kind, seed, n=300)  # the cuts are inside 300 rows
    with dask.config.set(scheduler="synchronous"):
        got = TANClassifier(parameters=spec).fit(split(X, y, cuts))
    ref = TANClassifier(parameters=spec).fit(X, y)
    assert got.structure_.edges == ref.structure_.edges
    assert got.discriminative_.info["n_iter"] > 0
    np.testing.assert_allclose(got.predict_proba(X), ref.predict_proba(X), rtol=0, atol=ATOL)


def test_above_inner_rows_the_same_subsample_is_drawn_from_the_partitions():
    """More than INNER_ROWS rows: the inner CV runs on the rows ``inner_rows`` draws in
    memory, taken from their partitions (the same inner-CV table to 1e-9)."""
    X, y = _table("discrete", 11, n=INNER_ROWS + 400)
    codes = pd.Index(np.unique(y)).get_indexer(y)
    assert inner_rows(codes, np.bincount(codes), 0).size < y.size  # the subsample path
    with dask.config.set(scheduler="synchronous"):
        got = NaiveBayesClassifier(parameters="discriminative").fit(collect(*_dask(X, y, 4)))
    ref = NaiveBayesClassifier(parameters="discriminative").fit(X, y)
    a, b = got.discriminative_.info["cv"], ref.discriminative_.info["cv"]
    assert a.keys() == b.keys()
    np.testing.assert_allclose(list(a.values()), list(b.values()), rtol=1e-9)
    np.testing.assert_allclose(got.predict_proba(X), ref.predict_proba(X), rtol=0, atol=ATOL)


def test_dask_array_input():
    """A dask array X (no column names): the rows are encoded as the array fit's."""
    import dask.array as da

    X, y = _table("gaussian", 4)
    spec = Discriminative(l2=1.0, scale=0.3)
    with dask.config.set(scheduler="synchronous"):
        got = TANClassifier(parameters=spec).fit(collect(
            da.from_array(X.to_numpy(), chunks=(70, 4)), da.from_array(y.to_numpy(), chunks=70)))
    ref = TANClassifier(parameters=spec).fit(X.to_numpy(), y)
    np.testing.assert_allclose(got.predict_proba(X.to_numpy()), ref.predict_proba(X.to_numpy()),
                               rtol=0, atol=ATOL)


def test_missing_cells_and_gnb_are_refused():
    """The partitions path takes complete rows only (the generative pass refuses a missing
    cell, naming its column); GNB's discriminative parameters need the rows in memory."""
    X, y = _table("gaussian", 5, n=60)
    X.loc[7, "c"] = np.nan
    with dask.config.set(scheduler="synchronous"), pytest.raises(
            ValueError, match=r"contains NaN or infinity in column 'c'.*needs finite values"):
        TANClassifier(parameters="discriminative").fit(collect(*_dask(X, y, 2)))
    X, y = _table("mixed", 5, n=60)
    X.loc[3, "b"] = None
    with dask.config.set(scheduler="synchronous"), pytest.raises(
            ValueError, match=r"missing values in column 'b'.*needs complete discrete columns"):
        NaiveBayesClassifier(parameters="discriminative").fit(collect(*_dask(X, y, 2)))
    X, y = _table("gaussian", 5, n=60)
    with pytest.raises(ValueError, match=r"GNBClassifier\(parameters='discriminative'\) needs "
                                         "the rows in memory"):
        GNBClassifier(parameters="discriminative").fit(collect(*_dask(X, y, 2)))


def test_local_cluster_blocks_stay_on_the_workers():
    """On a 2-worker LocalCluster the row blocks are persisted on the workers and every
    L-BFGS evaluation is a reduction over them: the in-memory fit's predictions."""
    distributed = pytest.importorskip("dask.distributed")
    X, y = _table("mixed", 9, n=200)
    spec = Discriminative(l2=10.0, scale=0.3)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                 dashboard_address=None) as cluster,
        distributed.Client(cluster),
    ):
        got = TANClassifier(parameters=spec).fit(collect(*_dask(X, y, 4)))
    ref = TANClassifier(parameters=spec).fit(X, y)
    np.testing.assert_allclose(got.predict_proba(X), ref.predict_proba(X), rtol=0, atol=ATOL)


@pytest.mark.parametrize("kind", ["discrete", "mixed"])
def test_sparse_row_blocks(monkeypatch, kind):
    """Designs above DENSE_CELLS stay sparse: a discrete design (every column one value)
    is kept as its sparsity pattern alone, a mixed one with its values; both give the
    in-memory fit (here every design is made sparse)."""
    from estimators.discriminative import _cll

    monkeypatch.setattr(_cll, "DENSE_CELLS", 0)
    X, y = _table(kind, 12)
    spec = Discriminative(l2=1.0, scale=0.3)
    made = []
    monkeypatch.setattr(_cll.RowBlock, "_design", lambda self, f=_cll.RowBlock._design: (
        made.append(self.values is not None), f(self))[1])
    with dask.config.set(scheduler="synchronous"):
        got = TANClassifier(parameters=spec).fit(collect(*_dask(X, y, 3)))
    assert made and all(made) == (kind == "discrete")
    ref = TANClassifier(parameters=spec).fit(X, y)
    np.testing.assert_allclose(got.predict_proba(X), ref.predict_proba(X), rtol=0, atol=ATOL)
