"""Benchmark (c): backbone_dp time and peak memory against n at k = 1..4, with log-log slopes.

A random score (an independent uniform value per (v, parent set), held in a dict filled by a
warm-up run, so the time is the DP's, including its n·C(n-1, k) score look-ups). Best of 3
(best of 1 for the largest sizes). Peak memory: ``tracemalloc``'s peak during one more run
(NumPy arrays are traced). Targets (issue 15): k = 3, n = 40 under 5 s; k = 4, n = 30 under
60 s; slopes up to n = 60 at k = 2. Writes ``benchmarks/results/backbone_dp.md``.

Run: ``/work/venv/bin/python benchmarks/backbone_dp.py``.
"""

from __future__ import annotations

import os
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import QUICK, best_time, write  # noqa: E402

from estimators.search.backbone_dp import backbone_dp  # noqa: E402

SIZES = {1: (10, 20, 40, 60), 2: (10, 20, 40, 60), 3: (10, 20, 40), 4: (10, 20, 30)}
if QUICK:  # --quick: small sizes only
    SIZES = {1: (10, 20), 2: (10, 20), 3: (10, 20)}
TARGETS = {(3, 20): 2.0, (3, 40): 5.0, (4, 30): 60.0}


def peak_mb(fn) -> float:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def random_score(seed: int):
    rng = np.random.default_rng(seed)
    table: dict = {}

    def f(v, parents):
        return table.setdefault((v, parents), float(rng.random()))

    return f


def reference_seconds() -> float:
    """Wall time of a fixed workload of the DP's kind (gathers, sums and argmax over a
    million-cell table, plus a Python loop), best of 3: the load-free yardstick of a run."""
    rng = np.random.default_rng(0)
    table, idx = rng.random((1000, 1000)), rng.integers(0, 1000, (2000, 500))

    def work():
        acc = 0.0
        for _ in range(10):
            acc += float((table[idx, idx[:, ::-1]] + table[idx[::-1], idx]).argmax(axis=1).sum())
        return acc + sum(i * i for i in range(200_000))

    return best_time(work, repeat=3)[0]


def cpu_time(fn) -> float:
    """CPU seconds of one call (this process, all threads): what the load does not inflate."""
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def main() -> None:
    load0, ref0 = os.getloadavg()[0], reference_seconds()
    lines = ["| k | n | time (s) | CPU time (s) | time / reference | peak memory (MB) | "
             "optimum |", "|---|---|---|---|---|---|---|"]
    slopes, measured, cpu = [], {}, {}
    for k, sizes in SIZES.items():
        times, cpus = [], []
        for n in sizes:
            f = random_score(10 * n + k)
            backbone_dp(f, range(n), k)  # warm-up fills the score dict
            run = lambda f=f, n=n, k=k: backbone_dp(f, range(n), k)  # noqa: E731
            t, res = best_time(run, repeat=1 if n ** (k + 1) > 10**6 else 3)
            times.append(t)
            measured[(k, n)], cpu[(k, n)] = t, cpu_time(run)
            cpus.append(cpu[(k, n)])
            lines.append(f"| {k} | {n} | {t:.4f} | {cpu[(k, n)]:.4f} | {t / ref0:.1f} | "
                         f"{peak_mb(run):.0f} | {res.score:.3f} |")
            print(lines[-1], flush=True)
        slopes.append((k, sizes, *(
            (np.polyfit(np.log(sizes), np.log(ts), 1)[0],
             np.log(ts[-1] / ts[-2]) / np.log(sizes[-1] / sizes[-2])) for ts in (times, cpus))))
    lines += ["", "Fitted slope of log time against log n (all sizes, and between the two "
              "largest). The DP tables grow as n^(k+1) for fixed k (theory slope k + 1); "
              "fixed NumPy overhead flattens small n:", "",
              "| k | n | slope (fit), wall | slope (two largest), wall | slope (fit), CPU | "
              "slope (two largest), CPU |", "|---|---|---|---|---|---|"]
    lines += [f"| {k} | {', '.join(map(str, s))} | {w[0]:.2f} | {w[1]:.2f} | {c[0]:.2f} | "
              f"{c[1]:.2f} |" for k, s, w, c in slopes]
    ref1 = reference_seconds()
    lines += [""] + [f"Target k = {k}, n = {n} under {limit:g} s: {measured[(k, n)]:.2f} s wall "
                     f"({'met' if measured[(k, n)] < limit else 'NOT met'}), "
                     f"{cpu[(k, n)]:.2f} s CPU "
                     f"({'met' if cpu[(k, n)] < limit else 'NOT met'} on CPU time)."
                     for (k, n), limit in TARGETS.items() if (k, n) in measured]
    lines += ["", f"Load: {load0:.1f} at the start, {os.getloadavg()[0]:.1f} at the end (2 "
              f"cores). Reference workload (`reference_seconds`, fixed): {ref0:.3f} s at the "
              f"start, {ref1:.3f} s at the end; 'time / reference' divides by the first. Wall "
              "time includes waiting for a core on a loaded machine; CPU time (this process's "
              "`time.process_time`) does not, so it is the figure comparable across loads. "
              "Both include the n * C(n - 1, k) calls of the Python score (a dict look-up "
              "each).",
              ""]
    write("backbone_dp", "Benchmark (c): exact backbone DP (estimators.search.backbone_dp)", lines)


if __name__ == "__main__":
    main()
