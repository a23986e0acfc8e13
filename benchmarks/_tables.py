"""Shared pieces of the real-table benchmarks (real_tables.py, leaderboard.py, bnc_family.py,
discriminative.py, missing.py, ...): the tables as the benchmarks load them, and the
cross-validation of every model on the same folds by the cells of ``kgraph compare``
(:mod:`viz.compare.cells`, one code path), stored in its run store keyed by the code version.

The kgraph classifiers come from the registry of ``_models.py``, the baselines from
``_baselines.py`` (those of ``kgraph compare``).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from _baselines import BASELINES, NUMBERS, STRINGS, as_object
from _common import RESULTS
from sklearn.base import clone
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer
from threadpoolctl import threadpool_limits

threadpool_limits(1)  # one BLAS / OpenMP thread per model: the machine is shared

#: the default folder of the run store (``runs.db``) and of cached results
CACHE = RESULTS / ".cache"


def version() -> str:
    """The code version of a table result: that of ``kgraph compare``'s run store (the
    package sources and scikit-learn's version; a stored cell is reused only under it)."""
    from viz.compare.models import code_version

    return code_version()


#: the baselines under their former name (benchmarks written before issue 26 import it)
SKLEARN = BASELINES


def imputed(model) -> object:
    """``model`` after SimpleImputer (median for numeric, most frequent for string columns),
    keeping a DataFrame so that column types are decided as without imputation."""
    imputer = ColumnTransformer(
        [("num", SimpleImputer(strategy="median"), NUMBERS),
         ("cat", make_pipeline(FunctionTransformer(as_object),
                               SimpleImputer(strategy="most_frequent")), STRINGS)],
        verbose_feature_names_out=False).set_output(transform="pandas")
    return make_pipeline(imputer, clone(model))


def settings(model) -> str:
    """The parameters a kgraph model is run with (its non-default ones, else 'defaults')."""
    default = type(model)().get_params()
    changed = {k: v for k, v in model.get_params().items() if default.get(k) != v}
    return ", ".join(f"{k}={v!r}" for k, v in changed.items()) or "defaults"


def drop_small_classes(X: pd.DataFrame, y: pd.Series, folds: int):
    """Drop the rows of classes with fewer rows than folds (stratified k-fold cannot put one
    in every training set); return X, y and the dropped labels with their counts."""
    counts = y.value_counts()
    small = counts[counts < folds]
    keep = ~y.isin(small.index)
    return X[keep].reset_index(drop=True), y[keep].reset_index(drop=True), small.to_dict()


def subsample(X: pd.DataFrame, y: pd.Series, rows: int, seed: int = 0):
    """At most ``rows`` rows, stratified by class (for the quick runs)."""
    if len(y) <= rows:
        return X, y
    from sklearn.model_selection import train_test_split

    keep, _ = train_test_split(np.arange(len(y)), train_size=rows, stratify=y,
                               random_state=seed)
    keep = np.sort(keep)
    return X.iloc[keep].reset_index(drop=True), y.iloc[keep].reset_index(drop=True)


def splits(y: pd.Series, folds: int, seed: int = 0, repeats: int = 1) -> list:
    """The stratified folds every model of a table is scored on: ``repeats`` shuffles of
    ``folds`` folds (seeds ``seed``, ``seed + 1``, ...; the first is the single split of
    ``repeats=1``), one list of ``repeats * folds`` (train, test) pairs."""
    return [pair for r in range(repeats)
            for pair in StratifiedKFold(folds, shuffle=True, random_state=seed + r).split(
                np.zeros(len(y)), y)]


def summary(scores: list[dict]) -> dict:
    """The result of one model on one table from its cells' scores (fold order): mean and
    std (ddof 1) of accuracy and log-loss, each fold's, total seconds (fits and predictions)
    and fit seconds, the nested-CV picks as ``chosen``; ``{"error": ...}`` when a cell
    failed (the first failure)."""
    failed = [s["error"] for s in scores if "error" in s]
    if failed:
        return {"error": failed[0]}
    acc = [float(s["accuracy"]) for s in scores]
    loss = [float(s["log_loss"]) for s in scores]
    out = {"acc": float(np.mean(acc)), "acc_sd": float(np.std(acc, ddof=1)), "acc_folds": acc,
           "loss": float(np.mean(loss)), "loss_sd": float(np.std(loss, ddof=1)),
           "loss_folds": loss,
           "seconds": float(sum(s["fit_time"] + s["predict_time"] for s in scores)),
           "fit_seconds": float(sum(s["fit_time"] for s in scores))}
    if any("chosen" in s for s in scores):
        out["chosen"] = [s.get("chosen") for s in scores]
    return out


