"""Built-in data sets: the tables shipped in ``data/`` and scikit-learn's small sets.

The UCI tables have their features first and the class in the last column, ``class``; the
real mixed-type tables (``penguins``, ``oj``, ``arrests``, ``helpmiss``) keep their own
target column, which :func:`load_dataset` returns as the class. Sources, citations and
licences (CC BY 4.0 for the UCI tables, CC0-1.0 for ``penguins``) are in ``data/README.md``
next to this file. ``oj``, ``arrests`` and ``helpmiss`` are GPL-licensed, so the package
does not ship them: a source checkout keeps them in ``benchmarks/data/`` (with their
licences), where :func:`load_dataset` reads them; elsewhere :func:`list_datasets` leaves
them out.

Examples
--------
>>> from estimators.datasets import list_datasets, load_dataset
>>> "car" in list_datasets() and "iris" in list_datasets()
True
>>> X, y = load_dataset("wine")
>>> X.shape, sorted(y.unique().tolist())
((178, 13), [1, 2, 3])
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pandas as pd

from estimators.datasets._synthetic import make_gaussian_tree

__all__ = ["dataset_info", "dataset_target", "list_datasets", "load_dataset",
           "make_gaussian_tree"]

_DATA = resources.files(__name__) / "data"
#: tables whose licence (GPL) keeps them out of the package: read from the source
#: checkout's ``benchmarks/data/`` where kgraph runs from one
_REPOSITORY = Path(__file__).resolve().parents[2] / "benchmarks" / "data"
_NOT_SHIPPED = {"oj": "GPL-2", "arrests": "GPL-2 or later", "helpmiss": "GPL"}

# name -> (kind of features, short description)
_BUILTIN = {
    "abalone": ("continuous", "Abalone (UCI): sex F/I/M from 8 measurements"),
    "balance_scale": ("discrete", "Balance Scale (UCI): tip direction from weights/distances "
                      "(integer codes 1-5)"),
    "car": ("discrete", "Car Evaluation (UCI): acceptability from 6 attributes"),
    "heart_failure": ("mixed", "Heart Failure Clinical Records (UCI): death event; 5 binary "
                      "columns"),
    "kr_vs_kp": ("discrete", "Chess King-Rook vs King-Pawn (UCI): won / nowin"),
    "mushroom": ("discrete", "Mushroom (UCI): edible / poisonous"),
    "nursery": ("discrete", "Nursery (UCI): application ranking"),
    "sonar": ("continuous", "Connectionist Bench Sonar (UCI): mine M / rock R"),
    "tic_tac_toe": ("discrete", "Tic-Tac-Toe Endgame (UCI): x wins or not"),
    "votes": ("discrete", "Congressional Voting Records (UCI): party"),
    "wine": ("continuous", "Wine (UCI): cultivar from 13 constituents"),
    "winequality_red": ("continuous", "Wine Quality red (UCI): quality >= 7"),
    "winequality_white": ("continuous", "Wine Quality white (UCI): quality >= 7"),
    "yeast": ("continuous", "Yeast (UCI): localisation site"),
    "penguins": ("mixed", "Palmer penguins (R palmerpenguins): species; 19 empty cells"),
    "oj": ("mixed", "Orange juice purchases (R ISLR): CH or MM; collinear price columns"),
    "arrests": ("mixed", "Toronto marijuana arrests (R carData): released or not"),
    "helpmiss": ("mixed", "HELP study (R mosaicData): substance; 749 empty cells"),
}
# the class column of the tables whose class is not the column ``class``
_TARGET_COLUMN = {"penguins": "species", "oj": "Purchase", "arrests": "released",
                  "helpmiss": "substance"}
_SKLEARN = {
    "iris": ("continuous", "Iris (scikit-learn): species"),
    "breast_cancer": ("continuous", "Breast Cancer Wisconsin diagnostic (scikit-learn, 569 rows)"),
}


def list_datasets() -> list[str]:
    """Names accepted by :func:`load_dataset`, sorted.

    Examples
    --------
    >>> from estimators import list_datasets
    >>> len(list_datasets()) >= 17, list_datasets()[0], "penguins" in list_datasets()
    (True, 'abalone', True)
    """
    return sorted(name for name in {**_BUILTIN, **_SKLEARN} if _available(name))


def _available(name: str) -> bool:
    """Whether :func:`load_dataset` can read ``name`` here (the GPL tables only in a
    source checkout)."""
    return name not in _NOT_SHIPPED or (_REPOSITORY / f"{name}.csv").is_file()


def dataset_info(name: str) -> tuple[str, str]:
    """``(feature kind, description)`` of a built-in data set.

    Examples
    --------
    >>> dataset_info("car")
    ('discrete', 'Car Evaluation (UCI): acceptability from 6 attributes')
    """
    _check(name)
    return {**_BUILTIN, **_SKLEARN}[name]


def dataset_target(name: str) -> str:
    """The name of the class column in the data set's own file (``"class"`` for the UCI
    tables and scikit-learn's sets).

    Examples
    --------
    >>> dataset_target("penguins"), dataset_target("wine")
    ('species', 'class')
    """
    _check(name)
    return _TARGET_COLUMN.get(name, "class")


def _check(name: str) -> None:
    if name not in _BUILTIN and name not in _SKLEARN:
        raise ValueError(f"Unknown data set {name!r}; built-in data sets are {list_datasets()}.")


def _check_available(name: str) -> None:
    if not _available(name):
        raise ValueError(
            f"The data set {name!r} is licensed {_NOT_SHIPPED[name]}, so the package does not "
            f"ship it; a source checkout of kgraph has it as benchmarks/data/{name}.csv "
            f"(read it with pandas.read_csv, its class column is {_TARGET_COLUMN[name]!r}).")


def load_dataset(name: str, *, target: str = "class") -> tuple[pd.DataFrame, pd.Series]:
    """Load a built-in data set as ``(X, y)``: a DataFrame of features and the class Series.

    Parameters
    ----------
    name : str
        One of :func:`list_datasets`.
    target : str, default="class"
        Name given to the class column.

    Examples
    --------
    >>> from estimators import load_dataset
    >>> X, y = load_dataset("penguins")
    >>> X.shape, y.name, y.value_counts().to_dict()
    ((344, 7), 'class', {'Adelie': 152, 'Gentoo': 124, 'Chinstrap': 68})
    """
    _check(name)
    if name in _SKLEARN:
        from sklearn import datasets

        loader = {"iris": datasets.load_iris, "breast_cancer": datasets.load_breast_cancer}[name]
        bunch = loader(as_frame=True)
        y = pd.Series(bunch.target_names[bunch.target.to_numpy()], name=target)
        return bunch.data, y
    _check_available(name)
    source = _REPOSITORY if name in _NOT_SHIPPED else _DATA
    with (source / f"{name}.csv").open("rb") as fh:
        frame = pd.read_csv(fh, keep_default_na=False, na_values=[""])
    y = frame.pop(_TARGET_COLUMN.get(name, "class")).rename(target)
    return frame, y
