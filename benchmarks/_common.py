"""Helpers shared by the benchmark scripts: timing, a maximum spanning tree, markdown output."""

from __future__ import annotations

import os
import platform
import time
from pathlib import Path

import numpy as np

from estimators.search import maximum_spanning_tree

#: where results go: benchmarks/results, or $KGRAPH_BENCH_RESULTS (used by the tests)
RESULTS = Path(os.environ.get("KGRAPH_BENCH_RESULTS") or Path(__file__).resolve().parent / "results")


def best_time(fn, repeat: int = 3):
    """(best wall time in seconds, last result) over ``repeat`` calls."""
    best, out = np.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def max_spanning_tree_edges(W: np.ndarray) -> set[frozenset]:
    """Undirected edges of kgraph's maximum spanning tree (Kruskal order, exact ties)."""
    return {frozenset(e) for e in maximum_spanning_tree(W).edges}


def write(name: str, title: str, lines: list[str]) -> Path:
    """Write ``benchmarks/results/NAME.md`` with a machine line on top; echo it."""
    RESULTS.mkdir(exist_ok=True)
    head = [f"# {title}", "", f"Machine: {platform.processor() or platform.machine()}, "
            f"Python {platform.python_version()}, NumPy {np.__version__}, "
            f"load average at the end {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
            "(other jobs inflate absolute times; ratios are from the same run).", ""]
    text = "\n".join(head + lines) + "\n"
    path = RESULTS / f"{name}.md"
    path.write_text(text)
    print(text)
    return path
