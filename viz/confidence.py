"""``plot_confidence``: a structure whose edges are drawn by their bootstrap confidence."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import networkx as nx

from kgraph import GraphDB
from kgraph._codec import display
from kgraph.store import variable_edges
from viz._draw import LegendItem
from viz._graph import EdgeSpec, GraphSpec, NodeLook, draw_graph, feature_face, node_kinds_legend
from viz.style import Style, resolve_style, style_context

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
                    title: str | None = None, width: str | float | None = None) -> Figure:
    """Draw the edges between variables by their confidence (line width and/or opacity),
    with a legend of the scale.

    Variables are placed by a deterministic Kamada–Kawai layout of the edges drawn, spread
    over the figure's width; a ``kind="class"`` vertex, if any, sits on top with light
    edges to the features it joins (for up to 12 features; the legend says so for more).
    Feature types stored on the nodes (``feature_type``) set their fills.
    Each edge with ``confidence >= threshold`` is drawn (an arrow when the graph is
    directed) and, with ``style.edge_labels``, labelled with its confidence to 2 decimals
    where there is room (the legend says how many labels are left out).

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
    ax, style, title, width : as in the other structure figures.

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
    >>> [t.get_text() for t in ax.texts if t.get_gid() == "legend-text:confidence:"]
    ['confidence:']
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
    types = {key: attrs["feature_type"] for key, attrs in graph.nodes(data=True)
             if "feature_type" in attrs}
    classes = [v for v, k in kinds.items() if k == "class"]
    variables = [v for v in graph.nodes() if v not in classes]
    s = resolve_style(style, width)
    arrow = "->" if graph.directed else "-"
    with style_context(s):
        looks = {v: NodeLook(face=feature_face(s, types, v)) for v in variables}
        edges = []
        for u, v in shown:
            look = ENCODINGS[encode](conf[u, v], s)
            gid = f"{display(u)}{arrow}{display(v)}"
            edges.append(EdgeSpec(u, v, f"confidence:{gid}", directed=graph.directed,
                                  width=look["linewidth"], alpha=look["alpha"],
                                  label=f"{conf[u, v]:.2f}", label_gid=f"confidence:{gid}"))
        cls = classes[0] if classes else None
        tree = None
        pairs = {frozenset(e) for e in shown}
        if len(pairs) < len(variables) and _is_forest(variables, pairs):
            from viz.layout import rooted_children

            tree = rooted_children(variables, [tuple(p) for p in pairs])
        spec = GraphSpec(
            tree=tree, optional_labels="confidence",
            labels={v: display(v) for v in [*variables, *classes[:1]]},
            gids={**{v: f"variable:{display(v)}" for v in variables},
                  **{c: f"class:{display(c)}" for c in classes[:1]}},
            looks={**looks, **{c: NodeLook(face=s.class_color, bold=True) for c in classes[:1]}},
            edges=edges, class_node=cls,
            class_edges=[EdgeSpec(cls, v, f"class:{display(cls)}->{display(v)}",
                                  color=s.light_color, width=0.6 * s.line_width)
                         for v in graph.neighbors(cls) if v in looks] if cls is not None else [])
        spec.legend = node_kinds_legend(s, feature_types=types, nodes=variables,
                                        class_label=None if cls is None else display(cls))
        spec.legend += _legend(s, encode)
        return draw_graph(spec, s, ax, title)


def _is_forest(nodes: list, pairs: set) -> bool:
    """No cycle among the undirected pairs (each a 2-set of nodes)."""
    if any(len(pair) != 2 for pair in pairs):
        return False
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(tuple(pair) for pair in pairs)
    return nx.is_forest(graph)


def _legend(style: Style, encode: str) -> list[LegendItem]:
    items = [LegendItem("confidence:", kind="text", keep_with_next=True)]
    for i, level in enumerate(LEGEND_LEVELS):
        look = ENCODINGS[encode](level, style)
        items.append(LegendItem(f"{level:.2f}", kind="line", width=look["linewidth"],
                                alpha=look["alpha"], color=style.edge_color,
                                keep_with_next=i < len(LEGEND_LEVELS) - 1))
    return items
