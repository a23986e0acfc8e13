"""Missing values (issue 12): marginalisation against imputation, in the same run and splits.

On complete shipped tables, 10 %, 20 % and 40 % of the feature cells are removed completely
at random (seed fixed per table and rate; the class is never removed). Each kgraph model is
scored (a) as it is, learning from the available cases and marginalising the missing cells
at prediction, and (b) after scikit-learn's SimpleImputer (median for numeric, most frequent
for string columns, fitted on the training fold); HistGradientBoostingClassifier (native
NaN) is the reference. Protocol: stratified 5-fold CV (shuffled, seed 0), the same folds and
the same missing cells for every method; accuracy and log-loss, mean over the folds.

Run: ``PYTHONPATH=$PWD python benchmarks/missing.py`` (writes results/missing.md);
``--quick`` runs wine and car subsampled to 150 rows at the 20 % rate only
(results/missing_quick.md). ``--models discriminative`` runs TAN and k-TAN generative and
with ``parameters="discriminative"`` instead of the five defaults (issue 33; writes
results/missing_discriminative.md, under ``--quick`` missing_discriminative_quick.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from _baselines import BASELINES, BOOSTING  # noqa: E402
from _common import write  # noqa: E402
from _models import default_classifiers  # noqa: E402
from _tables import (  # noqa: E402
    CACHE,
    cached,
    cross_validate,
    imputed,
    one_version,
    settings,
    splits,
    subsample,
)

from estimators import KTANClassifier, TANClassifier  # noqa: E402
from estimators.datasets import dataset_info, load_dataset  # noqa: E402

#: complete tables of each kind: continuous, 0/1 + continuous, categorical, mixed strings
TABLES = ["wine", "heart_failure", "car", "votes", "oj"]
RATES = [0.1, 0.2, 0.4]
FOLDS = 5
HGB = BOOSTING
QUICK = ["wine", "car"]
#: the five kgraph models of issue 12, at their defaults
KGRAPH = {k: m for k, m in default_classifiers().items()
          if k in ("gnb", "kgnb", "tan", "ktan", "latent-cnb")}
#: the model sets of ``--models``
MODEL_SETS = {
    "default": KGRAPH,
    "discriminative": {
        "tan": TANClassifier(), "tan (discriminative)": TANClassifier(parameters="discriminative"),
        "ktan": KTANClassifier(),
        "ktan (discriminative)": KTANClassifier(parameters="discriminative")},
}


def remove_at_random(X: pd.DataFrame, rate: float, seed: int) -> pd.DataFrame:
    """X with a fraction ``rate`` of its cells set missing, completely at random."""
    hide = np.random.default_rng(seed).random(X.shape) < rate
    out = X.astype(object).mask(hide)
    for column in X.columns:  # numeric columns stay numeric (NaN), strings stay strings
        if pd.api.types.is_numeric_dtype(X[column].dtype):
            out[column] = pd.to_numeric(out[column])
    return out


def run_table(t: int, name: str, X: pd.DataFrame, y: pd.Series, rates: list,
              models: dict = KGRAPH) -> list[dict]:
    """Every rate x model of one table (table index t seeds the missing cells)."""
    folds = splits(y, FOLDS)
    rows = []
    for r, rate in enumerate(rates):
        Xm = remove_at_random(X, rate, seed=1000 * t + r)
        hgb = cross_validate(BASELINES[HGB], Xm, y, folds)
        for label, model in models.items():
            marg = cross_validate(model, Xm, y, folds)
            imp = cross_validate(imputed(model), Xm, y, folds)
            rows.append({"table": name, "rate": rate, "model": label, "marg": marg,
                         "imp": imp, "hgb": hgb})
            print(f"{name} {rate} {label}: marg {marg} imp {imp}", file=sys.stderr, flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="wine and car at 150 rows, the 20 %% rate only")
    parser.add_argument("--tables", default=None, help="comma-separated (default: all)")
    parser.add_argument("--max-rows", type=int, default=None,
                        help="subsample larger tables (stratified) to this many rows")
    parser.add_argument("--cache", default=str(CACHE),
                        help="folder keeping each table's results per code version (parallel "
                             "runs share it)")
    parser.add_argument("--models", default="default", choices=sorted(MODEL_SETS),
                        help="the kgraph models: the five defaults, or TAN / k-TAN generative "
                             "and discriminative")
    args = parser.parse_args()
    rates = [0.2] if args.quick else RATES
    rows: list[dict] = []
    notes, entries = [], []
    tables = args.tables.split(",") if args.tables else QUICK if args.quick else TABLES
    for name in tables:
        t = TABLES.index(name) if name in TABLES else len(TABLES)
        X, y = load_dataset(name)
        if args.quick or args.max_rows:
            X, y = subsample(X, y, args.max_rows or 150)
        notes.append(f"- {name}: {X.shape[0]} rows, {X.shape[1]} features "
                     f"({dataset_info(name)[0]}), complete")
        key = f"{name}-{len(y)}-{rates}" + ("" if args.models == "default" else f"-{args.models}")
        entry = cached(args.cache, f"missing-{key}", lambda t=t, name=name, X=X, y=y: run_table(
            t, name, X, y, rates, MODEL_SETS[args.models]))
        entries.append(entry)
        rows += entry["result"]
    one_version(entries)
    suffix = "" if args.models == "default" else f"_{args.models}"
    write("missing" + suffix,  # "_quick" is added under --quick
          "Missing values: marginalisation vs imputation (issue 12"
          + (", issue 33: generative vs discriminative)" if suffix else ")"),
          report(rows, notes, args))


def _num(result: dict, key: str) -> str:
    return f"{result[key]:.4f}" if key in result else "error"


def report(rows: list[dict], notes: list[str], args) -> list[str]:
    ok = [r for r in rows if "loss" in r["marg"] and "loss" in r["imp"]]
    wins = sum(r["marg"]["loss"] <= r["imp"]["loss"] for r in ok)
    acc_wins = sum(r["marg"]["acc"] >= r["imp"]["acc"] for r in ok)
    lines = [
        f"Stratified {FOLDS}-fold CV (shuffled, seed 0); cells removed completely at random "
        "with seed 1000 x table index + rate index; the same folds and missing cells for "
        "every method of a table and rate.", "",
        "kgraph models: " + "; ".join(f"{k} = `{type(m).__name__}` ({settings(m)})"
                                      for k, m in MODEL_SETS[args.models].items()) + ".", "",
        "Tables:", "", *notes, "",
        "## Goal check", "",
        f"Marginalisation at least as good as imputation on log-loss in {wins} of {len(ok)} "
        f"cells (table x rate x model where both ran); on accuracy in {acc_wins} of "
        f"{len(ok)}. Cells where either failed: {len(rows) - len(ok)} (listed below as "
        "'error').", "",
        "## Results (mean over the folds)", "",
        "| table | rate | model | acc marg. | acc imputed | log-loss marg. | log-loss imputed "
        "| marg. ≤ imputed (log-loss) | HGB acc | HGB log-loss |",
        "|---|---:|---|---:|---:|---:|---:|:-:|---:|---:|",
    ]
    for r in rows:
        m, i, h = r["marg"], r["imp"], r["hgb"]
        better = ("yes" if m["loss"] <= i["loss"] else "no") if r in ok else "–"
        lines.append(f"| {r['table']} | {r['rate']:.0%} | {r['model']} | {_num(m, 'acc')} | "
                     f"{_num(i, 'acc')} | {_num(m, 'loss')} | {_num(i, 'loss')} | {better} | "
                     f"{_num(h, 'acc')} | {_num(h, 'loss')} |")
    errors = sorted({f"{r['model']} ({'marg' if 'error' in r['marg'] else 'imputed'}): "
                     f"{(r['marg'] if 'error' in r['marg'] else r['imp'])['error']}"
                     for r in rows if r not in ok})
    if errors:
        lines += ["", "Errors:", "", *(f"- {e}" for e in errors)]
    return lines + [""]


if __name__ == "__main__":
    main()
