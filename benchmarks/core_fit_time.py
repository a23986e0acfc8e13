"""In-memory fit time of two versions of the package code, in one run.

A refactor of the core (the layered floors, then one engine for every family) must not make
fits slower: its acceptance asks that after / before is at most 1.10 on every row, timed in
one run at idle. This script takes the package code of a commit before the change
(``--before``, default ``cf1b50b``, the last commit before the one-engine core) from
``git archive`` and the working tree as "after", and times the same fits in both,
alternating the two versions round by round in fresh processes (so drift in the machine's
load falls on both alike). Each worker fits every model once untimed (numba compilation,
imports), then takes the best of ``--repeat`` fits.

Models and tables: every family at its defaults on a table of its kind (the k-TAN
benchmark's fits, ``KTANClassifier(k=3)`` on helpmiss and oj and TAN on helpmiss; kDB,
AODE, BAN, naive Bayes, GNB, k-GNB and the latent conditional NB) and the discriminative
benchmark's (``TANClassifier(parameters="discriminative")`` on car and helpmiss, the
discriminative 2-TAN on car), through the public API that both versions share.

    python benchmarks/core_fit_time.py   # -> benchmarks/results/core_fit_time.md
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if "--worker" not in sys.argv:  # a worker imports the version on its PYTHONPATH
    sys.path.insert(0, str(ROOT))

#: (label, class name, parameters, table)
FITS = [
    ("TAN", "TANClassifier", {}, "helpmiss"),
    ("3-TAN", "KTANClassifier", {"k": 3}, "helpmiss"),
    ("3-TAN", "KTANClassifier", {"k": 3}, "oj"),
    ("TAN discriminative", "TANClassifier", {"parameters": "discriminative"}, "car"),
    ("TAN discriminative", "TANClassifier", {"parameters": "discriminative"}, "helpmiss"),
    ("2-TAN discriminative", "KTANClassifier", {"k": 2, "parameters": "discriminative"},
     "car"),
    ("NB", "NaiveBayesClassifier", {}, "helpmiss"),
    ("kDB (k = 2)", "KDBClassifier", {}, "helpmiss"),
    ("AODE", "AODEClassifier", {}, "helpmiss"),
    ("BAN", "BANClassifier", {}, "car"),
    ("GNB", "GNBClassifier", {}, "wine"),
    ("3-GNB", "KGNBClassifier", {"order": 3}, "wine"),
    ("latent CNB", "LatentCNBClassifier", {"n_components": 2, "random_state": 0}, "oj"),
]
#: the issue's bound on after / before
GOAL = 1.10


def worker(repeat: int) -> None:
    """Time every fit of :data:`FITS` in the code on ``sys.path``; print JSON seconds."""
    import estimators
    from estimators.datasets import load_dataset

    warnings.simplefilter("ignore")
    out = []
    for _label, cls, params, table in FITS:
        X, y = load_dataset(table)
        make = getattr(estimators, cls)
        make(**params).fit(X, y)  # compile and import outside the timing
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            make(**params).fit(X, y)
            best = min(best, time.perf_counter() - t0)
        out.append(best)
    print(json.dumps(out))


def run_version(path: Path, repeat: int) -> list[float]:
    """The worker's seconds in a fresh process with ``path`` as the package root."""
    done = subprocess.run([sys.executable, __file__, "--worker", "--repeat", str(repeat)],
                          check=True, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0",
                               "PYTHONPATH": str(path), "OMP_NUM_THREADS": "1",
                               "NUMBA_CACHE_DIR": str(path / ".numba_cache")})
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="cf1b50b")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="one round of one fit each")
    args = parser.parse_args()
    if args.worker:
        worker(args.repeat)
        return
    from benchmarks._common import QUICK, write

    rounds, repeat = (1, 1) if QUICK else (args.rounds, args.repeat)
    with tempfile.TemporaryDirectory() as tmp:
        before = Path(tmp) / "before"
        before.mkdir()
        paths = ["kgraph", "estimators"]  # and the GPL tables, where that commit has them
        if subprocess.run(["git", "cat-file", "-e", f"{args.before}:benchmarks/data"],
                          cwd=ROOT, capture_output=True).returncode == 0:
            paths.append("benchmarks/data")
        archive = subprocess.run(["git", "archive", args.before, *paths],
                                 cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(before)], input=archive, check=True)
        after = Path(tmp) / "after"  # the working tree's package code, copied alike, with
        after.mkdir()  # the repository's GPL tables (benchmarks/data), no longer package data
        archive = subprocess.run(["tar", "-c", "kgraph", "estimators", "benchmarks/data"],
                                 cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(after)], input=archive, check=True)
        times = {"before": [], "after": []}
        for _ in range(rounds):
            for name, path in (("before", before), ("after", after)):
                times[name].append(run_version(path, repeat))
    best = {name: [min(t[i] for t in runs) for i in range(len(FITS))]
            for name, runs in times.items()}
    lines = [f"Before: the package code of commit `{args.before}`; after: this commit. Best of "
             f"{repeat} fits per process, {rounds} alternating rounds of fresh processes per "
             "version (each fit once untimed first), one thread. Goal: after / "
             f"before <= {GOAL:.2f}.", "",
             "| model | table | before (s) | after (s) | after / before |",
             "|---|---|---:|---:|---:|"]
    for i, (label, _cls, _params, table) in enumerate(FITS):
        b, a = best["before"][i], best["after"][i]
        ratio = a / b
        flag = "" if ratio <= GOAL else " (over the goal)"
        lines.append(f"| {label} | {table} | {b:.3f} | {a:.3f} | {ratio:.2f}{flag} |")
    write("core_fit_time", "In-memory fit time of the package code before and after a core change",
          lines)


if __name__ == "__main__":
    main()
