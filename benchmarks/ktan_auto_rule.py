"""k="auto" of KTANClassifier: the k grown one at a time with an early stop (issue 28) against
trying every k, on the benchmark tables (outer accuracy and log-loss, chosen k, CPU time).

Both rules choose k in {1, 2, 3} by the same stratified 5-fold inner cross-validated
log-loss (:func:`estimators.learning.model_selection.select_by_cv`). The exhaustive rule
(``KTANClassifier(k=[1, 2, 3])``) fits every k and keeps the smallest mean loss; ``k="auto"``
fits k = 1, then 2, and k + 1 only while k's loss is strictly below k - 1's. Per table, an
outer stratified 5-fold split (seed 0) of at most ``--max-rows`` rows (a stratified sample,
seed 0): both rules are fitted on each training part and scored on its test part. The
script checks that the losses of the k both rules tried are identical (the early stop only
skips fits). The file is rewritten whole after each table, so a stopped run still reports
the tables it finished.

    nice -n 10 python benchmarks/ktan_auto_rule.py   # -> benchmarks/results/ktan_auto_rule.md
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.metrics import accuracy_score, log_loss
from sklearn.model_selection import StratifiedKFold, train_test_split
from threadpoolctl import threadpool_limits

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._common import write  # noqa: E402
from estimators.datasets import load_dataset  # noqa: E402
from estimators.ktan import KTANClassifier  # noqa: E402

#: the 18 tables of real_tables.py (iris and breast_cancer are left out there too): the
#: tables of ktan_speed.py first, the widest last
TABLES = ["helpmiss", "oj", "penguins", "arrests", "abalone", "balance_scale", "car",
          "heart_failure", "nursery", "tic_tac_toe", "votes", "wine", "winequality_red",
          "winequality_white", "yeast", "mushroom", "kr_vs_kp", "sonar"]


def capped(X, y, rows: int):
    """At most ``rows`` rows: a stratified sample (seed 0), else the table itself."""
    if len(y) <= rows:
        return X, np.asarray(y)
    keep, _ = train_test_split(np.arange(len(y)), train_size=rows, stratify=y, random_state=0)
    keep = np.sort(keep)
    return X.iloc[keep].reset_index(drop=True), np.asarray(y)[keep]


def one_table(name: str, rows: int, folds: int) -> dict:
    X, y = load_dataset(name)
    X, y = capped(X, y, rows)
    out = {"shape": X.shape, "k_seq": [], "k_all": [], "acc": [[], []], "loss": [[], []],
           "cpu": [0.0, 0.0]}
    split = StratifiedKFold(n_splits=folds, shuffle=True, random_state=0)
    for train, test in split.split(X, y):
        fitted = []
        for i, k in enumerate(("auto", [1, 2, 3])):
            t0 = time.process_time()
            clf = KTANClassifier(k=k).fit(X.iloc[train], y[train])
            out["cpu"][i] += time.process_time() - t0
            proba = clf.predict_proba(X.iloc[test])
            seen = np.isin(y[test], clf.classes_)
            out["acc"][i].append(accuracy_score(y[test], clf.classes_[proba.argmax(axis=1)]))
            out["loss"][i].append(log_loss(y[test][seen], proba[seen], labels=clf.classes_))
            fitted.append(clf)
        seq, full = fitted[0].cv_results_, fitted[1].cv_results_
        n = len(seq["k"])
        same = (seq["k"] == full["k"][:n] and seq["mean_log_loss"] == full["mean_log_loss"][:n])
        assert same, (name, seq, full)  # the early stop only skips fits
        out["k_seq"].append(fitted[0].k_)
        out["k_all"].append(fitted[1].k_)
    return out


def report(results: dict, todo: list[str], args) -> Path:
    lines = [
        f"Outer stratified {args.folds}-fold CV (seed 0) per table, at most {args.max_rows} rows "
        "(stratified sample, seed 0). `auto` = `KTANClassifier(k=\"auto\")`: k = 1, 2, 3 tried "
        "in turn, k + 1 only while k lowered the inner mean log-loss strictly; `all` = "
        "`KTANClassifier(k=[1, 2, 3])`: every k fitted, smallest inner mean log-loss (the rule "
        "before issue 28). Everything else default (feature_selection=\"auto\", "
        "structure_score=\"cmi\"). The inner losses of the k both rules tried are checked "
        f"identical. CPU s: the {args.folds} outer fits of each rule.", "",
        "| table | rows x cols | chosen k (auto) | chosen k (all) | folds differing | "
        "accuracy auto | accuracy all | log-loss auto | log-loss all | CPU s auto | CPU s all |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    differ_tables, differ_folds, n_folds = 0, 0, 0
    d_loss, d_acc = [], []
    for name, r in results.items():
        diff = sum(a != b for a, b in zip(r["k_seq"], r["k_all"], strict=True))
        differ_tables += diff > 0
        differ_folds += diff
        n_folds += len(r["k_seq"])
        acc = [float(np.mean(a)) for a in r["acc"]]
        loss = [float(np.mean(v)) for v in r["loss"]]
        d_loss.append(loss[0] - loss[1])
        d_acc.append(acc[0] - acc[1])
        lines.append(
            f"| {name} | {r['shape'][0]} x {r['shape'][1]} | "
            f"{','.join(map(str, r['k_seq']))} | {','.join(map(str, r['k_all']))} | {diff} | "
            f"{acc[0]:.4f} | {acc[1]:.4f} | {loss[0]:.4f} | {loss[1]:.4f} | "
            f"{r['cpu'][0]:.1f} | {r['cpu'][1]:.1f} |")
    lines += ["", f"Tables done: {len(results)} of {len(results) + len(todo)}"
              + (f" (not run: {', '.join(todo)})" if todo else "") + ".", ""]
    if results:
        worse = sum(d > 1e-12 for d in d_loss)
        better = sum(d < -1e-12 for d in d_loss)
        lines += [
            f"The chosen k differs on {differ_tables} of {len(results)} tables "
            f"({differ_folds} of {n_folds} outer folds). Outer log-loss, auto - all: mean "
            f"{np.mean(d_loss):+.4f}, largest {max(d_loss):+.4f}, smallest {min(d_loss):+.4f} "
            f"nats (auto worse on {worse} tables, better on {better}); accuracy auto - all: "
            f"mean {np.mean(d_acc):+.4f}, smallest {min(d_acc):+.4f}. CPU s over all tables: "
            f"auto {sum(r['cpu'][0] for r in results.values()):.0f}, all "
            f"{sum(r['cpu'][1] for r in results.values()):.0f}."]
    return write("ktan_auto_rule", "k=\"auto\": early stop in k vs every k (issue 28)", lines,
                 quiet=True)


def main(argv=None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default=",".join(TABLES))
    parser.add_argument("--max-rows", type=int, default=500)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--quick", action="store_true",
                        help="penguins and car at 150 rows, 2 folds (ktan_auto_rule_quick.md)")
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.max_rows, args.folds = "penguins,car", 150, 2
    warnings.simplefilter("ignore")
    threadpool_limits(1)
    names = args.tables.split(",")
    results: dict = {}
    path = report(results, names, args)
    for i, name in enumerate(names):
        t0 = time.perf_counter()
        results[name] = one_table(name, args.max_rows, args.folds)
        print(name, results[name]["k_seq"], results[name]["k_all"],
              f"{time.perf_counter() - t0:.0f} s", flush=True)
        path = report(results, names[i + 1:], args)
    print(path.read_text())
    return path


if __name__ == "__main__":
    main()
