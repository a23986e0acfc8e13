"""``kgraph compare``: several models on several tables, on the same folds, for a paper.

The work is :func:`viz.compare.run_comparison`; this module is its command line.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from viz.cli.commands import CommandError
from viz.cli.methods import figure_width


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``compare`` sub-command."""
    p = sub.add_parser(
        "compare", help="compare models on several tables (leaderboard, LaTeX, CD diagrams)",
        description="Cross-validate every model on every table on the same stratified folds "
                    "(with the LR, HGB and mixed-NB baselines) and write leaderboard.md, "
                    "table.tex, cd_accuracy.pdf, cd_log_loss.pdf and folds.csv to --out. Each "
                    "(table, model, fold) is a row of the run store --store: the same command "
                    "run again resumes where it stopped.")
    p.add_argument("data", nargs="+", metavar="DATA",
                   help="FILE.csv:TARGET, FILE.csv (with --target), a built-in data set "
                        "('kgraph datasets') or a folder of CSV files (with --target)")
    p.add_argument("--models", action="append", required=True, metavar="M1,M2,...",
                   help="kgraph learn models with their options, e.g. 'tan,kdb,tan --parameters "
                        "discriminative'; or package.module:Class [name=value ...] (any "
                        "scikit-learn classifier with predict_proba); repeatable")
    p.add_argument("--out", type=Path, required=True, help="output folder")
    p.add_argument("--target", help="the class column of the CSV files given without :TARGET")
    p.add_argument("--cv", type=int, default=5, help="stratified cross-validation folds (5)")
    p.add_argument("--repeats", type=int, default=1,
                   help="repeats of the cross-validation, seeded --random-state + r (1)")
    p.add_argument("--random-state", type=int, default=0,
                   help="seed of the folds and of every model's own random steps (0)")
    p.add_argument("--no-baselines", dest="baselines", action="store_false",
                   help="leave out the LR (C by inner CV), HGB and mixed-NB baselines")
    p.add_argument("--best", action="store_true",
                   help="add 'best of models (nested CV)': on each outer training part, the "
                        "given model with the lowest inner-CV log-loss")
    p.add_argument("--reference", help="the model each other is tested against in table.tex, "
                        "Holm-adjusted: per table Nadeau and Bengio's corrected resampled "
                        "t-test over the folds (use --repeats 10 for power), over the tables "
                        "Wilcoxon's signed-rank test (it needs 6 or more tables to reach 0.05) "
                        "(default: the first)")
    p.add_argument("--store", type=Path,
                   help="the run store of the cells (default: OUT/runs.db)")
    p.add_argument("--n-jobs", type=int, default=1, help="cells in parallel (joblib; -1: all "
                        "cores)")
    p.add_argument("--engine", choices=["memory", "dask"], default="memory",
                   help="dask: cells run on a Dask cluster")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="dask: address of a running scheduler (default: a 2-worker "
                        "LocalCluster)")
    p.add_argument("--width", type=figure_width, default="page",
                   help="the text width table.tex fits: 'page' (7 in, the default), 'column' "
                        "(3.5 in) or inches")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run_compare)


def run_compare(args: argparse.Namespace) -> int:
    from viz.cli.learn import MODELS
    from viz.cli.paths import check_output_folder
    from viz.compare import run_comparison
    from viz.compare.models import split_models

    check_output_folder(args.out)  # before any work
    specs = [spec for text in args.models for spec in split_models(text, list(MODELS))]
    if args.scheduler and args.engine != "dask":
        raise CommandError("--scheduler needs --engine dask")
    try:
        result = run_comparison(args.data, specs, args.out, target=args.target, cv=args.cv,
                                repeats=args.repeats, random_state=args.random_state,
                                baselines=args.baselines, best=args.best,
                                reference=args.reference, store=args.store,
                                n_jobs=args.n_jobs, engine=args.engine,
                                scheduler=args.scheduler, verbose=not args.quiet,
                                width=args.width)
    except ValueError as exc:
        raise CommandError(str(exc).splitlines()[0]) from exc
    except KeyboardInterrupt:
        store = args.store or args.out / "runs.db"
        print(f"\nkgraph compare: interrupted; the finished cells are in {store}: run the same "
              "command again to resume", file=sys.stderr)
        return 130
    print(f"wrote {args.out}/: " + " ".join(p.name for p in result.files), file=sys.stdout)
    return 0
