"""3-TAN with the exact backbone DP against pgmpy's TreeSearch TAN on kr_vs_kp, same run.

Issue 15, point 1: the k = 3 structure search scores all 36 * C(35, 3) = 235,620 discrete
hyperedges (DiscreteCMI.score_many, batched by parent set) and runs the backbone DP; the
peer is ``TreeSearch(...).estimate("tan")`` plus pgmpy's K2 parameter fit, exactly as in
``benchmarks/paper2.py``. Both fit the same training part of each fold of paper 2's
10-fold stratified split (shuffled, random_state=0). Target: mean fit-time ratio <= 1.0.

    python benchmarks/ktan_vs_pgmpy.py [--folds 3]   # -> benchmarks/results/ktan_vs_pgmpy.md
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.model_selection import StratifiedKFold

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _common import write  # noqa: E402
from paper2 import load, pgmpy_tan  # noqa: E402

from estimators.ktan import KTANClassifier  # noqa: E402

BACKBONES = ["given", "mst-dfs"]


def fit_time(make, X, y) -> float:
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        make().fit(X, y)
    return time.perf_counter() - t0


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--folds", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="one fold")
    args = ap.parse_args(argv)
    if args.quick:
        args.folds = 1
    X, y = load("kr_vs_kp")
    states = {c: sorted(X[c].unique()) for c in X.columns} | {"class": sorted(set(y))}
    split = StratifiedKFold(10, shuffle=True, random_state=0).split(X, y)
    times: dict[str, list[float]] = {b: [] for b in BACKBONES} | {"pgmpy": []}
    for fold, (tr, _) in enumerate(split):
        if fold >= args.folds:
            break
        Xtr, ytr = X.iloc[tr], y[tr]
        for b in BACKBONES:
            times[b].append(fit_time(lambda b=b: KTANClassifier(k=3, backbone=b), Xtr, ytr))
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pgmpy_tan(Xtr, ytr, states)
        times["pgmpy"].append(time.perf_counter() - t0)
        print(fold, {k: round(v[-1], 2) for k, v in times.items()}, flush=True)
    peer = np.mean(times["pgmpy"])
    lines = [f"kr_vs_kp ({X.shape[0]} rows, {X.shape[1]} features), training part of the first "
             f"{args.folds} folds of paper 2's split; mean fit time per fold.", "",
             "| model | fit (s), mean | per fold | ratio to pgmpy TAN |", "|---|---|---|---|"]
    for b in BACKBONES:
        t = np.mean(times[b])
        lines.append(f"| 3-TAN, backbone DP, backbone {b!r} | {t:.2f} | "
                     f"{', '.join(f'{v:.2f}' for v in times[b])} | **{t / peer:.2f}** |")
    lines.append(f"| pgmpy TreeSearch TAN + K2 fit | {peer:.2f} | "
                 f"{', '.join(f'{v:.2f}' for v in times['pgmpy'])} | 1.00 |")
    worst = max(np.mean(times[b]) for b in BACKBONES) / peer
    lines += ["", f"Target (issue 15): ratio <= 1.0 -> {worst:.2f} "
              f"({'met' if worst <= 1.0 else 'NOT met'})."]
    write("ktan_vs_pgmpy", "3-TAN (backbone DP) against pgmpy's TAN on kr_vs_kp", lines)


if __name__ == "__main__":
    main()
