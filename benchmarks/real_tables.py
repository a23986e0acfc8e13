"""Real tables (issues 11, 26): every kgraph classifier beside the baselines, each on its
own, on the same folds.

Rows: every kgraph classifier of the registry (``_models.py``: every classifier
:mod:`estimators` exports, at its defaults, then the registered variants such as
``latent-cnb (auto)``); ``best kgraph (nested CV)``: per outer fold, the exported classifiers
at their defaults scored by 3-fold CV on the training part only, the best refitted and scored on the test part; the
baselines of ``_baselines.py`` (GaussianNB and mixed naive Bayes, LogisticRegression and
HistGradientBoosting pipelines). Each row counts on its own against each baseline.

Tables: the four mixed real tables (penguins, oj, arrests, helpmiss; missing cells kept:
the kgraph models marginalise them, the baselines impute) and the fourteen shipped UCI
tables. Protocol: stratified 5-fold CV repeated ``--repeats`` times (default 3, seeds 0, 1,
2), accuracy and log-loss (mean ± std over all folds). Classes with fewer rows than folds
are dropped (only helpmiss's ``substance = missing``, 1 row, a missing target).

Run: ``PYTHONPATH=$PWD python benchmarks/real_tables.py --max-rows 500`` (writes
results/real_tables.md); ``--quick``: four small tables, 150 rows, one repeat
(results/real_tables_quick.md). Results are cached per table x model x code version in
``--cache`` (default ``results/.cache``); the report refuses results of another version.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _baselines import BASELINES, BOOSTING, DESCRIPTION, GAUSSIAN_NB, LOGISTIC, MIXED_NB, SHORT  # noqa: E402
from _common import write  # noqa: E402
from _models import NestedBest, default_classifiers, kgraph_classifiers  # noqa: E402
from _tables import (  # noqa: E402
    CACHE,
    cell,
    settings,
    table_results,
    version,
)

from estimators.columns import infer_feature_types  # noqa: E402
from estimators.datasets import list_datasets, load_dataset  # noqa: E402

REAL = ["penguins", "oj", "arrests", "helpmiss"]
UCI = [n for n in list_datasets() if n not in REAL and n not in ("iris", "breast_cancer")]
QUICK_TABLES = ["penguins", "car", "votes", "wine"]
QUICK_ROWS = 150
FOLDS = 5
NESTED = "best kgraph (nested CV)"
HISTORY = (
    "History of the goal (one line): issue 11 set 'the best kgraph model at or above the "
    "GaussianNB pipeline on every table'; on one 5-fold split the best of five defaults "
    "reached 16 of 18, then the `latent-cnb (auto)` row (17 of 18) and the 3-repeat protocol "
    "(18 of 18) were added after those misses, and that best was picked on the test folds; "
    "since issue 26 each model counts on its own and the only 'best' row is chosen by "
    "nested CV on the training folds, against four baselines.")


NOT_COMPUTED = "not computed: the run was stopped before it (--cache-only)"


def repeat_means(result: dict, key: str = "acc_folds") -> np.ndarray:
    """A metric of each repeat of the CV (mean over its folds)."""
    return np.asarray(result[key]).reshape(-1, FOLDS).mean(axis=1)


def compare(ours: dict, other: dict) -> tuple[bool, bool, bool] | None:
    """(accuracy at or above, log-loss at or below, accuracy at or above in every repeat)
    of ``ours`` against ``other``; None when either failed."""
    if "error" in ours or "error" in other:
        return None
    every = bool((repeat_means(ours) >= repeat_means(other)).all())
    return ours["acc"] >= other["acc"], ours["loss"] <= other["loss"], every


def counts_table(all_results: dict, rows: list[str]) -> list[str]:
    """Each row's own count against each baseline: tables with accuracy at or above it
    (in every repeat) / log-loss at or below it, of the tables where both ran."""
    lines = ["| model | " + " | ".join(f"vs {SHORT[b]}" for b in BASELINES) + " | within 0.02 of LR (acc) |",
             "|---|" + "---:|" * (len(BASELINES) + 1)]
    for label in rows:
        cells = []
        for baseline in BASELINES:
            got = [compare(r[label], r[baseline]) for r in all_results.values()]
            got = [g for g in got if g is not None]
            cells.append(f"{sum(g[0] for g in got)} ({sum(g[2] for g in got)}) / "
                         f"{sum(g[1] for g in got)} of {len(got)}")
        near = [r[label]["acc"] - r[LOGISTIC]["acc"] >= -0.02 for r in all_results.values()
                if "error" not in r[label] and "error" not in r[LOGISTIC]]
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {sum(near)} of {len(near)} |")
    return lines


def nested_table(all_results: dict) -> list[str]:
    lines = [f"| table | models chosen (outer folds) | {NESTED} accuracy | its log-loss | "
             + " | ".join(f"acc − {SHORT[b]}" for b in BASELINES) + " |",
             "|---|---|---:|---:|" + "---:|" * len(BASELINES)]
    for name, results in all_results.items():
        best = results[NESTED]
        if "error" in best:
            lines.append(f"| {name} | {best['error']} |" + " |" * (len(BASELINES) + 2))
            continue
        chosen = ", ".join(f"{k} {v}" for k, v in Counter(best["chosen"]).most_common())
        diffs = [f"{best['acc'] - results[b]['acc']:+.4f}" if "acc" in results[b] else "error"
                 for b in BASELINES]
        lines.append(f"| {name} | {chosen} | {best['acc']:.4f} | {best['loss']:.4f} | "
                     + " | ".join(diffs) + " |")
    return lines


def goal_line(all_results: dict, rows: list[str]) -> str:
    parts = []
    for label in rows:
        got = [compare(r[label], r[GAUSSIAN_NB]) for r in all_results.values()]
        got = [g for g in got if g is not None]
        n = sum(NOT_COMPUTED not in (r[label].get("error"), r[GAUSSIAN_NB].get("error"))
                for r in all_results.values())  # tables where both were run
        parts.append(f"{label} {sum(g[0] for g in got)} of {n}")
    return ("Goal of issue 11 (at or above the GaussianNB pipeline on every table), each row on "
            "its own (a failed fit counts as not at or above): " + "; ".join(parts) + ".")


def parse_arguments(description: str, all_tables: list[str]) -> argparse.Namespace:
    """The command line of the table benchmarks (real_tables.py, leaderboard.py), with
    ``rows``, ``repeats`` and ``table_names`` resolved (``--quick``: QUICK_TABLES at
    QUICK_ROWS rows, one repeat)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true",
                        help=f"{', '.join(QUICK_TABLES)} at {QUICK_ROWS} rows, one repeat")
    parser.add_argument("--max-rows", type=int, default=None,
                        help="subsample larger tables (stratified) to this many rows")
    parser.add_argument("--cache", default=str(CACHE),
                        help="folder of the run store runs.db (kgraph compare's cells, per "
                             "table x model x fold x code version; real_tables.py, "
                             "leaderboard.py and parallel runs share it)")
    parser.add_argument("--repeats", type=int, default=None,
                        help="shuffles of the 5-fold CV (seeds 0, 1, ...; default 3, "
                             "--quick 1)")
    parser.add_argument("--tables", default=None,
                        help="comma-separated table names (default: all)")
    parser.add_argument("--cache-only", action="store_true",
                        help="report only results already in the run store (of this code "
                             "version); a model without one is reported as not computed")
    parser.add_argument("--n-jobs", type=int, default=1,
                        help="cells (model x fold) in parallel processes (kgraph compare's "
                             "--n-jobs); seconds are then measured with the cells sharing "
                             "the cores")
    args = parser.parse_args()
    args.rows = QUICK_ROWS if args.quick else args.max_rows
    args.repeats = args.repeats or (1 if args.quick else 3)
    args.table_names = (args.tables.split(",") if args.tables
                        else QUICK_TABLES if args.quick else all_tables)
    return args


