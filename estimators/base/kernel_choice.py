"""A compiled kernel or its numpy form: what a first run pays for (issue 49).

Some compiled kernels (numba) have a numpy form that gives the same numbers bit for bit
on every CPU (e.g. :mod:`estimators.scores._cg_numpy`: the same operations in
the same order, and one ``log`` written out for both forms rather than numpy's and the C
library's, which differ by 1 ulp on some inputs where numpy uses AVX-512). Compiling a kernel costs seconds of
CPU once per installation; a small table's work takes milliseconds in either form. A
:class:`KernelChoice` picks per call:

* the **kernel** when it is cheap to have: already compiled in this process, or held by
  numba's disk cache for its current source (loading it takes milliseconds) -- a warm
  process, and every process after the first, runs exactly the compiled code;
* otherwise the **numpy form**, until ``budget`` CPU seconds have been spent in it
  (:data:`BUDGET`), after which the kernel is compiled (and cached) and used from then on:
  a short first run compiles nothing, a long one pays at most the budget on top of the
  compilation.

The time spent counts across processes: each process adds its numpy seconds to a small
ledger file beside numba's cache of the kernel (``<module>.<function>.numpy-seconds``,
stamped with the hash of the kernels' sources, so a changed kernel starts a new ledger),
at most every :data:`FLUSH` seconds of numpy work and at exit. Many short runs (one fit per
process, as the command line does) therefore compile the kernel once their sum passes the
budget, instead of running the numpy form for ever; where no ledger can be written the
budget counts per process.

The disk cache is read the way numba reads it when it loads a function: its index file
(``<module>.<function>-<line>.py<XY>.nbi`` in the cache directory numba's locator picks,
stamped with numba's version and the source file's hash) keyed by signature, target
machine and the hash of the function's bytecode; a key for this machine and this bytecode,
for any signature, counts as cached. The bytecode comes from compiling the module's source
(the kernel module is not imported: importing it compiles its helpers with explicit
signatures). Where numba's internals differ (another version) the answer is "not cached",
which costs at most the budget.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib
import importlib.util
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import CodeType, FunctionType
from typing import TypeVar

__all__ = ["BUDGET", "FLUSH", "KernelChoice", "cached_on_disk"]

T = TypeVar("T")

#: CPU seconds (of the calling thread) a process spends in one numpy form before it
#: compiles the kernel, by default: about the compilation of a small kernel; a choice whose
#: kernels take longer to compile passes its own (about their compilation: ski rental)
BUDGET = 1.5
#: numpy seconds a process gathers before it adds them to the ledger (and at exit)
FLUSH = 0.25


def _function_code(path: str, name: str) -> CodeType | None:
    """The code object of the module-level function ``name`` compiled from ``path``."""
    source = Path(path).read_bytes()
    module = compile(source, path, "exec", dont_inherit=True)
    for const in module.co_consts:
        if isinstance(const, CodeType) and const.co_name == name:
            return const
    return None


def _function_cache(module: str, name: str):
    """numba's ``FunctionCache`` of the kernel ``module.name`` (module not imported), or
    None where the module or the function is not found."""
    spec = importlib.util.find_spec(module)
    code = _function_code(spec.origin, name) if spec and spec.origin else None
    if code is None:
        return None
    from numba.core.caching import FunctionCache  # noqa: PLC0415  (numba when asked)

    return FunctionCache(FunctionType(code, {}))


def cached_on_disk(module: str, name: str) -> bool:
    """Whether numba's disk cache holds a compilation of the kernel ``module.name`` for
    this machine and its current source (module docstring); False where it cannot tell.

    Examples
    --------
    >>> cached_on_disk("estimators.base.kernel_choice", "no_such_kernel")
    False
    """
    try:
        cache = _function_cache(module, name)
        if cache is None:
            return False
        from numba.core.registry import cpu_target  # noqa: PLC0415  (numba when asked)

        _, magic, hashes = cache._index_key(None, cpu_target.target_context.codegen())
        index = cache._cache_file._load_index()
        return any(key[1:] == (magic, hashes) for key in index)
    except Exception:  # noqa: BLE001  (numba's internals differ, or no cache directory)
        return False


def _compiled_here(module: str, name: str) -> bool:
    """Whether the kernel has a compiled signature in this process (its module imported)."""
    loaded = sys.modules.get(module)
    return bool(getattr(getattr(loaded, name, None), "signatures", None))


class _Ledger:
    """The numpy seconds spent on one choice's kernels, across processes: a file beside
    numba's cache of the first kernel holding the hash of the kernels' sources and the
    seconds (module docstring); no file where numba finds no cache directory."""

    def __init__(self, names: tuple[tuple[str, str], ...]) -> None:
        self.names = names
        self._path: Path | None | bool = False  # False: not looked up yet
        self._stamp = ""

    def path(self) -> Path | None:
        """The ledger's file (looked up once), None where there is none."""
        if self._path is False:
            self._path = None
            try:
                mod, fn = self.names[0]
                cache = _function_cache(mod, fn)
                if cache is not None:
                    digest = hashlib.sha256()
                    for module, _ in self.names:
                        digest.update(Path(importlib.util.find_spec(module).origin)
                                      .read_bytes())
                    self._stamp = digest.hexdigest()[:16]
                    self._path = Path(cache._cache_path) / f"{mod}.{fn}.numpy-seconds"
            except Exception:  # noqa: BLE001  (numba's internals differ: count per process)
                self._path = None
        return self._path

    def read(self) -> float:
        """The seconds on record for the kernels' current sources (0 where none)."""
        path = self.path()
        if path is None:  # no cache directory: the budget counts in this process only
            return 0.0
        try:
            stamp, seconds = path.read_text().split()
            return float(seconds) if stamp == self._stamp else 0.0
        except (OSError, ValueError):  # no record yet, or one being replaced
            return 0.0

    def add(self, seconds: float) -> None:
        """Add ``seconds`` to the record (written whole, replaced atomically; two processes
        adding at once may lose one's seconds, which only delays a compilation)."""
        path = self.path()
        if path is None:
            return
        total = self.read() + seconds
        try:
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
            with os.fdopen(fd, "w") as out:
                out.write(f"{self._stamp} {total!r}\n")
            os.replace(tmp, path)
        except OSError:
            pass


