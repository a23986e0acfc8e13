"""``kgraph learn --engine dask``: learn from Parquet/CSV files larger than memory.

The files (a glob such as ``'data/*.parquet'``) are read lazily with ``dask.dataframe``; the
model is fitted from partition statistics (:mod:`estimators.distributed`) on a Dask cluster:
``--scheduler ADDRESS`` connects to a running one, otherwise a ``LocalCluster`` of 2 worker
*processes* with 1 thread each is started. Processes, not threads: reading Parquet/CSV into
pandas, ``pd.unique`` and the category look-ups hold the GIL for much of their time, so two
threads would mostly take turns; only the small statistics travel between processes, and each
worker gets its own memory limit.

Metrics: the rows are split at random (``random_split``, seeded by ``--random-state``) into a
training part and a held-out part of ``--holdout`` (default 0.2) of the rows. The model is
fitted on the training part and its predictions on the held-out part are counted per
partition into a confusion matrix, from which accuracy and weighted precision/recall/F1 are
exactly those of scikit-learn on all held-out rows (the counts are the sample weights). There
is no cross-validation (``--cv`` is not used) and no bootstrap or run store with this engine.
The same files as the in-memory path are written: ``structure.graphml``, ``structure.json``,
``model.joblib``, ``metrics.json``, ``metrics.csv``, the figure and ``report.md``.
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from viz._markdown import markdown_table
from viz.cli.clock import Clock
from viz.cli.commands import CommandError

if TYPE_CHECKING:
    import pandas as pd

#: models that fit from a Dask DataFrame (the others refuse it with a TypeError)
DASK_MODELS = ("gnb", "tan")


def add_options(p: argparse.ArgumentParser) -> None:
    """The ``--engine``, ``--scheduler`` and ``--holdout`` options of ``kgraph learn``."""
    g = p.add_argument_group("engine (larger than memory)")
    g.add_argument("--engine", choices=list(ENGINES), default="memory",
                   help="memory (default) or dask: DATA is then a Parquet/CSV glob read lazily")
    g.add_argument("--scheduler", metavar="ADDRESS",
                   help="dask: address of a running scheduler (default: a 2-worker LocalCluster)")
    g.add_argument("--holdout", type=float, default=0.2,
                   help="dask: fraction of rows held out for the metrics (0.2)")


def read_frame(pattern: str, target: str):
    """The lazy DataFrame of the files matching ``pattern`` (Parquet or CSV)."""
    import dask.dataframe as dd

    files = sorted(glob.glob(pattern))
    if not files:
        raise CommandError(f"no file matches {pattern!r}")
    suffixes = {Path(f).suffix.lower() for f in files}
    try:
        if suffixes <= {".parquet", ".pq"}:
            frame = dd.read_parquet(files)
        elif suffixes <= {".csv"}:
            frame = dd.read_csv(files)
        else:
            raise CommandError(f"{pattern!r} matches {sorted(suffixes)} files; --engine dask "
                               "reads .parquet or .csv files (one kind per run)")
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise CommandError(f"cannot read {pattern}: {str(exc).splitlines()[0]}") from exc
    if target not in frame.columns:
        raise CommandError(f"{pattern} has no target column {target!r}; its columns are "
                           f"{list(frame.columns)} (choose one with --target)")
    return frame


def dask_client(address: str | None):
    """``(client, cluster)``: a client of the scheduler at ``address``, or of a new
    ``LocalCluster`` of 2 worker processes (``cluster``, to close after, else None)."""
    from dask.distributed import Client, LocalCluster

    if address:
        try:
            return Client(address, timeout="10s"), None
        except (OSError, TimeoutError, ValueError) as exc:
            raise CommandError(f"cannot connect to the Dask scheduler {address!r}: "
                               f"{str(exc).splitlines()[0]}") from exc
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=":0")
    return Client(cluster), cluster


def _confusion(frame, model, target: str, classes: np.ndarray) -> np.ndarray:
    """Counts of (true class, predicted class) over the held-out rows, per partition."""
    import pandas as pd

    def part(df: pd.DataFrame) -> pd.DataFrame:
        pred = model.predict(df.drop(columns=[target])) if len(df) else np.array([])
        t = pd.Index(classes).get_indexer(df[target].to_numpy())
        p = pd.Index(classes).get_indexer(pred)
        m = classes.size
        counts = np.bincount((t * (m + 1) + p)[t >= 0], minlength=m * (m + 1))
        return pd.DataFrame(counts[None, :])

    m = classes.size
    meta = pd.DataFrame({j: pd.Series(dtype=np.int64) for j in range(m * (m + 1))})
    return frame.map_partitions(part, meta=meta).sum().compute().to_numpy().reshape(m, m + 1)


def holdout_metrics(C: np.ndarray, classes: np.ndarray) -> dict[str, float]:
    """Accuracy and weighted precision/recall/F1 from a confusion matrix (rows: true class;
    last column: a class not seen in training), as scikit-learn gives them on the rows."""
    from sklearn.metrics import accuracy_score, precision_recall_fscore_support

    true, pred = np.nonzero(C)
    w = C[true, pred]
    labels = np.append(np.arange(classes.size), -1)
    pred = labels[pred]
    p, r, f, _ = precision_recall_fscore_support(true, pred, average="weighted", sample_weight=w,
                                                 zero_division=0)
    return {"accuracy": float(accuracy_score(true, pred, sample_weight=w)),
            "precision": float(p), "recall": float(r), "f1": float(f)}


def run_dask(args: argparse.Namespace) -> int:
    """Fit the model from the files on a Dask cluster and write the results."""
    import pandas as pd

    from estimators.distributed import collect
    from viz.cli import learn as helpers  # the in-memory path's writers (learn imports us)

    if args.model not in DASK_MODELS:
        raise CommandError(f"--engine dask fits the models {list(DASK_MODELS)} (gnb with "
                           f"--dependence gaussian); got --model {args.model}")
    if args.bootstrap is not None or args.store is not None:
        raise CommandError("--engine dask does not take --bootstrap or --store; use the "
                           "in-memory engine on a sample for those")
    if not 0.0 < args.holdout < 1.0:
        raise CommandError(f"--holdout must be in (0, 1); got {args.holdout}")
    frame = read_frame(args.data, args.target)
    model = helpers.MODELS[args.model].build(args)
    client, cluster = dask_client(args.scheduler)
    try:
        clock = Clock()
        train, test = frame.random_split([1 - args.holdout, args.holdout],
                                         random_state=args.random_state)
        print(f"  fitting on a Dask cluster ({len(client.scheduler_info()['workers'])} workers)",
              file=sys.stderr)
        try:
            model.fit(collect(train.drop(columns=[args.target]), train[args.target]))
            C = _confusion(test, model, args.target, model.classes_)
        except (ValueError, TypeError) as exc:
            raise CommandError(str(exc).splitlines()[0]) from exc
        timing = clock.stop()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    counts = pd.Series(model.class_count_ + C.sum(axis=1),
                       index=model.classes_)  # training rows + held-out rows of each class
    summary = holdout_metrics(C, model.classes_)
    summary["n_test"] = int(C.sum())
    write_dask_results(args, model, int(counts.sum()), len(frame.columns) - 1, counts, summary,
                       timing, helpers)
    return 0


def write_dask_results(args, model, n_rows, n_features, counts, summary, timing,
                       helpers) -> None:
    """Write the files of the in-memory path (see the module docstring for the metrics)."""
    import joblib
    import pandas as pd

    structure = helpers.learned_structure(model)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    helpers.outputs.write_structure(model, None, out)
    joblib.dump(model, out / "model.joblib")
    metrics = {k: v for k, v in summary.items() if k != "n_test"}
    (out / "metrics.json").write_text(json.dumps(
        {"data": args.data, "model": args.model, "params": helpers._params(model),
         "engine": "dask", "holdout": args.holdout, "n_test": summary["n_test"],
         "metrics": {m: {"holdout": v} for m, v in metrics.items()}}, indent=2))
    pd.DataFrame([metrics], index=pd.Index(["holdout"], name="split")).to_csv(out / "metrics.csv")
    lines = [
        f"# {helpers.MODELS[args.model].title} on {args.data} (Dask)", "",
        f"- data: {args.data}, {n_rows} rows, {n_features} features, {counts.size} classes "
        f"({', '.join(f'{c}: {n}' for c, n in counts.items())})",
        f"- model: `{type(model).__name__}({', '.join(f'{k}={v!r}' for k, v in helpers._params(model).items())})`",
        f"- structure: `{structure!r}`",
        f"- fitted from partition statistics on {n_rows - summary['n_test']} rows; "
        f"{timing.line('fit and held-out evaluation')} (the CPU of the cluster's workers "
        "not counted)", "",
        f"## Held-out metrics ({summary['n_test']} rows, {args.holdout:.0%} of the data)", "",
        *markdown_table(["metric", "value"], [(m, f"{v:.4f}") for m, v in metrics.items()],
                        "lr"), "",
        "## Structure", "", "![structure](structure.png)", "",
        "Edges (in the order the searcher chose them):", "",
        *(f"- {' - '.join(map(str, e))}" for e in structure.edges), "",
    ]
    (out / "report.md").write_text("\n".join(lines))
    failure = helpers._draw(model, structure, out, None, args.threshold, args.dpi,
                            overview=getattr(args, "overview", False))
    if failure:
        print(f"warning: the figure was not drawn ({failure}); every other file is written",
              file=sys.stderr)
    print(f"wrote {out}/: structure.graphml structure.json model.joblib metrics.json "
          f"metrics.csv {'' if failure else 'structure.pdf structure.png '}report.md")


#: ``--engine NAME`` -> the function running ``kgraph learn`` (None: the in-memory path)
ENGINES = {"memory": None, "dask": run_dask}
