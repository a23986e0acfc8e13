"""Shared pieces of the real-table benchmarks (real_tables.py, leaderboard.py, missing.py):
the cross-validation loop that records accuracy, log-loss and the failures on the same folds
for every model, the folds, and a result cache keyed by the code version.

The kgraph classifiers come from the registry of ``_models.py``, the baselines from
``_baselines.py``.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from _baselines import BASELINES, NUMBERS, STRINGS, as_object
from _common import RESULTS, code_version
from sklearn.base import clone
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.metrics import accuracy_score, log_loss
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer
from threadpoolctl import threadpool_limits

threadpool_limits(1)  # one BLAS / OpenMP thread per model: the machine is shared

#: the default folder of cached table results (one JSON file per table x model x version)
CACHE = RESULTS / ".cache"
#: the files besides the package sources that a cached table result depends on
BENCH_SOURCES = ("benchmarks/_tables.py", "benchmarks/_models.py", "benchmarks/_baselines.py")


def version() -> str:
    """The code version of a table result: package sources, the benchmark helpers above and
    the scikit-learn version."""
    import sklearn

    return f"{code_version(BENCH_SOURCES)}-sk{sklearn.__version__}"


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


def cross_validate(model, X: pd.DataFrame, y: pd.Series, folds: list) -> dict:
    """Mean and std of accuracy and log-loss over the folds, total seconds, or the error;
    ``acc_folds``: the accuracy of each fold, in the order of ``folds``; ``fit_seconds``:
    the fits alone (summed over the folds).

    A fit or prediction that raises is recorded as ``{"error": "Type: message"}``; a
    probability row that is not finite and summing to 1 is an error too.
    """
    acc, loss, chosen = [], [], []
    fit_seconds = 0.0
    start = time.perf_counter()
    try:
        for train, test in folds:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tick = time.perf_counter()
                fitted = clone(model).fit(X.iloc[train], y.iloc[train])
                fit_seconds += time.perf_counter() - tick
                proba = fitted.predict_proba(X.iloc[test])
            if not (np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1.0)):
                raise ValueError("predict_proba rows not finite or not summing to 1")
            if hasattr(fitted, "chosen_"):
                chosen.append(fitted.chosen_)
            classes = fitted.classes_
            truth = y.iloc[test].to_numpy()
            acc.append(accuracy_score(truth, classes[proba.argmax(axis=1)]))
            loss.append(log_loss(truth, proba, labels=classes))
    except Exception as exc:  # noqa: BLE001 - a benchmark reports every failure
        return {"error": f"{type(exc).__name__}: {str(exc).splitlines()[0][:120]}"}
    out = {"acc": float(np.mean(acc)), "acc_sd": float(np.std(acc, ddof=1)),
           "acc_folds": [float(a) for a in acc], "loss": float(np.mean(loss)),
           "loss_sd": float(np.std(loss, ddof=1)), "loss_folds": [float(v) for v in loss],
           "seconds": time.perf_counter() - start, "fit_seconds": fit_seconds}
    if chosen:
        out["chosen"] = chosen
    return out


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


def table_results(name: str, models: dict, *, folds: int, rows: int | None, repeats: int,
                  cache) -> tuple[dict, list, dict, tuple]:
    """Every model of ``models`` cross-validated on table ``name`` (the same folds: ``folds``
    stratified folds repeated ``repeats`` times), each result cached by table, settings,
    model and code version: results by label, the cache entries, dropped classes, shape."""
    X, y, dropped = load_table(name, folds, rows)
    pairs = splits(y, folds, repeats=repeats)
    code = version()
    results, entries = {}, []
    for label, model in models.items():
        slug = re.sub(r"[^A-Za-z0-9]+", "_", label).strip("_")
        entry = cached(cache, f"{name}-{rows}-f{folds}-r{repeats}-{slug}-{model_key(model)}",
                       lambda model=model: cross_validate(model, X, y, pairs), code)
        results[label] = entry["result"]
        entries.append(entry)
        print(f"{name:<18} {label:<38} {_short(entry['result'])}", file=sys.stderr, flush=True)
    return results, entries, dropped, X.shape


def _short(result: dict) -> str:
    if "error" in result:
        return result["error"]
    return f"acc {result['acc']:.4f} loss {result['loss']:.4f} {result['seconds']:.1f} s"
