"""One engine behind every node-and-edge figure: a :class:`GraphSpec` says what to draw,
:func:`draw_graph` draws it on the layered layout of :mod:`viz._routed` (parents above
children: the tree's when the spec has one, the edges' direction for a DAG, else breadth
first), every edge routed around the other boxes.

Labels too wide for the figure are abbreviated or numbered, with a key below the figure (or
kept for the caption when it does not fit). A class node sits on top; its edges to the
features are drawn for up to :data:`CLASS_EDGES_UP_TO` features and otherwise stated in the
legend (past that, sixty light lines from one node hide the structure).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from viz._draw import (
    LegendItem,
    badge_width,
)
from viz._fit import (
    abbreviate,
    node_size,
)
from viz.style import Style

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

CLASS_EDGES_UP_TO = 12
"""Largest number of features whose class edges are drawn one by one."""


@dataclass(frozen=True)
class NodeLook:
    """How one node is drawn."""

    face: str | None = None
    edge: str | None = None
    bold: bool = False
    dashed: bool = False


@dataclass(frozen=True)
class EdgeSpec:
    """One edge: its ends, gid, look and optional label."""

    u: Hashable
    v: Hashable
    gid: str
    directed: bool = False
    color: str | None = None
    width: float | None = None
    alpha: float | None = None
    dashed: bool = False
    label: str | None = None
    label_gid: str | None = None
    label_color: str | None = None
    label_members: tuple | None = None  # the label is these variables, comma-joined


@dataclass
class GraphSpec:
    """What a graph figure shows. ``labels`` maps every node to its full label; ``gids``
    to its gid (``"variable:x"``...); ``tree``: ``(roots, children)`` for a tidy layout."""

    labels: dict[Hashable, str]
    gids: dict[Hashable, str]
    edges: list[EdgeSpec]
    looks: dict[Hashable, NodeLook] = field(default_factory=dict)
    tree: tuple[list, dict] | None = None
    class_node: Hashable | None = None
    class_edges: list[EdgeSpec] = field(default_factory=list)
    legend: list[LegendItem] = field(default_factory=list)
    badges: dict[Hashable, str] = field(default_factory=dict)
    badge_gids: dict[Hashable, str] = field(default_factory=dict)
    abbreviate: bool = True  # False: labels are drawn as given
    key: list[tuple[str, str]] = field(default_factory=list)
    members: dict[Hashable, tuple] = field(default_factory=dict)  # set-labelled nodes
    optional_labels: str | None = None  # edge labels the line widths repeat: may be left out
    badge_members: dict[Hashable, tuple[str, Hashable]] = field(default_factory=dict)
    layered: bool = False  # a directed graph: layered layout, edges routed around boxes
    hubs: object = None  # "auto", nodes or None: drawn as the class is (viz._hubs)


def _shown(spec: GraphSpec, style: Style, limit: float
           ) -> tuple[dict, list[tuple[str, str]], dict[Hashable, str]]:
    """Labels as drawn at a label-width limit, their key, and the short name of every
    variable of set-labelled nodes (cut to fit the limit shared among the members)."""
    if spec.members:
        variables = list(dict.fromkeys(m for ms in spec.members.values() for m in ms))
        per = limit / max(len(ms) for ms in spec.members.values())
        short, key = abbreviate({v: str(v) for v in variables}, style, max(per, 0.3))
        shown = {v: ",".join(short[m] for m in spec.members[v]) if v in spec.members
                 else spec.labels[v] for v in spec.labels}
        return shown, key, short
    if not spec.abbreviate:
        return dict(spec.labels), [], {}
    named = {v: t for v, t in spec.labels.items() if v != spec.class_node}
    shown, key = abbreviate(named, style, limit)  # the class node keeps its name
    if spec.class_node is not None:
        shown[spec.class_node] = spec.labels[spec.class_node]
    return shown, key, {}


def _size(label: str, badge: str | None, style: Style, bold: bool) -> tuple[float, float]:
    w, h = node_size(label, style, bold)
    return (w + badge_width(badge, style), h)


def label_limits(width: float) -> list[float]:
    """Widest label boxes tried (inches), widest first, for a figure ``width`` wide."""
    first = min(1.5, 0.3 * width)
    return [first, 0.75 * first, 0.5 * first]


def draw_graph(spec: GraphSpec, style: Style, ax: Axes | None, title: str | None) -> Figure:
    """Lay out and draw a graph figure (see the module docstring), with the hubs of
    ``spec.hubs`` drawn as the class is (:mod:`viz._hubs`)."""
    import warnings

    from viz._hubs import draw_with_hubs
    from viz._routed import draw_layered

    s = style
    feature_count = len(spec.labels) - (spec.class_node is not None)
    draw_class_edges = spec.class_node is not None and feature_count <= CLASS_EDGES_UP_TO
    drawn = []

    def draw(sp: GraphSpec) -> Figure:
        if drawn and ax is not None:  # drawn again into the given axes
            ax.cla()
        drawn.append(sp)
        legend = list(sp.legend)
        if sp.class_node is not None and not draw_class_edges and sp.class_edges:
            but = " but the dashed ones" if any(e.dashed for e in sp.class_edges) else ""
            legend.append(LegendItem(f"{sp.labels[sp.class_node]} is a parent of every "
                                     f"feature{but} (edges not drawn)", kind="text"))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fig = draw_layered(sp, s, ax, title, draw_class_edges, legend)
        fig._kgraph_warnings = caught
        return fig

    fig = draw_with_hubs(spec, draw, spec.hubs)
    for w in fig.__dict__.pop("_kgraph_warnings"):  # the drawn figure's only, once
        warnings.warn(w.message, w.category, stacklevel=3)
    return fig


def node_kinds_legend(style: Style, *, feature_types: Mapping[Hashable, str] | None,
                      nodes: Sequence[Hashable], class_label: str | None,
                      extra: Sequence[LegendItem] = ()) -> list[LegendItem]:
    """Legend items for the class node, the feature types present (or plain features)."""
    items = []
    if class_label is not None:
        name = "class" if class_label == "class" else f"class ({class_label})"
        items.append(LegendItem(name, face=style.class_color, bold=True))
    kinds = {feature_types.get(v) for v in nodes} if feature_types else set()
    kinds.discard(None)
    if kinds & {"continuous", "categorical"}:
        if "continuous" in kinds:
            items.append(LegendItem("continuous feature", face=style.continuous_color))
        if "categorical" in kinds:
            items.append(LegendItem("categorical feature", face=style.categorical_color))
    else:
        items.append(LegendItem("feature", face=style.variable_color))
    return items + list(extra)


def feature_face(style: Style, feature_types: Mapping[Hashable, str] | None, v: Hashable,
                 default: str | None = None) -> str | None:
    """A feature's fill: by its type when known, else ``default``."""
    kind = (feature_types or {}).get(v)
    if kind == "continuous":
        return style.continuous_color
    if kind == "categorical":
        return style.categorical_color
    return default


