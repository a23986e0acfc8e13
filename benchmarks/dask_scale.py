"""Larger than memory: GNB (Gaussian) and TAN fitted from a lazily generated Dask DataFrame.

Data (never materialised): ``N`` rows x 20 features in partitions of ``ROWS`` rows, each
partition drawn by its own seeded generator (``SeedSequence(SEED).spawn``), so the same
partition is the same rows whenever it is recomputed. The model is a Gaussian tree with a
categorical class (3 classes): feature j's parent is feature ``(j - 1) // 2`` (a binary tree),
``x_j = b_{y} x_parent + e``, ``e ~ N(0, 1)``, with class-dependent coefficients ``b_y``.
Features 16..19 are categorical: the tree node cut into 3 levels at -0.5 and 0.5.

* **GNB (Gaussian)** on the 16 continuous features (one pass: class moments);
* **TAN (discrete)** on all 20 features, the continuous ones cut into 4 levels at the
  quartiles of N(0, 1) (two passes: categories, then the pair tables);
* **TAN (mixed)** (``tan-mixed``) on the 16 continuous and 4 categorical features as they
  are: the conditional Gaussian score (three passes: categories; class moments, pair counts
  and cell moments; the Bayes'-rule factors of the 64 categorical-child/continuous-parent
  pairs).
* **TAN (discriminative)** (``tan-disc``) on the discretised 20 features: the TAN above,
  then ``parameters="discriminative"`` (issue 49): one pass for the class codes, the inner
  cross-validation on the 1,000-row stratified subsample taken from the partitions, every
  partition's design persisted on its worker, and L-BFGS on the client with each
  evaluation's CLL and gradient summed over the partitions.

Each model is fitted on its own 2-worker ``LocalCluster`` (processes, 1 thread each, so the
peak resident memory of each worker process is measured: ``ru_maxrss`` read on the worker
after the fit). Rows per second = N / wall time of ``fit``. Equality: the first 1e6 rows,
computed into memory, fitted in memory and from Dask (8 partitions): same structure, max
|predict_proba difference| (printed besides: for ``tan-disc`` the max |difference| of the
coefficients and intercepts, the chosen penalty, both fits' L-BFGS convergence, and the max
|predict_proba difference| of the in-memory reference to its refit at gradient tolerance
1e-13, i.e. how far the reference is from the optimum: at the default tolerance 1e-6 it was
4e-5 on 3,000 rows and 9e-5 on 30,000, at 1e-11 below 4e-7; ``--disc-tol 1e-11`` sets it).

Run: ``PYTHONPATH=. python benchmarks/dask_scale.py [--rows 1e7] [--models gnb,tan,tan-mixed,tan-disc]``
(writes ``results/dask_scale.md`` and ``results/dask_scale.csv`` whole, one row per model of
this run, or under ``$KGRAPH_BENCH_RESULTS``).
"""

from __future__ import annotations

import argparse
import csv
import resource
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RESULTS, write  # noqa: E402

from estimators.distributed import collect  # noqa: E402

SEED = 20261130
ROWS = 1_000_000  # rows per partition
N_CONT, N_CAT = 16, 4
CLASSES = np.array(["a", "b", "c"])
QUARTILES = np.array([-0.6745, 0.0, 0.6745])