def cross_validate(model, X: pd.DataFrame, y: pd.Series, folds: list) -> dict:
    """:func:`summary` of ``model`` scored on each ``(train, test)`` pair of ``folds`` by
    the cell of ``kgraph compare`` (:func:`viz.compare.cells.score_cell`: a clone fitted on
    the training rows, scored on the test rows, one BLAS thread; a fit or prediction that
    raises is recorded as ``{"error": "Type: message"}``)."""
    from viz.compare.cells import score_cell

    return summary([score_cell(model, (X, y), train, test) for train, test in folds])


def cell(result: dict, key: str) -> str:
    """``mean ± sd`` of a metric, or the error."""
    if "error" in result:
        return "error"
    return f"{result[key]:.4f} ± {result[key + '_sd']:.4f}"


def model_key(model) -> str:
    """A short hash of a model's class and parameters (its scikit-learn repr)."""
    with np.printoptions(threshold=10**6):
        text = f"{type(model).__module__}.{type(model).__name__}:{model.get_params(deep=True)!r}"
    text = re.sub(r" at 0x[0-9a-fA-F]+", "", text)  # function reprs carry their address
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def cached(folder, key: str, compute, code: str | None = None):
    """``compute()``, or its result saved as ``folder/key@VERSION.json`` by an earlier run
    of the same code version (so that several processes can share the tables of one
    benchmark and a last run writes the report); without a folder, just ``compute()``.

    The result is returned as ``{"code_version": VERSION, "result": ...}``: a report checks
    with :func:`one_version` that everything it prints comes from one version.
    """
    code = code or version()
    if folder is None:
        return {"code_version": code, "result": compute()}
    path = Path(folder) / f"{key}@{code}.json"
    if path.is_file():
        return json.loads(path.read_text())
    entry = {"code_version": code, "result": compute()}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(entry))
    tmp.replace(path)
    return entry


def one_version(entries) -> str:
    """The code version shared by cached ``entries``; refuses (``RuntimeError``) a mix of
    versions or a version other than the code's now."""
    versions = {e["code_version"] for e in entries}
    now = version()
    if versions - {now}:
        raise RuntimeError(f"refusing to report results of code versions {sorted(versions)} "
                           f"with the code now at version {now}: rerun them (the package "
                           "sources changed since they were computed)")
    return now


def load_table(name: str, folds: int, rows: int | None):
    """A shipped table with the classes of fewer than ``folds`` rows dropped, subsampled to
    ``rows`` (stratified, seed 0) when larger: X, y, the dropped classes."""
    from estimators.datasets import load_dataset

    X, y = load_dataset(name)
    X, y, dropped = drop_small_classes(X, y, folds)
    if rows:
        X, y = subsample(X, y, rows)
    return X, y, dropped


def run_store(cache) -> str:
    """The run store of the table benchmarks in the folder ``cache`` (None: in memory)."""
    if cache is None:
        return ":memory:"
    Path(cache).mkdir(parents=True, exist_ok=True)
    return str(Path(cache) / "runs.db")


def table_results(name: str, models: dict, *, folds: int, rows: int | None, repeats: int,
                  cache, cache_only: bool = False, n_jobs: int = 1) -> tuple[dict, dict, tuple]:
    """Every model of ``models`` cross-validated on table ``name`` by ``kgraph compare``'s
    cells (:func:`viz.compare.cells.run_cells`: the same folds for every model, ``folds``
    stratified folds repeated ``repeats`` times, seeds 0, 1, ...), each cell a row of the run
    store in ``cache`` keyed by the data's hash, the model, the fold and the code version (a
    cell of other code is never reused, so every result is of :func:`version`): results by
    label (:func:`summary`), the dropped classes and the table's shape. ``cache_only``: only the models
    whose every cell is stored (the others are left out of the results)."""
    from kgraph.store import StructureStore, data_hash
    from viz.compare.cells import Cell, run_cells, stored
    from viz.compare.data import Table
    from viz.compare.models import parse_models

    X, y, dropped = load_table(name, folds, rows)
    table = Table(name, X, y, data_hash(X, y))
    chosen = parse_models(models, baselines=False)
    with StructureStore(run_store(cache)) as store:
        if cache_only:
            chosen = [m for m in chosen
                      if len(stored(store, table, m, folds, 0)) == folds * repeats]
        cells = run_cells([table], chosen, store, cv=folds, repeats=repeats, random_state=0,
                          n_jobs=n_jobs, verbose=False)
    results = {}
    for model in chosen:
        scores = [cells[Cell(name, model.label, f // folds, f)] for f in range(folds * repeats)]
        results[model.label] = summary(scores)
        print(f"{name:<18} {model.label:<38} {_short(results[model.label])}", file=sys.stderr,
              flush=True)
    return results, dropped, X.shape


def _short(result: dict) -> str:
    if "error" in result:
        return result["error"]
    return f"acc {result['acc']:.4f} loss {result['loss']:.4f} {result['seconds']:.1f} s"
