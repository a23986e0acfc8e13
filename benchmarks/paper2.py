"""Paper 2 benchmark: naive Bayes, TAN, k-TAN and pgmpy's TAN on six discrete UCI data sets.

10-fold stratified CV (shuffled, random_state=0) on car, tic_tac_toe, mushroom, kr_vs_kp,
votes and nursery (``estimators/datasets/data/NAME.csv``, target ``class``; every column is
read as a string category). Per model: accuracy, log-loss, fit time and predict time per
row, all in this one run; for the k-TAN searchers also the training k-tree score (nats).

* naive Bayes: scikit-learn ``CategoricalNB(alpha=1)`` on ordinal codes (encoder fitted on
  the whole X, so that test categories unseen in a training fold have a code).
* TAN / k-TAN: ``estimators.ktan`` with alpha = 1.
* pgmpy TAN: ``TreeSearch(...).estimate("tan")`` + ``DiscreteBayesianEstimator(K2)`` (alpha
  = 1) with the full data set's state names + ``predict`` / ``predict_probability``.
  pgmpy's predict costs milliseconds per row, so its accuracy and log-loss are measured on
  a random sample of ``PGMPY_ROWS`` test rows per fold (stated in the output).
* pgmpy's ``predict`` runs with its default ``n_jobs=-1`` (threads over unique rows).
* speed ratio: per-row time of pgmpy's ``predict`` on OUR fitted TAN exported with
  ``to_pgmpy()`` (the same model) over a row sample of fold 0, against the per-row time of
  ``TANClassifier.predict`` on a batch of ``BATCH_ROWS`` rows.

Run: ``python benchmarks/paper2.py`` (writes ``benchmarks/results/paper2.md``); ``--quick``
(car and votes, 3 folds) writes ``paper2_quick.md`` for CI; ``--ktan-folds N`` runs the k-TAN
models on the first N folds only (a quicker run; the report says so).
"""

from __future__ import annotations

import logging
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score, log_loss
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import CategoricalNB
from sklearn.preprocessing import OrdinalEncoder

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout: python benchmarks/paper2.py
sys.path.insert(0, str(ROOT / "benchmarks"))

from _common import RESULTS, header  # noqa: E402

from estimators.ktan import KTANClassifier, TANClassifier  # noqa: E402

DATA = ROOT / "estimators" / "datasets" / "data"
OUT = RESULTS / "paper2.md"
#: the data sets that take longest (k = 3 on 36 / 22 features) start first under --jobs
SLOWNESS = {"kr_vs_kp": 3, "mushroom": 2, "nursery": 1}
DATASETS = ["car", "tic_tac_toe", "mushroom", "kr_vs_kp", "votes", "nursery"]
N_SPLITS = 10
PGMPY_ROWS = 15  # test rows per fold given to pgmpy's predict / predict_probability
RATIO_ROWS = 40  # rows of fold 0 given to pgmpy for the per-row speed ratio
BATCH_ROWS = 20_000  # rows (drawn with replacement from the data set) for our per-row time
BACKBONES = ["given", "mst-dfs", "greedy-path"]
# k-TAN budget per data set: (folds, k values, backbones). The DP and greedy searchers score
# all d * C(d-1, k) hyperedges (DiscreteCMI.score_many: batches of parent sets, one matrix
# product each; 235k hyperedges at k = 3 on kr_vs_kp), so every data set runs all 10 folds.
KTAN_BUDGET = {name: (N_SPLITS, (2, 3), BACKBONES) for name in DATASETS}
LOAD_NOTE = ""  # the load average at the start and end of the run


def limit_ktan_folds(n_folds: int) -> None:
    """Run the k-TAN models on the first ``n_folds`` folds of every data set only."""
    for name, (_, ks, backbones) in KTAN_BUDGET.items():
        KTAN_BUDGET[name] = (n_folds, ks, backbones)


def load(name: str) -> tuple[pd.DataFrame, np.ndarray]:
    frame = pd.read_csv(DATA / f"{name}.csv", dtype=str, keep_default_na=False)
    return frame.drop(columns="class"), frame["class"].to_numpy()


def models(name: str, fold: int) -> dict:
    out = {"TAN": TANClassifier()}
    n_folds, ks, backbones = KTAN_BUDGET[name]
    if fold >= n_folds:
        return out
    for k in ks:
        for b in backbones:
            out[f"{k}-TAN dp/{b}"] = KTANClassifier(k=k, backbone=b)
        out[f"{k}-TAN greedy"] = KTANClassifier(k=k, search="greedy")
    return out


