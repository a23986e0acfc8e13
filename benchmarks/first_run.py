"""First run of a new installation (issue 49): ``kgraph learn helpmiss --model M`` twice in a
row on an empty numba cache, for tan, ktan, kdb and the discriminative TAN.

The first run compiles the numba kernels (the CG score's and the backbone DP's) that the
model uses and writes them to the cache; the second loads them. Each model starts from its
own empty ``NUMBA_CACHE_DIR`` (a fresh temporary directory), so every row is a first run
of a new installation. Goal: first / second <= 2.0 (wall clock; the two runs are taken
back to back so that a load change hits both alike). The CPU time of each run (the child
process's user + system time) is beside it: on a shared machine the wall time includes
waiting for a core, the CPU time does not. The load average before and after is reported.

``--compile-times`` adds, per model, a third run on another empty cache under
``benchmarks/_compile_profile.py``: the CPU seconds of each numba function's compilation
(exclusive of the functions compiled inside it), the ones above 0.1 s listed, the rest
summed -- where the first run's extra time goes.

Run: ``PYTHONPATH=. python benchmarks/first_run.py [--models tan,kdb] [--quick]
[--compile-times]`` (``--quick``: tan only) -> ``benchmarks/results/first_run.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._common import run_timed, write  # noqa: E402

GOAL = 2.0
#: label -> the ``kgraph learn`` options after ``--model``
MODELS = {
    "tan": ("tan",),
    "ktan": ("ktan",),
    "kdb": ("kdb",),
    "tan discriminative": ("tan", "--parameters", "discriminative"),
}


#: compilations below this many CPU seconds are summed in one line of the profile
SHOWN = 0.1


def learn(model: tuple[str, ...], data: str, target: str, cache: str,
          profile: str | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of ``python -m viz.cli learn DATA --model MODEL`` with numba's
    cache in ``cache``; under ``benchmarks/_compile_profile.py`` (its JSON to ``profile``)
    where given."""
    with tempfile.TemporaryDirectory() as out:
        entry = (["-m", "viz.cli"] if profile is None
                 else [str(ROOT / "benchmarks" / "_compile_profile.py"), profile])
        cmd = [sys.executable, *entry, "learn", data, "--target", target,
               "--model", *model, "--out", out, "--quiet"]
        env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": cache,
               "MPLBACKEND": "Agg"}
        return run_timed(cmd, cwd=ROOT, env=env)


def compile_times(label: str, data: str, target: str) -> list[str]:
    """The lines of one model's compilation profile (a first run on its own empty cache)."""
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
        profile = str(Path(cache) / "profile.json")
        wall, cpu = learn(MODELS[label], data, target, cache, profile)
        totals = json.loads(Path(profile).read_text())
    rows = sorted(totals.items(), key=lambda kv: -kv[1][0])
    shown = [(name, t, n) for name, (t, n) in rows if t >= SHOWN]
    rest = [t for _, (t, _) in rows if t < SHOWN]
    total = sum(t for t, _ in totals.values())
    lines = ["", f"**{label}**: a first run under the profiler took {wall:.1f} s "
             f"({cpu:.1f} s CPU), {total:.1f} s CPU of it compiling {len(rows)} numba "
             "functions.", "", "| function | compile CPU (s) | calls of `compile` |",
             "|---|---:|---:|"]
    lines += [f"| `{name}` | {t:.2f} | {n} |" for name, t, n in shown]
    if rest:
        lines.append(f"| {len(rest)} others | {sum(rest):.2f} | |")
    return lines


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=",".join(MODELS),
                        help=f"comma-separated, among {', '.join(MODELS)}")
    parser.add_argument("--data", default="helpmiss", help="a CSV file or a data set name")
    parser.add_argument("--target", default="substance")
    parser.add_argument("--quick", action="store_true", help="tan only")
    parser.add_argument("--compile-times", action="store_true",
                        help="also a profiled first run per model: compile time per function")
    args = parser.parse_args(argv)
    labels = ["tan"] if args.quick else [m.strip() for m in args.models.split(",")]
    unknown = sorted(set(labels) - set(MODELS))
    if unknown:
        parser.error(f"unknown models {unknown}; choose among {list(MODELS)}")
    load0 = os.getloadavg()[0]
    lines = ["| model | first (s) | second (s) | first / second | CPU first (s) | "
             "CPU second (s) | CPU first / second |", "|---|---:|---:|---:|---:|---:|---:|"]
    for label in labels:
        with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
            (w1, c1), (w2, c2) = (learn(MODELS[label], args.data, args.target, cache)
                                  for _ in range(2))
        mark = "" if w1 / w2 <= GOAL else " (over the goal)"
        lines.append(f"| {label} | {w1:.1f} | {w2:.1f} | {w1 / w2:.2f}{mark} | {c1:.1f} | "
                     f"{c2:.1f} | {c1 / c2:.2f} |")
    import numba  # noqa: PLC0415  (only for its version)

    lines += ["", f"`kgraph learn {Path(args.data).stem} --target {args.target} --model ...` "
              f"(5-fold CV, then the final fit, report and figures), each model on its own "
              f"empty numba cache; goal first / second <= {GOAL}. numba {numba.__version__}, "
              f"{os.cpu_count()} cores, load average {load0:.1f} before, "
              f"{os.getloadavg()[0]:.1f} after."]
    if args.compile_times:
        lines += ["", "## Compilation per function (CPU seconds, exclusive of the functions "
                  "compiled inside)"]
        for label in labels:
            lines += compile_times(label, args.data, args.target)
    return write("first_run", "First run on an empty numba cache (issue 49)", lines)


if __name__ == "__main__":
    main()
