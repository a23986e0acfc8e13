"""The conditional Gaussian score from cell statistics (:mod:`estimators.scores._cg_batch`)
equals the row path (each hyperedge's two factors fitted from its rows) to 1e-10 on every
hyperedge, on mixed tables with missing and empty cells; the statistics are additive."""

from dataclasses import replace
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from cg_tables import cg_bic_block_rows, cg_block_rows, cg_data, hide_cells
from hypothesis import given, settings
from hypothesis import strategies as st

from estimators.columns import MixedEncoder
from estimators.scores._cg_bic import cg_bic_block
from estimators.scores._conditional_gaussian import CGData, cg_block
from estimators.stats.cell_statistics import CellStats, merge_axes


def _items(d, k):
    return [(v, p) for s in range(1, k + 1) for p in combinations(range(d), s)
            for v in range(d) if v not in p]


@st.composite
def mixed_tables(draw):
    seed = draw(st.integers(0, 10_000))
    n = draw(st.integers(12, 70))
    n_cont = draw(st.integers(1, 3))
    n_cat = draw(st.integers(1, 3))
    missing = draw(st.sampled_from([0.0, 0.1, 0.3]))
    rng = np.random.default_rng(seed)
    y = rng.integers(0, draw(st.integers(2, 3)), n)
    cols = {}
    for j in range(n_cat):  # some levels rare: empty (configuration, class) cells
        p = rng.dirichlet(np.full(3, 0.5))
        cols[f"c{j}"] = np.array(list("abc"))[rng.choice(3, n, p=p)]
    for j in range(n_cont):
        kind = rng.integers(0, 4)
        x = rng.normal(y * rng.normal(), 1.0, n) * 10.0 ** rng.integers(-2, 3) + 50.0
        if kind == 1:  # few distinct values: constant cells
            x = np.round(x / x.std()) if x.std() > 0 else x
        elif kind == 2 and j > 0:  # an exact linear function of another column
            x = 2.0 * cols[f"x{j - 1}"] - 3.0
        cols[f"x{j}"] = x
    return hide_cells(pd.DataFrame(cols), rng, missing), y


_data = cg_data


def _cell_statistics_equal_the_row_path(table) -> None:
    X, y = table
    data = _data(X, y)
    items = _items(X.shape[1], 3)
    fast, rows = cg_block(data, items), cg_block_rows(data, items)
    assert np.array_equal(np.isfinite(fast), np.isfinite(rows))
    ok = np.isfinite(rows)
    np.testing.assert_allclose(fast[ok], rows[ok], rtol=0, atol=1e-10)
    bic, bic_rows = cg_bic_block(data, items), cg_bic_block_rows(data, items)
    np.testing.assert_allclose(bic[ok], bic_rows[ok], rtol=1e-12, atol=1e-9)


@settings(max_examples=15, deadline=None)
@given(mixed_tables())
def test_cell_statistics_equal_the_row_path(table):
    """15 random mixed tables with holes (40 more in the ``slow`` step, below)."""
    _cell_statistics_equal_the_row_path(table)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(mixed_tables())
def test_cell_statistics_equal_the_row_path_on_more_tables(table):
    _cell_statistics_equal_the_row_path(table)


@settings(max_examples=15, deadline=None)
@given(mixed_tables())
def test_ridge_zero_equals_the_row_path(table):
    """With ``ridge=0`` the regressions take pseudo-inverses (the minimum-norm slopes of
    collinear parents) on both paths."""
    X, y = table
    data = replace(cg_data(X, y), ridge=0.0)
    items = _items(X.shape[1], 3)
    fast, rows = cg_block(data, items), cg_block_rows(data, items)
    assert np.array_equal(np.isfinite(fast), np.isfinite(rows))
    ok = np.isfinite(rows)
    np.testing.assert_allclose(fast[ok], rows[ok], rtol=0, atol=1e-10)


