"""One factor hierarchy: a fitted factor's engine side (``log_prob_values`` /
``regression`` on dense arrays) gives the same numbers as its ``log_prob`` on an encoded
table, and ``from_dense`` inverts ``dense``."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from estimators.columns import MixedEncoder
from estimators.network.factors import (
    BayesCategoricalFactor,
    CategoricalFactor,
    LinearGaussianFactor,
)
from estimators.network.fitting import fit_cg_factor


def _table(seed=0, n=300):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    z = rng.integers(0, 3, n)
    w = rng.integers(0, 2, n)
    x = rng.normal(y + z, 1.0)
    u = rng.normal(0.5 * x - w, 1.0)
    X = pd.DataFrame({"z": np.array(list("abc"))[z], "w": np.array(list("pq"))[w],
                      "x": x, "u": u})
    return MixedEncoder().fit_transform(X), y


@pytest.mark.parametrize("v, parents", [(0, ()), (0, (1,)), (1, (0,)), (0, (2,)),
                                        (0, (1, 2)), (3, (2,)), (3, (0, 2)), (3, (0, 1, 2))])
def test_engine_side_equals_log_prob(v, parents):
    enc, y = _table()
    f = fit_cg_factor(enc, y, 2, v, parents)
    want = f.log_prob(enc)
    X = np.where(enc.continuous, enc.values, enc.codes.astype(float))
    values = {p: X[:, p][:, None] for p in (v, *parents)}
    if f.continuous:
        a, b, s2 = f.regression({p: values[p] for p in f.parents})
        mu = a + sum(b[..., j] * values[p] for j, p in enumerate(f.continuous_parents))
        got = norm.logpdf(values[v], mu, np.sqrt(s2))
    else:
        got = f.log_prob_values(enc.codes[:, v][:, None],
                                {p: (enc.codes[:, p] if not enc.continuous[p] else X[:, p])[:, None]
                                 for p in f.parents})
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


def test_from_dense_round_trips_the_dense_layout():
    rng = np.random.default_rng(1)
    table = np.log(rng.dirichlet(np.ones(3), size=(2, 4)))  # (m, r_parent, r_v)
    f = CategoricalFactor.from_dense(1, (0,), table)
    assert f.n_states == 3 and f.parents == (0,)
    np.testing.assert_array_equal(f.log_table, table)
    lg = LinearGaussianFactor.from_dense(2, (0,), (1,), rng.normal(size=(2, 4)),
                                         rng.normal(size=(2, 4, 1)), rng.random((2, 4)) + 0.1)
    np.testing.assert_array_equal(lg.dense(lg.coef), lg.coef[:-1].transpose(1, 0, 2))
    cov = np.eye(1)[None, None, None] * np.ones((2, 4, 3, 1, 1))
    bf = BayesCategoricalFactor.from_dense(2, (0,), (1,), table[:, :, :].copy(),
                                           np.zeros((2, 4, 3, 1)), cov)
    assert bf.n_states == 3 and bf.parents == (0, 1)


def test_relabel_renames_vertex_and_parents_only():
    enc, y = _table()
    f = fit_cg_factor(enc, y, 2, 3, (0, 2))
    g = f.relabel({3: 2, 0: 0, 2: 1})
    assert (g.vertex, g.categorical_parents, g.continuous_parents) == (2, (0,), (1,))
    assert g.intercept is f.intercept
