"""The numpy form of the continuous-v CG kernel (:mod:`estimators.scores._cg_continuous_numpy`,
zero, one or two continuous parents): the compiled kernel's gains, sizes and precision
flags, on cells gathered from mixed tables with missing and empty cells, with the cells'
own regressions and those pooled per class or over all rows (``min_cell_rows``).

The gains are the kernel's bit for bit where numpy's ``log`` is the C library's (numba's
``math.log``). On a CPU with AVX-512, numpy computes ``log`` with its own SIMD code,
within 1 ulp of the C library's but not always equal to it (21 of the 40,000 values of
:func:`test_log_is_within_an_ulp_of_the_c_librarys` differ by 1 ulp on such a machine):
there the gains agree to rounding (``_GAIN_ATOL``), the sizes and flags still bit for bit.
"""

import itertools
import math

import numpy as np
import pandas as pd
from cg_tables import cg_data, hide_cells
from hypothesis import given, settings
from hypothesis import strategies as st

from estimators.scores._cg_continuous_kernel import continuous_gains
from estimators.scores._cg_continuous_numpy import continuous_gains as continuous_gains_numpy


def _log_sample() -> tuple[np.ndarray, np.ndarray]:
    """numpy's and the C library's ``log`` of 40,000 values over the whole float range."""
    rng = np.random.default_rng(1)
    x = np.concatenate([np.exp(rng.uniform(-700, 700, 20_000)), rng.uniform(0, 10, 20_000)])
    return np.log(x), np.array([math.log(v) for v in x.tolist()])


NUMPY_LOG_IS_THE_C_LIBRARYS = bool(np.array_equal(*_log_sample()))
# a gain is a sum of n * log(variance) terms over the cells, divided by n: 1 ulp of each log
# moves it by ~1e-14 at most on these tables (|log| < 50)
_GAIN_ATOL = 1e-12


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
            if NUMPY_LOG_IS_THE_C_LIBRARYS:
                assert np.array_equal(gain, gain_k, equal_nan=True)
            else:
                np.testing.assert_allclose(gain, gain_k, rtol=1e-12, atol=_GAIN_ATOL,
                                           equal_nan=True)


def test_log_is_within_an_ulp_of_the_c_librarys():
    """numpy's ``log`` (the numpy form's only function that is not an arithmetic operation)
    is within 1 ulp of the C library's (numba's ``math.log``) on any CPU, equal to it where
    numpy does not use its AVX-512 code."""
    got, want = _log_sample()
    assert np.all(np.abs(got - want) <= np.spacing(np.abs(want)))
