"""Whether a table can be cross-validated with ``--cv`` folds, said in kgraph's words.

``kgraph learn`` scores its model by a stratified k-fold: every class's rows are spread
over the k test parts. That needs at least two classes, at least two rows of each (a class
with one row is tested by the fold that trains without it: that training part lacks the
class) and at least k rows. :func:`check_folds` refuses a table that cannot be, naming its
rows and classes and the ``--cv`` that would work, and returns the warning for a class
with fewer rows than folds (some test parts then hold none of it) instead of
scikit-learn's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from viz.cli.commands import CommandError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["REPLACED", "check_folds"]

#: scikit-learn's messages that :func:`check_folds` states in its own words
REPLACED = (r"The least populated class in y has only",)


def _classes(counts: pd.Series) -> str:
    return ", ".join(f"{c}: {n}" for c, n in counts.items())


def check_folds(y: pd.Series, cv: int, source: str) -> list[str]:
    """Refuse (CommandError) a target ``y`` that ``cv`` stratified folds cannot score;
    return the warnings for one they can (a class with fewer rows than folds).

    Examples
    --------
    >>> import pandas as pd
    >>> check_folds(pd.Series(["x"] * 8 + ["y"] * 2), 5, "tiny.csv")
    ["class 'y' has 2 rows, fewer than the 5 folds: 3 of the 5 test parts hold none of it (their metrics are on the other classes only); --cv 2 puts it in every test part"]
    >>> check_folds(pd.Series(["x"] * 9 + ["y"]), 5, "t.csv")
    Traceback (most recent call last):
    ...
    viz.cli.commands.CommandError: class 'y' of t.csv has 1 row (x: 9, y: 1): the fold that tests it would train without it, on one class only; stratified cross-validation needs at least 2 rows of every class (add rows of 'y' or leave them out)
    """
    counts = y.value_counts().sort_index()
    n, rows = len(y), f"{len(y)} row{'s' if len(y) != 1 else ''}"
    if n == 0:
        raise CommandError(f"{source} has no data rows (a header only): nothing to learn from")
    if counts.size < 2:
        raise CommandError(
            f"{source} has {rows} and one class ({_classes(counts)}): a classifier needs at "
            "least 2 classes, and cross-validation at least 2 rows of each; no --cv can "
            "score this table")
    single = counts[counts < 2]
    if single.size:
        c = single.index[0]
        raise CommandError(
            f"class {c!r} of {source} has 1 row ({_classes(counts)}): the fold that tests it "
            "would train without it, on one class only; stratified cross-validation needs at "
            f"least 2 rows of every class (add rows of {c!r} or leave them out)")
    if n < cv:
        raise CommandError(
            f"{source} has {rows} ({_classes(counts)}): --cv {cv} needs at least {cv} rows; "
            f"use --cv between 2 and {n} (--cv {min(n, int(counts.min()))} puts every class "
            "in every test part)")
    small = counts[counts < cv]
    return [f"class {c!r} has {k} rows, fewer than the {cv} folds: {cv - k} of the {cv} test "
            f"parts hold none of it (their metrics are on the other classes only); --cv "
            f"{int(counts.min())} puts it in every test part" for c, k in small.items()]