class KernelChoice:
    """Compiled kernels or their numpy form (module docstring).

    Parameters
    ----------
    *kernels : str
        The kernels one numpy form replaces, ``"module:function"``; the kernels are used
        when all are cheap to have.
    budget : float
        CPU seconds spent in the numpy form after which the kernels are compiled.

    Attributes
    ----------
    mode : {"auto", "numpy", "kernel"}
        "auto" (the policy above); "numpy" runs the numpy form wherever it gives an answer
        and "kernel" the kernels (tests and benchmarks compare the two).
    spent : float
        CPU seconds spent in the numpy form by this process (the ledger holds the others').
    numpy_calls, kernel_calls : int
        Calls of either form.

    Examples
    --------
    >>> import numpy as np
    >>> choice = KernelChoice("estimators.scores._cg_kernel:gather_moments", budget=0.0)
    >>> choice.use_kernel()  # no budget: the kernel (compiled on its first call)
    True
    >>> choice.mode = "numpy"  # the numpy form wherever it answers
    >>> float(choice.call(np.sum, np.arange(4.0))), choice.numpy_calls
    (6.0, 1)
    """

    def __init__(self, *kernels: str, budget: float = BUDGET) -> None:
        self.names = tuple(tuple(k.split(":")) for k in kernels)
        self.budget = budget
        self.mode = "auto"
        self.spent = 0.0
        self.numpy_calls = 0
        self.kernel_calls = 0
        self._kernel = False
        self._on_disk: dict[tuple[str, str], bool] = {}  # read once per process
        self._lock = threading.Lock()
        self._ledger = _Ledger(self.names)
        self._recorded: float | None = None  # the ledger's seconds when first asked
        self._unflushed = 0.0
        self._at_exit = False

    def _cheap(self, mod: str, fn: str) -> bool:
        """Compiled in this process, or in numba's disk cache."""
        if _compiled_here(mod, fn):
            return True
        if (mod, fn) not in self._on_disk:
            self._on_disk[mod, fn] = cached_on_disk(mod, fn)
        return self._on_disk[mod, fn]

    def use_kernel(self) -> bool:
        """Whether the next call runs the kernels: cheap to have, or the budget spent."""
        if self.mode != "auto":
            return self.mode == "kernel"
        if not self._kernel:
            if self._recorded is None:
                self._recorded = self._ledger.read()
            self._kernel = self.spent + self._recorded >= self.budget or all(
                self._cheap(mod, fn) for mod, fn in self.names)
        return self._kernel

    def flush(self) -> None:
        """Add this process's numpy seconds not yet on record to the ledger."""
        with self._lock:
            seconds, self._unflushed = self._unflushed, 0.0
        if seconds > 0.0:
            self._ledger.add(seconds)

    def kernels(self) -> tuple:
        """The kernels' dispatchers (their modules imported)."""
        return tuple(getattr(importlib.import_module(mod), fn) for mod, fn in self.names)

    @contextmanager
    def numpy(self) -> Iterator[None]:
        """Count the CPU time of the block (the numpy form) against the budget."""
        start = time.thread_time()
        try:
            yield
        finally:
            seconds = time.thread_time() - start
            with self._lock:
                self.spent += seconds
                self.numpy_calls += 1
                record = self.mode == "auto"
                if record:
                    self._unflushed += seconds
                    if not self._at_exit:
                        self._at_exit = True
                        atexit.register(self.flush)
            if record and self._unflushed >= FLUSH:
                self.flush()

    def call(self, numpy_form: Callable[..., T | None], *args,
             kernel_form: Callable[..., T] | None = None) -> T:
        """``numpy_form(*args)`` where the kernels are not cheap to have and it gives an
        answer (None: it cannot, e.g. a singular system whose kernel result it does not
        reproduce), else ``kernel_form(*kernels, *args)`` (default: the one kernel called
        with ``args``)."""
        if not self.use_kernel():
            with self.numpy():
                out = numpy_form(*args)
            if out is not None:
                return out
        with self._lock:
            self.kernel_calls += 1
        kernels = self.kernels()
        return (kernel_form or kernels[0])(*(kernels if kernel_form else ()), *args)
