"""The compiled row work of the Bayes-rule factor (:mod:`estimators.scores._cg_kernel`):
scores equal to the row path (each hyperedge's factors fitted from its rows) to 1e-10 on
mixed tables with missing and empty cells and 2, 3 or 8 and more states; its ``exp``,
``log`` and ``log1p`` within 1 ulp of numpy's; its sums numpy's pairwise sums bit for bit."""

import numpy as np
import pandas as pd
from cg_tables import cg_block_rows, cg_data, hide_cells
from hypothesis import given, settings
from hypothesis import strategies as st

from estimators.scores._cg_kernel import _exp, _log, _log1p, _pairwise_sum
from estimators.scores._conditional_gaussian import cg_block


@st.composite
def bayes_tables(draw):
    """A categorical v of K states (some rare: empty (state, configuration, class) cells),
    a categorical parent, continuous parents on different scales with missing cells."""
    seed = draw(st.integers(0, 10_000))
    K = draw(st.sampled_from([2, 3, 8, 9]))
    n = draw(st.integers(40, 160))
    missing = draw(st.sampled_from([0.0, 0.1, 0.3]))
    rng = np.random.default_rng(seed)
    m = draw(st.integers(2, 3))
    y = rng.integers(0, m, n)
    z = rng.choice(K, n, p=rng.dirichlet(np.full(K, 0.7)))
    names = np.array([f"s{i}" for i in range(K)])
    cols = {"v": names[z], "d": rng.choice(["a", "b", "c"], n, p=[0.6, 0.3, 0.1])}
    for j in range(3):
        scale = 10.0 ** rng.integers(-2, 3)
        cols[f"x{j}"] = (rng.normal(z * rng.normal() + y, 1.0, n) + j) * scale + 20.0
    return hide_cells(pd.DataFrame(cols), rng, missing), y


_data = cg_data


@settings(max_examples=30, deadline=None)
@given(bayes_tables())
def test_bayes_rule_equals_the_row_path(table):
    X, y = table
    data = _data(X, y)
    # v = 0 with 1 to 3 continuous parents (2, 3, 4), with and without the categorical 1
    items = [(0, p) for p in ((2,), (3,), (4,), (2, 3), (2, 4), (3, 4), (2, 3, 4),
                              (1, 2), (1, 3), (1, 2, 4), (1, 2, 3, 4))]
    fast = cg_block(data, items)
    on_rows = data.row_path_count  # the degenerate ones the score sends to the row path
    rows = cg_block_rows(data, items)
    ok = np.isfinite(rows)
    assert np.array_equal(ok, np.isfinite(fast))
    np.testing.assert_allclose(fast[ok], rows[ok], rtol=0, atol=1e-10)
    assert on_rows < ok.sum() or not ok.any()  # the kernel scored some


@settings(max_examples=20, deadline=None)
@given(bayes_tables())
def test_a_hyperedge_value_does_not_depend_on_its_batch(table):
    """Batched (the kernel's innermost loops run over the hyperedges, in SIMD lanes and a
    scalar remainder) and alone: the same number bit for bit."""
    X, y = table
    data = _data(X, y)
    items = [(0, p) for p in ((2,), (3,), (4,), (2, 3), (2, 4), (1, 2), (1, 3), (1, 4))]
    together = cg_block(data, items)
    alone = np.array([cg_block(data, [it])[0] for it in items])
    assert np.array_equal(together, alone, equal_nan=True)


def _ulps(got, ref):
    return np.abs(got - ref) / np.spacing(np.maximum(np.abs(ref), 1e-300))


def _kernel_functions():
    """``apply(which, a)``: the kernel's _exp (0), _log (1) or _log1p (2) of each of ``a``."""
    from numba import njit

    @njit(error_model="numpy")
    def apply(which, a):
        out = np.empty_like(a)
        for i in range(a.size):
            out[i] = _exp(a[i]) if which == 0 else _log(a[i]) if which == 1 else _log1p(a[i])
        return out

    return apply


def test_exp_log_log1p_within_one_ulp_of_numpy():
    apply = _kernel_functions()
    rng = np.random.default_rng(0)
    x = -np.concatenate([rng.random(20_000) * 40, rng.random(5_000) * 1e-7,
                         rng.random(5_000) * 700, [0.0, 1e-300, 1.0, 700.0]])
    ref = np.exp(x)
    assert _ulps(apply(0, x), ref).max() <= 1.0
    assert apply(0, np.array([0.0, -708.5, -np.inf])).tolist() == [1.0, 0.0, 0.0]
    x = np.concatenate([1.0 + rng.random(20_000) * 10, 1.0 + rng.random(5_000) * 1e-9,
                        np.exp(rng.normal(size=5_000) * 50), [1.0, 2.0, 0.5, 1e300]])
    assert _ulps(apply(1, x), np.log(x)).max() <= 1.0
    assert apply(1, np.array([1.0]))[0] == 0.0
    x = np.concatenate([rng.random(20_000), rng.random(5_000) * 1e-12, [0.0, 1.0, 1e-300]])
    assert _ulps(apply(2, x), np.log1p(x)).max() <= 1.0


