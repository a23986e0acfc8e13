"""Sizes checked before work: the cells a fit would build, computed from the cardinalities,
equal an enumeration of its tables; every family with an option exponential in cost refuses
a value over the limit in one ValueError naming the option, the size and the largest value
that fits, before any fitting; ``max_cells`` raises the limit."""

from __future__ import annotations

from itertools import combinations
from math import prod

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from estimators import (
    A2DEClassifier,
    AnDEClassifier,
    BANClassifier,
    KDBClassifier,
    KGNBClassifier,
    KTANClassifier,
)
from estimators.base.model_size import (
    Size,
    check_size,
    family_cells,
    ktree_size,
    largest_table,
    spode_size,
    within,
)


def _brute_family_cells(sizes, width, classes):
    """Every (child, parent set of at most ``width`` others) table, enumerated."""
    d = len(sizes)
    return classes * sum(sizes[v] * prod(sizes[p] for p in ps)
                         for v in range(d) for j in range(width + 1)
                         for ps in combinations([u for u in range(d) if u != v], j))


def _brute_spode_cells(sizes, n, classes):
    """Every SPODE (super-parent set of n, a child outside it) table, enumerated."""
    d = len(sizes)
    return classes * sum(prod(sizes[s] for s in S) * sizes[c]
                         for S in combinations(range(d), n) for c in range(d) if c not in S)


sizes_strategy = st.lists(st.integers(1, 6), min_size=1, max_size=7)


@settings(max_examples=60, deadline=None)
@given(sizes=sizes_strategy, width=st.integers(0, 7), classes=st.integers(2, 4))
def test_family_cells_equal_the_enumeration(sizes, width, classes):
    assert family_cells(sizes, width, classes) == _brute_family_cells(sizes, width, classes)


@settings(max_examples=60, deadline=None)
@given(sizes=sizes_strategy, n=st.integers(1, 7), classes=st.integers(2, 4))
def test_spode_cells_equal_the_enumeration(sizes, n, classes):
    size = spode_size(sizes, classes)(n)
    assert size.scored == _brute_spode_cells(sizes, n, classes)
    top = sorted(sizes, reverse=True)[:n + 1]
    assert size.table == classes * prod(top)


@settings(max_examples=40, deadline=None)
@given(sizes=sizes_strategy, classes=st.integers(2, 4), limit=st.integers(1, 10**5))
def test_the_largest_value_offered_is_the_largest_that_fits(sizes, classes, limit):
    """The advice names the largest k <= the asked one within the limits (brute force over
    every k), and a value that fits passes."""
    size_at = ktree_size(sizes, classes, scored=sizes)
    d = len(sizes)
    fitting = [k for k in range(1, d) if within(size_at(k), limit)]
    for k in range(1, d + 2):
        if k <= d - 1 and within(size_at(k), limit):
            check_size("k", k, size_at, highest=d - 1, bound="b", limit=limit)
            continue
        with pytest.raises(ValueError) as caught:
            check_size("k", k, size_at, highest=d - 1, bound="b", limit=limit)
        best = [v for v in fitting if v < k]
        message = str(caught.value)
        assert message.startswith(f"k = {k} ")
        assert (f"k <= {max(best)} keeps" in message) if best else ("no k keeps" in message)


def test_largest_table_counts_continuous_columns_once():
    assert largest_table([1, 1, 5, 4], 3, 2) == 2 * 5 * 4 * 1
    assert within(Size(10**6, 10**8)) and not within(Size(10**6 + 1))


