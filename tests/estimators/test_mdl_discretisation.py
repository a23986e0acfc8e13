"""Supervised MDL discretisation (:mod:`estimators.columns.mdl_discretisation`) and the
``discretize="mdl"`` option of the discrete families.

Oracles: Weka's supervised ``Discretize`` (its cut points on the bundled tables, stored in
tests/weka_reference, and Weka itself on random tables where it is installed,
tests/weka_mdl.py) and a plain recursive reference written from Fayyad & Irani's paper
below (one Python loop per candidate, no numpy); hypothesis for the invariances.
"""

from __future__ import annotations

import json
import math
import re
import warnings
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.utils._param_validation import InvalidParameterError
from weka_mdl import FIXTURE, weka_available, weka_cut_points

from estimators import (
    A2DEClassifier,
    AODEClassifier,
    BANClassifier,
    KDBClassifier,
    KTANClassifier,
    NaiveBayesClassifier,
    TANClassifier,
    load_dataset,
)
from estimators.base.validation import DegenerateFeatureWarning
from estimators.columns import DiscretisingEncoder
from estimators.columns.mdl_discretisation import (
    interval_codes,
    interval_labels,
    mdl_cut_points,
)

FAMILIES = [NaiveBayesClassifier, TANClassifier, KTANClassifier, KDBClassifier, BANClassifier,
            AODEClassifier, A2DEClassifier]


# -- the reference: Fayyad & Irani's recursion, written out ---------------------------------
def _ent(labels) -> float:
    n = len(labels)
    return -sum(c / n * math.log2(c / n) for c in Counter(labels).values())


def reference_cuts(x, y, better_encoding=False) -> list[float]:
    """Every boundary between distinct values tried one by one, the first of least entropy
    kept, accepted by the MDL criterion of the paper, both halves split again."""
    pairs = sorted((float(a), int(b)) for a, b in zip(x, y, strict=True) if not math.isnan(a))
    return sorted(_split([v for v, _ in pairs], [c for _, c in pairs], better_encoding))


def _split(v, c, better_encoding):
    n = len(v)
    if n < 2:
        return []
    best, best_e, candidates = None, _ent(c), 0
    for i in range(n - 1):
        if v[i] < v[i + 1]:
            candidates += 1
            e = (i + 1) / n * _ent(c[:i + 1]) + (n - i - 1) / n * _ent(c[i + 1:])
            if e < best_e - 1e-12:
                best, best_e = i, e
    if best is None:
        return []
    s1, s2 = c[:best + 1], c[best + 1:]
    k, k1, k2 = len(set(c)), len(set(s1)), len(set(s2))
    gain = _ent(c) - best_e
    delta = math.log2(3 ** k - 2) - (k * _ent(c) - k1 * _ent(s1) - k2 * _ent(s2))
    log_n = math.log2(candidates if better_encoding else n - 1)
    if not gain > (log_n + delta) / n:
        return []
    cut = (v[best] + v[best + 1]) / 2
    return (_split(v[:best + 1], s1, better_encoding) + [cut]
            + _split(v[best + 1:], s2, better_encoding))


def _codes(y) -> np.ndarray:
    return np.unique(np.asarray(y), return_inverse=True)[1]


# -- the algorithm ---------------------------------------------------------------------------
def test_iris_cut_points_are_weka_s():
    X, y = load_dataset("iris")
    got = {c: mdl_cut_points(X[c].to_numpy(), _codes(y)).tolist() for c in X.columns}
    assert got == {"sepal length (cm)": [5.55, 6.15], "sepal width (cm)": [2.95, 3.35 - 5e-16],
                   "petal length (cm)": [2.45, 4.75], "petal width (cm)": [0.8, 1.75]}


