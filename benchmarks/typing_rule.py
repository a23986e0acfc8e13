"""Typing rule of numeric columns with few values (issue 25): how many distinct values may a
non-integer numeric column have and still be typed categorical?

The rule of :mod:`estimators.columns` types a numeric column categorical when it has at most
``MAX_NUMERIC_LEVELS`` = 3 distinct observed values (whatever they are) or at most 10
integer values. This script compares thresholds for the *non-integer* columns, applied on
each training fold:

- ``<= 1`` (the rule before issue 25: a non-integer column is never categorical),
- ``<= 2`` (the least issue 25 asks: two values are a category whatever they are),
- ``<= 3`` (the rule now; checked here to equal ``feature_types="auto"`` on every fold),
- ``<= 5`` and ``<= 10`` (the integer columns' limit).

Integer columns are typed as the library does under every threshold. Tables: every table of
:func:`estimators.datasets.list_datasets` (the tables copied into
``estimators/datasets/data`` and scikit-learn's iris and breast_cancer). A table's numbers
can change only if some threshold changes a column's type on some training fold; the
script finds those tables and runs the
models on them only (on the others every threshold gives the same mapping, hence the same
fits). Models: GNBClassifier, TANClassifier and KTANClassifier(k=2) at their defaults, with
the scikit-learn pipelines of real_tables.py as a reference (they do not use the types).
Protocol of real_tables.py: stratified 5-fold CV repeated 3 times (seeds 0, 1, 2), the same
folds for every model and threshold, classes with fewer than 5 rows dropped; accuracy and
log-loss as mean ± std over the 15 folds.

Run: ``PYTHONPATH=$PWD nice -n 10 python benchmarks/typing_rule.py`` (writes
results/typing_rule.md).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, clone

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (
    commit,  # noqa: E402
    write,  # noqa: E402
)
from _tables import SKLEARN, cell, cross_validate, drop_small_classes, splits  # noqa: E402

from estimators import GNBClassifier, KTANClassifier, TANClassifier  # noqa: E402
from estimators.columns import MAX_NUMERIC_LEVELS, infer_feature_types  # noqa: E402
from estimators.datasets import list_datasets, load_dataset  # noqa: E402

FOLDS, REPEATS = 5, 3
#: thresholds compared: a non-integer numeric column with at most this many values is
#: categorical (1: never, the rule before issue 25; MAX_NUMERIC_LEVELS: the rule now)
THRESHOLDS = (1, 2, 3, 5, 10)
MODELS = {"GNB": GNBClassifier(), "TAN": TANClassifier(), "2-TAN": KTANClassifier(k=2)}


def rule_types(X: pd.DataFrame, threshold: int) -> dict:
    """Column types with non-integer numeric columns categorical when they have at most
    ``threshold`` distinct observed values; every other column as the library types it."""
    types = infer_feature_types(X)
    for name, kind in types.items():
        col = X[name]
        if kind == "constant" or not pd.api.types.is_numeric_dtype(col.dtype) \
                or pd.api.types.is_bool_dtype(col.dtype):
            continue
        values = np.unique(col.dropna().to_numpy(dtype=float))
        if np.all(values == np.round(values)):
            continue
        types[name] = "categorical" if values.size <= threshold else "continuous"
    return types


class Typed(ClassifierMixin, BaseEstimator):
    """``estimator`` fitted with the column types of :func:`rule_types` on its training
    data (a ``feature_types`` mapping naming every non-constant column)."""

    def __init__(self, estimator=None, threshold: int = 2):
        self.estimator = estimator
        self.threshold = threshold

    def fit(self, X, y):
        types = rule_types(X, self.threshold)
        mapping = {k: t for k, t in types.items() if t != "constant"}
        self.estimator_ = clone(self.estimator).set_params(feature_types=mapping).fit(X, y)
        self.classes_ = self.estimator_.classes_
        return self

    def predict_proba(self, X):
        return self.estimator_.predict_proba(X)


def fold_types(X: pd.DataFrame, folds: list) -> dict[int, list[dict]]:
    """Per threshold, the column types on each training fold; asserts that threshold
    ``MAX_NUMERIC_LEVELS`` is the library's own rule on every fold."""
    out = {t: [] for t in THRESHOLDS}
    for train, _ in folds:
        Xt = X.iloc[train]
        for t in THRESHOLDS:
            out[t].append(rule_types(Xt, t))
        assert out[MAX_NUMERIC_LEVELS][-1] == infer_feature_types(Xt), \
            "threshold MAX_NUMERIC_LEVELS is not the library's rule"
    return out


