"""Compare classifiers on tables, fairly and resumably: the engine of ``kgraph compare``.

:func:`run_comparison` reads the tables (:mod:`viz.compare.data`), builds the models
(:mod:`viz.compare.models`: ``kgraph learn`` specs, importable classifiers, estimator
objects, the baselines, an optional nested-CV best), runs every (table, model, fold) cell
on the same stratified folds, each cell a row of a run store so that an interrupted run
resumes (:mod:`viz.compare.cells`), and writes the leaderboard, the LaTeX table, the
critical-difference diagrams and the per-fold CSV (:mod:`viz.compare.report`).

Examples
--------
>>> import tempfile
>>> from viz.compare import run_comparison
>>> with tempfile.TemporaryDirectory() as out:
...     result = run_comparison(["iris", "wine"], ["gnb", "tan"], out, cv=2,
...                             baselines=False, verbose=False)
>>> sorted(result.folds["model"].unique()), len(result.folds)
(['gnb', 'tan'], 8)
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

__all__ = ["Comparison", "run_comparison"]


@dataclass(frozen=True)
class Comparison:
    """The result of :func:`run_comparison`.

    Attributes
    ----------
    folds : pandas.DataFrame
        One row per cell: table, model, repeat, fold and every metric (``folds.csv``).
    models : list of viz.compare.models.Model
    tables : list of viz.compare.data.Table
    files : list of Path
        The files written (empty without ``out``).
    """

    folds: Any
    models: list
    tables: list
    files: list


def run_comparison(data: Sequence[str] | Mapping[str, tuple[Any, Any]],
                   models: Sequence[str] | Mapping[str, Any],
                   out: str | PathLike | None = None, *, target: str | None = None,
                   cv: int = 5, repeats: int = 1, random_state: int = 0,
                   baselines: bool = True, best: bool = False, reference: str | None = None,
                   store: str | PathLike | None = None, n_jobs: int | None = 1,
                   engine: str = "memory", scheduler: str | None = None,
                   verbose: bool = True, width: str | float = "page") -> Comparison:
    """Cross-validate every model on every table on the same folds; write the reports.

    Parameters
    ----------
    data : sequence of str or mapping of name to (X, y)
        CSV files (``FILE.csv:TARGET``, or with ``target``), built-in data set names,
        folders of CSV files; or tables in memory.
    models : sequence of str or mapping of label to estimator
        ``kgraph learn`` specs such as ``"tan --parameters discriminative"``,
        ``package.module:Class`` (with ``name=value`` parameters); or estimators.
    out : path, optional
        The folder of ``leaderboard.md``, ``table.tex``, ``cd_*.pdf``, ``folds.csv``; None:
        nothing is written (and the store is in memory unless ``store`` is given).
    target : str, optional
        The class column of the CSV files not given as ``FILE:TARGET``.
    cv, repeats, random_state : int
        Stratified ``cv``-fold cross-validation, repeat ``r`` seeded ``random_state + r``.
    baselines : bool, default=True
        Add LR (C by inner CV), HGB and mixed NB.
    best : bool, default=False
        Add the nested-CV choice among ``models`` (lowest inner-CV log-loss).
    reference : str, optional
        The model of the tests in ``table.tex`` (default: the first).
    store : path, optional
        The run store (default: ``out/runs.db``); cells found there are not run again.
    n_jobs : int or None, default=1
        Cells run in parallel processes (joblib; -1: every core).
    engine : {"memory", "dask"}
        ``dask``: cells run on the Dask cluster at ``scheduler`` (default: a local one).
    verbose : bool, default=True
        A progress bar of the cells on stderr.
    width : {"page", "column"} or float, default="page"
        The text width ``table.tex`` must fit: a page (7 in), a column (3.5 in) or inches.

    Returns
    -------
    Comparison
    """
    from kgraph.store import StructureStore
    from viz.cli.warning_log import WarningLog
    from viz.compare.cells import run_cells
    from viz.compare.data import read_tables
    from viz.compare.models import BEST, parse_models
    from viz.compare.report import fold_frame, write_outputs

    if cv < 2:
        raise ValueError(f"cv must be at least 2; got {cv}")
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1; got {repeats}")
    tables = read_tables(data, target)
    chosen = parse_models(models, baselines=baselines, best=best, random_state=random_state)
    labels = [m.label for m in chosen]
    reference = labels[0] if reference is None else " ".join(str(reference).split())
    if reference not in labels:
        raise ValueError(f"the reference {reference!r} is not one of the models "
                         f"({', '.join(labels)})")
    out = None if out is None else Path(out)
    if store is None and out is not None:
        out.mkdir(parents=True, exist_ok=True)
        store = out / "runs.db"
    with StructureStore(":memory:" if store is None else store) as runs:
        results = run_cells(tables, chosen, runs, cv=cv, repeats=repeats,
                            random_state=random_state, n_jobs=n_jobs, engine=engine,
                            scheduler=scheduler, verbose=verbose)
    folds = fold_frame(results, labels, [t.name for t in tables])
    log = WarningLog()
    for cell, scores in results.items():
        log.add(f"{cell.table} / {cell.model}", scores.get("warnings", []))
    for line in log.terminal_lines():
        print(line.replace("every one in report.md", "every one in leaderboard.md"),
              file=sys.stderr)
    files = []
    if out is not None:
        seeds = (f"seed {random_state}" if repeats == 1
                 else f"seeds {random_state} to {random_state + repeats - 1}")
        protocol = (f"{len(tables)} tables, {len(chosen)} models. Stratified {cv}-fold "
                    f"cross-validation repeated {repeats} time{'s' if repeats > 1 else ''} "
                    f"({seeds}; repeat 0 has the folds of `kgraph learn --random-state "
                    f"{random_state}`), the same folds for every model; each model on its "
                    "own" + (f"; `{BEST}`: the model with "
                             "the lowest inner-CV log-loss among the given ones, chosen on "
                             "each outer training part (nested CV)" if best else "")
                    + ". Cells: rows of the run store `" + str(store) + "`.")
        files = write_outputs(folds, out, protocol=protocol, models=chosen, tables=tables,
                              reference=reference, log=log, width=width)
    return Comparison(folds, chosen, tables, files)