@pytest.mark.parametrize("encoding", ["default", "better"])
def test_every_numeric_column_of_the_bundled_tables_equals_weka(encoding):
    """46 numeric columns of iris, wine, penguins, oj and abalone (missing cells in
    penguins): the cut points Weka 3.6.14 printed, to the last bit."""
    weka = json.loads(FIXTURE.read_text())["cut_points"]
    n = 0
    for table, by_encoding in weka.items():
        X, y = load_dataset(table)
        for column, want in by_encoding[encoding].items():
            got = mdl_cut_points(X[column].to_numpy(dtype=float), _codes(y),
                                 better_encoding=encoding == "better")
            assert got.tolist() == want, (table, column)
            n += 1
    assert n == 46


@pytest.mark.skipif(not weka_available(), reason="Weka (Debian's weka package) not installed")
def test_random_tables_equal_weka_run_here():
    """40 random columns (ties, 2-5 classes, missing cells, classes that depend on the
    value), both encodings, against Weka run on them."""
    rng = np.random.default_rng(7)
    for m in (2, 3, 5):
        n = 300
        y = rng.integers(0, m, n)
        cols = {}
        for j in range(40):
            kind = j % 4
            x = (rng.normal(y * (j % 3), 1.0 + j % 5) if kind == 0
                 else rng.integers(0, 12, n) + 0.5 * y if kind == 1
                 else np.round(rng.exponential(1.0 + y), 1) if kind == 2
                 else rng.normal(size=n))
            x = x.astype(float)
            x[rng.random(n) < 0.05] = np.nan
            cols[f"c{j}"] = x
        X = pd.DataFrame(cols)
        for better in (False, True):
            weka = weka_cut_points(X, y, better)
            for c in X.columns:
                got = mdl_cut_points(X[c].to_numpy(), y, better_encoding=better)
                np.testing.assert_allclose(got, weka[c], rtol=1e-15, atol=0,
                                           err_msg=f"{m} classes, {c}, better={better}")


_column = st.integers(4, 60).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 9), min_size=n, max_size=n),
    st.lists(st.integers(0, 3), min_size=n, max_size=n),
    st.booleans()))


@settings(max_examples=200, deadline=None)
@given(_column)
def test_cut_points_equal_the_reference(case):
    values, classes, better = case
    x = np.asarray(values, dtype=float) * 0.5
    y = np.asarray(classes)
    np.testing.assert_array_equal(mdl_cut_points(x, y, better_encoding=better),
                                  reference_cuts(x, y, better))


#: values on a grid of 1/8 in [-1000, 1000], so that the affine maps below stay strictly
#: increasing in floating point (x + 1 rounds a tiny x to 1, the same as 0 + 1)
_real_column = st.integers(8, 80).flatmap(lambda n: st.tuples(
    st.lists(st.integers(-8000, 8000).map(lambda i: i / 8), min_size=n, max_size=n),
    st.lists(st.integers(0, 2), min_size=n, max_size=n)))


@settings(max_examples=150, deadline=None)
@given(_real_column, st.floats(0.5, 4.0), st.floats(-100.0, 100.0), st.randoms())
def test_invariances(case, scale, shift, random):
    """Sorted, strictly inside the data's range, at most (distinct values - 1); the same
    partition of the rows under a strictly increasing map of the column and under any row
    order; the cut points of the map are the midpoints of the mapped neighbours."""
    values, classes = case
    x, y = np.asarray(values), np.asarray(classes)
    cuts = mdl_cut_points(x, y)
    assert np.all(np.diff(cuts) > 0)
    assert cuts.size <= np.unique(x).size - 1
    assert np.all((cuts >= x.min()) & (cuts < x.max()))
    codes = interval_codes(x, cuts)
    mapped = scale * x + shift
    mapped_cuts = mdl_cut_points(mapped, y)
    assert mapped_cuts.size == cuts.size
    np.testing.assert_array_equal(interval_codes(mapped, mapped_cuts), codes)
    if cuts.size:  # a cut is the midpoint of the values either side of it
        below = np.array([x[x <= c].max() for c in cuts])
        above = np.array([x[x > c].min() for c in cuts])
        np.testing.assert_allclose(mapped_cuts, scale * (below + above) / 2 + shift,
                                   rtol=1e-12, atol=1e-9)
    order = list(range(x.size))
    random.shuffle(order)
    np.testing.assert_array_equal(mdl_cut_points(x[order], y[order]), cuts)


