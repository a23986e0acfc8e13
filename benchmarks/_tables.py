"""Shared pieces of the real-table benchmarks (real_tables.py, missing.py): the five kgraph
models at the settings reported, the scikit-learn pipelines a user would write for a mixed
table, and a cross-validation loop that records accuracy, log-loss and the failures."""

from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.compose import ColumnTransformer, make_column_selector
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, log_loss
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, OneHotEncoder, StandardScaler
from threadpoolctl import threadpool_limits

from estimators import (
    GNBClassifier,
    KGNBClassifier,
    KTANClassifier,
    LatentCNBClassifier,
    TANClassifier,
)

threadpool_limits(1)  # one BLAS / OpenMP thread per model: the machine is shared

#: the five kgraph models, each at its defaults (the latent model seeded)
KGRAPH = {
    "gnb": GNBClassifier(),
    "kgnb": KGNBClassifier(),
    "tan": TANClassifier(),
    "ktan": KTANClassifier(),
    "latent-cnb": LatentCNBClassifier(random_state=0),
}

_STRINGS = make_column_selector(dtype_include=["object", "string", "category", "bool"])
_NUMBERS = make_column_selector(dtype_exclude=["object", "string", "category", "bool"])


def _as_object(X):
    return X.astype(object)


def _one_hot(scale: bool) -> ColumnTransformer:
    """Median-impute (and scale) numeric columns; most-frequent-impute and one-hot the
    string columns (unknown categories ignored), as a user of scikit-learn writes it."""
    numeric = [SimpleImputer(strategy="median")] + ([StandardScaler()] if scale else [])
    strings = [FunctionTransformer(_as_object), SimpleImputer(strategy="most_frequent"),
               OneHotEncoder(handle_unknown="ignore", sparse_output=False)]
    return ColumnTransformer([("num", make_pipeline(*numeric), _NUMBERS),
                              ("cat", make_pipeline(*strings), _STRINGS)])


def _categories(X: pd.DataFrame) -> pd.DataFrame:
    out = X.copy()
    for column in _STRINGS(out):
        out[column] = out[column].astype("category")
    return out


#: the scikit-learn pipelines a user would write (HGB reads string columns as categories)
SKLEARN = {
    "sk: impute+onehot+GaussianNB": make_pipeline(_one_hot(False), GaussianNB()),
    "sk: impute+onehot+scaled LR": make_pipeline(_one_hot(True),
                                                 LogisticRegression(max_iter=2000)),
    "sk: HistGradientBoosting": make_pipeline(
        FunctionTransformer(_categories),
        HistGradientBoostingClassifier(categorical_features="from_dtype", random_state=0)),
}


def imputed(model) -> object:
    """``model`` after SimpleImputer (median for numeric, most frequent for string columns),
    keeping a DataFrame so that column types are decided as without imputation."""
    imputer = ColumnTransformer(
        [("num", SimpleImputer(strategy="median"), _NUMBERS),
         ("cat", make_pipeline(FunctionTransformer(_as_object),
                               SimpleImputer(strategy="most_frequent")), _STRINGS)],
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
    acc, loss = [], []
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
            classes = fitted.classes_
            truth = y.iloc[test].to_numpy()
            acc.append(accuracy_score(truth, classes[proba.argmax(axis=1)]))
            loss.append(log_loss(truth, proba, labels=classes))
    except Exception as exc:  # noqa: BLE001 - a benchmark reports every failure
        return {"error": f"{type(exc).__name__}: {str(exc).splitlines()[0][:120]}"}
    return {"acc": float(np.mean(acc)), "acc_sd": float(np.std(acc, ddof=1)), "acc_folds": [float(a) for a in acc],
            "loss": float(np.mean(loss)), "loss_sd": float(np.std(loss, ddof=1)),
            "seconds": time.perf_counter() - start, "fit_seconds": fit_seconds}


def cell(result: dict, key: str) -> str:
    """``mean ± sd`` of a metric, or the error."""
    if "error" in result:
        return "error"
    return f"{result[key]:.4f} ± {result[key + '_sd']:.4f}"


def cached(folder, key: str, compute):
    """``compute()``, or its result saved as ``folder/key.json`` by an earlier run (so that
    several processes can share the tables of one benchmark and a last run writes the
    report); without a folder, just ``compute()``."""
    if folder is None:
        return compute()
    import json
    from pathlib import Path

    path = Path(folder) / f"{key}.json"
    if path.is_file():
        return json.loads(path.read_text())
    result = compute()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result))
    return result
