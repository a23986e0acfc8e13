"""``plot_confidence``: a structure whose edges are drawn by their bootstrap confidence."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kgraph import GraphDB
from kgraph._codec import display
from kgraph.store import variable_edges
from viz._draw import (
    clear_rad,
    draw_edge,
    draw_node,
    edge_label,
    finish_graph_axes,
    graph_axes,
    node_width,
)
from viz.layout import stress_layout
from viz.style import Style, style_context

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["ENCODINGS", "plot_confidence"]

LEGEND_LEVELS = (0.25, 0.5, 0.75, 1.0)


def _width(c: float, style: Style) -> dict[str, float]:
    return {"linewidth": style.line_width * (0.25 + 2.75 * c), "alpha": 1.0}


def _alpha(c: float, style: Style) -> dict[str, float]:
    return {"linewidth": 1.5 * style.line_width, "alpha": 0.1 + 0.9 * c}


def _both(c: float, style: Style) -> dict[str, float]:
    return {"linewidth": _width(c, style)["linewidth"], "alpha": _alpha(c, style)["alpha"]}


ENCODINGS: dict[str, Callable[[float, Style], dict[str, float]]] = {
    "width": _width, "alpha": _alpha, "both": _both}
"""How a confidence in [0, 1] becomes an edge's line width and opacity, by name."""


def _confidence_graph(obj: Any, threshold: float) -> GraphDB:
    if isinstance(obj, GraphDB):
        return obj
    averaged = getattr(obj, "averaged_structure", None)
    if callable(averaged):
        return averaged(threshold)
    raise TypeError(
        "Expected a GraphDB whose edges carry 'confidence' (StructureConfidence.annotate or "
        f".averaged_structure) or a fitted StructureConfidence; got {type(obj).__name__}."
    )


def plot_confidence(obj: GraphDB | Any, *, threshold: float = 0.0, encode: str = "width",
                    ax: Axes | None = None, style: Style | None = None,
                    title: str | None = None) -> Figure:
    """Draw the edges between variables by their confidence (line width and/or opacity),
    with a legend of the scale.

    Variables are placed by a deterministic Kamada–Kawai layout of the edges drawn; a
    ``kind="class"`` vertex, if any, sits on top with light edges to the features it joins.
    Each edge with ``confidence >= threshold`` is drawn (an arrow when the graph is
    directed) and, with ``style.edge_labels``, labelled with its confidence to 2 decimals.

    Parameters
    ----------
    obj : GraphDB or StructureConfidence
        A graph with a ``confidence`` attribute on its variable edges (from
        ``StructureConfidence.annotate`` or ``.averaged_structure``, or a GraphML/JSON file
        written by ``kgraph learn --bootstrap``), or a fitted ``StructureConfidence`` (its
        averaged structure at ``threshold`` is drawn).
    threshold : float, default=0.0
        Edges below it are left out.
    encode : {"width", "alpha", "both"}, default="width"
        What the confidence sets (see :data:`ENCODINGS`).
    ax, style, title : as in the other structure figures.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from kgraph import GraphDB
    >>> from viz.confidence import plot_confidence
    >>> g = GraphDB()
    >>> g.add_edge("a", "b", confidence=1.0)
    >>> g.add_edge("b", "c", confidence=0.4)
    >>> ax = plot_confidence(g, threshold=0.5).axes[0]
    >>> sum(p.get_gid().startswith("edge:confidence") for p in ax.patches)
    1
    >>> ax.get_legend().get_title().get_text()
    'confidence'
    """
    if encode not in ENCODINGS:
        raise ValueError(f"Unknown encode {encode!r}; valid encodings are {sorted(ENCODINGS)}.")
    graph = _confidence_graph(obj, threshold)
    found = variable_edges(graph)
    if found and not any("confidence" in graph.edge_attrs(u, v) for u, v in found):
        raise ValueError(
            "No edge of the graph carries a 'confidence' attribute; annotate the structure "
            "with StructureConfidence.annotate or run kgraph learn with --bootstrap."
        )
    conf = {(u, v): float(graph.edge_attrs(u, v).get("confidence", 0.0)) for u, v in found}
    shown = [(u, v) for (u, v), c in conf.items() if c >= threshold]
    kinds = {key: attrs.get("kind") for key, attrs in graph.nodes(data=True)}
    classes = [v for v, k in kinds.items() if k == "class"]
    variables = [v for v in graph.nodes() if v not in classes]
    with style_context(style) as s:
        widest = max((node_width(display(v), s) for v in variables), default=0.0)
        pos = stress_layout(variables, shown, edge_length=max(1.6, 0.8 * widest + 0.6))
        every = dict(pos)
        top = max((y for _, y in pos.values()), default=0.0) + 1.4
        every.update({c: (1.6 * (i - (len(classes) - 1) / 2), top) for i, c in enumerate(classes)})
        fig, ax, box = graph_axes(ax, s, every, {v: node_width(display(v), s) for v in every},
                                  title=title)
        patches = {v: draw_node(ax, every[v], display(v), s, gid=f"variable:{display(v)}")
                   for v in variables}
        for c in classes:
            patches[c] = draw_node(ax, every[c], display(c), s, bold=True, face=s.class_color,
                                   gid=f"class:{display(c)}")
            for v in graph.neighbors(c):
                if v in pos:
                    rad = clear_rad(every[c], pos[v], [pos[w] for w in variables if w != v],
                                    1.4 * s.node_radius)
                    draw_edge(ax, patches[c], patches[v], s, color=s.light_color, rad=rad,
                              width=0.6 * s.line_width, zorder=1,
                              gid=f"class:{display(c)}->{display(v)}")
        arrow = "->" if graph.directed else "-"
        for u, v in shown:
            gid = f"{display(u)}{arrow}{display(v)}"
            look = ENCODINGS[encode](conf[u, v], s)
            rad = clear_rad(pos[u], pos[v], [pos[w] for w in variables if w not in (u, v)],
                            1.4 * s.node_radius)
            patch = draw_edge(ax, patches[u], patches[v], s, directed=graph.directed, rad=rad,
                              width=look["linewidth"], gid=f"confidence:{gid}")
            patch.set_alpha(look["alpha"])
            if s.edge_labels:
                edge_label(ax, pos[u], pos[v], f"{conf[u, v]:.2f}", s, rad=rad,
                           gid=f"confidence:{gid}")
        _legend(ax, s, encode)
        finish_graph_axes(ax, box, title=title)
    return fig


def _legend(ax: Axes, style: Style, encode: str) -> None:
    from matplotlib.lines import Line2D

    handles = []
    for level in LEGEND_LEVELS:
        look = ENCODINGS[encode](level, style)
        handles.append(Line2D([], [], color=style.edge_color, linewidth=look["linewidth"],
                              alpha=look["alpha"], label=f"{level:.2f}"))
    ax.legend(handles=handles, title="confidence", loc="center left", frameon=False,
              bbox_to_anchor=(1.0, 0.5),
              fontsize=style.font_size - 1.5, title_fontsize=style.font_size - 1)