def main() -> None:
    args = parse_arguments(__doc__.splitlines()[0], REAL + UCI)
    rows, repeats, tables = args.rows, args.repeats, args.table_names
    ours = kgraph_classifiers()
    candidates = default_classifiers()
    models = {**ours, NESTED: NestedBest(candidates), **BASELINES}
    all_results, notes = {}, []
    for name in tables:
        results, dropped, shape = table_results(name, models, folds=FOLDS, rows=rows,
                                                     repeats=repeats, cache=args.cache,
                                                     cache_only=args.cache_only,
                                                     n_jobs=args.n_jobs)
        all_results[name] = {k: results.get(k, {"error": NOT_COMPUTED}) for k in models}
        types = Counter(infer_feature_types(load_dataset(name)[0]).values())
        kind = ", ".join(f"{n} {t}" for t, n in sorted(types.items()))
        notes.append(f"- {name}: {shape[0]} rows, {shape[1]} features ({kind}, as typed by "
                     "`feature_types='auto'`)"
                     + (f"; dropped classes with fewer than {FOLDS} rows: {dropped}"
                        if dropped else ""))
    code = version()
    rows_ours = [*ours, NESTED]
    missing = [f"{k} on {name}" for name, res in all_results.items() for k, r in res.items()
               if r.get("error") == NOT_COMPUTED]
    lines = [
        f"Code version (hash of the package sources and scikit-learn's version) {code}: every "
        "result below was computed by it, each (table, model, fold) a cell of `kgraph "
        "compare`'s run store (`--cache`), in this run or an earlier run of the same "
        "version sharing the store; cells of other versions are never reused."
        + (f" Tables with more than {rows} rows are subsampled to {rows} (stratified, seed 0)."
           if rows else "")
        + f" Stratified {FOLDS}-fold CV repeated {repeats} times (shuffled with seeds 0 to "
        f"{repeats - 1}), the same folds for every model of a table; accuracy and log-loss "
        f"are mean ± std over the {repeats * FOLDS} folds; seconds are the whole CV (fits and "
        "predictions, one BLAS thread) on a shared 2-core machine.", "",
        HISTORY
        + ("" if repeats == 3 else f" This file: --repeats {repeats} (the default is 3), for "
           "compute on the shared machine; it was chosen before the run, not after seeing "
           "its numbers."), "",
        "kgraph classifiers (the registry of `benchmarks/_models.py`; missing cells "
        "marginalised, column types automatic): "
        + "; ".join(f"{k} = `{type(m).__name__}` ({settings(m)})" for k, m in ours.items())
        + f". `{NESTED}`: in each outer fold, {', '.join(candidates)} (every classifier "
        "`estimators` exports, at its defaults) are scored by stratified 3-fold CV on the training part "
        "only; the one with the best inner accuracy is refitted on the training part and "
        "scored on the test part (its log-loss is that model's).", "",
        DESCRIPTION, "",
        "Tables:", "", *notes, "",
        "## Each model against each baseline", "",
        "Each cell: tables where the row's accuracy is at or above the baseline's (in brackets: "
        "in every repeat separately) / tables where its log-loss is at or below the "
        "baseline's, of the tables where both ran. Baselines: GaussianNB pipeline = "
        f"`{GAUSSIAN_NB}`, mixed NB = `{MIXED_NB}`, LR pipeline = `{LOGISTIC}`, HGB = "
        f"`{BOOSTING}`. Last column: accuracy within 0.02 of the LR pipeline or above.", "",
        *counts_table(all_results, rows_ours), "",
        *([f"Not computed (the run was stopped at the deadline; `--cache-only` reports what "
           f"was computed): {', '.join(missing)}.", ""] if missing else []),
        goal_line(all_results, rows_ours), "",
        f"## {NESTED}", "",
        *nested_table(all_results), "",
    ]
    for name, results in all_results.items():
        lines += [f"## {name}", "", "| model | accuracy | log-loss | seconds |",
                  "|---|---:|---:|---:|"]
        for label, r in results.items():
            seconds = f"{r['seconds']:.1f}" if "seconds" in r else r["error"]
            lines.append(f"| {label} | {cell(r, 'acc')} | {cell(r, 'loss')} | {seconds} |")
        lines.append("")
    write("real_tables_quick" if args.quick else "real_tables",
          "Real tables: kgraph classifiers vs baselines, each on its own (issues 11, 26)", lines)


if __name__ == "__main__":
    main()
