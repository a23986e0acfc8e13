"""AODE and A2DE against brute force: ``predict_proba`` is the normalised average of the
qualifying SPODEs' joints ``p_S(y, x_O)``, each computed here by enumerating the missing
categorical cells of the row over their levels and integrating a missing continuous cell
on a fine grid (trapezoid), with the frequency limit counted on the training frame by
pandas; categorical CPTs checked against hand counts."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.special import logsumexp

from estimators.bnc import A2DEClassifier, AnDEClassifier, AODEClassifier
from estimators.columns import EncodedColumns

GRID = 4001


def _table(seed: int, kinds: str, n: int = 80, holes: float = 0.15):
    """Random table: ``kinds`` one letter per column (c: categorical, g: continuous); the
    test rows have at most one missing continuous cell each."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    cols = {}
    for j, kind in enumerate(kinds):
        if kind == "c":
            levels = int(rng.integers(2, 4))
            cols[f"f{j}"] = np.where(rng.random(n) < 0.5, y % levels, rng.integers(0, levels, n))
        else:
            cols[f"f{j}"] = rng.normal(0.7 * y + 0.3 * j, 1.0)
    X = pd.DataFrame(cols)
    for c, kind in zip(X.columns, kinds, strict=True):
        gone = rng.random(n) < holes
        X[c] = X[c].astype(float if kind == "g" else object)
        X.loc[gone, c] = np.nan
    test = X.iloc[:16].copy()
    cont = [c for c, k in zip(X.columns, kinds, strict=True) if k == "g"]
    if len(cont) > 1:  # at most one missing continuous cell per test row
        for i, c in enumerate(cont[1:], start=1):
            earlier = test[cont[:i]].isna().any(axis=1)
            test.loc[earlier & test[c].isna(), c] = 0.5
    return X, y, test


def _rows(enc: EncodedColumns, r: int, column: int | None, values) -> EncodedColumns:
    """Copies of row ``r`` with ``column`` set to each of ``values`` (codes or floats)."""
    k = len(values)
    V, C = np.repeat(enc.values[r:r + 1], k, 0), np.repeat(enc.codes[r:r + 1], k, 0)
    if column is not None:
        if enc.continuous[column]:
            V[:, column] = values
        else:
            C[:, column] = values
    return EncodedColumns(V, C, enc.types, enc.n_levels, enc.names, np.zeros_like(enc.n_unseen))


def _brute_joint(net, enc: EncodedColumns, r: int, prior: np.ndarray, train) -> np.ndarray:
    """``ln p_S(y, x_O)`` of row r by enumeration of the missing cells of the network."""
    cols = list(net.columns)
    missing = [c for c in cols if not enc.observed[r, c]]
    completions = [(None, [0], np.zeros(1))]
    for c in missing:  # enumerate every missing cell jointly
        if enc.continuous[c]:
            x = train.values[:, c]
            lo, hi = np.nanmin(x) - 12 * np.nanstd(x), np.nanmax(x) + 12 * np.nanstd(x)
            grid = np.linspace(lo, hi, GRID)
            w = np.full(GRID, grid[1] - grid[0])
            w[[0, -1]] /= 2
            completions = [(c, grid, np.log(w))]
        else:
            completions = [(c, np.arange(enc.n_levels[c]), np.zeros(enc.n_levels[c]))]
        if len(missing) > 1:
            break
    if len(missing) <= 1:
        column, values, logw = completions[0]
        rows = _rows(enc, r, column, values)
        ll = sum(np.nan_to_num(f.log_prob(rows), nan=0.0) for f in net.factors)
        return logsumexp(ll + prior + logw[:, None], axis=0)
    # several missing cells: recurse on the first categorical one
    c = next((c for c in missing if not enc.continuous[c]), None)
    assert c is not None, "test rows have at most one missing continuous cell"
    parts = []
    for level in range(enc.n_levels[c]):
        filled = _rows(enc, r, c, [level])
        parts.append(_brute_joint(net, filled, 0, prior, train))
    return logsumexp(np.array(parts), axis=0)


def _brute_proba(clf, X_train, X_test) -> np.ndarray:
    enc = clf._check_X(X_test)
    train = clf._check_X(X_train)
    names = clf.feature_names()
    out = []
    for r in range(len(X_test)):
        joints = []
        for S, net in zip(clf.structure_.super_parents, clf.spodes_, strict=True):
            cat = [s for s in S if clf.feature_types_[s] == "categorical"
                   and not pd.isna(X_test.iloc[r][s])]
            if cat:
                match = (X_train[cat] == X_test.iloc[r][cat]).all(axis=1).sum()
                if match < clf.frequency_limit:
                    continue
            joints.append(_brute_joint(net, enc, r, clf.class_log_prior_, train))
        if joints:
            jll = logsumexp(np.array(joints), axis=0) - np.log(len(joints))
        else:
            jll = _brute_joint(clf.naive_bayes_, enc, r, clf.class_log_prior_, train)
        out.append(np.exp(jll - logsumexp(jll)))
    assert names
    return np.array(out)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), kinds=st.sampled_from(["ccc", "ggg", "cgc", "gcg", "cg"]),
       n=st.sampled_from([1, 2]), limit=st.sampled_from([0, 1, 3]))
