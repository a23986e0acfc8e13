"""Leaderboard (issue 26): every kgraph classifier of the registry on every shared table
against the baselines, accuracy and log-loss, mean ranks, the Friedman test and Nemenyi
critical-difference diagrams (Demšar, JMLR 2006; ``viz.plot_critical_difference``).

The classifiers come from ``benchmarks/_models.py`` (the command line's models at their
defaults and the registered variants), so a classifier that lands there joins the board on
the next run. Tables: every shipped data set and the four real tables; the protocol and the
cached per-table results are those of ``real_tables.py`` (stratified 5-fold CV repeated 3
times, tables subsampled to ``--max-rows``); each model is scored on its own.

Run: ``PYTHONPATH=$PWD python benchmarks/leaderboard.py --max-rows 500`` (writes
results/leaderboard.md and leaderboard_accuracy.png / leaderboard_log_loss.png);
``--quick``: the real_tables quick tables (results/leaderboard_quick.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _baselines import BASELINES, DESCRIPTION  # noqa: E402
from _common import RESULTS, write  # noqa: E402
from _models import SAME_AS, kgraph_classifiers  # noqa: E402
from _tables import settings, table_results, version  # noqa: E402
from real_tables import FOLDS, NOT_COMPUTED, REAL, parse_arguments  # noqa: E402

from estimators.datasets import list_datasets  # noqa: E402
from viz import friedman_nemenyi, plot_critical_difference  # noqa: E402

TABLES = REAL + [n for n in list_datasets() if n not in REAL]
METRICS = {"accuracy": ("acc", True), "log-loss": ("loss", False)}


def matrix(all_results: dict, key: str) -> pd.DataFrame:
    """Rows tables, columns models: the mean of ``key`` over the folds (NaN: failed)."""
    return pd.DataFrame({name: {label: r.get(key, float("nan")) for label, r in res.items()}
                         for name, res in all_results.items()}).T


def metric_section(title: str, scores: pd.DataFrame, higher: bool, stem: str) -> list[str]:
    test = friedman_nemenyi(scores, higher_is_better=higher)
    fig = plot_critical_difference(test, title=f"{title}: mean rank over {test.n_datasets} "
                                   "tables (1 = best)")
    for suffix in (".png", ".pdf"):
        fig.savefig(RESULTS / f"{stem}{suffix}", dpi=150, metadata=(
            {"CreationDate": None} if suffix == ".pdf" else {"Software": None}))
    first_place = scores.rank(axis=1, ascending=not higher, method="min") == 1  # ties too
    order = list(test.mean_ranks.index)
    lines = [f"## {title}", "",
             f"Mean rank over the {test.n_datasets} tables where every model ran (1 = best"
             + (f"; left out, a model failed or was not computed: "
                f"{', '.join(map(str, test.dropped))}"
                if test.dropped else "") + "):", "",
             "| model | mean rank | tables ranked first (ties included) | mean " + title + " |",
             "|---|---:|---:|---:|"]
    complete = scores.drop(index=list(test.dropped))
    for label in order:
        first = int(first_place.loc[complete.index, label].sum())
        lines.append(f"| {label} | {test.mean_ranks[label]:.2f} | {first} | "
                     f"{complete[label].mean():.4f} |")
    lines += ["", f"Friedman chi-square {test.friedman_chi2:.2f} (p = {test.friedman_p:.2g}); "
              f"Iman-Davenport F {test.iman_davenport_f:.2f} (p = {test.iman_davenport_p:.2g}); "
              f"Nemenyi critical difference at alpha = {test.alpha}: {test.critical_difference:.2f} "
              f"mean ranks (q = {test.q_alpha:.3f}, k = {len(order)}, N = {test.n_datasets}). "
              "Groups not significantly different (mean ranks within CD): "
              + ("; ".join("{" + ", ".join(c) + "}" for c in test.cliques) or "none") + ".", "",
              f"![critical-difference diagram, {title}]({stem}.png)", "",
              "| table | " + " | ".join(order) + " |",
              "|---|" + "---:|" * len(order)]
    for name, row in scores[order].iterrows():
        best = row.max() if higher else row.min()
        lines.append(f"| {name} | " + " | ".join(
            "error" if pd.isna(v) else (f"**{v:.4f}**" if v == best else f"{v:.4f}")
            for v in row) + " |")
    return lines + [""]


def main() -> None:
    args = parse_arguments(__doc__.splitlines()[0], TABLES)
    rows, repeats = args.rows, args.repeats
    ours = kgraph_classifiers()
    models = {**ours, **BASELINES}
    all_results = {}
    for name in args.table_names:
        results, _, _ = table_results(name, models, folds=FOLDS, rows=rows,
                                           repeats=repeats, cache=args.cache,
                                           cache_only=args.cache_only, n_jobs=args.n_jobs)
        all_results[name] = {k: results.get(k, {"error": NOT_COMPUTED}) for k in models}
    missing = [f"{k} on {name}" for name, res in all_results.items() for k, r in res.items()
               if r.get("error") == NOT_COMPUTED]
    code = version()
    stem = "leaderboard_quick" if args.quick else "leaderboard"
    RESULTS.mkdir(parents=True, exist_ok=True)
    lines = [
        f"Code version {code} (every result below from it, computed in this run or read "
        "from the cache shared with real_tables.py and parallel runs of the same version). "
        f"{len(all_results)} tables: "
        + ", ".join(all_results) + "."
        + (f" Tables with more than {rows} rows subsampled to {rows} (stratified, seed 0)."
           if rows else "")
        + f" Stratified {FOLDS}-fold CV repeated {repeats} times (seeds 0 to {repeats - 1}), "
        "the same folds for every model; each cell is the mean over the folds. Each model "
        "on its own: no best-of row.", "",
        "kgraph classifiers (registry of `benchmarks/_models.py`): "
        + "; ".join(f"{k} = `{type(m).__name__}` ({settings(m)})" for k, m in ours.items())
        + "." + "".join(f" Left out: `{k}` ({why})." for k, why in SAME_AS.items()),
        "", DESCRIPTION, "",
        *([f"Not computed (the run was stopped at the deadline; `--cache-only` reports what "
           f"was computed; a table where a model has no result is left out of the ranks): "
           f"{', '.join(missing)}.", ""] if missing else []),
    ]
    for title, (key, higher) in METRICS.items():
        lines += metric_section(title, matrix(all_results, key), higher,
                                f"{stem}_{title.replace('-', '_')}")
    write(stem, "Leaderboard: every kgraph classifier against the baselines (issue 26)", lines)


if __name__ == "__main__":
    main()