def changed_columns(types: dict[int, list[dict]]) -> dict[int, list[str]]:
    """Per threshold, the columns whose type differs from threshold 1 on some fold."""
    return {t: sorted({c for ref, got in zip(types[1], types[t], strict=True)
                       for c in ref if ref[c] != got[c]}) for t in THRESHOLDS}


def describe(X: pd.DataFrame, columns) -> str:
    return "; ".join(f"`{c}`: {X[c].nunique()} values "
                     f"({', '.join(f'{v:g}' for v in np.unique(X[c].dropna()))})"
                     for c in columns)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default=",".join(list_datasets()),
                        help="comma-separated table names (default: all)")
    parser.add_argument("--quick", action="store_true",
                        help="yeast, one repeat (typing_rule_quick.md)")
    args = parser.parse_args()
    repeats = 1 if args.quick else REPEATS
    if args.quick:
        args.tables = "yeast"
    load_start = os.getloadavg()[0]
    started = pd.Timestamp.now(tz="UTC").strftime("%Y-%m-%d %H:%M UTC")
    tables = args.tables.split(",")
    summary, sections = [], []
    for name in tables:
        X, y = load_dataset(name)
        X, y, dropped = drop_small_classes(X, y, FOLDS)
        folds = splits(y, FOLDS, repeats=repeats)
        types = fold_types(X, folds)
        changed = changed_columns(types)
        if not any(changed.values()):
            summary.append(f"| {name} | " + " | ".join(["none"] * (len(THRESHOLDS) - 1)) + " |")
            continue
        summary.append(f"| {name} | " + " | ".join(describe(X, changed[t]) or "none"
                                                  for t in THRESHOLDS[1:]) + " |")
        lines = [f"### {name} ({len(y)} rows{f'; dropped classes {dropped}' if dropped else ''})",
                 "", "| model | threshold | accuracy | log-loss | columns typed categorical "
                 "by the threshold |", "|---|---:|---:|---:|---|"]
        # only thresholds that give a different mapping from the one before are fitted
        distinct = [t for i, t in enumerate(THRESHOLDS)
                    if i == 0 or types[t] != types[THRESHOLDS[i - 1]]]
        for label, model in MODELS.items():
            fitted = {}
            for t in THRESHOLDS:
                source = max(s for s in distinct if s <= t)
                if source not in fitted:
                    fitted[source] = cross_validate(Typed(model, source), X, y, folds)
                res = fitted[source]
                print(f"{name} {label} <= {t}: {res}", file=sys.stderr, flush=True)
                same = "" if source == t else f" (same mapping as <= {source})"
                lines.append(f"| {label} | <= {t} | {cell(res, 'acc')} | {cell(res, 'loss')} | "
                             f"{', '.join(changed[t]) or 'none'}{same} |")
        for label, model in SKLEARN.items():
            res = cross_validate(model, X, y, folds)
            lines.append(f"| {label} | (types unused) | {cell(res, 'acc')} | "
                         f"{cell(res, 'loss')} | |")
        sections += lines + [""]
    lines = [
        f"Code: commit {commit()}. Command: `PYTHONPATH=$PWD nice -n 10 python "
        f"benchmarks/typing_rule.py{'' if args.tables == parser.get_default('tables') else ' --tables ' + args.tables}`."
        f" Started {started}; load average {load_start:.1f} at the start.", "",
        __doc__.split("\n\n", 1)[1].split("\n\nRun:")[0], "",
        "## Which tables a threshold changes", "",
        "Columns typed categorical by a threshold that were continuous under `<= 1` on at "
        "least one training fold (their distinct values on the whole table in brackets).", "",
        "| table | " + " | ".join(f"<= {t}" + (" (the rule)" if t == MAX_NUMERIC_LEVELS else "")
                                   for t in THRESHOLDS[1:]) + " |",
        "|---|" + "---|" * (len(THRESHOLDS) - 1), *summary, "",
        "## Numbers on the tables that change", "",
        "Each model on its own, the same 15 folds for every row of a table; a threshold "
        "that gives the same mapping on every fold as a smaller one is not refitted (its "
        "numbers are those of the smaller one, marked).", "", *sections]
    write("typing_rule", "Typing rule: non-integer numeric columns with few values", lines)


if __name__ == "__main__":
    main()
