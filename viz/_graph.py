"""One engine behind every node-and-edge figure: a :class:`GraphSpec` says what to draw,
:func:`draw_graph` picks a layout that fits the figure's width and draws it.

Layouts are tried in order until one fits the width and the allowed height:

1. the spec's own tidy tree (layered, mothers above children), if it has one;
2. for a tree, the same levels folded to the width (:func:`viz._fit.layered_fit`);
3. a stress layout turned to landscape and spread as far as the page allows;
4. for other graphs, levels breadth first from the first node, folded to the width;
5. boxes in reading order.

Labels too wide for the figure are abbreviated, with a key below the figure; if no layout
fits, labels are cut shorter and the layouts tried again. A class node sits on top; its
edges to the features are drawn for up to :data:`CLASS_EDGES_UP_TO` features and otherwise
stated in the legend (past that, sixty light lines from one node hide the structure).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from viz._draw import (
    LegendItem,
    Sheet,
    arc_points,
    badge_width,
    draw_edge,
    draw_node,
    edge_label,
    rect,
    route,
)
from viz._fit import (
    GAP_X,
    MARGIN,
    abbreviate,
    bfs_levels,
    extent,
    force_fit,
    grid_fit,
    layered_fit,
    node_height,
    node_size,
    shift,
    tidy_fit,
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


def _layout(spec: GraphSpec, sizes: dict, inner: float, height: float, pitch: float,
            grid: bool, gap: float = GAP_X):
    """Positions (top at y = 0, centred in ``inner``) and the layout's name, or
    ``(None, None)`` when none fits."""
    nodes = [v for v in spec.labels if v != spec.class_node]
    pos, kind = None, None
    if spec.tree is not None:
        for g in dict.fromkeys((gap, GAP_X)):  # roomy columns for edge labels, else tight
            pos, kind = tidy_fit(*spec.tree, sizes, pitch, g), "tidy"
            x0, x1, y0, y1 = extent(pos, sizes)
            if x1 - x0 <= inner and y1 - y0 <= height:
                break
            pos = None
        if pos is not None:  # room to spare: spread the columns (edges and their labels get room)
            span = max(x for x, _ in pos.values()) - min(x for x, _ in pos.values())
            spare = inner - (x1 - x0)
            factor = min(1.0 + spare / span if span else 1.0, 2.2 if gap > GAP_X else 1.6)
            pos = {v: (x * factor, y) for v, (x, y) in pos.items()}
    layout_edges = [(e.u, e.v) for e in spec.edges if e.u in sizes and e.v in sizes]
    if pos is None and not grid and spec.tree is not None:
        pos = _layered(spec, nodes, layout_edges, sizes, inner, height, pitch)
        kind = "layered"
    if pos is None and not grid:
        pos, kind = force_fit(nodes, layout_edges, sizes, inner, height), "stress"
    if pos is None and not grid and spec.tree is None:
        pos = _layered(spec, nodes, layout_edges, sizes, inner, height, pitch)
        kind = "layered"
    if pos is None and grid:
        pos, kind = grid_fit(nodes, sizes, inner, pitch), "grid"
        x0, x1, y0, y1 = extent(pos, sizes)
        if y1 - y0 > height:
            pos = None
    if pos is None:
        return None, None
    x0, x1, y0, y1 = extent(pos, sizes)
    return shift(pos, (inner - (x1 - x0)) / 2 - x0, -y1), kind


def _layered(spec: GraphSpec, nodes: list, edges: list, sizes: dict, inner: float,
             height: float, pitch: float, gap: float = GAP_X) -> dict | None:
    """The folded layered layout (levels from the tree's roots, or breadth first from the
    first node), with rows drawn closer together until it fits the height; None if not."""
    if spec.tree is not None:
        roots, children = spec.tree
        order, levels, up = [], [], {}
        frontier = list(roots)
        while frontier:
            levels.append(frontier)
            order += frontier
            nxt = []
            for v in frontier:
                for c in children.get(v, ()):
                    up[c] = [v]
                    nxt.append(c)
            frontier = nxt
    else:
        levels, up = bfs_levels(nodes, edges)
    for squeeze in (1.0, 0.8, 0.65):
        pos = layered_fit(levels, up, sizes, inner, squeeze * pitch,
                          squeeze * (pitch - 0.08), gap)
        x0, x1, y0, y1 = extent(pos, sizes)
        if y1 - y0 <= height:
            return pos
    return None


def draw_graph(spec: GraphSpec, style: Style, ax: Axes | None, title: str | None) -> Figure:
    """Lay out and draw a graph figure (see the module docstring). A new figure that comes
    out taller than the style allows (edge labels without room, listed below it) is drawn
    again with that much less height for the layout."""
    cut = 0.0
    for _ in range(1 if spec.layered else 3):
        fig = _draw_graph(spec, style, ax, title, cut)
        if ax is not None or style.inches is None:
            return fig
        w, h = fig.get_size_inches()
        over = h - style.max_aspect * w
        if over <= 1e-9:
            return fig
        cut += over + 0.05
    return fig


def _draw_graph(spec: GraphSpec, style: Style, ax: Axes | None, title: str | None,
                cut: float) -> Figure:
    s = style
    natural = sum(node_size(t, s, v == spec.class_node)[0] for v, t in spec.labels.items())
    sheet = Sheet(s, ax, natural, title)
    labelled = s.edge_labels and not spec.optional_labels and any(
        e.label is not None or e.label_members is not None for e in spec.edges)
    pitch = node_height(s) + (0.34 if labelled else 0.26)
    feature_count = len(spec.labels) - (spec.class_node is not None)
    draw_class_edges = spec.class_node is not None and feature_count <= CLASS_EDGES_UP_TO
    legend = list(spec.legend)
    if spec.class_node is not None and not draw_class_edges and spec.class_edges:
        but = " but the dashed ones" if any(e.dashed for e in spec.class_edges) else ""
        legend.append(LegendItem(f"{spec.labels[spec.class_node]} is a parent of every "
                                 f"feature{but} (edges not drawn)", kind="text"))
    if spec.layered or spec.edges or spec.class_edges:
        from viz._routed import draw_layered

        return draw_layered(spec, s, ax, title, draw_class_edges, legend)
    top_row = pitch if spec.class_node is not None else 0.0
    limits = label_limits(sheet.width)
    if spec.members:
        limits = [2 * limits[0], *limits]
    elif not spec.abbreviate:
        limits = [float("inf")]
    for grid, limit in [(False, x) for x in limits] + [(True, x) for x in limits]:
        shown, key, short = _shown(spec, s, limit)
        badges = dict(spec.badges)
        badges |= {v: prefix + short.get(m, str(m)) for v, (prefix, m) in spec.badge_members.items()}
        sizes = {v: _size(shown[v], badges.get(v), s, v == spec.class_node)
                 for v in spec.labels}
        below = sheet.flow_height(legend) + sheet.flow_height(sheet.key_items(key + spec.key))
        height = sheet.max_height - below - top_row - cut
        pos, kind = _layout(spec, sizes, sheet.inner, height, pitch, grid,
                            0.22 if labelled else GAP_X)
        if kind is not None:
            break
    if pos is None:  # nothing fits the height: the last grid, taller than allowed
        pos = shift(grid_fit([v for v in spec.labels if v != spec.class_node], sizes,
                             sheet.inner, pitch), 0.0, 0.0)
    pos = shift(pos, MARGIN, 0.0)
    if spec.class_node is not None:
        feats = [v for v in pos]
        top = max((pos[v][1] for v in feats), default=0.0)
        xs = [pos[v][0] for v in feats] or [sheet.width / 2]
        pos[spec.class_node] = ((min(xs) + max(xs)) / 2, top + top_row)
    ax = sheet.ax
    patches = {}
    for v, xy in pos.items():
        look = spec.looks.get(v, NodeLook())
        patches[v] = draw_node(ax, xy, shown[v], s, gid=spec.gids[v], size=sizes[v],
                               face=look.face, edge=look.edge, bold=look.bold,
                               dashed=look.dashed, badge=badges.get(v),
                               badge_gid=spec.badge_gids.get(v))
    rects = {v: rect(pos[v], sizes[v]) for v in pos}
    x0, x1, y0, y1 = extent(pos, sizes)
    bounds = (MARGIN / 2, sheet.width - MARGIN / 2, y0 - 0.3, y1 + 0.05)
    occupied = list(rects.values())
    edges = list(spec.edges) + (spec.class_edges if draw_class_edges else [])
    unplaced: list[str] = []
    for e in edges:
        if e.u not in pos or e.v not in pos:
            continue
        light = spec.class_node in (e.u, e.v)
        others = [r for w, r in rects.items() if w not in (e.u, e.v)]
        rad = route(pos[e.u], pos[e.v], others, bounds)
        sheet.extra += arc_points(pos[e.u], pos[e.v], rad, 9)
        draw_edge(ax, patches[e.u], patches[e.v], s, gid=e.gid, directed=e.directed,
                  color=e.color, width=e.width, rad=rad, dashed=e.dashed,
                  zorder=1 if light else 2, alpha=e.alpha)
        text = e.label
        if e.label_members is not None:
            text = ",".join(short.get(m, str(m)) for m in e.label_members)
        if text is not None and s.edge_labels and not edge_label(
                ax, pos[e.u], pos[e.v], text, s, gid=e.label_gid or e.gid, occupied=occupied,
                rad=rad, color=e.label_color):
            unplaced.append(f"{shown[e.u]}–{shown[e.v]}: {text}")
    if unplaced and spec.optional_labels:  # the line widths show them
        total = sum(e.label is not None or e.label_members is not None for e in edges)
        legend.append(LegendItem(f"{len(unplaced)} of {total} {spec.optional_labels} labels "
                                 "left out for lack of room (line widths show them)",
                                 kind="text"))
    elif unplaced:  # said below the figure rather than dropped
        legend.append(LegendItem("edge labels without room on their edge:", kind="text",
                                 keep_with_next=True))
        legend += [LegendItem(t, kind="text") for t in unplaced]
    fig = sheet.finish(list(occupied), legend, key + spec.key)
    fig._kgraph_layout = kind or "grid (taller than allowed)"
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


def weight_widths(weights: Mapping, style: Style) -> tuple[dict, list[LegendItem]]:
    """Edge line widths from weights (linear from 0.5x to 3x the style's width over the
    range) and the legend samples (smallest, middle, largest)."""
    if not weights:
        return {}, []
    lo, hi = min(weights.values()), max(weights.values())

    def width(w: float) -> float:
        t = 0.5 if hi - lo < 1e-12 else (w - lo) / (hi - lo)
        return style.line_width * (0.5 + 2.5 * t)

    samples = sorted({lo, (lo + hi) / 2, hi}) if hi - lo >= 1e-12 else [lo]
    legend = [LegendItem("edge weight:", kind="text", keep_with_next=True)]
    legend += [LegendItem(_number(w, hi), kind="line", width=width(w), color=style.edge_color,
                          keep_with_next=i < len(samples) - 1) for i, w in enumerate(samples)]
    return {k: width(w) for k, w in weights.items()}, legend