class NaiveBayes:
    """CategoricalNB on ordinal codes with every category of the full data set known."""

    def __init__(self, X_all: pd.DataFrame):
        self.encoder = OrdinalEncoder().fit(X_all)
        self.n_cats = [len(c) for c in self.encoder.categories_]

    def fit(self, X, y):
        self.nb = CategoricalNB(alpha=1.0, min_categories=self.n_cats).fit(self.encoder.transform(X), y)
        self.classes_ = self.nb.classes_
        return self

    def predict(self, X):
        return self.nb.predict(self.encoder.transform(X))

    def predict_proba(self, X):
        return self.nb.predict_proba(self.encoder.transform(X))


def pgmpy_tan(X_train, y_train, states):
    from pgmpy.estimators import TreeSearch
    from pgmpy.models import DiscreteBayesianNetwork
    from pgmpy.parameter_estimator import DiscreteBayesianEstimator

    data = X_train.assign(**{"class": y_train})
    dag = TreeSearch(data, root_node=X_train.columns[0], n_jobs=1).estimate(
        estimator_type="tan", class_node="class", show_progress=False
    )
    model = DiscreteBayesianNetwork(dag.edges())
    model.add_nodes_from(data.columns)
    return model.fit(data, estimator=DiscreteBayesianEstimator(prior_type="K2", state_names=states))


def timed(fn, *args):
    t = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t


def cpu_timed(fn, *args):
    """(result, wall seconds, CPU seconds of this process: all its threads)."""
    cpu = time.process_time()
    out, wall = timed(fn, *args)
    return out, wall, time.process_time() - cpu


def run_dataset(name: str, rng: np.random.Generator, only_fold: int | None = None
                ) -> tuple[list[dict], dict]:
    X, y = load(name)
    classes = np.unique(y)
    states = {c: sorted(X[c].unique()) for c in X.columns} | {"class": sorted(classes.tolist())}
    rows, ratio = [], {}
    folds = StratifiedKFold(N_SPLITS, shuffle=True, random_state=0).split(X, y)
    for fold, (tr, te) in enumerate(folds):
        if only_fold is not None and fold != only_fold:
            continue
        Xtr, Xte, ytr, yte = X.iloc[tr], X.iloc[te], y[tr], y[te]
        for label, clf in {"naive Bayes": NaiveBayes(X), **models(name, fold)}.items():
            _, t_fit, cpu_fit = cpu_timed(clf.fit, Xtr, ytr)
            pred, t_pred = timed(clf.predict, Xte)
            proba = clf.predict_proba(Xte)
            rows.append(
                dict(
                    dataset=name, model=label, fold=fold,
                    acc=accuracy_score(yte, pred),
                    logloss=log_loss(yte, proba, labels=clf.classes_),
                    fit=t_fit, fit_cpu=cpu_fit, predict_row=t_pred / len(te),
                    score=getattr(clf, "score_", np.nan),
                )
            )
            if label == "TAN" and fold == 0:
                ratio = speed_ratio(clf, Xte, X, rng)
        sample = rng.choice(len(te), size=min(PGMPY_ROWS, len(te)), replace=False)
        model, t_fit, cpu_fit = cpu_timed(pgmpy_tan, Xtr, ytr, states)
        Xs = Xte.iloc[sample].reset_index(drop=True)
        pred, t_pred = timed(model.predict, Xs)
        pred = pred["class"].to_numpy()
        prob = model.predict_probability(Xs)
        prob = prob[[f"class_{c}" for c in classes]].to_numpy()
        rows.append(
            dict(
                dataset=name, model=f"pgmpy TAN ({len(sample)} rows/fold)", fold=fold,
                acc=accuracy_score(yte[sample], pred),
                logloss=log_loss(yte[sample], prob, labels=classes),
                fit=t_fit, fit_cpu=cpu_fit, predict_row=t_pred / len(sample), score=np.nan,
            )
        )
    return rows, ratio


def speed_ratio(clf, Xte, X, rng) -> dict:
    batch = X.iloc[rng.integers(0, len(X), BATCH_ROWS)]
    _, t_ours = timed(clf.predict, batch)
    ours_per_row = t_ours / BATCH_ROWS
    model = clf.to_pgmpy()
    sample = rng.choice(len(Xte), size=min(RATIO_ROWS, len(Xte)), replace=False)
    # a column constant in training (mushroom's veil_type) has no node in the exported model
    Xs = Xte.iloc[sample].reset_index(drop=True)[[c for c in Xte.columns if c in model.nodes()]]
    _, t = timed(model.predict, Xs)
    return dict(nodes=len(model.nodes()), rows=len(sample), pgmpy=t / len(sample), ours=ours_per_row,
                ratio=(t / len(sample)) / ours_per_row)