def test_numpy_exp_log_log1p_are_the_kernels_bit_for_bit():
    """:mod:`estimators.scores._cg_numpy`'s fdlibm functions and the kernel's."""
    from estimators.scores import _cg_numpy as numpy_form

    apply = _kernel_functions()
    rng = np.random.default_rng(2)
    x = -np.concatenate([rng.random(20_000) * 40, rng.random(5_000) * 1e-7,
                         rng.random(5_000) * 750, [0.0, 1e-300, 708.0, 708.5, np.inf]])
    assert np.array_equal(numpy_form._exp(x), apply(0, x))
    x = np.concatenate([1.0 + rng.random(20_000) * 10, np.exp(rng.normal(size=5_000) * 50),
                        rng.random(5_000), [1.0, 2.0, 0.5, 1e300]])
    assert np.array_equal(numpy_form._log(x), apply(1, x))
    x = np.concatenate([rng.random(20_000), rng.random(5_000) * 1e-12, [0.0, 1.0, 1e-300]])
    assert np.array_equal(numpy_form._log1p(x), apply(2, x))


@settings(max_examples=30, deadline=None)
@given(bayes_tables())
def test_numpy_bayes_rule_is_the_kernels_bit_for_bit(table):
    """One or two continuous parents, with and without a categorical one: the numpy form
    and the compiled kernels give the same scores bit for bit (and send the same
    hyperedges to the row path)."""
    from estimators.scores import _cg_batch

    X, y = table
    items = [(0, (2,)), (0, (3,)), (0, (4,)), (0, (1, 2)), (0, (1, 3)), (0, (1, 4)),
             (0, (2, 3)), (0, (2, 4)), (0, (1, 2, 3)), (0, (1, 3, 4))]
    results = []
    for mode in ("kernel", "numpy"):
        before = _cg_batch._BAYES.numpy_calls
        _cg_batch._BAYES.mode = mode
        try:
            data = _data(X, y)
            results.append((cg_block(data, items), data.row_path_count))
        finally:
            _cg_batch._BAYES.mode = "auto"
        assert (_cg_batch._BAYES.numpy_calls > before) == (mode == "numpy")
    (compiled, on_rows), (numpy_scores, numpy_rows) = results
    assert np.array_equal(numpy_scores, compiled, equal_nan=True)
    assert numpy_rows == on_rows


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 1200))
def test_pairwise_sum_is_numpys(seed, n):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n) * 10.0 ** rng.integers(-8, 8, size=n)
    assert _pairwise_sum(a, n) == a.sum()


def test_imports_without_a_writable_cache():
    """Where numba finds no writable cache directory (here: only the IPython locator,
    which declines a module file) the kernel compiles without a cache instead of failing
    at import."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, NUMBA_CACHE_LOCATOR_CLASSES="IPythonCacheLocator")
    code = ("import numpy as np; from estimators.scores._cg_kernel import _pairwise_sum; "
            "print(_pairwise_sum(np.arange(10.0), 10))")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "45.0"


@settings(max_examples=20, deadline=None)
@given(bayes_tables(), st.integers(0, 10_000))
def test_gather_moments_numpy_is_the_kernel_bit_for_bit(table, seed):
    """:meth:`CGTables.gather`'s numpy form and the compiled
    ``gather_moments``: the same means and cross products bit for bit, one and several
    continuous columns, with and without a categorical member."""
    from estimators.scores._cg_kernel import gather_moments
    from estimators.scores._cg_numpy import gather_moments as _gather_moments

    X, y = table
    tables = cg_data(X, y).tables()
    rng = np.random.default_rng(seed)
    r = tables.n_patterns
    for cats, s in (((), 1), ((1,), 1), ((), 2), ((0, 1), 3)):
        spos = np.ascontiguousarray(
            np.stack([rng.choice(3, s, replace=False) for _ in range(7)]), dtype=np.int64)
        cell_n, _, ref, R1, R2 = tables.block(cats, cross=s >= 2)
        G = cell_n.size // r
        comp = tables.pattern_observed[:, spos].all(axis=-1).T
        n = comp.astype(float) @ cell_n.reshape(r, G)
        R2 = R2 if R2.ndim == 4 else R2[:, :, None]
        mean, M = np.empty((7, G, s)), np.empty((7, G, s, s))
        gather_moments(np.ascontiguousarray(comp), R1, R2, spos, ref, n, mean, M)
        got_mean, got_M = _gather_moments(comp, R1, R2, spos, ref, n)
        assert np.array_equal(got_mean, mean) and np.array_equal(got_M, M)
        assert np.array_equal(tables.gather(cats, spos).M, M)  # the policy's choice
