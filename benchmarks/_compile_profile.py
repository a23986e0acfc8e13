"""Run ``python -m viz.cli ARGS`` with every numba compilation timed (issue 49's first run).

Each call of ``numba.core.dispatcher.Dispatcher.compile`` -- a kernel, a kernel it calls,
or an implementation numba compiles for ``np.empty`` / ``max`` / ... -- is timed in CPU
seconds, exclusive of the compilations nested in it (a kernel's callees are compiled while
it is typed), and a loaded one (from numba's cache) counts alike, so a second run shows
what loading costs. The totals per function are written as JSON to ``OUT`` at exit:
``{"function": [cpu_seconds, calls], ...}``.

Run: ``python benchmarks/_compile_profile.py OUT.json learn helpmiss --target substance
--model tan`` (``benchmarks/first_run.py --compile-times`` runs it).
"""

from __future__ import annotations

import atexit
import json
import runpy
import sys
import time


def install(out: str) -> None:
    """Time every ``Dispatcher.compile`` and write the totals per function to ``out`` at
    exit."""
    from numba.core import dispatcher  # noqa: PLC0415  (numba only where profiled)

    original = dispatcher.Dispatcher.compile
    totals: dict[str, list] = {}
    children = [0.0]  # CPU seconds of the nested compilations of each open level

    def compile(self, sig):
        children.append(0.0)
        start = time.process_time()
        try:
            return original(self, sig)
        finally:
            spent = time.process_time() - start
            nested = children.pop()
            children[-1] += spent
            fn = self.py_func
            name = f"{fn.__module__}.{fn.__qualname__}"
            entry = totals.setdefault(name, [0.0, 0])
            entry[0] += spent - nested
            entry[1] += 1

    dispatcher.Dispatcher.compile = compile

    @atexit.register
    def _dump() -> None:
        with open(out, "w") as fh:
            json.dump(totals, fh)


if __name__ == "__main__":
    install(sys.argv[1])
    sys.argv = ["viz.cli", *sys.argv[2:]]
    runpy.run_module("viz.cli", run_name="__main__")
