"""An overview figure for structures too large to label legibly.

A labelled structure figure stays legible up to :data:`LEGIBLE_VERTICES` vertices (the class
vertex not counted): past that, a figure sized one layout unit per node is wider or taller
than a page or screen can show at a readable font size, and a figure shrunk to fit makes
labels smaller than ~4 pt. :func:`plot_overview` then draws the **whole structure without
labels**: a tidy tree (breadth-first spanning tree from the first vertex, the remaining edges
drawn too) on a fixed-size figure, every edge in one line collection, so that it draws in
seconds for tens of thousands of vertices. The class vertex, which joins every feature, is
left out and said so in the title. ``kgraph learn`` draws it when asked (``--overview``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from viz._draw import new_axes
from viz.layout import rooted_children, tidy_forest
from viz.style import Style, resolve_style, style_context

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["LEGIBLE_VERTICES", "overview_parts", "plot_overview"]

LEGIBLE_VERTICES = 60
"""Largest number of (non-class) vertices drawn with labels on a page-wide figure."""


def overview_parts(structure: Any) -> tuple[list[Hashable], list[tuple[Hashable, Hashable]]]:
    """The vertices (class vertex excluded) and edges among them, from ``structure.graph``.

    Examples
    --------
    >>> from kgraph import GNBJunctionTree
    >>> overview_parts(GNBJunctionTree.from_tree([(1, 2), (2, 3)], target=0))
    ([1, 2, 3], [(1, 2), (2, 3)])
    """
    graph = structure.graph
    nodes = [v for v, a in graph.nodes(data=True) if a.get("kind") != "class"]
    kept = set(nodes)
    return nodes, [(u, v) for u, v in graph.edges() if u in kept and v in kept]


def plot_overview(structure: Any, *, ax: Axes | None = None, style: Style | None = None,
                  title: str | None = None, width: str | float | None = None) -> Figure:
    """The whole structure without labels: a tidy tree of dots, every edge a thin line.

    Examples
    --------
    >>> from kgraph import GNBJunctionTree
    >>> chain = GNBJunctionTree.from_tree([(i, i + 1) for i in range(1, 500)], target=0)
    >>> fig = plot_overview(chain)
    >>> len(fig.axes[0].collections[0].get_segments())
    499
    """
    from matplotlib.collections import LineCollection

    nodes, edges = overview_parts(structure)
    roots, children = rooted_children(nodes, edges)
    pos = tidy_forest(roots, children)
    with style_context(resolve_style(style, width)) as s:
        inches = s.inches or 7.0
        if s.figsize is None:
            s = s.with_(figsize=(inches, min(0.75, s.max_aspect) * inches))
        fig, ax = new_axes(ax, s)
        ax.add_collection(LineCollection([(pos[u], pos[v]) for u, v in edges],
                                         colors=s.edge_color, linewidths=0.4, zorder=1))
        xs, ys = zip(*(pos[v] for v in nodes), strict=True) if nodes else ((), ())
        ax.scatter(xs, ys, s=max(0.5, 400 / max(len(nodes), 1)), color=s.edge_color,
                   linewidths=0, zorder=2)
        ax.autoscale_view()
        ax.margins(0.02)
        ax.set_axis_off()
        text = title or (f"overview of a {type(structure).__name__}: {len(nodes)} vertices, "
                         f"{len(edges)} edges; labels and the class vertex left out")
        ax.set_title(_wrap(text, s, fig.get_size_inches()[0] * ax.get_position().width),
                     fontsize=s.font_size)
    return fig


def _wrap(text: str, style: Style, inches: float) -> str:
    """Text broken into lines no wider than ``inches`` at the style's font size."""
    from viz._fit import label_size

    lines: list[str] = []
    for word in text.split():
        if lines and label_size(f"{lines[-1]} {word}", style.font_size)[0] <= inches - 0.1:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return "\n".join(lines)