def test_predict_proba_is_the_average_of_spode_joints(seed, kinds, n, limit):
    X, y, test = _table(seed, kinds)
    clf = AnDEClassifier(n=n, frequency_limit=limit).fit(X, y)
    # atol: the Gauss-Hermite rule (order 64, error ~1e-7) integrating a missing continuous
    # super-parent with categorical children; everything else agrees to ~1e-12
    np.testing.assert_allclose(clf.predict_proba(test), _brute_proba(clf, X, test),
                               rtol=0, atol=1e-6)


@pytest.mark.parametrize("cls, n", [(AODEClassifier, 1), (A2DEClassifier, 2)])
def test_named_members_are_ande(cls, n):
    X, y, test = _table(3, "cgcg")
    a = cls().fit(X, y)
    b = AnDEClassifier(n=n).fit(X, y)
    assert a.structure_ == b.structure_ and a.structure_.n == n
    np.testing.assert_allclose(a.predict_proba(test), b.predict_proba(test), rtol=1e-12)
    assert len(a.structure_.super_parents) == {1: 4, 2: 6}[n]


def test_cpts_are_laplace_smoothed_counts():
    X, y, _ = _table(5, "ccc", n=300, holes=0.0)
    clf = AODEClassifier(alpha=0.5).fit(X, y)
    enc = clf._check_X(X)
    net = clf.spodes_[0]  # super-parent f0; child f1 has parents (f0,)
    lp = net.factors[1].log_prob(enc)
    K = X["f1"].nunique()
    for r in range(5):
        same = (X["f0"] == X["f0"].iloc[r]).to_numpy()
        for c in range(3):
            cell = same & (y == c)
            hand = ((X["f1"][cell] == X["f1"].iloc[r]).sum() + 0.5) / (cell.sum() + 0.5 * K)
            assert lp[r, c] == pytest.approx(np.log(hand), rel=1e-12)


def test_no_qualifying_spode_falls_back_to_naive_bayes():
    X, y, test = _table(7, "cc", holes=0.0)
    clf = AODEClassifier(frequency_limit=10**6).fit(X, y)
    assert not clf.qualifying(clf._check_X(test)).any()
    jll = clf.naive_bayes_.joint_log_likelihood(clf._check_X(test), clf.class_log_prior_)
    np.testing.assert_allclose(clf.predict_log_proba(test),
                               jll - logsumexp(jll, axis=1, keepdims=True), rtol=1e-12)


def test_missing_super_parent_is_marginalised_not_dropped():
    X, y, test = _table(11, "ccc", holes=0.0)
    clf = AODEClassifier().fit(X, y)
    row = test.iloc[:1].copy()
    row["f0"] = np.nan
    enc = clf._check_X(row)
    assert clf.qualifying(enc).all()  # the SPODE of f0 stays in the average
    joints = [net.joint_log_likelihood(enc, clf.class_log_prior_)[0] for net in clf.spodes_]
    jll = logsumexp(np.array(joints), axis=0) - np.log(3)
    np.testing.assert_allclose(clf.predict_log_proba(row)[0], jll - logsumexp(jll), rtol=1e-12)


def test_bad_parameters_are_named():
    X, y, _ = _table(0, "cc")
    with pytest.raises(ValueError, match="'n' parameter of AnDEClassifier must be an int"):
        AnDEClassifier(n=0).fit(X, y)
    with pytest.raises(ValueError, match="'frequency_limit' parameter of AODEClassifier"):
        AODEClassifier(frequency_limit=-1).fit(X, y)
    with pytest.raises(ValueError, match="'alpha' parameter of A2DEClassifier"):
        A2DEClassifier(alpha=0).fit(X, y)


@pytest.mark.parametrize("kinds", ["ccc", "ggg", "cgcg"])
def test_aode_from_dask_partitions_equals_the_in_memory_fit(kinds):
    dd = pytest.importorskip("dask.dataframe")
    X, y, _ = _table(21, kinds, n=300, holes=0.0)
    X = X.apply(lambda c: c.astype(str) if c.dtype == object else c)
    mem = AODEClassifier().fit(X, y)
    from estimators.distributed import collect

    part = AODEClassifier().fit(collect(dd.from_pandas(X, npartitions=3),
                                        dd.from_pandas(pd.Series(y), npartitions=3)))
    assert part.structure_ == mem.structure_
    np.testing.assert_allclose(part.predict_proba(X), mem.predict_proba(X), rtol=0, atol=1e-9)
    for S, a, b in zip(mem._sets, mem.super_parent_counts_, part.super_parent_counts_,
                       strict=True):
        np.testing.assert_allclose(a.sum(axis=tuple(range(1, a.ndim))) if a.ndim else a,
                                   b, err_msg=str(S))
    cat = {k for k, t in mem.feature_types_.items() if t == "categorical"}
    for (s, v), w in mem.edge_scores_.items():
        if not (v in cat and s not in cat):  # Bayes' rule families need the rows
            assert part.edge_scores_[(s, v)] == pytest.approx(w, abs=1e-9)


def test_a2de_and_selection_from_dask_are_refused():
    dd = pytest.importorskip("dask.dataframe")
    X, y, _ = _table(2, "cc", holes=0.0)
    X = X.astype(str)
    from estimators.distributed import collect

    data = collect(dd.from_pandas(X, npartitions=2), dd.from_pandas(pd.Series(y), npartitions=2))
    with pytest.raises(ValueError, match=r"A2DEClassifier\(n=2\) needs the rows in memory"):
        A2DEClassifier().fit(data)
    with pytest.raises(ValueError, match=r"feature_selection='selective-nb'\) needs the rows"):
        AODEClassifier(feature_selection="selective-nb").fit(data)
