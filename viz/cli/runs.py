"""``kgraph runs list|show|edges`` and the ``--store`` recording of ``kgraph learn``.

A run store is a :class:`kgraph.store.StructureStore` file: ``learn --store runs.db`` adds
one run per call (data hash, model, parameters, seed, cross-validated metrics, the fitted
structure and, with ``--bootstrap``, every resampled structure with role ``bootstrap``).
"""

from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path
from typing import Any

from kgraph._codec import display
from viz.cli.commands import CommandError


def record(args: argparse.Namespace, name: str, X, y, params: dict[str, Any], structure,
           metrics: dict[str, Any], conf) -> int | None:
    """Record a ``learn`` run when ``--store`` is given; return its run id."""
    if args.store is None:
        return None
    from kgraph.store import StructureStore, data_hash

    try:
        with StructureStore(args.store) as store, store.transaction():
            run_id = store.add_run(model=args.model, data_hash=data_hash(X, y), params=params,
                                   seed=args.random_state, label=name,
                                   metrics={"cv_folds": args.cv, **metrics},
                                   structures=[structure])
            for i, s in enumerate(conf.structures_ if conf is not None else []):
                store.add_structure(run_id, s, role="bootstrap", replicate=i)
    except (ValueError, sqlite3.Error) as exc:
        raise CommandError(f"cannot record the run in {args.store}: {exc}") from exc
    return run_id


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``runs`` with its ``list``, ``show`` and ``edges`` actions."""
    p = sub.add_parser("runs", help="query a run store written by 'kgraph learn --store'",
                       description="List the runs of a structure store, show one run, or "
                                   "count how often each edge was learned.")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    filters = argparse.ArgumentParser(add_help=False)
    filters.add_argument("store", type=Path, help="the RUNS.db file")
    filters.add_argument("--model", help="only runs of this model")
    filters.add_argument("--data", dest="label", help="only runs on this data set (its name)")
    filters.add_argument("--data-hash", help="only runs on data with this hash")
    a = actions.add_parser(
        "list", parents=[filters], help="one line per run",
        description="One line per run: data, model, seed, the mean over the folds of every "
                    "cross-validated metric (" + ", ".join(f"{t}: {k}" for t, k in LISTED)
                    + ") and the options that differ from the model's defaults.")
    a.set_defaults(run=run_list)
    a = actions.add_parser("show", help="a run's record and structures")
    a.add_argument("store", type=Path, help="the RUNS.db file")
    a.add_argument("run_id", type=int, help="the run id ('kgraph runs list' shows them)")
    a.set_defaults(run=run_show)
    a = actions.add_parser("edges", parents=[filters],
                           help="edge frequencies over the selected runs, or the runs with an edge")
    a.add_argument("--role", choices=["fitted", "bootstrap"], default="fitted",
                   help="count fitted structures (one per run) or bootstrap ones (fitted)")
    a.add_argument("--edge", nargs=2, metavar=("U", "V"),
                   help="list the runs whose structure has the edge U - V instead")
    a.set_defaults(run=run_edges)


def _open(path: Path):
    from kgraph.store import StructureStore

    if not path.is_file():
        raise CommandError(f"cannot read {path}: no such file")
    try:
        return StructureStore(path)
    except ValueError as exc:
        raise CommandError(str(exc)) from exc


def _where(args: argparse.Namespace) -> dict[str, Any]:
    return {k: getattr(args, k) for k in ("model", "label", "data_hash")
            if getattr(args, k) is not None}


#: the metrics ``runs list`` shows (every one ``kgraph learn`` computes): column, key
LISTED = (("acc", "accuracy"), ("bal acc", "balanced_accuracy"), ("f1 mac", "f1_macro"),
          ("f1 w", "f1_weighted"), ("logloss", "log_loss"), ("brier", "brier"),
          ("auc", "roc_auc_ovr"))
#: parameters that are not model options (the seed has its own column)
_NOT_OPTIONS = frozenset({"verbose", "random_state", "n_jobs"})


def changed_options(model: str | None, params: dict[str, Any]) -> str:
    """The options of a run that differ from its model's defaults, as ``name=value``
    (``-`` when none; every parameter when the model is not one of ``kgraph learn``'s).

    Examples
    --------
    >>> changed_options("tan", {"parameters": "discriminative", "alpha": 1.0, "verbose": False})
    'parameters=discriminative'
    >>> changed_options("tan", {"parameters": "generative", "alpha": 1.0})
    '-'
    """
    import inspect

    from viz.cli.learn import MODELS  # learn imports this module

    spec = MODELS.get(model or "")
    defaults: dict[str, Any] = {}
    if spec is not None:
        estimator = spec.estimator_class()
        defaults = {name: p.default for name, p in inspect.signature(estimator).parameters.items()}
    changed = [f"{k}={v}" for k, v in params.items() if k not in _NOT_OPTIONS
               and not (k in defaults and (v == defaults[k] or v == repr(defaults[k])))]
    return ", ".join(changed) or "-"


def _metric(metrics: dict, key: str) -> str:
    value = metrics.get(key, metrics.get("f1") if key == "f1_weighted" else None)  # "f1": older runs
    mean = value.get("mean") if isinstance(value, dict) else None
    return "-" if mean is None else f"{mean:.4f}"


def run_list(args: argparse.Namespace) -> int:
    """One line per run: its data, model, seed, every cross-validated metric (means) and
    the options that differ from the model's defaults."""
    with _open(args.store) as store:
        runs = store.runs(**_where(args))
    print(f"{'run':>4}  {'created':<25} {'data':<16} {'model':<11} {'data hash':<16} "
          f"{'seed':>4} {'structures':>10}  "
          + " ".join(f"{title:>7}" for title, _ in LISTED) + "  options")
    for r in runs:
        print(f"{r.run_id:>4}  {r.created:<25} {r.label or '-':<16} {r.model or '-':<11} "
              f"{r.data_hash or '-':<16} {'-' if r.seed is None else r.seed:>4} "
              f"{r.n_structures:>10}  "
              + " ".join(f"{_metric(r.metrics, key):>7}" for _, key in LISTED)
              + f"  {changed_options(r.model, r.params)}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    with _open(args.store) as store:
        try:
            run = store.run(args.run_id)
        except KeyError as exc:
            raise CommandError(exc.args[0]) from exc
        fitted = store.structures(args.run_id, role="fitted")
    for name in ("run_id", "created", "label", "model", "data_hash", "seed", "fold",
                 "n_structures"):
        print(f"{name}: {getattr(run, name)}")
    print(f"params: {run.params}")
    print(f"metrics: {run.metrics}")
    for s in fitted:
        print(f"structure: {s!r}")
        for u, v in getattr(s, "edges", []):
            print(f"  {display(u)} - {display(v)}")
    return 0


def run_edges(args: argparse.Namespace) -> int:
    with _open(args.store) as store:
        if args.edge:
            for run_id in store.runs_with_edge(*args.edge, role=args.role, **_where(args)):
                print(run_id)
            return 0
        rows = store.edge_frequencies(role=args.role, **_where(args))
    print(f"{'edge':<40} {'count':>6} {'of':>6} {'frequency':>9}")
    for e in rows:
        print(f"{display(e.u) + ' - ' + display(e.v):<40} {e.count:>6} {e.n_structures:>6} "
              f"{e.frequency:>9.3f}")
    return 0
