"""Semiparametric factors at interactive speed (issue 49, item 1): the fit time of
``TANClassifier(continuous="auto")`` against ``TANClassifier(parameters="discriminative")``
measured in one run on the same training rows.

Tables: the shared tables with at least 5,000 rows and continuous columns (``arrests``:
5,226 rows, 3 of 7 features continuous), ``winequality_white`` (4,898 rows, 11 continuous:
the largest all-continuous shared table, just below 5,000), and generated tables of 20,000
(and 5,000) rows x 10 continuous columns (:func:`generated`: three classes, a latent chain,
margins normal, exp, quadratic, |z|^1.5 and rounded to halves). Protocol: one stratified
75 / 25 split (seed 0); each model fitted once on the 75 % (``--repeat``: best of several)
after one warm-up fit of each on a small generated table (numba compiles outside the timings);
wall and CPU seconds of the fit; accuracy and log-loss on the 25 %. With ``--exact`` the
``"auto"`` TAN with the CKDE's direct kernel sums (``Semiparametric("auto",
kernel_sum="exact")``, the computation before issue 49) too, and the largest difference of
its held-out class probabilities from the default's (binned sums).

Goal (issue 49, fixed before the run): ``"auto"`` / discriminative fit time <= 10 on every
table. Timings need an idle machine (load average below 1); the header gives the load.

    PYTHONPATH=$PWD python benchmarks/semiparametric_speed.py --exact  # -> results/semiparametric_speed.md
    PYTHONPATH=$PWD python benchmarks/semiparametric_speed.py --quick  # a 3,000-row generated table
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import QUICK, write  # noqa: E402
from _tables import load_table  # noqa: E402
from sklearn.base import clone  # noqa: E402
from sklearn.metrics import accuracy_score, log_loss  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402

from estimators import TANClassifier  # noqa: E402
from estimators.semiparametric import Semiparametric  # noqa: E402

SHARED = ["arrests", "winequality_white"]
GENERATED = [(20_000, 10), (5_000, 10)]
GOAL = 10.0
DISCRIMINATIVE = "discriminative"
AUTO = "auto (binned)"
EXACT = "auto (exact sums)"
MODELS = {DISCRIMINATIVE: TANClassifier(parameters="discriminative"),
          AUTO: TANClassifier(continuous="auto"),
          EXACT: TANClassifier(continuous=Semiparametric("auto", kernel_sum="exact"))}


def generated(n: int, d: int, seed: int = 0) -> tuple[pd.DataFrame, pd.Series]:
    """Three classes; a latent chain z_j = 0.6 z_{j-1} + 0.8 e + 0.3 y; column j is z_j, exp(z_j),
    z_j^2 + 0.3 z_j, |z_j|^1.5 or z_j rounded to halves (j mod 5)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    Z = np.empty((n, d))
    Z[:, 0] = rng.normal(size=n) + 0.5 * y
    for j in range(1, d):
        Z[:, j] = 0.6 * Z[:, j - 1] + 0.8 * rng.normal(size=n) + 0.3 * y
    shapes = (lambda z: z, np.exp, lambda z: z ** 2 + 0.3 * z, lambda z: np.abs(z) ** 1.5,
              lambda z: np.round(2 * z) / 2)
    X = pd.DataFrame({f"x{j}": shapes[j % 5](Z[:, j]) for j in range(d)})
    return X, pd.Series(np.array(["p", "q", "r"])[y], name="class")


def measure(model, X, y, train, test, repeat: int) -> dict:
    """Best-of-``repeat`` wall and CPU fit seconds, held-out accuracy, log-loss, proba."""
    wall, cpu = np.inf, np.inf
    for _ in range(repeat):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tick, tock = time.perf_counter(), time.process_time()
            fitted = clone(model).fit(X.iloc[train], y.iloc[train])
            wall = min(wall, time.perf_counter() - tick)
            cpu = min(cpu, time.process_time() - tock)
    proba = fitted.predict_proba(X.iloc[test])
    truth = y.iloc[test].to_numpy()
    kinds = getattr(fitted.network_, "kinds", None)
    return {"wall": wall, "cpu": cpu, "proba": proba,
            "acc": accuracy_score(truth, fitted.classes_[proba.argmax(axis=1)]),
            "loss": log_loss(truth, proba, labels=fitted.classes_),
            "kinds": "" if kinds is None else ", ".join(
                f"{k} {sum(x == k for x in kinds)}" for k in sorted(set(kinds)))}


def run(name: str, X: pd.DataFrame, y: pd.Series, models: list, repeat: int) -> list[str]:
    train, test = train_test_split(np.arange(len(y)), test_size=0.25, stratify=y,
                                   random_state=0)
    res = {}
    for label in models:
        res[label] = measure(MODELS[label], X, y, train, test, repeat)
        print(f"{name:<24} {label:<20} wall {res[label]['wall']:.2f} s cpu "
              f"{res[label]['cpu']:.2f} s loss {res[label]['loss']:.4f}", file=sys.stderr,
              flush=True)
    disc = res[DISCRIMINATIVE]
    lines = []
    for label in models:
        r = res[label]
        dp = (f"{np.abs(r['proba'] - res[AUTO]['proba']).max():.1e}"
              if label == EXACT else "")
        lines.append(f"| {name} | {len(train)} x {X.shape[1]} | {label} | {r['wall']:.2f} | "
                     f"{r['cpu']:.2f} | {r['wall'] / disc['wall']:.1f} | "
                     f"{r['cpu'] / disc['cpu']:.1f} | {r['acc']:.4f} | {r['loss']:.4f} | "
                     f"{dp} | {r['kinds']} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--exact", action="store_true",
                        help="also the 'auto' TAN with direct kernel sums (minutes per table)")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    models = [DISCRIMINATIVE, AUTO] + ([EXACT] if args.exact else [])
    X, y = generated(600, 4, seed=1)  # warm-up: compiled kernels and imports outside the timings
    for label in models:
        measure(MODELS[label], X, y, np.arange(450), np.arange(450, 600), 1)
    tables = []
    if QUICK:
        tables.append(("generated 3,000 x 6", *generated(3000, 6)))
    else:
        for name in SHARED:
            X, y, _ = load_table(name, 2, None)
            tables.append((name, X, y))
        tables += [(f"generated {n:,} x {d}", *generated(n, d)) for n, d in GENERATED]
    lines = [__doc__.split("\n\n")[0].replace("\n", " "), "",
             f"Goal: {AUTO} / {DISCRIMINATIVE} fit time <= {GOAL:g} (the ratio columns: wall "
             "clock and CPU seconds of the process). Fit seconds best of "
             f"{args.repeat}; accuracy and log-loss on the held-out 25 %; |dp|: the largest "
             "difference of a held-out class probability from the binned sums' model.", "",
             "| table | training rows x features | model | fit s | CPU s | / discriminative "
             "(wall) | / discriminative (CPU) | accuracy | log-loss | abs dp | factor kinds |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for name, X, y in tables:
        lines += run(name, X, y, models, args.repeat)
    write("semiparametric_speed", "Semiparametric factors at interactive speed (issue 49)",
          lines + [""])


if __name__ == "__main__":
    main()
