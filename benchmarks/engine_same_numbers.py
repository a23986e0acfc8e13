"""Every family, before and after a change to the core: structures and ``predict_proba``
compared (the "same numbers" check of the one-engine refactor).

Each configuration of :data:`CONFIGS` (every public classifier at its defaults, and the
options that take another code path: discriminative parameters, conditional Gaussian or
kernel continuous factors, greedy search, a second width) is fitted on each table of
:func:`tables` (categorical: car and votes; continuous: wine; mixed: oj; with empty cells:
helpmiss and penguins), and the dump keeps its structure graph's edges and ``predict_proba``
on the training rows. A configuration that refuses a table keeps the error's type and
message, so a refusal that changes is a difference too. ``compare`` reports every
difference: edges not equal, probabilities further apart than ``--tolerance`` (1e-12).

Run (the old version from a git archive, then this tree; each dump is labelled)::

    git archive cf1b50b | (mkdir -p /tmp/old && tar -x -C /tmp/old)
    PYTHONPATH=/tmp/old python benchmarks/engine_same_numbers.py dump /tmp/old.pkl old
    PYTHONPATH=. python benchmarks/engine_same_numbers.py dump /tmp/new.pkl new
    PYTHONPATH=. python benchmarks/engine_same_numbers.py compare /tmp/old.pkl /tmp/new.pkl

The script imports only names both versions have (``estimators``' public classes,
``load_dataset`` and ``structure_graph``), and gives a parameter renamed since the baseline
its old name where the class takes that one (:data:`RENAMED`), so it runs at either commit.
"""

from __future__ import annotations

import argparse
import inspect
import pickle
import sys
import warnings

import numpy as np

#: (label, class name, parameters, table kinds it is fitted on)
ALL = ("categorical", "continuous", "mixed", "empty cells")
CONFIGS = [
    ("NB", "NaiveBayesClassifier", {}, ALL),
    ("NB discriminative", "NaiveBayesClassifier", {"parameters": "discriminative"}, ALL),
    ("TAN", "TANClassifier", {}, ALL),
    ("TAN discriminative", "TANClassifier", {"parameters": "discriminative"}, ALL),
    ("TAN continuous auto", "TANClassifier", {"continuous": "auto"}, ALL[1:]),
    ("2-TAN", "KTANClassifier", {"k": 2}, ALL),
    ("2-TAN greedy", "KTANClassifier", {"k": 2, "search": "greedy"}, ALL),
    ("2-TAN discriminative", "KTANClassifier", {"k": 2, "parameters": "discriminative"}, ALL),
    ("kDB k=2", "KDBClassifier", {"max_parents": 2}, ALL),
    ("kDB discriminative", "KDBClassifier", {"max_parents": 1,
                                             "parameters": "discriminative"}, ALL),
    ("AODE", "AODEClassifier", {}, ALL),
    ("A2DE", "A2DEClassifier", {}, ALL),
    ("BAN", "BANClassifier", {}, ALL),
    ("GNB", "GNBClassifier", {}, ALL),
    ("GNB copula", "GNBClassifier", {"dependence": "gaussian-copula"}, ALL[1:]),
    ("GNB kde", "GNBClassifier", {"dependence": "kde"}, ALL[1:2]),
    ("3-GNB", "KGNBClassifier", {"order": 3}, ALL),
    ("latent CNB", "LatentCNBClassifier", {"n_components": 2, "random_state": 0}, ALL),
]
#: parameters renamed since the baseline commit (cf1b50b): new name -> old name
RENAMED = {"max_parents": "k"}  # kDB's bound on a feature's parents


