"""TAN / k-TAN: structures and predict_proba of two code versions compared (issue 11:
"numbers that must not change"; issue 28: the conditional Gaussian score's speed-ups).

Tables: car, votes, tic_tac_toe (categorical); the first 12 columns of sonar and wine, and
iris (continuous, ``features="gaussian"``); helpmiss (mixed, missing cells, duplicated
columns, a one-row class), oj (mixed) and a 600-row sample of the generated 10 + 10 column
table of ``benchmarks/ktan_speed.py`` (mixed, conditional Gaussian score). Models: TAN,
2-TAN and 3-TAN (backbone DP, default backbone), 2-TAN greedy, 2-TAN with the given
backbone.

Run (the old version from a git archive, then this tree; each dump is labelled)::

    git archive fdffb84 | (mkdir -p /tmp/old && tar -x -C /tmp/old)
    PYTHONPATH=/tmp/old python benchmarks/ktan_same_numbers.py dump /tmp/old.pkl main@fdffb84
    PYTHONPATH=. python benchmarks/ktan_same_numbers.py dump /tmp/new.pkl branch
    PYTHONPATH=. python benchmarks/ktan_same_numbers.py compare /tmp/old.pkl /tmp/new.pkl
    # -> benchmarks/results/ktan_same_numbers.md (header by benchmarks/_common.write)
"""

from __future__ import annotations

import pickle
import sys
import warnings

import numpy as np


def _mixed_tables() -> dict:
    """helpmiss, oj and the generated mixed table (600 rows, 10 + 10 columns)."""
    from benchmarks.ktan_speed import generated
    from estimators.datasets import load_dataset

    return {"helpmiss": load_dataset("helpmiss"), "oj": load_dataset("oj"),
            "generated": generated(600, 10, 10)}


def dump(path: str, label: str = "") -> None:
    from sklearn.datasets import load_iris

    from estimators.datasets import load_dataset
    from estimators.ktan import KTANClassifier, TANClassifier

    warnings.simplefilter("ignore")
    tables = {name: load_dataset(name) for name in ("car", "votes", "tic_tac_toe")}
    for name in ("sonar", "wine"):
        X, y = load_dataset(name)
        tables[name] = (X.iloc[:, :12], y)
    tables["iris"] = load_iris(return_X_y=True, as_frame=True)
    tables.update(_mixed_tables())
    configs = {"TAN": (TANClassifier, {}), "2-TAN": (KTANClassifier, {"k": 2}),
               "3-TAN": (KTANClassifier, {"k": 3}),
               "2-TAN greedy": (KTANClassifier, {"k": 2, "search": "greedy"}),
               "2-TAN given": (KTANClassifier, {"k": 2, "backbone": "given"})}
    out = {"label": label}
    for tname, (X, y) in tables.items():
        family = {"features": "gaussian"} if tname in ("sonar", "wine", "iris") else {}
        for cname, (cls, kw) in configs.items():
            clf = cls(**kw, **family).fit(X, y)
            s = clf.structure_
            out[tname, cname] = (sorted((v, tuple(sorted(s.parents(v)))) for v in s.order),
                                 clf.predict_proba(X), float(clf.score_))
    with open(path, "wb") as fh:
        pickle.dump(out, fh)


def compare(old: str, new: str):
    """The table of both dumps' cases, written by :func:`benchmarks._common.write`."""
    from benchmarks._common import write

    with open(old, "rb") as fh:
        a = pickle.load(fh)
    with open(new, "rb") as fh:
        b = pickle.load(fh)
    names = a.pop("label", "") or old, b.pop("label", "") or new
    rows, same, worst = [], 0, 0.0
    for key in a:
        (sa, pa, ka), (sb, pb, kb) = a[key], b[key]
        diff = float(np.abs(pa - pb).max())
        same += sa == sb
        worst = max(worst, diff)
        rows.append(f"| {key[0]} | {key[1]} | {sa == sb} | {diff:.1e} | {abs(ka - kb):.1e} |")
    lines = [f"Dumps compared: `{old}` ({names[0]}) and `{new}` ({names[1]}); see the "
             "docstring of `benchmarks/ktan_same_numbers.py` for how each is made. "
             f"{same} of {len(rows)} structures equal; largest predict_proba difference "
             f"{worst:.1e}.", "",
             "| table | model | same structure | max abs diff predict_proba | score diff |",
             "|---|---|---|---|---|", *rows]
    return write("ktan_same_numbers", "TAN / k-TAN: the numbers of two code versions", lines)


if __name__ == "__main__":
    # no sys.path change here: a dump must import the package of its PYTHONPATH
    {"dump": lambda: dump(*sys.argv[2:4]),
     "compare": lambda: compare(*sys.argv[2:4])}[sys.argv[1]]()
