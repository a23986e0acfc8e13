"""Discrete plug-in CMI against a direct computation from a contingency table."""

import itertools
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from estimators.scores import DiscreteCMI


def table_cmi(rows, v, parents, alpha=0.0):
    """I(X_v; X_P | Y) from explicit dict counts over all cells (alpha added to each)."""
    classes = sorted({r[-1] for r in rows})
    vals = [sorted({r[i] for r in rows}) for i in range(len(rows[0]) - 1)]
    configs = list(itertools.product(*(vals[p] for p in parents)))
    counts = Counter((r[-1], r[v], tuple(r[p] for p in parents)) for r in rows)
    joint = {
        (y, a, c): counts.get((y, a, c), 0) + alpha for y in classes for a in vals[v] for c in configs
    }
    total = sum(joint.values())
    n_y, n_ya, n_yc = Counter(), Counter(), Counter()
    for (y, a, c), k in joint.items():
        n_y[y] += k
        n_ya[(y, a)] += k
        n_yc[(y, c)] += k
    out = 0.0
    for (y, a, c), k in joint.items():
        if k > 0:
            out += k / total * np.log(k * n_y[y] / (n_ya[(y, a)] * n_yc[(y, c)]))
    return out


def small_table(seed=0, n=150):
    rng = np.random.default_rng(seed)
    y = rng.choice(["red", "green", "blue"], n)
    a = rng.choice(["lo", "mid", "hi"], n)
    b = np.where(rng.random(n) < 0.6, a, rng.choice(["lo", "hi"], n))  # b follows a
    c = rng.integers(0, 2, n)
    e = np.where((y == "red") & (rng.random(n) < 0.7), c * 10 + 1, rng.choice([1, 11, 21, 31], n))
    return pd.DataFrame({"a": a, "b": b, "c": c, "e": e}), y


@pytest.mark.parametrize("alpha", [0.0, 0.5])
@pytest.mark.parametrize(
    ("v", "parents"), [("b", ("a",)), ("e", ("c",)), ("a", ("b", "c")), ("e", ("a", "b", "c"))]
)
def test_equals_contingency_table(alpha, v, parents):
    X, y = small_table()
    rows = [tuple(r) + (lab,) for r, lab in zip(X.itertuples(index=False), y, strict=True)]
    cols = list(X.columns)
    expected = table_cmi(rows, cols.index(v), [cols.index(p) for p in parents], alpha)
    assert DiscreteCMI(alpha=alpha).fit(X, y).score(v, parents) == pytest.approx(expected, rel=1e-10)


@pytest.mark.parametrize("alpha", [0.0, 1.0])
def test_edge_matrix_equals_contingency_tables(alpha):
    X, y = small_table(seed=3)
    rows = [tuple(r) + (lab,) for r, lab in zip(X.itertuples(index=False), y, strict=True)]
    W = DiscreteCMI(alpha=alpha).fit(X, y).edge_matrix()
    for i, j in itertools.permutations(range(4), 2):
        assert W[i, j] == pytest.approx(table_cmi(rows, i, [j], alpha), rel=1e-10)


def test_any_dtype_and_object_columns():
    X, y = small_table(seed=1)
    mixed = X.astype(object)
    mixed.loc[::3, "c"] = "other"  # strings mixed with ints in one column
    ref = DiscreteCMI().fit(mixed.astype(str), y)
    score = DiscreteCMI().fit(mixed, y)
    np.testing.assert_allclose(score.edge_matrix(), ref.edge_matrix(), rtol=1e-12)
    assert sorted(map(str, score.categories_[2])) == ["0", "1", "other"]


def test_bad_alpha_message():
    X, y = small_table()
    with pytest.raises(ValueError, match=r"The 'alpha' parameter of DiscreteCMI must be a float in the range \[0(\.0)?, inf\)\. Got -1 instead"):
        DiscreteCMI(alpha=-1).fit(X, y)


@pytest.mark.filterwarnings("ignore::estimators.base.validation.DegenerateFeatureWarning")
@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    k=st.integers(2, 4),
    alpha=st.sampled_from([0.0, 0.3]),
)
def test_symmetric_nonnegative_and_hyperedge_consistent(seed, k, alpha):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, k, size=(40, 4))
    X[:2] = [[0, 0, 0, 0], [1, 1, 1, 1]]  # no constant column
    y = rng.integers(0, 2, 40)
    y[:2] = [0, 1]
    score = DiscreteCMI(alpha=alpha).fit(X, y)
    W = score.edge_matrix()
    np.testing.assert_array_equal(W, W.T)
    assert (W >= -1e-12).all()
    h = score(0, (1, 2))
    # chain rule: I(0; 1, 2 | Y) >= I(0; 1 | Y), with alpha = 0 (a smoothed table breaks it)
    if alpha == 0:
        assert h >= W[0, 1] - 1e-12
    assert h >= -1e-12


@pytest.mark.parametrize("alpha", [0.0, 0.5])
def test_matrix_product_and_bincount_tables_agree(monkeypatch, alpha):
    """Both ways of counting every pair's table give the same edge matrix, to the bit."""
    import estimators.scores._discrete as discrete

    rng = np.random.default_rng(3)
    X = rng.integers(0, 4, size=(500, 7))
    X[:, 2] = rng.integers(0, 2, size=500)  # a feature with fewer levels than the others
    y = rng.integers(0, 3, size=500)
    by_product = DiscreteCMI(alpha=alpha).fit(X, y).edge_matrix()
    monkeypatch.setattr(discrete, "ONE_HOT_MAX", 0)
    by_bincount = DiscreteCMI(alpha=alpha).fit(X, y).edge_matrix()
    np.testing.assert_array_equal(by_product, by_bincount)


@pytest.mark.parametrize("alpha", [0.0, 0.5])
@pytest.mark.parametrize("configs_max", [64, 4, 1])
def test_batched_hyperedges_equal_contingency_tables(monkeypatch, alpha, configs_max):
    """score_many's batches (one matrix product per batch of parent sets; mixed batched and
    per-item parent sets when CONFIGS_MAX is small) against explicit tables, every item."""
    import estimators.scores._discrete as discrete

    monkeypatch.setattr(discrete, "CONFIGS_MAX", configs_max)
    monkeypatch.setattr(discrete, "BATCH_COLUMNS", 40)  # several batches
    X, y = small_table(seed=3)
    rows = [tuple(r) + (lab,) for r, lab in zip(X.itertuples(index=False), y, strict=True)]
    cols = list(X.columns)
    items = [(v, p) for k in (2, 3) for p in itertools.combinations(cols, k)
             for v in cols if v not in p]
    got = DiscreteCMI(alpha=alpha).fit(X, y).score_many(items)
    expected = [table_cmi(rows, cols.index(v), [cols.index(q) for q in p], alpha)
                for v, p in items]
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-14)
