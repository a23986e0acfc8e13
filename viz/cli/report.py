"""The data side of ``kgraph learn``: reading a table, ``--feature-types``, and the part of
``report.md`` that says what the model was given (column types, constant columns, missing
cells, and how missing cells are handled)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from viz._markdown import markdown_table
from viz.cli.commands import CommandError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["check_feature_types", "data_lines", "feature_types_option", "read_table"]

_TYPES = ("continuous", "categorical")


def feature_types_option(text: str) -> dict[str, str]:
    """Parse ``--feature-types col=categorical,col2=continuous`` into a mapping.

    Examples
    --------
    >>> feature_types_option("island=categorical, year=continuous")
    {'island': 'categorical', 'year': 'continuous'}
    >>> feature_types_option("year=ordinal")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: column 'year': type 'ordinal' is not one of continuous, categorical
    """
    out: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        column, sep, kind = (s.strip() for s in item.partition("="))
        if not sep or not column:
            raise argparse.ArgumentTypeError(f"expected COLUMN=TYPE, got {item!r}")
        if kind not in _TYPES:
            raise argparse.ArgumentTypeError(
                f"column {column!r}: type {kind!r} is not one of {', '.join(_TYPES)}")
        out[column] = kind
    if not out:
        raise argparse.ArgumentTypeError("expected COLUMN=TYPE[,COLUMN=TYPE...]")
    return out


def read_table(path: Path) -> pd.DataFrame:
    """A CSV file as a DataFrame, read as ``kgraph learn`` reads it
    (:func:`viz.cli.table.read_csv`: separator and decimal mark detected, strings stay
    strings, empty cells are missing, whole numbers with empty cells stay integers)."""
    from viz.cli.table import read_csv

    return read_csv(path)[0]


def check_feature_types(mapping: dict[str, str] | None, X: pd.DataFrame) -> None:
    """Every column ``--feature-types`` names must be a feature of X."""
    for column in mapping or {}:
        if column not in X.columns:
            raise CommandError(f"--feature-types names column {column!r}, which is not a "
                               f"feature; the features are {list(X.columns)}")


def data_lines(X: pd.DataFrame, model) -> list[str]:
    """The ``## Data`` section of ``report.md`` for a model fitted on X.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from estimators.latent import LatentCNB
    >>> X = pd.DataFrame({"sex": ["f", "m", None, "f", "m"],
    ...                   "mass": [3.5, np.nan, 4.0, 3.75, 4.25], "site": 1})
    >>> print("\\n".join(data_lines(X, LatentCNB(1).fit(X))[5:10]))
    | column   | type                       |   missing cells |
    |:---------|:---------------------------|----------------:|
    | sex      | categorical (2 categories) |               1 |
    | mass     | continuous                 |               1 |
    | site     | constant: left out         |               0 |
    """
    import pandas as pd

    types = dict(getattr(model, "feature_types_", {}))
    levels = getattr(getattr(model, "encoder_", None), "categories_", {})
    missing = X.isna().sum()
    constant = [c for c, t in types.items() if t == "constant"]
    counts = pd.Series(list(types.values())).value_counts()
    lines = [
        "",
        "## Data",
        "",
        "Column types (decided once on the training data: strings, bools, numeric columns "
        "with at most 3 distinct values and integer columns with at most 10 values are "
        "categorical; `--feature-types` overrides): "
        + ", ".join(f"{n} {t}" for t, n in counts.items()) + ".",
        "",
    ]
    rows = []
    for column in X.columns:
        kind = types.get(column, "?")
        if kind == "categorical" and column in levels:
            kind += f" ({len(levels[column])} categories)"
        elif kind == "constant":
            kind = "constant: left out"
        rows.append((column, kind, int(missing[column])))
    lines += markdown_table(["column", "type", "missing cells"], rows, "llr")
    lines += [
        "",
        f"- constant columns left out of the model: {', '.join(map(str, constant)) or 'none'}",
        f"- missing cells: {int(missing.sum())} in {int((missing > 0).sum())} column(s), "
        f"{int(X.isna().any(axis=1).sum())} row(s) with at least one",
        "- learning uses the available cases and prediction marginalises missing cells (and "
        "categories not seen in training) under the fitted model: nothing is imputed",
        "",
    ]
    return lines
