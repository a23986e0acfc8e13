"""Benchmark (d): KDECopulaCMI time for one pair at n = 1,000 .. 100,000, slope and accuracy.

Gaussian-copula data (rho = 0.6, margins exp and cube), 2 classes; the time covers fit (ranks,
normal scores) and the pair score; the log-log slope of time against n is fitted by least
squares. Accuracy: |estimate - (-1/2 ln(1 - rho^2))|, averaged over 3 seeds.

Run: ``/work/venv/bin/python benchmarks/kde_copula_scaling.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import QUICK, best_time, write  # noqa: E402

from estimators.scores import KDECopulaCMI  # noqa: E402

RHO = 0.6


def data(n: int, seed: int):
    rng = np.random.default_rng(seed)
    Z = rng.multivariate_normal([0, 0], [[1, RHO], [RHO, 1]], size=n)
    return np.column_stack([np.exp(Z[:, 0]), Z[:, 1] ** 3]), rng.integers(0, 2, n)


def main() -> None:
    truth = -0.5 * np.log(1 - RHO**2)
    ns = [1000, 3000] if QUICK else [1000, 3000, 10_000, 30_000, 100_000]
    rows = [
        f"One pair, 2 classes, Gaussian copula with rho = {RHO} (true CMI {truth:.4f} nats). "
        "Time = `KDECopulaCMI().fit(X, y).score(0, {1})` (best of 3); error = mean absolute "
        "error over seeds 0-2.",
        "",
        "| n | time (s) | estimate (seed 0) | mean abs error |",
        "|---:|---:|---:|---:|",
    ]
    times = []
    for n in ns:
        X, y = data(n, 0)
        t, est = best_time(lambda X=X, y=y: KDECopulaCMI().fit(X, y).score(0, {1}))
        errs = [abs(KDECopulaCMI().fit(*data(n, s)).score(0, {1}) - truth) for s in range(3)]
        times.append(t)
        rows.append(f"| {n} | {t:.4f} | {est:.4f} | {np.mean(errs):.4f} |")
        print(rows[-1], flush=True)
    slope = np.polyfit(np.log(ns), np.log(times), 1)[0]
    rows += ["", f"Fitted log-log slope of time against n: **{slope:.2f}** (1 = linear)."]
    write("kde_copula_scaling", "KDE pair-copula CMI: time and accuracy against n", rows)


if __name__ == "__main__":
    main()