def test_missing_values_take_no_part():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 200)
    x = rng.normal(y, 0.7)
    with_nan = np.where(rng.random(200) < 0.2, np.nan, x)
    seen = ~np.isnan(with_nan)
    np.testing.assert_array_equal(mdl_cut_points(with_nan, y),
                                  mdl_cut_points(x[seen], y[seen]))
    assert interval_codes(with_nan, np.array([0.5]))[~seen].tolist() == [-1] * (~seen).sum()


def test_degenerate_columns_have_no_cut():
    y = np.array([0, 1, 0, 1])
    assert mdl_cut_points(np.full(4, 2.0), y).size == 0
    assert mdl_cut_points(np.array([1.0, np.nan, np.nan, np.nan]), y).size == 0
    assert mdl_cut_points(np.array([1.0, 2.0, 3.0, 4.0]), np.zeros(4, int)).size == 0


def test_a_value_on_a_cut_falls_below_it():
    assert interval_codes(np.array([2.45, np.nextafter(2.45, 3)]), np.array([2.45])).tolist() \
        == [0, 1]


def test_labels_are_distinct_and_readable():
    assert interval_labels(np.array([])) == ["-inf..inf"]
    labels = interval_labels(np.array([1.0, 1.0 + 1e-12, 3e6]))
    assert len(set(labels)) == 4 and labels[-1] == "3000000..inf"
    assert all(set(s) <= set("0123456789.-infe") for s in labels)


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError, match=r"x and y must be 1-d of one length; got shapes "
                                         r"\(3,\) and \(2,\)"):
        mdl_cut_points(np.zeros(3), np.zeros(2, int))


# -- the encoder -----------------------------------------------------------------------------
def test_encoder_refuses_an_unknown_method_and_a_missing_y():
    X = pd.DataFrame({"x": np.linspace(0, 1, 10)})
    with pytest.raises(ValueError, match=r"method must be one of \('mdl',\); got 'width'"):
        DiscretisingEncoder(method="width").fit(X, np.arange(10) % 2)
    with pytest.raises(ValueError, match="supervised: fit it with the class labels y"):
        DiscretisingEncoder().fit(X)


# -- the option of the families --------------------------------------------------------------
def _by_hand(frame: pd.DataFrame, cuts: dict) -> pd.DataFrame:
    """``frame`` with each column of ``cuts`` replaced by its interval numbers (objects,
    NaN where missing)."""
    out = frame.copy()
    for c, points in cuts.items():
        k = interval_codes(frame[c].to_numpy(dtype=float), points)
        out[c] = pd.Series(k, dtype=object, index=frame.index).where(k >= 0)
    return out


def _penguins():
    X, y = load_dataset("penguins")
    X = X.iloc[::2].reset_index(drop=True)
    y = np.asarray(y)[::2]
    cont = [c for c in X.columns if X[c].dtype.kind == "f"]
    cuts = {c: np.array(reference_cuts(X[c].to_numpy(), _codes(y))) for c in cont}
    assert all(v.size for v in cuts.values())
    rows = X.iloc[:40].copy()
    rows.iloc[0, rows.columns.get_loc(cont[0])] = 1e9  # beyond the training range
    rows.iloc[1, rows.columns.get_loc(cont[1])] = np.nan
    return X, y, cuts, rows


