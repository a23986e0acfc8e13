"""Whether a table can be cross-validated with ``--cv`` folds, said in kgraph's words.

``kgraph learn`` scores its model by a stratified k-fold: every class's rows are spread
over the k test parts. That needs at least two classes, at least two rows of each (a class
with one row is tested by the fold that trains without it: with two classes that training
part holds one class only, so a one-row class is refused there and reported otherwise) and
at least k rows. :func:`check_folds` refuses a table that cannot be, naming its
rows and classes and the ``--cv`` that would work, and returns the warning for a class
with fewer rows than folds (some test parts then hold none of it) instead of
scikit-learn's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from viz.cli.commands import CommandError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["REPLACED", "check_folds", "explain_failure"]

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

    With two or more other classes, a one-row class is scored (and said):

    >>> check_folds(pd.Series(["x"] * 9 + ["y"] * 9 + ["z"]), 5, "t.csv")
    ["class 'z' has 1 row: the fold that tests it trains without it, so that row is always misclassified (its metrics count it as an error)"]
    """
    from estimators.base.validation import as_written

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
    if single.size and counts.size - single.size < 2:  # a training part of one class
        c = single.index[0]
        raise CommandError(
            f"class {as_written(c)} of {source} has 1 row ({_classes(counts)}): the fold that tests it "
            "would train without it, on one class only; stratified cross-validation needs at "
            f"least 2 rows of every class (add rows of {as_written(c)} or leave them out)")
    if n < cv:
        raise CommandError(
            f"{source} has {rows} ({_classes(counts)}): --cv {cv} needs at least {cv} rows; "
            f"use --cv between 2 and {n} (--cv {min(n, int(counts.min()))} puts every class "
            "in every test part)")
    small = counts[counts < cv]
    return [f"class {as_written(c)} has 1 row: the fold that tests it trains without it, so that row "
            "is always misclassified (its metrics count it as an error)" if k == 1 else
            f"class {as_written(c)} has {k} rows, fewer than the {cv} folds: {cv - k} of the {cv} test "
            f"parts hold none of it (their metrics are on the other classes only); --cv "
            f"{int(counts.min())} puts it in every test part" for c, k in small.items()]


def explain_failure(message: str, y: pd.Series, cv: int) -> str:
    """A fit's error, with what a table's small classes do to the folds when a training
    part held one class only (a model's own inner cross-validation splits the outer
    training parts again).

    Examples
    --------
    >>> import pandas as pd
    >>> explain_failure("M needs samples of at least 2 classes in y; got one class only ('x').",
    ...                 pd.Series(["x"] * 8 + ["y"] * 2), 5)  # doctest: +NORMALIZE_WHITESPACE
    "M needs samples of at least 2 classes in y; got one class only ('x'). A training part
    held one class: class 'y' has 2 rows, so a training part of the 5 outer folds keeps 1 of
    them, too few for the model's own inner cross-validation; give the options it chooses
    that way a value (e.g. --k 1) or add rows of 'y'"
    """
    from estimators.base.validation import as_written

    if "one class only" not in message:
        return message
    counts = y.value_counts()
    c, n = counts.idxmin(), int(counts.min())
    kept = n - -(-n // cv)  # the fewest rows of the class an outer training part keeps
    return (f"{message} A training part held one class: class {as_written(c)} has {n} rows, so a "
            f"training part of the {cv} outer folds keeps {kept} of them, too few for the "
            "model's own inner cross-validation; give the options it chooses that way a value "
            f"(e.g. --k 1) or add rows of {as_written(c)}")
