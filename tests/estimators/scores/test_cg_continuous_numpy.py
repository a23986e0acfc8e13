"""The numpy form of the continuous-v CG kernel (:mod:`estimators.scores._cg_numpy`,
zero, one or two continuous parents): the compiled kernel's gains, sizes and precision
flags bit for bit, on every CPU, on cells gathered from mixed tables with missing and empty
cells, with the cells' own regressions and those pooled per class or over all rows
(``min_cell_rows``). Both forms take ``log`` from the same written-out fdlibm code
(numpy's own ``log`` differs from the C library's by 1 ulp on some inputs on CPUs with
AVX-512), checked against the C library's to 1 ulp, at zero, subnormals and infinities.
"""

import itertools
import math

import numpy as np
import pandas as pd
from cg_tables import cg_data, hide_cells
from hypothesis import given, settings
from hypothesis import strategies as st

from estimators.scores._cg_continuous_kernel import continuous_gains
from estimators.scores._cg_numpy import continuous_gains as continuous_gains_numpy


def _log_sample() -> np.ndarray:
    """40,000 values over the whole float range, subnormals, 0, inf and NaN."""
    rng = np.random.default_rng(1)
    return np.concatenate([np.exp(rng.uniform(-700, 700, 20_000)), rng.uniform(0, 10, 20_000),
                           [0.0, 5e-324, 1e-310, 2.2250738585072014e-308, 1.0, np.inf, np.nan,
                            -1.0, 1.7976931348623157e308]])


@st.composite
def tables(draw):
    """Two categorical columns (3 and 4 levels, rare levels: small and empty cells) and
    three continuous ones on different scales, one of them constant within a level, with
    missing cells."""
    rng = np.random.default_rng(draw(st.integers(0, 10_000)))
    n = draw(st.integers(30, 200))
    m = draw(st.integers(2, 3))
    y = rng.integers(0, m, n)
    cols = {"a": rng.choice(["p", "q", "r"], n, p=[0.7, 0.25, 0.05]),
            "b": rng.choice(list("wxyz"), n)}
    for j in range(3):
        cols[f"x{j}"] = (rng.normal(y * rng.normal(), 1.0, n) + j) * 10.0 ** rng.integers(-3, 4)
    cols["x2"] = np.where(cols["a"] == "p", 5.0, cols["x2"])
    X = hide_cells(pd.DataFrame(cols), rng, draw(st.sampled_from([0.0, 0.1, 0.3])))
    return X, y, draw(st.sampled_from([2, 5, 30]))


@settings(max_examples=30, deadline=None)
@given(tables())
def test_numpy_gains_are_the_kernels(table):
    X, y, mcr = table
    data = cg_data(X, y)
    tab, m = data.tables(), data.m
    pairs = np.array([[v, p] for v in range(3) for p in range(3) if v != p])
    triples = np.array(list(itertools.permutations(range(3))))
    for cats in ((), (0,), (1,), (0, 1)):
        for spos in (np.arange(3)[:, None], pairs, triples):
            st_ = tab.gather(cats, np.ascontiguousarray(spos, dtype=np.int64))
            H, s = spos.shape
            args = (st_.n.reshape(H, -1, m), st_.mean.reshape(H, -1, m, s),
                    st_.M.reshape(H, -1, m, s, s), mcr, 1e-9, 1e-8, 1e-5)
            got = continuous_gains_numpy(*args)
            want = continuous_gains(*args)
            assert got is not None
            (gain, size, flag), (gain_k, size_k, flag_k) = got, want
            assert np.array_equal(size, size_k) and np.array_equal(flag, flag_k)
            assert np.array_equal(gain, gain_k, equal_nan=True)


def test_one_log_for_both_forms_within_an_ulp_of_the_c_librarys():
    """The kernels' ``log`` and its numpy form are the same numbers bit for bit, within
    1 ulp of the C library's (numba's ``math.log``; exact at 0, inf, NaN and negatives)."""
    import numba

    from estimators.scores._cg_kernel import log as log_kernel
    from estimators.scores._cg_numpy import log as log_numpy

    x = _log_sample()
    kernel = numba.njit(lambda v: np.array([log_kernel(t) for t in v]))(x)
    assert np.array_equal(log_numpy(x), kernel, equal_nan=True)
    with np.errstate(all="ignore"):
        libm = np.array([math.log(v) if v > 0 else float(np.log(v)) for v in x.tolist()])
    finite = np.isfinite(libm)
    assert np.all(np.abs(kernel[finite] - libm[finite]) <= np.spacing(np.abs(libm[finite])))
    assert np.array_equal(kernel[~finite], libm[~finite], equal_nan=True)
