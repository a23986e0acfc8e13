"""The tables of ``kgraph compare``: CSV files (``FILE:TARGET`` or ``--target``), built-in
data sets (``kgraph datasets``) and folders of CSV files, each read as ``kgraph learn``
reads it (:func:`viz.cli.learn.load_data`: separator and decimal mark detected, unlabelled
rows dropped, identifier columns left out)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Table", "read_tables"]


@dataclass(frozen=True)
class Table:
    """A table of the comparison: its name, features, labels and data hash."""

    name: str
    X: Any
    y: Any
    data_hash: str


def _sources(item: str, target: str | None) -> list[tuple[str, str]]:
    """``(data, target)`` pairs of one DATA argument."""
    from estimators.datasets import list_datasets

    path = Path(item)
    if path.is_dir():
        files = sorted(path.glob("*.csv"))
        if not files:
            raise ValueError(f"the folder {item} holds no .csv file")
        if target is None:
            raise ValueError(f"the folder {item} needs --target (the class column of its "
                             "CSV files)")
        return [(str(f), target) for f in files]
    if item in list_datasets():
        return [(item, "class")]
    head, colon, tail = item.rpartition(":")
    if colon and (head.lower().endswith(".csv") or Path(head).is_file()):
        return [(head, tail)]
    if path.suffix.lower() == ".csv" or path.is_file():
        if target is None:
            raise ValueError(f"{item}: name its class column as {item}:COLUMN or give "
                             "--target")
        return [(item, target)]
    raise ValueError(f"{item!r} is neither a CSV file, a folder of CSV files nor a built-in "
                     f"data set ({', '.join(list_datasets())})")


def read_tables(data: Sequence[str] | Mapping[str, tuple[Any, Any]],
                target: str | None = None) -> list[Table]:
    """The tables of a comparison, in the order given.

    Parameters
    ----------
    data : sequence of str or mapping of name to (X, y)
        ``FILE.csv:TARGET``, ``FILE.csv`` (with ``target``), a built-in data set name or a
        folder of CSV files (with ``target``); or tables already in memory.
    target : str, optional
        The class column of every CSV file not given as ``FILE:TARGET``.

    Raises
    ------
    ValueError
        A file or folder that is not there, a CSV without a named target, a target that
        is not a column, two tables of the same name.

    Examples
    --------
    >>> [(t.name, t.X.shape) for t in read_tables(["iris"])]
    [('iris', (150, 4))]
    """
    from kgraph.store import data_hash
    from viz.cli.commands import CommandError
    from viz.cli.learn import load_data

    tables: list[Table] = []
    if isinstance(data, Mapping):
        tables = [Table(str(name), X, y, data_hash(X, y)) for name, (X, y) in data.items()]
    else:
        for item in data:
            for source, column in _sources(item, target):
                try:
                    X, y, name, _ = load_data(source, column)
                except CommandError as exc:
                    raise ValueError(str(exc)) from exc
                tables.append(Table(name, X, y, data_hash(X, y)))
    if not tables:
        raise ValueError("no table to compare on")
    names = [t.name for t in tables]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"two tables are named {twice[0]!r} (rename one of the files)")
    return tables
