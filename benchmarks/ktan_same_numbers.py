"""TAN / k-TAN on complete single-type tables: structures and predict_proba of two code
versions compared (issue 11: "numbers that must not change").

Tables: car, votes, tic_tac_toe (categorical); the first 12 columns of sonar and wine, and
iris (continuous, ``features="gaussian"``). Models: TAN, 2-TAN and 3-TAN (backbone DP,
default backbone), 2-TAN greedy, 2-TAN with the given backbone.

Run (the old version from a git archive, then this tree)::

    git archive fdffb84 | (mkdir -p /tmp/old && tar -x -C /tmp/old)
    PYTHONPATH=/tmp/old python benchmarks/ktan_same_numbers.py dump /tmp/old.pkl
    PYTHONPATH=. python benchmarks/ktan_same_numbers.py dump /tmp/new.pkl
    python benchmarks/ktan_same_numbers.py compare /tmp/old.pkl /tmp/new.pkl
"""

from __future__ import annotations

import pickle
import sys
import warnings

import numpy as np


def dump(path: str) -> None:
    from sklearn.datasets import load_iris

    from estimators.datasets import load_dataset
    from estimators.ktan import KTANClassifier, TANClassifier

    warnings.simplefilter("ignore")
    tables = {name: load_dataset(name) for name in ("car", "votes", "tic_tac_toe")}
    for name in ("sonar", "wine"):
        X, y = load_dataset(name)
        tables[name] = (X.iloc[:, :12], y)
    tables["iris"] = load_iris(return_X_y=True, as_frame=True)
    configs = {"TAN": (TANClassifier, {}), "2-TAN": (KTANClassifier, {"k": 2}),
               "3-TAN": (KTANClassifier, {"k": 3}),
               "2-TAN greedy": (KTANClassifier, {"k": 2, "search": "greedy"}),
               "2-TAN given": (KTANClassifier, {"k": 2, "backbone": "given"})}
    out = {}
    for tname, (X, y) in tables.items():
        family = {"features": "gaussian"} if tname in ("sonar", "wine", "iris") else {}
        for cname, (cls, kw) in configs.items():
            clf = cls(**kw, **family).fit(X, y)
            s = clf.structure_
            out[tname, cname] = (sorted((v, tuple(sorted(s.parents(v)))) for v in s.order),
                                 clf.predict_proba(X), float(clf.score_))
    with open(path, "wb") as fh:
        pickle.dump(out, fh)


def compare(old: str, new: str) -> None:
    with open(old, "rb") as fh:
        a = pickle.load(fh)
    with open(new, "rb") as fh:
        b = pickle.load(fh)
    print("| table | model | same structure | max abs diff predict_proba | score diff |")
    print("|---|---|---|---|---|")
    for key in a:
        (sa, pa, ka), (sb, pb, kb) = a[key], b[key]
        print(f"| {key[0]} | {key[1]} | {sa == sb} | {np.abs(pa - pb).max():.1e} "
              f"| {abs(ka - kb):.1e} |")


if __name__ == "__main__":
    {"dump": lambda: dump(sys.argv[2]), "compare": lambda: compare(*sys.argv[2:4])}[sys.argv[1]]()
