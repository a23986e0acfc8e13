"""Messy mixed tables: types + CG score + factors never fail except with a ValueError that
names a column or class, and scores are finite or -inf (never NaN)."""

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from estimators.columns import MixedEncoder
from estimators.network.fitting import fit_cg_factor
from estimators.scores import ConditionalGaussianScore

KINDS = ["float", "int", "text", "bool", "category", "constant", "all_missing"]


@st.composite
def mixed_tables(draw):
    n = draw(st.integers(2, 25))
    d = draw(st.integers(1, 4))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    cols = {}
    for j in range(d):
        kind = draw(st.sampled_from(KINDS))
        if kind == "float":
            col = pd.Series(rng.normal(size=n) * 10.0 ** rng.integers(-3, 4))
        elif kind == "int":
            col = pd.Series(rng.integers(0, draw(st.integers(1, 15)), n))
        elif kind == "text":
            col = pd.Series(np.array(["a", "b", "c", "", None], dtype=object)[
                rng.integers(0, 5, n)])
        elif kind == "bool":
            col = pd.Series(rng.random(n) < 0.5)
        elif kind == "category":
            col = pd.Series(pd.Categorical(np.array(["u", "v"])[rng.integers(0, 2, n)]))
        elif kind == "constant":
            col = pd.Series(np.full(n, 7.0))
        else:
            col = pd.Series(np.full(n, np.nan))
        if kind in ("float", "int") and draw(st.booleans()):
            col = col.astype(float).mask(rng.random(n) < 0.3)
        cols[f"c{j}"] = col
    X = pd.DataFrame(cols)
    y = rng.integers(0, draw(st.integers(2, 4)), n)
    y[0] = 99  # a one-row class
    return X, y


def _names_something(exc: ValueError, X) -> bool:
    msg = str(exc)
    return any(repr(c) in msg for c in X.columns) or "class" in msg


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixed_tables())
def test_messy_tables_give_finite_or_ineligible_scores(table):
    X, y = table
    try:
        f = ConditionalGaussianScore().fit(X, y)
    except ValueError as exc:
        assert _names_something(exc, X), str(exc)
        return
    names = f.variables_
    W = f.edge_matrix()
    assert not np.isnan(W).any() and not (W == np.inf).any()
    items = [(v, frozenset(p for p in names if p != v)) for v in names]
    vals = f.score_many(items)
    assert not np.isnan(vals).any() and not (vals == np.inf).any()
    enc = MixedEncoder().fit_transform(X)
    codes = np.unique(y, return_inverse=True)[1]
    for v in range(len(names)):
        parents = [p for p in range(len(names)) if p != v][:2]
        lp = fit_cg_factor(enc, codes, int(codes.max()) + 1, v, parents).log_prob(enc)
        complete = enc.observed[:, [v, *parents]].all(axis=1)
        assert np.isfinite(lp[complete]).all()
        assert (lp[~enc.observed[:, v]] == 0).all()
