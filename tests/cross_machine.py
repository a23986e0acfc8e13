"""Every model of the command line's registry (``viz.cli.learn.MODELS``, at its defaults,
seeded, and with discriminative parameters where it has them) fitted on every built-in table (``list_datasets``) at the quick size of the
benchmarks, and what it learned: its structure (the edges of
:func:`~estimators.network.export.structure_graph.structure_graph`, by name) and its
``predict_proba`` on the table's rows.

Each table is cut as ``benchmarks/real_tables.py --quick`` cuts it (``ROWS`` rows,
stratified, seed 0; here also its first ``FEATURES`` columns), and each model is fitted on
the whole sample and on the training part of each of its ``FOLDS`` stratified folds (seed
0): the choices made on a fold's rows (votes' k-TAN, penguins' discriminative penalty)
were the ones that used to follow the CPU.

``python tests/cross_machine.py OUT.json PARTS [TABLE ...]`` writes them as JSON, PARTS a
comma-separated list of ``all`` and fold numbers (e.g. ``all,2,3``), every table by default;
``tests/estimators/test_cross_machine.py`` runs it in processes of different arithmetic
(numpy's SIMD dispatch, OpenBLAS's core type) and compares.
"""

from __future__ import annotations

import inspect
import json
import sys
import warnings

import numpy as np

#: rows per table (stratified sample, seed 0), features (the first ones), training folds
ROWS = 150
FEATURES = 16
FOLDS = 5


def table(name: str):
    """The built-in table ``name`` at the quick size (stratified rows, the first columns)."""
    from sklearn.model_selection import train_test_split

    from estimators.datasets import load_dataset

    X, y = load_dataset(name)
    counts = y.value_counts()
    keep = y.isin(counts[counts >= FOLDS].index).to_numpy()  # stratified folds need FOLDS
    X, y = X.iloc[keep, :FEATURES], y[keep]
    if len(y) > ROWS:
        rows, _ = train_test_split(np.arange(len(y)), train_size=ROWS, stratify=y,
                                   random_state=0)
        X, y = X.iloc[np.sort(rows)], y.iloc[np.sort(rows)]
    return X.reset_index(drop=True), y.reset_index(drop=True)


def parts(y, which: list[str]) -> list[tuple[str, np.ndarray]]:
    """The rows fitted on: ``"all"``, and the training part of each stratified fold named
    by its number."""
    from sklearn.model_selection import StratifiedKFold

    split = StratifiedKFold(FOLDS, shuffle=True, random_state=0).split(np.zeros(len(y)), y)
    rows = {"all": np.arange(len(y)), **{str(i): train for i, (train, _) in enumerate(split)}}
    return [(p if p == "all" else f"fold {p}", rows[p]) for p in which]


def models() -> dict:
    """Every model of the registry at its defaults (seeded, silent), and with
    ``parameters="discriminative"`` where it has that parameter (its penalty is chosen by
    inner cross-validation): name -> factory."""
    from viz.cli.learn import MODELS

    out = {}
    for name, spec in MODELS.items():
        cls = spec.estimator_class()
        signature = inspect.signature(cls).parameters
        params = {"verbose": False}
        if "random_state" in signature:
            params["random_state"] = 0
        out[name] = lambda cls=cls, params=params: cls(**params)
        if "parameters" in signature:
            out[f"{name} (discriminative)"] = (
                lambda cls=cls, params=params: cls(**params, parameters="discriminative"))
    return out


def learned(table_name: str, which: list[str]) -> dict:
    """``{"MODEL on TABLE, PART": {"edges": [[u, v, kind], ...], "proba": [[...], ...]}}``
    for every model of the registry and every part of the table."""
    from estimators.network.export.structure_graph import structure_graph

    X, y = table(table_name)
    found = {}
    for name, make in models().items():
        for part, rows in parts(y, which):
            clf = make().fit(X.iloc[rows], y.iloc[rows])
            edges = sorted([str(u), str(v), str(a.get("kind"))]
                           for u, v, a in structure_graph(clf).edges(data=True))
            fitted = getattr(clf, "discriminative_", None)  # the penalty chosen
            choice = None if fitted is None else repr(
                (fitted.spec.l2, fitted.spec.centre, fitted.spec.scale))
            found[f"{name} on {table_name}, {part}"] = {
                "edges": edges, "choice": choice, "proba": clf.predict_proba(X).tolist()}
    return found


def main(argv: list[str]) -> None:
    from estimators.datasets import list_datasets

    out, which, tables = argv[0], argv[1].split(","), argv[2:] or list_datasets()
    warnings.simplefilter("ignore")
    found = {}
    for name in tables:
        found.update(learned(name, which))
    with open(out, "w") as f:
        json.dump(found, f)


if __name__ == "__main__":
    main(sys.argv[1:])