def test_helpmiss_sample_equals_the_row_path():
    """On the shared table with empty cells, exactly duplicated columns (i1, avg_drinks)
    and a one-row class: 300 random hyperedges of up to 3 parents."""
    from estimators.datasets import load_dataset

    X, y = load_dataset("helpmiss")
    enc = MixedEncoder().fit_transform(X)
    codes = pd.factorize(pd.Series(y), sort=True)[0]
    data = CGData(enc, codes, int(codes.max()) + 1, 1e-9, 1e-8, 5)
    rng = np.random.default_rng(0)
    items = []
    for size in (1, 2, 3):
        for _ in range(100):
            vs = rng.choice(X.shape[1], size + 1, replace=False)
            items.append((int(vs[0]), tuple(sorted(int(x) for x in vs[1:]))))
    fast, rows = cg_block(data, items), cg_block_rows(data, items)
    assert np.array_equal(np.isfinite(fast), np.isfinite(rows))
    ok = np.isfinite(rows)
    np.testing.assert_allclose(fast[ok], rows[ok], rtol=0, atol=1e-10)


def test_statistics_are_additive():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 3)) * [1.0, 100.0, 1e-3] + [5.0, -2.0, 3.0]
    cells = rng.integers(-1, 4, 200)
    whole = CellStats.from_arrays(X, cells, 4)
    head = CellStats.from_arrays(X[:60], cells[:60], 4)
    tail = CellStats.from_arrays(X[60:], cells[60:], 4)
    for got in (head.merge(tail), whole.subtract(head).merge(head)):
        np.testing.assert_allclose(got.n, whole.n)
        np.testing.assert_allclose(got.mean, whole.mean, rtol=1e-12)
        np.testing.assert_allclose(got.M, whole.M, rtol=1e-9, atol=1e-9)
    # a coarser cell is the merge of its finer cells; closed form on the rows
    one = merge_axes(whole, 0)
    rows = X[cells >= 0]
    np.testing.assert_allclose(one.mean[0], rows.mean(axis=0), rtol=1e-12)
    centred = rows - rows.mean(axis=0)
    np.testing.assert_allclose(one.M[0], centred.T @ centred, rtol=1e-10)
    diag = CellStats.from_arrays(X, cells, 4, cross=False)
    np.testing.assert_allclose(diag.M, np.diagonal(whole.M, axis1=1, axis2=2), rtol=1e-12)


@settings(max_examples=15, deadline=None)
@given(mixed_tables())
def test_row_path_batches_across_categorical_parents(table):
    """The batched row path takes hyperedges with different categorical parents in one call
    (one ``row_path_key``; a categorical v needs a continuous parent): each value is the one
    it has alone to rounding (the batched row path of main before this batching already
    differed from a lone call in the last bit) and equals the per-hyperedge row path to
    1e-10."""
    from estimators.scores._cg_rows_batch import gains_on_rows, row_path_key

    X, y = table
    data = _data(X, y)
    enc, settings_ = data.enc, dict(min_cell_rows=5, var_smoothing=1e-9, ridge=1e-8)
    groups: dict = {}
    for v, ps in _items(X.shape[1], 2):
        key = row_path_key(enc, v, ps)
        if key[0] or key[2]:  # a categorical v without continuous parents is a table
            groups.setdefault(key, []).append((v, ps))
    for items in groups.values():
        together = gains_on_rows(enc, y, data.m, items, **settings_)
        alone = np.array([gains_on_rows(enc, y, data.m, [it], **settings_)[0] for it in items])
        np.testing.assert_allclose(together, alone, rtol=1e-13, atol=1e-14)
        rows = cg_block_rows(data, items)
        ok = np.isfinite(rows)
        np.testing.assert_allclose(together[ok], rows[ok], rtol=0, atol=1e-10)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 6), st.sampled_from([0.0, 0.2, 0.5]))
def test_row_path_logsumexp_is_scipys(seed, K, ties):
    """The row path's inlined log-sum-exp equals ``scipy.special.logsumexp`` bit for bit,
    with tied maxima and -inf entries (empty CPT cells)."""
    from scipy.special import logsumexp

    from estimators.scores._cg_rows_batch import _logsumexp_rows

    rng = np.random.default_rng(seed)
    a = rng.normal(size=(200, K)) * 10.0 ** rng.integers(-3, 4)
    tie = rng.random(200) < ties
    a[tie, -1] = a[tie].max(axis=1)
    a[rng.random((200, K)) < 0.1] = -np.inf
    a[:, 0] = np.where(np.isinf(a).all(axis=1), 0.0, a[:, 0])  # every row has a finite entry
    assert np.array_equal(_logsumexp_rows(a), logsumexp(a, axis=1))