def _number(w: float, largest: float) -> str:
    """A weight for the legend: 3 decimals when the largest is at least 0.01."""
    return f"{w:.3f}" if abs(largest) >= 0.01 else f"{w:.2g}"


def weight_widths(weights: Mapping, style: Style, unit: str | None = "nats"
                  ) -> tuple[dict, list[LegendItem]]:
    """Edge line widths from weights (linear from 0.5x to 3x the style's width over the
    range) and the legend samples (smallest, middle, largest), headed with the ``unit``
    (kgraph's edge scores are nats)."""
    if not weights:
        return {}, []
    lo, hi = min(weights.values()), max(weights.values())

    def width(w: float) -> float:
        t = 0.5 if hi - lo < 1e-12 else (w - lo) / (hi - lo)
        return style.line_width * (0.5 + 2.5 * t)

    samples = sorted({lo, (lo + hi) / 2, hi}) if hi - lo >= 1e-12 else [lo]
    head = f"edge weight ({unit}):" if unit else "edge weight:"
    legend = [LegendItem(head, kind="text", keep_with_next=True)]
    legend += [LegendItem(_number(w, hi), kind="line", width=width(w), color=style.edge_color,
                          keep_with_next=i < len(samples) - 1) for i, w in enumerate(samples)]
    return {k: width(w) for k, w in weights.items()}, legend