def report(results: pd.DataFrame, ratios: dict, seconds: float, walls: dict) -> str:
    lines = [
        *header("Paper 2: naive Bayes, TAN, k-TAN and pgmpy's TAN on discrete UCI data"),
        f"The run took {seconds:.0f} s ({LOAD_NOTE}); wall time per data set (summed over "
        "its tasks): " + ", ".join(f"{n} {t:.0f} s" for n, t in walls.items()) + ". "
        f"{N_SPLITS}-fold stratified CV "
        "(shuffled, random_state=0), all models in the same run. Accuracy and log-loss: mean "
        "(sd) over folds; fit: wall seconds per fold, and the CPU seconds of the process (all "
        "its threads; waiting for a core on a loaded machine inflates the wall time, not the "
        "CPU time); predict: microseconds per row (whole test "
        "fold). k-TAN score: the training k-tree score sum_v I(X_v; X_pa(v) | Y) in nats, "
        "mean over folds. All smoothing alpha = 1 (pgmpy: K2 prior).",
        "",
        ("Every model runs all folds on every data set (the 'folds' column says so)."
         if all(f >= N_SPLITS for f, _, _ in KTAN_BUDGET.values()) else
         "k-TAN rows run on the first folds only (`--ktan-folds`); their 'folds' column says how many."),
        "",
        "k-TAN budget (folds, k, backbones): "
        + "; ".join(f"{n}: {min(f, N_SPLITS)} fold(s), k in {list(ks)}, {bs}"
                    for n, (f, ks, bs) in KTAN_BUDGET.items() if n in DATASETS)
        + ".",
        "",
        f"pgmpy's TAN is predicted on a random sample of {PGMPY_ROWS} test rows per fold "
        f"(its predict costs milliseconds per row), so its accuracy/log-loss come from "
        f"{PGMPY_ROWS * N_SPLITS} rows per data set and are noisier.",
        "",
    ]
    for name, block in results.groupby("dataset", sort=False):
        lines += [f"## {name}", "", "| model | folds | accuracy | log-loss | fit (s) | fit CPU (s) | predict (µs/row) | k-tree score |",
                  "|---|---|---|---|---|---|---|---|"]
        for model, g in block.groupby("model", sort=False):
            score = "" if g["score"].isna().all() else f"{g['score'].mean():.4f}"
            lines.append(
                f"| {model} | {len(g)} | {g.acc.mean():.4f} ({g.acc.std():.4f}) | {g.logloss.mean():.4f} "
                f"({g.logloss.std():.4f}) | {g.fit.mean():.4f} | {g.fit_cpu.mean():.4f} | {1e6 * g.predict_row.mean():.1f} | {score} |"
            )
        lines.append("")
    lines += greedy_vs_dp(results)
    lines += [
        "## Prediction speed against pgmpy on the same model",
        "",
        "pgmpy `DiscreteBayesianNetwork.predict` (default n_jobs=-1) on our fitted TAN exported with "
        f"`to_pgmpy()` (fold 0, a random sample of up to {RATIO_ROWS} test rows) against "
        f"the same fitted `TANClassifier.predict` on one batch of {BATCH_ROWS} rows drawn "
        "with replacement from the data set (per-row throughput of the vectorised predict; "
        "the per-row times in the tables above include the fixed per-call overhead of "
        "small test folds).",
        "",
        "| data set | nodes | rows timed in pgmpy | pgmpy (ms/row) | ours (µs/row) | ratio |",
        "|---|---|---|---|---|---|",
    ]
    for name, r in ratios.items():
        lines.append(
            f"| {name} | {r['nodes']} | {r['rows']} | {1e3 * r['pgmpy']:.2f} | {1e6 * r['ours']:.2f} | {r['ratio']:.0f}x |"
        )
    lines.append("")
    return "\n".join(lines)


