"""The cells of a comparison and how they run: one cell is one (table, model, fold).

The folds are those of ``kgraph learn``: repeat ``r`` is a shuffled stratified k-fold seeded
``random_state + r`` (so repeat 0 is exactly the folds of ``kgraph learn --random-state``),
the same for every model. A cell fits a clone of the model on the training rows and scores
it on the test rows (:func:`estimators.learning.evaluation.split_scores`), with one BLAS / OpenMP
thread (parallelism is across cells, ``n_jobs``).

Each finished cell is at once a row of the run store (:class:`kgraph.store.StructureStore`):
``label`` the table, ``data_hash`` its hash, ``model`` the model's label, ``fold`` the fold's
number over all repeats, ``seed`` the ``random_state``; ``params`` hold the number of folds,
the repeat and the model's key (estimator hash and code version), ``metrics`` the scores
(and the distinct warnings raised); the structure a model learned on the fold is the run's
``fitted`` structure (``kgraph runs edges`` counts the edges over the folds). A
cell already in the store under the same key is read, not run: an interrupted comparison
started again runs only what is missing, and gives the same numbers.

Cells run one after the other, in parallel processes (joblib, ``n_jobs``) or on a Dask
cluster (``engine="dask"``); only this process writes the store, as each cell comes back.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from viz.compare.data import Table
from viz.compare.models import Model

__all__ = ["Cell", "ENGINES", "failure", "run_cells", "score_cell", "splits"]


@dataclass(frozen=True)
class Cell:
    """One (table, model, fold); ``fold`` counts over the repeats (``repeat * cv + k``)."""

    table: str
    model: str
    repeat: int
    fold: int


def splits(table: Table, cv: int, repeats: int, random_state: int) -> list:
    """The ``(train, test)`` row positions of every fold, repeat after repeat."""
    from sklearn.model_selection import StratifiedKFold

    out = []
    for r in range(repeats):
        splitter = StratifiedKFold(n_splits=cv, shuffle=True, random_state=random_state + r)
        try:
            out += list(splitter.split(table.X, table.y))
        except ValueError as exc:
            raise ValueError(f"table {table.name}: {exc}") from exc
    return out


def score_cell(estimator, data: tuple, train, test) -> dict[str, Any]:
    """The scores of one cell (run in a worker: a joblib process or a Dask worker), with
    the distinct warnings it raised as ``warnings`` (``(category name, message)`` pairs)
    and, for a model that learns one, the fitted ``structure`` (else None).

    A fit or prediction that raises gives ``{"error": "Type: message"}`` instead of the
    metrics (:func:`failure`): the comparison goes on, and the reports mark the cell; a
    nested-CV chooser's pick is recorded as ``chosen``."""
    import warnings

    from threadpoolctl import threadpool_limits

    from estimators.learning.evaluation import split_scores

    X, y = data
    # one BLAS / OpenMP thread per cell: cells are the parallelism
    with threadpool_limits(1), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            scores, fitted = split_scores(estimator, X, y, train, test,
                                          np.unique(np.asarray(y)), return_estimator=True)
        except Exception as exc:  # noqa: BLE001 - a model that fails is reported, not fatal
            scores, fitted = {"error": failure(exc)}, None
    raised = dict.fromkeys((w.category.__name__, str(w.message)) for w in caught)
    chosen = next((getattr(fitted, a) for a in CHOSEN if hasattr(fitted, a)), None)
    return {**scores, **({"chosen": str(chosen)} if chosen is not None else {}),
            "warnings": list(raised), "structure": None if fitted is None else _structure(fitted)}


#: attributes that name the candidate a fitted nested-CV chooser picked (recorded per cell)
CHOSEN = ("best_name_", "chosen_")


def failure(exc: BaseException) -> str:
    """The one line a failed cell records: ``Type: first line of the message``.

    Examples
    --------
    >>> failure(ValueError("k must be at most 3\\nmore"))
    'ValueError: k must be at most 3'
    """
    lines = str(exc).splitlines()
    return f"{type(exc).__name__}: {lines[0][:200] if lines else ''}".rstrip(": ")


def _structure(fitted):
    """The kgraph structure a fitted model learned (None for one without)."""
    from kgraph import GraphDB, Structure
    from viz.cli.commands import CommandError
    from viz.cli.learn import learned_structure

    try:
        structure = learned_structure(fitted)
    except CommandError:
        return None
    return structure if isinstance(structure, Structure | GraphDB) else None