@pytest.fixture(scope="module")
def binary22():
    """22 binary features and a 0/1 class (as SPECT): k-TAN's full joint table at k = 21."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 2, (150, 22)), columns=[f"f{i}" for i in range(22)])
    return X, rng.integers(0, 2, 150)


@pytest.mark.parametrize(("model", "words"), [
    (KTANClassifier(k=50), "KTANClassifier: k = 50 exceeds the 21 other features; k <= 5 keeps"),
    (KTANClassifier(k=21), "KTANClassifier: k = 21 builds a table of 8.39e+06 cells, over 10^6"),
    (KTANClassifier(k=8), "KTANClassifier: k = 8 scores tables of 6.27e+09 cells in all, over "
                          "10^8 (or score only each feature's top-m partners: candidates=m, "
                          "--candidates m); k <= 5 keeps"),
    (KGNBClassifier(order=50), "KGNBClassifier: order = 50 exceeds the 23 that 22 features "
                               "allow (order <= d + 1); order <= 7 keeps"),
    (KDBClassifier(max_parents=50), "KDBClassifier: max_parents = 50 builds a table of "
                                    "8.39e+06 cells, over 10^6; max_parents <= 17 keeps every "
                                    "table under 10^6 cells here"),
    (BANClassifier(max_parents=30), "BANClassifier: max_parents = 30 builds a table of "
                                    "8.39e+06 cells, over 10^6; max_parents <= 17 keeps"),
    (AnDEClassifier(n=7), "AnDEClassifier: n = 7 scores tables of 1.31e+09 cells in all, over "
                          "10^8; n <= 5 keeps"),
])
def test_a_model_too_large_is_refused_before_any_fit(binary22, model, words):
    with pytest.raises(ValueError) as caught:
        model.fit(*binary22)
    assert words in str(caught.value)
    assert "(raise the limit with max_cells, --max-cells)" in str(caught.value)
    assert not hasattr(model, "structure_") and not hasattr(model, "spodes_")


def test_kgnb_lowers_an_order_that_fits_and_refuses_one_that_does_not():
    """On 22 continuous features order 50 would be lowered to 23, a 21-tree whose search
    scores every family of up to 21 parents (4.6e7 of them): refused at once. On 4 features
    order 6 is lowered to 5 with the warning, as before."""
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 120)
    X = rng.normal(size=(120, 22)) + y[:, None]
    with pytest.raises(ValueError, match=r"KGNBClassifier: order = 50 exceeds the 23 that 22 "
                                         r"features allow \(order <= d \+ 1\); order <= \d+ keeps"):
        KGNBClassifier(order=50).fit(X, y)
    with pytest.warns(UserWarning, match=r"order=6\) needs at least 5 features; X has 4"):
        assert KGNBClassifier(order=6).fit(X[:, :4], y).order_ == 5


def test_a2de_names_the_model_that_fits():
    rng = np.random.default_rng(4)
    X = pd.DataFrame({f"c{j}": [f"v{v}" for v in rng.integers(0, 25, 200)] for j in range(25)})
    with pytest.raises(ValueError, match=r"A2DEClassifier: n = 2 scores tables of 2\.\d+e\+08 "
                                         r"cells in all, over 10\^8; AnDEClassifier\(n=1\) keeps"):
        A2DEClassifier().fit(X, rng.integers(0, 2, 200))


def test_max_cells_raises_the_limit(binary22):
    with pytest.raises(ValueError, match="max_parents = 18 builds a table of 1.05e"):
        KDBClassifier(max_parents=18).fit(*binary22)
    clf = KDBClassifier(max_parents=18, max_cells=2**21).fit(*binary22)
    assert max(len(clf.structure_.parents(v)) for v in clf.order_) == 18


def test_auto_tries_only_the_k_within_the_limit(binary22):
    """k = "auto" keeps to max_cells: with room for k <= 1 only, it chooses k = 1 without
    trying k = 2 (whose search would score 3,168 cells, over 100 * 30)."""
    X, y = binary22
    X = X.iloc[:, :8]
    size_at = ktree_size([2.0] * 8, 2, scored=[2.0] * 8)
    assert within(size_at(1), 30) and not within(size_at(2), 30)
    clf = KTANClassifier(k="auto", max_cells=30).fit(X, y)
    assert clf.k_ == 1 and set(clf.cv_results_["k"]) == {1}
    with pytest.raises(ValueError, match="KTANClassifier: k = 2 scores tables of 3.17e"):
        KTANClassifier(k=[1, 2], max_cells=30).fit(X, y)
