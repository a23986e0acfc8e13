"""Helpers shared by the benchmark scripts: timing, a maximum spanning tree, markdown output."""

from __future__ import annotations

import os
import platform
import time
from pathlib import Path

import numpy as np
from scipy.sparse.csgraph import minimum_spanning_tree

RESULTS = Path(__file__).resolve().parent / "results"


def best_time(fn, repeat: int = 3):
    """(best wall time in seconds, last result) over ``repeat`` calls."""
    best, out = np.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def max_spanning_tree_edges(W: np.ndarray) -> set[frozenset]:
    """Undirected edges of a maximum spanning tree of the complete graph with weights W.

    scipy's minimum spanning tree on ``offset - W`` (the offset keeps every edge strictly
    positive, because scipy treats a zero entry as a missing edge, and shifts all edges equally).
    """
    C = (W.max() + 1.0) - W
    np.fill_diagonal(C, 0.0)
    T = minimum_spanning_tree(np.triu(C)).tocoo()
    return {frozenset((int(i), int(j))) for i, j in zip(T.row, T.col, strict=True)}


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
