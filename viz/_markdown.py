"""Markdown tables of the reports (``report.md``, ``leaderboard.md``), written by ``tabulate``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def markdown_table(headers: Sequence[str], rows: Iterable[Sequence], right: str = "") -> list[str]:
    """The lines of a pipe table: cells as given (no number parsing), columns padded, the
    columns whose letter in ``right`` is ``r`` aligned right (numbers), the others left.

    Examples
    --------
    >>> print("\\n".join(markdown_table(["metric", "mean"], [["accuracy", "0.9500"]], "lr")))
    | metric   |   mean |
    |:---------|-------:|
    | accuracy | 0.9500 |
    """
    from tabulate import tabulate

    align = ["right" if a == "r" else "left" for a in right.ljust(len(headers), "l")]
    return tabulate([list(row) for row in rows], list(headers), tablefmt="pipe",
                    disable_numparse=True, colalign=align).splitlines()
