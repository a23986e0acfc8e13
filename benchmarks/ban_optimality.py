"""How often BAN's tabu hill-climbing misses the optimum over ALL DAGs (MATH.md §9).

For d = 3, 4 and 5 features and in-degree at most 2, each instance's optimum of
``sum_v f(v, Pa(v))`` over every DAG of in-degree <= 2
(:func:`estimators.search.brute_force_dag`: 25 / 443 / 13,956 DAGs) is compared with :func:`estimators.search.hill_climb_dag` under three
settings: plain greedy hill-climbing (``patience=0``), the default tabu search
(``tabu_length=10, patience=10``) and the default with 5 random restarts. The scores are the
registry's, fitted on random tables with planted dependencies (n = 150 rows, 2 classes):
discrete BIC and BDeu, Gaussian BIC, conditional Gaussian BIC on mixed tables with 5 % empty
cells; and, as an adversarial case with no structure at all, i.i.d. N(0, 1) family scores.
A miss is a final score more than 1e-9 below the optimum; the gap is in the score's units
(nats of total log-likelihood for BIC, log Bayes factor for BDeu).

Run from the repository root::

    python benchmarks/ban_optimality.py          # 100 instances per cell
    python benchmarks/ban_optimality.py --quick  # 10 instances per cell, d = 3 and 4
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _common import write  # noqa: E402

from estimators.scores import as_fitted_score, make_score  # noqa: E402
from estimators.search import brute_force_dag, hill_climb_dag  # noqa: E402

SETTINGS = {
    "greedy (patience=0)": dict(patience=0),
    "tabu (default)": {},
    "tabu + 5 restarts": dict(restarts=5, random_state=0),
}
KINDS = [("bic", "discrete"), ("bdeu", "discrete"), ("bic", "gaussian"), ("bic", "mixed"),
         ("iid", "adversarial")]


def planted_table(seed: int, d: int, kind: str, n: int = 150):
    """A random table whose features depend on the class and on up to two earlier ones."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    cols: dict = {}
    for j in range(d):
        base = y + sum(cols[c] for c in list(cols)[-2:] if rng.random() < 0.6)
        if kind == "discrete" or (kind == "mixed" and j % 2 == 0):
            noise = rng.integers(0, 3, n) * (rng.random(n) < 0.5)
            cols[f"x{j}"] = ((np.asarray(base, float) + noise) % 3).astype(int)
        else:
            cols[f"x{j}"] = np.asarray(base, float) + rng.normal(size=n)
    X = pd.DataFrame(cols)
    if kind == "mixed":
        X = X.mask(rng.random(X.shape) < 0.05)
    return X, y


def iid_score(seed: int):
    rng = np.random.default_rng(seed)
    table: dict = {}

    def f(v, parents):
        key = (v, frozenset(parents))
        if key not in table:
            table[key] = 0.0 if not parents else float(rng.normal())
        return table[key]

    return f


def instance(name: str, kind: str, seed: int, d: int):
    """The score ``f`` and its variables."""
    if name == "iid":
        return iid_score(seed), list(range(d))
    X, y = planted_table(seed, d, kind)
    return as_fitted_score(make_score(name, kind).fit(X, y), list(X.columns)), list(X.columns)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="10 instances per cell, d = 3, 4")
    ap.add_argument("--instances", type=int, default=None)
    args = ap.parse_args(argv)
    n_inst = args.instances or (10 if args.quick else 100)
    dims = (3, 4) if args.quick else (3, 4, 5)
    rows, t0 = [], time.time()
    for name, kind in KINDS:
        for d in dims:
            misses = {s: [] for s in SETTINGS}
            for seed in range(n_inst):
                f, variables = instance(name, kind, seed, d)
                best = brute_force_dag(f, 2, variables=variables).score
                for label, options in SETTINGS.items():
                    found = hill_climb_dag(f, 2, variables=variables, **options).score
                    if found > best + 1e-9:
                        raise AssertionError(f"hill-climbing above the optimum: {name}/{kind} "
                                             f"seed {seed} d {d}")
                    if found < best - 1e-9:
                        misses[label].append(best - found)
            for label, gaps in misses.items():
                rows.append(f"| {name} | {kind} | {d} | {label} | {len(gaps)} of {n_inst} | "
                            f"{100 * len(gaps) / n_inst:.1f} % | "
                            + (f"{np.mean(gaps):.3g} |" if gaps else "- |"))
            print(rows[-3:], flush=True)
    lines = [
        __doc__.split("\n\n")[1].replace("\n", " "), "",
        f"{n_inst} instances per cell, in-degree <= 2; total {time.time() - t0:.0f} s.", "",
        "| score | features | d | search | missed the optimum | miss rate | mean gap of the "
        "misses |",
        "|---|---|---|---|---|---|---|",
        *rows, "",
        "Hill-climbing never scored above the brute-force optimum (checked on every instance). "
        "The misses are reported as measured: the search is a heuristic (learning a DAG of "
        "in-degree >= 2 is NP-hard), and the i.i.d. scores are a worst case with no "
        "structure for the moves to follow.",
    ]
    write("ban_optimality", "BAN hill-climbing against the brute-force optimum over all DAGs",
          lines)


if __name__ == "__main__":
    main()