def partition(index: int, rows: int) -> pd.DataFrame:
    """Partition ``index``: ``rows`` rows of the tree model, from its own seeded generator."""
    rng = np.random.default_rng(np.random.SeedSequence(SEED).spawn(index + 1)[index])
    y = rng.integers(0, 3, rows)
    coef = np.array([0.2, 0.5, 0.8])[y]  # class-dependent edge strength
    Z = rng.standard_normal((rows, N_CONT + N_CAT))
    for j in range(1, N_CONT + N_CAT):  # loop over features: a tree, parent (j - 1) // 2
        Z[:, j] += (coef + 0.1 * (j % 3)) * Z[:, (j - 1) // 2]
    frame = pd.DataFrame(Z[:, :N_CONT], columns=[f"x{j:02d}" for j in range(N_CONT)])
    for j in range(N_CONT, N_CONT + N_CAT):
        frame[f"c{j:02d}"] = np.digitize(Z[:, j], [-0.5, 0.5]).astype(np.int8)
    frame["y"] = CLASSES[y]
    return frame


def discretised(frame: pd.DataFrame) -> pd.DataFrame:
    """All 20 features discrete (the continuous ones cut at the N(0, 1) quartiles)."""
    out = frame.copy()
    for c in out.columns[:N_CONT]:
        out[c] = np.digitize(out[c].to_numpy(), QUARTILES).astype(np.int8)
    return out


def lazy_frame(n_rows: int):
    import dask.dataframe as dd

    sizes = [ROWS] * (n_rows // ROWS) + ([n_rows % ROWS] if n_rows % ROWS else [])
    return dd.from_map(partition, list(range(len(sizes))), sizes, meta=partition(0, 2).iloc[:0],
                       enforce_metadata=False)


def _gnb():
    from estimators.gnb import GNBClassifier

    return GNBClassifier(dependence="gaussian")


def _tan():
    from estimators.ktan import TANClassifier

    return TANClassifier()


#: L-BFGS gradient tolerance of ``tan-disc`` (``--disc-tol``); None: the default spec's
DISC_TOL: float | None = None


def _tan_disc():
    from estimators.discriminative import Discriminative
    from estimators.ktan import TANClassifier

    return TANClassifier(parameters="discriminative" if DISC_TOL is None else
                         Discriminative(tol=DISC_TOL))


def _gaussian_view(frame):
    return frame[[f"x{j:02d}" for j in range(N_CONT)]], frame["y"]


def _discrete_view(frame):
    frame = frame.map_partitions(discretised) if hasattr(frame, "map_partitions") else \
        discretised(frame)
    return frame.drop(columns="y"), frame["y"]


def _mixed_view(frame):
    return frame.drop(columns="y"), frame["y"]


#: model name -> (estimator factory, (X, y) of a frame)
MODELS = {
    "gnb": (_gnb, _gaussian_view),  # GNB (Gaussian) on the 16 continuous features
    "tan": (_tan, _discrete_view),  # TAN on all 20 features discretised
    "tan-mixed": (_tan, _mixed_view),  # TAN on 16 continuous + 4 categorical (CG score)
    "tan-disc": (_tan_disc, _discrete_view),  # discriminative TAN on the 20 discretised
}


def model(name: str):
    return MODELS[name][0]()


def view(frame, name: str):
    return MODELS[name][1](frame)


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def fit_on_cluster(name: str, n_rows: int) -> dict:
    from dask.distributed import Client, LocalCluster

    with (LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                       dashboard_address=None, memory_limit="3GiB") as cluster,
          Client(cluster) as client):
        base = client.run(_peak_rss_mb)
        X, y = view(lazy_frame(n_rows), name)
        t0 = time.perf_counter()
        clf = model(name).fit(collect(X, y))
        seconds = time.perf_counter() - t0
        peaks = client.run(_peak_rss_mb)
    edges = sorted(tuple(sorted(map(str, e))) for e in clf.structure_.edges)
    return dict(model=name, rows=n_rows, seconds=seconds, rows_per_s=n_rows / seconds,
                peak_mb=sorted(peaks.values()), idle_mb=sorted(base.values()),
                client_peak_mb=_peak_rss_mb(), edges=edges)


def equality_on_sample(name: str, rows: int = ROWS) -> dict:
    """In-memory fit vs Dask fit (8 partitions, threads) on the first 1e6 rows."""
    import dask
    import dask.dataframe as dd

    X, y = view(partition(0, rows), name)
    t0 = time.perf_counter()
    ref = model(name).fit(X, y)
    seconds = time.perf_counter() - t0
    frame = dd.from_pandas(pd.concat([X, y], axis=1), npartitions=8)
    with dask.config.set(scheduler="threads", num_workers=2):
        got = model(name).fit(collect(frame.drop(columns="y"), frame["y"]))
    diff = float(np.abs(got.predict_proba(X) - ref.predict_proba(X)).max())
    same = got.structure_.edges == ref.structure_.edges
    skeleton = {frozenset(e) for e in got.structure_.edges} == \
        {frozenset(e) for e in ref.structure_.edges}
    # TAN keeps the edge-score matrix and score_; GNB the tree's edge weights and weight_
    W, V = (np.asarray(getattr(m, "edge_scores_", getattr(m, "edge_weights_", np.nan)))
            for m in (got, ref))
    rel = float((np.abs(W - V) / np.maximum(np.abs(V), 1e-300)).max())
    score = [getattr(m, "score_", getattr(m, "weight_", np.nan)) for m in (got, ref)]
    return dict(same_structure=same, same_skeleton=skeleton, score_diff=score[0] - score[1],
                max_rel_edge_score_diff=rel, max_proba_diff=diff, in_memory_seconds=seconds,
                **_discriminative_diff(got, ref), **reference_error(ref, X, y))


#: L-BFGS gradient tolerance of the refit that checks the in-memory reference (its relative
#: loss tolerance is 1e-3 of it: near the rounding of the loss)
TIGHT_TOL = 1e-13


def reference_error(ref, X, y) -> dict:
    """For ``parameters="discriminative"``: how far the in-memory reference is from the
    optimum of its objective: max |predict_proba difference| to the fit of the same chosen
    penalty and scale on the same rows with gradient tolerance :data:`TIGHT_TOL` (the
    reference stops at the spec's ``tol``)."""
    from dataclasses import replace

    from sklearn.base import clone

    fitted = getattr(ref, "discriminative_", None)
    if fitted is None:
        return {}
    tight = clone(ref).set_params(parameters=replace(fitted.spec, tol=TIGHT_TOL)).fit(X, y)
    return dict(tight_converged=tight.discriminative_.info["converged"],
                tight_n_iter=tight.discriminative_.info["n_iter"],
                ref_vs_tight_proba_diff=float(
                    np.abs(ref.predict_proba(X) - tight.predict_proba(X)).max()))


def _discriminative_diff(got, ref) -> dict:
    """For ``parameters="discriminative"``: the chosen settings, max |difference| of the
    coefficients and intercepts, both fits' L-BFGS convergence and their training CLLs."""
    a, b = (getattr(m, "discriminative_", None) for m in (got, ref))
    if a is None or b is None:
        return {}
    return dict(same_spec=a.spec == b.spec, spec=str(a.spec),
                max_param_diff=float(max(np.abs(a.coef - b.coef).max(),
                                         np.abs(a.intercept - b.intercept).max())),
                converged=(a.info["converged"], b.info["converged"]),
                n_iter=(a.info["n_iter"], b.info["n_iter"]),
                cll_diff=a.info["cll"] - b.info["cll"])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=float, default=1e7)
    parser.add_argument("--models", default="gnb,tan,tan-disc")
    parser.add_argument("--sample", type=float, default=ROWS,
                        help="rows of the in-memory equality check (first partition)")
    parser.add_argument("--disc-tol", type=float, default=None,
                        help="L-BFGS gradient tolerance of tan-disc (default: the spec's; "
                             "its CSV rows are then labelled tan-disc tol=...)")
    parser.add_argument("--quick", action="store_true",
                        help="2e5 rows, GNB only (dask_scale_quick.csv / .md)")
    parser.add_argument("--check-only", action="store_true",
                        help="only the in-memory equality check on --sample rows (printed)")
    args = parser.parse_args(argv)
    global DISC_TOL
    DISC_TOL = args.disc_tol
    if args.check_only:
        for name in args.models.split(","):
            print(name, equality_on_sample(name, int(args.sample)), flush=True)
        return
    if args.quick:
        args.rows, args.sample, args.models = 2e5, 2e5, "gnb"
    n_rows = int(args.rows)
    csv_path = RESULTS / ("dask_scale_quick.csv" if args.quick else "dask_scale.csv")
    RESULTS.mkdir(parents=True, exist_ok=True)
    with csv_path.open("w", newline="") as fh:  # written whole: this run's rows only
        writer = csv.writer(fh)
        writer.writerow(["model", "rows", "seconds", "rows_per_s", "peak_mb_worker_1",
                         "peak_mb_worker_2", "idle_mb", "same_structure_1e6",
                         "max_proba_diff_1e6", "in_memory_seconds_1e6", "edges"])
        for name in args.models.split(","):
            res = fit_on_cluster(name, n_rows)
            print(name, res, flush=True)  # before the (slow) in-memory equality check
            eq = equality_on_sample(name, int(args.sample))
            writer.writerow([_label(name), n_rows, f"{res['seconds']:.1f}",
                             f"{res['rows_per_s']:.0f}", f"{res['peak_mb'][0]:.0f}", f"{res['peak_mb'][1]:.0f}",
                             f"{max(res['idle_mb']):.0f}", eq["same_structure"],
                             f"{eq['max_proba_diff']:.2e}", f"{eq['in_memory_seconds']:.1f}",
                             ";".join("-".join(e) for e in res["edges"])])
            fh.flush()
            print(name, eq, flush=True)
    write_report(csv_path)