@settings(max_examples=15, deadline=None)
@given(mixed_tables())
def test_score_positions_equal_score_many_and_the_row_path(table):
    """The positions path (arrays, one cache) gives the values of the items path and of
    the row path, whatever order and repetition the hyperedges come in."""
    from estimators.scores import ConditionalGaussianScore

    X, y = table
    f = ConditionalGaussianScore(feature_types={c: "continuous" if c.startswith("x")
                                                else "categorical" for c in X.columns})
    f.fit(X, y)
    d = X.shape[1]
    rows = cg_block_rows(_data(X, y), _items(d, 2))
    for j in (1, 2):
        items = [(v, p) for v, p in _items(d, 2) if len(p) == j]
        if not items:
            continue
        V, P = np.array([v for v, _ in items]), np.array([p for _, p in items])
        order = np.random.default_rng(j).permutation(len(items))
        twice = np.concatenate([order, order[: len(order) // 2]])
        got = f.score_positions(V[twice], P[twice])
        ref = rows[[i for i, (_, p) in enumerate(_items(d, 2)) if len(p) == j]][twice]
        assert np.array_equal(np.isfinite(got), np.isfinite(ref))
        assert np.allclose(got[np.isfinite(ref)], ref[np.isfinite(ref)], rtol=0, atol=1e-10)
        names = list(X.columns)
        many = f.score_many([(names[v], {names[p] for p in P[i]}) for i, v in enumerate(V)])
        assert np.array_equal(many, f.score_positions(V, P))


def test_score_positions_refuses_bad_rows():
    from estimators.scores import ConditionalGaussianScore

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"z": rng.choice(["a", "b"], 60), "x": rng.normal(size=60),
                      "w": rng.normal(size=60)})
    f = ConditionalGaussianScore().fit(X, rng.integers(0, 2, 60))
    for V, P in (([0], [[0]]), ([0], [[2, 1]]), ([0], [[3]]), ([1], [[-1]])):
        with pytest.raises(ValueError, match="strictly ascending positions"):
            f.score_positions(V, P)


@pytest.mark.parametrize("levels", [2, 5, 8, 9])
def test_many_state_bayes_rule_equals_the_row_path(levels):
    """A categorical v of 2 to 9 states with continuous parents (the normaliser state by
    state below 8 states, by a reduction from 8 on) equals the row path to 1e-10."""
    rng = np.random.default_rng(levels)
    n = 400
    y = rng.integers(0, 3, n)
    z = rng.integers(0, levels, n)
    X = pd.DataFrame({"c0": np.array(list("abcdefghij"))[z],
                      "c1": rng.choice(["u", "v"], n),
                      "x0": rng.normal(z + y, 1.0), "x1": rng.normal(size=n) * 100.0 + 7.0})
    X.loc[rng.random(n) < 0.1, "x1"] = np.nan
    data = _data(X, y)
    items = [(0, p) for p in ((2,), (3,), (2, 3), (1, 2), (1, 2, 3))]
    fast, rows = cg_block(data, items), cg_block_rows(data, items)
    ok = np.isfinite(rows)
    assert np.array_equal(ok, np.isfinite(fast)) and ok.all()
    np.testing.assert_allclose(fast, rows, rtol=0, atol=1e-10)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 300), st.integers(1, 6), st.integers(1, 9))
def test_cell_statistics_sums_add_each_cell_in_row_order(seed, n, p, n_cells):
    """``CellStats.from_arrays``: the means and cross products are the cell's rows added one
    after another in row order (a plain loop), bit for bit; rows of cell -1 left out."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) * 10.0 ** rng.integers(-3, 4, size=p) + rng.normal(size=p)
    cells = rng.integers(-1, n_cells, n)
    st_ = CellStats.from_arrays(X, cells, n_cells)
    for g in range(n_cells):
        rows = np.flatnonzero(cells == g)
        total = np.zeros(p)
        for r in rows:
            total = total + X[r]
        mean = total / max(rows.size, 1)
        assert st_.n[g] == rows.size and np.array_equal(st_.mean[g], mean)
        M = np.zeros((p, p))
        for r in rows:
            c = X[r] - mean
            M = M + c[:, None] * c[None, :]
        assert np.array_equal(st_.M[g], M)
