"""The first-run policy (:mod:`estimators.base.kernel_choice`): a kernel compiled in this
process or held by numba's disk cache for its current source is used at once; otherwise
the numpy form runs until its CPU budget is spent, then the kernel is compiled (and
cached). A fake kernel in a temporary module and cache directory, a tiny budget; and the
CG score's kernels in a warm process."""

import math
import sys
import time

import numpy as np
import pandas as pd
import pytest
from cg_tables import cg_data

from estimators.base.kernel_choice import KernelChoice, cached_on_disk

SOURCE = '''
from estimators.base.numba_cache import jit


@jit()
def total(a):
    s = 0.0
    for x in a:
        s += x
    return s
'''


@pytest.fixture
def fake_kernel(tmp_path, monkeypatch, request):
    """A module with one numba kernel ``total`` (not imported), cached in ``tmp_path``."""
    import numba

    name = f"fake_kernel_{request.node.name.replace('[', '_').replace(']', '')}"
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / f"{name}.py").write_text(SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name, tmp_path / f"{name}.py"
    sys.modules.pop(name, None)


def busy_sum(a):
    """The numpy form of ``total`` (a few values: numpy's sum is the loop's), spending a
    millisecond of this thread's CPU."""
    start = time.thread_time()
    while time.thread_time() - start < 1e-3:
        pass
    return float(np.sum(a))


def test_numpy_until_the_budget_then_the_kernel_compiled_and_cached(fake_kernel):
    name, _ = fake_kernel
    a = np.arange(5.0)
    choice = KernelChoice(f"{name}:total", budget=1e-3)
    assert not cached_on_disk(name, "total")
    assert choice.call(busy_sum, a) == 10.0
    assert (choice.numpy_calls, choice.kernel_calls) == (1, 0)
    assert name not in sys.modules  # nothing imported, nothing compiled
    assert choice.call(busy_sum, a) == 10.0  # the budget is spent: the kernel
    assert (choice.numpy_calls, choice.kernel_calls) == (1, 1)
    assert sys.modules[name].total.signatures
    assert cached_on_disk(name, "total")
    # another process (the module not imported): the disk cache, the kernel at once
    del sys.modules[name]
    fresh = KernelChoice(f"{name}:total", budget=math.inf)
    assert fresh.call(busy_sum, a) == 10.0
    assert (fresh.numpy_calls, fresh.kernel_calls) == (0, 1)


def test_the_budget_counts_across_processes(fake_kernel):
    """Each process adds its numpy seconds to the ledger beside numba's cache: short runs
    (one call each, 1 ms) compile the kernel once their sum passes the budget; a changed
    kernel source starts a new ledger."""
    name, path = fake_kernel
    a = np.arange(5.0)
    for _process in range(2):  # ~1 ms on record after the first, ~2 ms after the second
        choice = KernelChoice(f"{name}:total", budget=1.5e-3)
        assert choice.call(busy_sum, a) == 10.0
        assert (choice.numpy_calls, choice.kernel_calls) == (1, 0)
        choice.flush()  # at exit
    assert name not in sys.modules
    ledger = next((tmp for tmp in path.parent.rglob(f"{name}.total.numpy-seconds")), None)
    assert ledger is not None and 2e-3 <= float(ledger.read_text().split()[1]) < 3e-3
    third = KernelChoice(f"{name}:total", budget=1.5e-3)
    assert third.call(busy_sum, a) == 10.0
    assert (third.numpy_calls, third.kernel_calls) == (0, 1)
    del sys.modules[name]
    path.write_text(SOURCE.replace("s += x", "s = s + x"))  # a new kernel: a new ledger
    fourth = KernelChoice(f"{name}:total", budget=1.5e-3)
    assert fourth.call(busy_sum, a) == 10.0
    assert (fourth.numpy_calls, fourth.kernel_calls) == (1, 0)


def test_an_unspent_budget_keeps_the_numpy_form(fake_kernel):
    name, _ = fake_kernel
    choice = KernelChoice(f"{name}:total", budget=math.inf)
    for _ in range(3):
        assert choice.call(busy_sum, np.ones(3)) == 3.0
    assert (choice.numpy_calls, choice.kernel_calls) == (3, 0)
    assert name not in sys.modules and not cached_on_disk(name, "total")


def test_compiled_in_this_process_counts(fake_kernel):
    name, _ = fake_kernel
    module = __import__(name)
    assert module.total(np.ones(2)) == 2.0
    choice = KernelChoice(f"{name}:total", budget=math.inf)
    assert choice.use_kernel()


def test_a_changed_source_is_not_cached(fake_kernel):
    name, path = fake_kernel
    assert __import__(name).total(np.ones(2)) == 2.0
    assert cached_on_disk(name, "total")
    path.write_text(SOURCE.replace("s += x", "s += 2.0 * x"))
    assert not cached_on_disk(name, "total")
    assert not cached_on_disk(name, "no_such_function")
    assert not cached_on_disk("no_such_module_here", "total")


def test_other_numba_internals_read_as_not_cached(fake_kernel, monkeypatch):
    from numba.core import caching

    name, _ = fake_kernel
    assert __import__(name).total(np.ones(2)) == 2.0
    assert cached_on_disk(name, "total")
    monkeypatch.delattr(caching.Cache, "_index_key")
    assert not cached_on_disk(name, "total")


def test_warm_cg_score_runs_the_kernels(monkeypatch):
    """Once the CG kernels are compiled in a process, its fits call them and never the
    numpy forms (no warm fit pays for the numpy forms); the numpy forms give the same
    scores."""
    from estimators.scores import _cg_batch
    from estimators.scores._conditional_gaussian import cg_block

    rng = np.random.default_rng(0)
    n = 120
    y = rng.integers(0, 2, n)
    X = pd.DataFrame({"d": rng.choice(["a", "b"], n), "e": rng.choice(["p", "q", "r"], n),
                      "x0": rng.normal(y, 1.0, n), "x1": rng.normal(-y, 2.0, n)})
    # continuous v on 0, 1, 2 continuous parents; categorical v on 1 and 2
    items = [(2, (0,)), (2, (3,)), (3, (0, 2)), (0, (2,)), (0, (2, 3)), (1, (0, 3)),
             (2, (0, 1, 3))]
    choices = {k: KernelChoice(*[":".join(x) for x in getattr(_cg_batch, k).names])
               for k in ("_GATHER", "_CONTINUOUS", "_BAYES")}
    for key, choice in choices.items():
        choice.mode = "kernel"  # compiled here (or loaded from the cache)
        monkeypatch.setattr(_cg_batch, key, choice)
    compiled = cg_block(cg_data(X, y), items)
    for key, choice in choices.items():
        assert choice.kernel_calls > 0, key
        choice.mode, choice.kernel_calls = "auto", 0
    assert np.array_equal(cg_block(cg_data(X, y), items), compiled)
    for key, choice in choices.items():
        assert (choice.kernel_calls > 0, choice.numpy_calls) == (True, 0), key
        choice.mode = "numpy"
    assert np.array_equal(cg_block(cg_data(X, y), items), compiled)
    assert all(choice.numpy_calls > 0 for choice in choices.values())