def greedy_vs_dp(results: pd.DataFrame) -> list[str]:
    lines = [
        "## Greedy (no backbone) against the backbone DP",
        "",
        "Per data set and k: the best backbone-DP variant by mean training score against the "
        "greedy k-tree; 'folds greedy >= best DP' counts folds where the greedy score is at "
        "least the best of the three DP scores of that fold.",
        "",
        "| data set | k | best DP backbone | DP score | greedy score | folds greedy >= best DP | DP accuracy | greedy accuracy |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, block in results.groupby("dataset", sort=False):
        for k in KTAN_BUDGET[name][1]:
            dp = block[block.model.str.startswith(f"{k}-TAN dp/")]
            greedy = block[block.model == f"{k}-TAN greedy"].set_index("fold")
            means = dp.groupby("model").score.mean()
            best = means.idxmax()
            best_fold = dp.groupby("fold").score.max()
            wins = int((greedy.score >= best_fold - 1e-12).sum())
            lines.append(
                f"| {name} | {k} | {best.split('/')[1]} | {means[best]:.4f} | {greedy.score.mean():.4f} | "
                f"{wins}/{len(greedy)} | {dp[dp.model == best].acc.mean():.4f} | {greedy.acc.mean():.4f} |"
            )
    lines.append("")
    return lines


def _quiet() -> None:
    from pgmpy import config

    config.set_show_progress(False)
    logging.getLogger("pgmpy").setLevel(logging.ERROR)
    warnings.filterwarnings("ignore")


def _one_dataset(index: int, name: str, n_splits: int, fold: int | None = None,
                 ktan_folds: int | None = None):
    """One data set (or one fold of it) with its own generator (``default_rng([0, index])``,
    ``[0, index, fold]`` for a fold), so that the result does not depend on what runs
    before it or in parallel."""
    global N_SPLITS
    N_SPLITS = n_splits
    if ktan_folds is not None:  # a worker process does not see main()'s module globals
        limit_ktan_folds(ktan_folds)
    _quiet()
    t = time.perf_counter()
    seed = [0, index] if fold is None else [0, index, fold]
    rows, ratio = run_dataset(name, np.random.default_rng(seed), fold)
    seconds = time.perf_counter() - t
    print(f"{name}{'' if fold is None else f' fold {fold}'}: {seconds:.1f} s", flush=True)
    return rows, ratio, seconds


def main(argv: list[str] | None = None) -> None:
    import argparse
    from concurrent.futures import ProcessPoolExecutor, as_completed

    global DATASETS, N_SPLITS, OUT
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="car and votes, 3 folds (for CI)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="folds run in this many processes at once (fit and predict times "
                         "are then measured with the processes sharing the cores)")
    ap.add_argument("--ktan-folds", type=int, default=None, metavar="N",
                    help="run the k-TAN models on the first N folds only (default: all)")
    args = ap.parse_args(argv)
    if args.quick:
        DATASETS, N_SPLITS = ["car", "votes"], 3
        OUT = OUT.with_name("paper2_quick.md")
    if args.ktan_folds is not None:
        if not 1 <= args.ktan_folds <= N_SPLITS:
            ap.error(f"--ktan-folds must be between 1 and {N_SPLITS}, got {args.ktan_folds}")
        limit_ktan_folds(args.ktan_folds)
    global LOAD_NOTE
    loads = [os.getloadavg()[0]]  # sampled at the start and after each data set (task)

    _quiet()
    start = time.perf_counter()
    rows, ratios = [], {}
    if args.jobs > 1:  # one process per (data set, fold), the slowest data sets first
        jobs = [(i, name, N_SPLITS, f, args.ktan_folds) for i, name in enumerate(DATASETS)
                for f in range(N_SPLITS)]
        slow_first = sorted(jobs, key=lambda job: -SLOWNESS.get(job[1], 0))
        with ProcessPoolExecutor(args.jobs) as pool:
            futures = {job: pool.submit(_one_dataset, *job) for job in slow_first}
            for _ in as_completed(futures.values()):  # the load as tasks finish
                loads.append(os.getloadavg()[0])
            done = [futures[job].result() for job in jobs]
    else:
        jobs = [(i, name, N_SPLITS, None) for i, name in enumerate(DATASETS)]
        done = []
        for job in jobs:
            done.append(_one_dataset(*job))
            loads.append(os.getloadavg()[0])
    walls = dict.fromkeys(DATASETS, 0.0)
    for (_, name, *_), (r, ratio, seconds) in zip(jobs, done, strict=True):
        rows += r
        walls[name] += seconds
        if ratio:
            ratios[name] = ratio
    LOAD_NOTE = (f"1-minute load average {loads[0]:.1f} at the start, {loads[-1]:.1f} at the "
                 f"end, {min(loads):.1f}-{max(loads):.1f} sampled at the start and after each "
                 f"{'task' if args.jobs > 1 else 'data set'} on {os.cpu_count()} cores"
                 + (f", {args.jobs} processes of this run (each fold of each data set a task)"
                    if args.jobs > 1 else "") + ", so the times are inflated by other work")
    text = report(pd.DataFrame(rows), ratios, time.perf_counter() - start, walls)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
