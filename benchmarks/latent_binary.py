"""Latent CNB on tables of 0/1 columns (issue 11): Gaussian for every column (the old
default, ``family="gaussian"``) against a family per column type (``family="auto"``, 0/1
columns categorical), same folds, same run.

Tables: votes with y = 1, n = 0 and '?' missing; tic_tac_toe, car and kr_vs_kp one-hot
encoded (pandas.get_dummies, 0/1 integers); the five 0/1 columns of heart_failure.
Protocol: stratified 5-fold CV (shuffled, seed 0), accuracy, LatentCNBClassifier(random_state=0).

Run: ``PYTHONPATH=$PWD python benchmarks/latent_binary.py`` (writes results/latent_binary.md).
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from _common import QUICK, write  # noqa: E402
from sklearn.model_selection import StratifiedKFold, cross_val_score  # noqa: E402

from estimators.datasets import load_dataset  # noqa: E402
from estimators.latent import LatentCNBClassifier  # noqa: E402


def tables() -> dict:
    out = {}
    X, y = load_dataset("votes")
    out["votes (y = 1, n = 0, ? missing)"] = (
        X.replace({"y": 1, "n": 0, "?": np.nan}).astype(float), y)
    for name in ("car",) if QUICK else ("tic_tac_toe", "car", "kr_vs_kp"):
        X, y = load_dataset(name)
        out[f"{name}, one-hot 0/1"] = (pd.get_dummies(X, dtype=int), y)
    X, y = load_dataset("heart_failure")
    out["heart_failure, its 0/1 columns"] = (
        X[["anaemia", "diabetes", "high_blood_pressure", "sex", "smoking"]], y)
    return out


def main() -> None:
    warnings.simplefilter("ignore")
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    lines = [__doc__.split("\n\n")[1].replace("\n", " "), "",
        "| table | always the majority class | family='gaussian' (before) | "
        "family='auto' (after) |", "|---|---:|---:|---:|"]
    for name, (X, y) in tables().items():
        acc = [cross_val_score(LatentCNBClassifier(family=f, random_state=0), X, y,
                               cv=cv).mean() for f in ("gaussian", "auto")]
        lines.append(f"| {name} | {y.value_counts(normalize=True).iloc[0]:.3f} | "
                     f"{acc[0]:.3f} | {acc[1]:.3f} |")
    write("latent_binary", "Latent CNB on 0/1 columns: Gaussian vs categorical", lines + [""])


if __name__ == "__main__":
    main()