@pytest.mark.parametrize("family", FAMILIES, ids=lambda c: c.__name__)
def test_discretize_mdl_is_the_family_on_the_discretised_table(family):
    """Each family with ``discretize="mdl"`` equals the same family fitted on the table
    discretised by hand with the reference cut points and typed categorical (predict_proba
    to 1e-12 on rows with missing cells and values outside the training range)."""
    X, y, cuts, rows = _penguins()
    types = dict.fromkeys(cuts, "categorical")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateFeatureWarning)
        model = family(discretize="mdl").fit(X, y)
        ref = family(feature_types=types).fit(_by_hand(X, cuts), y)
    assert {c: v.tolist() for c, v in model.cut_points_.items()} == \
        {c: v.tolist() for c, v in cuts.items()}
    assert all(model.feature_types_[c] == "categorical" for c in cuts)
    np.testing.assert_allclose(model.predict_proba(rows),
                               ref.predict_proba(_by_hand(rows, cuts)), rtol=0, atol=1e-12)


@pytest.mark.parametrize("options", [dict(continuous="copula"),
                                     dict(parameters="discriminative")], ids=str)
def test_discretize_composes_with_the_other_options(options):
    """TAN with discretize and a non-Gaussian ``continuous=`` (no continuous column is
    left: its evidence weight still applies) or discriminative parameters: the same as on
    the table discretised by hand."""
    X, y, cuts, rows = _penguins()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateFeatureWarning)
        model = TANClassifier(discretize="mdl", **options).fit(X, y)
        ref = TANClassifier(feature_types=dict.fromkeys(cuts, "categorical"),
                            **options).fit(_by_hand(X, cuts), y)
    np.testing.assert_allclose(model.predict_proba(rows),
                               ref.predict_proba(_by_hand(rows, cuts)), rtol=0, atol=1e-10)


def test_a_column_with_no_cut_leaves_the_model_with_one_warning():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 200)
    X = pd.DataFrame({"signal": rng.normal(3.0 * y, 1.0), "noise": rng.normal(size=200),
                      "flat": 1.0})
    with pytest.warns(DegenerateFeatureWarning) as record:
        clf = NaiveBayesClassifier(discretize="mdl").fit(X, y)
    messages = [str(w.message) for w in record]
    assert any("column(s) ['flat'] of X take fewer than two distinct values" in m
               for m in messages)
    assert any("NaiveBayesClassifier(discretize='mdl'): no cut point of column(s) ['noise'] "
               "passes the MDL criterion" in m for m in messages)
    assert clf.cut_points_["noise"].size == 0 and clf.cut_points_["signal"].size >= 1
    assert clf.constant_features_ == ["noise", "flat"]
    assert clf.selected_features_ == ["signal"]


def test_refit_without_discretize_drops_the_cut_points():
    X, y = load_dataset("iris")
    clf = KDBClassifier(discretize="mdl").fit(X, y)
    assert set(clf.cut_points_) == set(X.columns)
    clf.set_params(discretize=None).fit(X, y)
    assert not hasattr(clf, "cut_points_")
    assert set(clf.feature_types_.values()) == {"continuous"}


@pytest.mark.parametrize("family", [NaiveBayesClassifier, KDBClassifier, AODEClassifier],
                         ids=lambda c: c.__name__)
def test_an_unknown_discretize_is_refused(family):
    X, y = load_dataset("iris")
    with pytest.raises(InvalidParameterError,
                       match=rf"The 'discretize' parameter of {family.__name__} must be None "
                             r"or a str among \{'mdl'\}\. Got 'equal-width' instead\."):
        family(discretize="equal-width").fit(X, y)


def test_kgraph_learn_takes_discretize_and_draws_the_structure(tmp_path):
    """``kgraph learn --discretize mdl``: the model fitted with it, the columns reported
    categorical, the structure figure drawn and the GraphML written with the intervals."""
    from viz.cli import main

    out = tmp_path / "run"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateFeatureWarning)
        assert main(["learn", "iris", "--model", "kdb", "--discretize", "mdl", "--cv", "2",
                     "--quiet", "--out", str(out)]) == 0
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["params"]["discretize"] == "mdl"
    assert re.search(r"petal length \(cm\)\s*\|\s*categorical \(3 categories\)",
                     (out / "report.md").read_text())
    assert (out / "structure.png").stat().st_size > 0
    assert "2.45..4.75" in (out / "structure.graphml").read_text()