def _tagged(i: int, estimator, data: tuple, train, test) -> tuple[int, dict[str, float]]:
    return i, score_cell(estimator, data, train, test)


def stored(store, table: Table, model: Model, cv: int, random_state: int) -> dict[int, dict]:
    """The scores of the cells of ``(table, model)`` already in the store, by fold."""
    found: dict[int, dict] = {}
    for run in store.runs(data_hash=table.data_hash, model=model.label, seed=random_state):
        if run.params.get("cv") == cv and run.params.get("key") == model.key:
            found.setdefault(run.fold, run.metrics)
    return found


def _record(store, cell: Cell, table: Table, model: Model, cv: int, random_state: int,
            scores: dict) -> None:
    structure = scores.pop("structure", None)
    with store.transaction():
        store.add_run(model=model.label, data_hash=table.data_hash, label=table.name,
                      fold=cell.fold, seed=random_state, metrics=scores,
                      structures=[] if structure is None else [structure],
                      params={"cv": cv, "repeat": cell.repeat, "key": model.key,
                              "estimator": model.description})


def _memory(jobs: list, n_jobs: int | None, scheduler: str | None) -> Iterator:
    """``(i, scores)`` of the jobs, in this process (``n_jobs`` 1) or by joblib."""
    if n_jobs in (None, 1):
        for i, estimator, data, train, test in jobs:
            yield i, score_cell(estimator, data, train, test)
        return
    from joblib import Parallel, delayed

    yield from Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
        delayed(_tagged)(*job) for job in jobs)


def _dask(jobs: list, n_jobs: int | None, scheduler: str | None) -> Iterator:
    """``(i, scores)`` of the jobs run on a Dask cluster (``scheduler``: its address; None:
    a local cluster of 2 worker processes, as ``kgraph learn --engine dask``)."""
    from dask.distributed import as_completed

    from viz.cli.engine import dask_client

    client, cluster = dask_client(scheduler)
    try:
        shared = {}
        for _, _, data, _, _ in jobs:  # each table travels to the cluster once
            if id(data) not in shared:
                shared[id(data)] = client.scatter(data, broadcast=False)
        futures = [client.submit(_tagged, i, estimator, shared[id(data)], train, test,
                                 pure=False)
                   for i, estimator, data, train, test in jobs]
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            client.cancel(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


#: ``engine`` -> the function running the cells' jobs
ENGINES = {"memory": _memory, "dask": _dask}


def run_cells(tables: Sequence[Table], models: Sequence[Model], store, *, cv: int,
              repeats: int, random_state: int, n_jobs: int | None = 1,
              engine: str = "memory", scheduler: str | None = None,
              verbose: bool = True) -> dict[Cell, dict[str, Any]]:
    """The scores of every cell: read from the store, or run and recorded there.

    A progress bar on stderr counts the cells (those read from the store at once) and names
    the last one finished.
    """
    from tqdm.auto import tqdm

    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}; got {engine!r}")
    results: dict[Cell, dict[str, Any]] = {}
    jobs, cells, owners = [], [], []
    for table in tables:
        folds = splits(table, cv, repeats, random_state)
        data = (table.X, table.y)
        for model in models:
            done = stored(store, table, model, cv, random_state)
            for f, (train, test) in enumerate(folds):
                cell = Cell(table.name, model.label, f // cv, f)
                if f in done:
                    results[cell] = done[f]
                    continue
                jobs.append((len(jobs), model.estimator, data, train, test))
                cells.append(cell)
                owners.append((table, model))
    total = len(results) + len(jobs)
    with tqdm(total=total, initial=len(results), desc="compare: cells", unit="cell",
              disable=not verbose, file=sys.stderr) as bar:
        if results and verbose:
            bar.write(f"compare: {len(results)} of {total} cells read from the store")
        for i, scores in ENGINES[engine](jobs, n_jobs, scheduler):
            cell = cells[i]
            table, model = owners[i]
            _record(store, cell, table, model, cv, random_state, scores)
            results[cell] = scores
            bar.update()
            bar.set_postfix_str(f"{cell.table} / {cell.model} / fold {cell.fold + 1}")
    return results