def tables() -> dict[str, tuple[str, object, object]]:
    """name -> (kind, X, y); car and wine subsampled and cut to keep the run in minutes."""
    from estimators.datasets import load_dataset

    out = {}
    X, y = load_dataset("car")
    out["car"] = ("categorical", X.iloc[::4].reset_index(drop=True),
                  y.iloc[::4].reset_index(drop=True))
    out["votes"] = ("categorical", *load_dataset("votes"))
    X, y = load_dataset("wine")
    out["wine"] = ("continuous", X.iloc[:, :8], y)
    out["oj"] = ("mixed", *load_dataset("oj"))
    out["helpmiss"] = ("empty cells", *load_dataset("helpmiss"))
    out["penguins"] = ("empty cells", *load_dataset("penguins"))
    return out


def _edges(model) -> list:
    from estimators.network.export.structure_graph import structure_graph

    try:
        g = structure_graph(model)
    except TypeError:  # no graph (naive Bayes): its features and types are its structure
        return sorted(map(str, getattr(model, "feature_types_", {}).items()))
    return sorted((str(u), str(v), str(d.get("kind"))) for u, v, d in g.edges(data=True))


def fit_one(cls_name: str, params: dict, X, y) -> dict:
    import estimators

    cls = getattr(estimators, cls_name)
    taken = inspect.signature(cls).parameters
    params = {name if name in taken else RENAMED.get(name, name): value
              for name, value in params.items()}
    try:
        model = cls(**params).fit(X, y)
    except Exception as exc:  # a refusal is a result too
        return {"error": f"{type(exc).__name__}: {exc}"}
    return {"edges": _edges(model), "proba": np.asarray(model.predict_proba(X), float)}


def dump(path: str, label: str) -> None:
    warnings.simplefilter("ignore")
    out: dict = {"label": label}
    for tname, (kind, X, y) in tables().items():
        for label_, cls_name, params, kinds in CONFIGS:
            if kind in kinds:
                out[(tname, label_)] = fit_one(cls_name, params, X, y)
                print(tname, label_, "error" if "error" in out[(tname, label_)] else "ok",
                      file=sys.stderr, flush=True)
    with open(path, "wb") as fh:
        pickle.dump(out, fh)


def differences(old: dict, new: dict, tolerance: float) -> list[str]:
    """One line per configuration whose result differs, empty when all agree."""
    lines = []
    for key in sorted(k for k in old if k != "label"):
        a, b = old[key], new.get(key)
        if b is None:
            lines.append(f"{key}: missing in the new dump")
        elif "error" in a or "error" in b:
            if a.get("error") != b.get("error"):
                lines.append(f"{key}: {a.get('error', 'fits')} -> {b.get('error', 'fits')}")
        elif a["edges"] != b["edges"]:
            lines.append(f"{key}: structure differs")
        elif a["proba"].shape != b["proba"].shape:
            lines.append(f"{key}: predict_proba shape {a['proba'].shape} -> {b['proba'].shape}")
        else:
            gap = float(np.max(np.abs(a["proba"] - b["proba"]), initial=0.0))
            if not gap <= tolerance:
                lines.append(f"{key}: predict_proba differs by {gap:.3g}")
    return lines


def compare(old_path: str, new_path: str, tolerance: float) -> int:
    with open(old_path, "rb") as fh:
        old = pickle.load(fh)
    with open(new_path, "rb") as fh:
        new = pickle.load(fh)
    lines = differences(old, new, tolerance)
    n = len(old) - 1
    errors = sum("error" in v for k, v in old.items() if k != "label")
    print(f"{old['label']} -> {new['label']}: {n} fits ({errors} refusals), "
          f"{len(lines)} differ (tolerance {tolerance:g})")
    print("\n".join(lines))
    return 1 if lines else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("path")
    d.add_argument("label")
    c = sub.add_parser("compare")
    c.add_argument("old")
    c.add_argument("new")
    c.add_argument("--tolerance", type=float, default=1e-12)
    args = parser.parse_args()
    if args.command == "dump":
        dump(args.path, args.label)
    else:
        sys.exit(compare(args.old, args.new, args.tolerance))


if __name__ == "__main__":
    main()
