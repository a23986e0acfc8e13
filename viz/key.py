"""The key of a structure figure whose nodes show numbers or shortened names.

A graph figure whose names do not fit its width shows short keys instead; the key that
explains them is drawn below the figure when it fits the figure's height, and otherwise
left out of it. Either way the figure carries it: :func:`figure_key` returns it,
:func:`key_in_figure` says where it is, :func:`key_caption` writes it as caption text and
:func:`key_text` as the contents of a ``structure_key.txt`` file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

__all__ = ["figure_key", "key_caption", "key_in_figure", "key_text"]


def figure_key(fig: Figure) -> list[tuple[str, str]]:
    """``[(shown, full name), ...]`` of a structure figure (empty: every name is shown).

    Examples
    --------
    A figure without a key returns an empty list; a structure figure whose names were
    shortened carries the pairs (set by hand here):

    >>> from matplotlib.figure import Figure
    >>> fig = Figure()
    >>> figure_key(fig)
    []
    >>> fig.kgraph_key = [("1", "Age"), ("2", "JobLevel")]
    >>> figure_key(fig)
    [('1', 'Age'), ('2', 'JobLevel')]
    """
    return list(getattr(fig, "kgraph_key", []))


def key_in_figure(fig: Figure) -> bool:
    """Whether the figure draws its key itself (True when it has none)."""
    return bool(getattr(fig, "kgraph_key_in_figure", True))


def key_caption(fig: Figure) -> str:
    """The key as one caption sentence ("" without a key).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> fig = Figure()
    >>> fig.kgraph_key = [("1", "Age"), ("2", "JobLevel")]
    >>> key_caption(fig)
    'Node numbers: 1 = Age; 2 = JobLevel.'
    """
    key = figure_key(fig)
    if not key:
        return ""
    what = "Node numbers" if all(a.isdigit() for a, _ in key) else "Shortened names"
    return f"{what}: " + "; ".join(f"{a} = {b}" for a, b in key) + "."


def key_text(fig: Figure) -> str:
    """The key one entry a line ("" without a key)."""
    return "".join(f"{a}\t{b}\n" for a, b in figure_key(fig))