def _label(name: str) -> str:
    """The model column of a CSV row: ``tan-disc`` names a ``--disc-tol`` given."""
    return f"{name} tol={DISC_TOL:g}" if name == "tan-disc" and DISC_TOL is not None else name


def write_report(csv_path: Path) -> None:
    """``dask_scale.md``: every row of ``csv_path`` (this run's), below the data description of
    this module."""
    frame = pd.read_csv(csv_path)
    lines = [" ".join(__doc__.split("\n\n")[1].split()), "",
             f"The rows of `{csv_path.name}`, one per model, all from this run:", "",
             "| model | rows | fit (s) | rows / s | peak RSS worker 1 / 2 (MB) | idle (MB) | "
             "same structure as in memory | max abs diff predict_proba | in-memory fit of the "
             "sample (s) |", "|---|---:|---:|---:|---:|---:|---|---:|---:|"]
    for r in frame.itertuples(index=False):
        lines.append(f"| {r.model} | {r.rows:.0e} | {r.seconds:.1f} | {r.rows_per_s:,.0f} | "
                     f"{r.peak_mb_worker_1} / {r.peak_mb_worker_2} | {r.idle_mb} | "
                     f"{r.same_structure_1e6} | {r.max_proba_diff_1e6:.1e} | "
                     f"{r.in_memory_seconds_1e6} |")
    write(csv_path.stem, "Larger than memory: GNB and TAN from a lazily generated Dask "
          "DataFrame", lines + [""])


if __name__ == "__main__":
    main()
