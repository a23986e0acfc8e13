"""Directed graph figures on the layered layout (:mod:`viz._layered`), every edge routed
around the other boxes and ending in an arrowhead on its child's box.

Labels are tried at the widths :func:`viz._graph.label_limits` allows (full names, then
names cut with an ellipsis, then numbers); the key of the cut names or numbers goes below
the figure when it fits the height, else it is left out of the figure and returned with it
(``fig.kgraph_key``, ``fig.kgraph_key_in_figure``) for a caption or a key file. A figure
that cannot fit its height even then is drawn taller rather than with edges through boxes.

What was drawn is kept on the figure as ``fig.kgraph_drawing`` (a :class:`Drawing`: boxes,
labels and edge paths in inches), which the TikZ and DOT writers use.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from viz._draw import LegendItem, Sheet, draw_node
from viz._fit import GAP_X, MARGIN, node_height
from viz._layered import layered_layout, ports, route_path

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from viz._graph import GraphSpec
    from viz.style import Style

BAND = 0.3  # inches between two rows of boxes, where edges run


@dataclass
class DrawnNode:
    """A node as drawn: centre and box size (inches), label, gid, class node or not."""

    x: float
    y: float
    width: float
    height: float
    label: str
    gid: str
    circle: bool = False
    bold: bool = False
    dashed: bool = False
    badge: str | None = None


@dataclass
class DrawnEdge:
    """An edge as drawn: its ends, path vertices and matplotlib codes (inches)."""

    u: Hashable
    v: Hashable
    gid: str
    vertices: list[tuple[float, float]]
    codes: list[int]
    directed: bool
    dashed: bool = False
    light: bool = False
    width: float | None = None


@dataclass
class Drawing:
    """Everything a layered figure shows, in inches (y up), for other writers."""

    nodes: dict[Hashable, DrawnNode] = field(default_factory=dict)
    edges: list[DrawnEdge] = field(default_factory=list)
    key: list[tuple[str, str]] = field(default_factory=list)
    key_in_figure: bool = True
    legend: list[str] = field(default_factory=list)


def _numbered(shown: dict, badges: dict) -> dict:
    """Badges that repeat the label (numbered nodes show their number once)."""
    return {v: b for v, b in badges.items() if shown.get(v) != b}


def draw_layered(spec: GraphSpec, style: Style, ax: Axes | None, title: str | None,
                 draw_class_edges: bool, legend: list[LegendItem]) -> Figure:
    """Draw a directed :class:`~viz._graph.GraphSpec` on the layered layout."""
    from viz._graph import NodeLook, _shown, _size, label_limits

    s = style
    natural = 7.0
    sheet = Sheet(s, ax, natural, title)
    pitch = node_height(s) + BAND
    features = [v for v in spec.labels if v != spec.class_node]
    edges = [e for e in spec.edges if e.u in spec.labels and e.v in spec.labels]
    if draw_class_edges:
        edges += spec.class_edges
    on_top = spec.class_node is not None and not draw_class_edges
    order = ([spec.class_node] if spec.class_node is not None and draw_class_edges else []) \
        + features
    attempts = [(limit, True) for limit in label_limits(sheet.width)]
    attempts += [(limit, False) for limit in label_limits(sheet.width)]
    chosen = None
    for limit, key_inside in attempts:
        shown, key, _ = _shown(spec, s, limit)
        badges = _numbered(shown, spec.badges)
        sizes = {v: _size(shown[v], badges.get(v), s, v == spec.class_node) for v in spec.labels}
        lay = layered_layout(order, [(e.u, e.v) for e in edges], sizes, sheet.inner, pitch,
                             GAP_X)
        if lay is None:
            continue
        extra = legend + ([_key_note(key)] if key and not key_inside else [])
        below = sheet.flow_height(extra) + (sheet.flow_height(sheet.key_items(key))
                                            if key_inside else 0.0)
        rows = 1 + max(lay.layer.values()) + on_top
        height = (rows - 1) * pitch + lay.row_height
        chosen = (lay, shown, key, key_inside, badges, sizes, extra)
        if height + below <= sheet.max_height + 1e-9:
            break
    if chosen is None:  # a layer wider than the figure even with numbers: give up loudly
        raise ValueError("The structure does not fit the figure width even with numbered "
                         "nodes; draw it wider (width='page' or a number of inches).")
    lay, shown, key, key_inside, badges, sizes, legend = chosen
    pos = {v: (x + MARGIN, y) for v, (x, y) in lay.pos.items()}
    if on_top:
        xs = [pos[v][0] for v in features]
        pos[spec.class_node] = ((min(xs) + max(xs)) / 2, pitch)
    drawing = Drawing(key=list(key), key_in_figure=key_inside or not key)
    patches = {}
    ax_ = sheet.ax
    for v, xy in pos.items():
        look = spec.looks.get(v, NodeLook())
        patches[v] = draw_node(ax_, xy, shown[v], s, gid=spec.gids[v], size=sizes[v],
                               face=look.face, edge=look.edge, bold=look.bold,
                               dashed=look.dashed, badge=badges.get(v),
                               badge_gid=spec.badge_gids.get(v))
        w, h = sizes[v]
        drawing.nodes[v] = DrawnNode(xy[0], xy[1], w, h, shown[v], spec.gids[v],
                                     circle=w <= h + 1e-9, bold=look.bold, dashed=look.dashed,
                                     badge=badges.get(v))
    _draw_edges(ax_, edges, lay, pos, sizes, s, spec, drawing)
    rects = [(x - sizes[v][0] / 2, x + sizes[v][0] / 2, y - sizes[v][1] / 2, y + sizes[v][1] / 2)
             for v, (x, y) in pos.items()]
    fig = sheet.finish(rects, legend, key if key_inside else [])
    drawing.legend = [it.label for it in legend]
    fig.kgraph_key = list(key)
    fig.kgraph_key_in_figure = drawing.key_in_figure
    fig.kgraph_drawing = drawing
    fig._kgraph_layout = "layered"
    return fig


def _key_note(key: list[tuple[str, str]]) -> LegendItem:
    what = "node numbers" if all(a.isdigit() for a, _ in key) else "shortened names"
    return LegendItem(f"{what}: key in the caption (too long for the figure)", kind="text")


def _boundary(node_xy, size, dx: float, top: bool) -> float:
    """y where a vertical line dx from a box's centre meets its top or bottom outline."""
    import math

    (_, y), (w, h) = node_xy, size
    sign = 1.0 if top else -1.0
    if w <= h + 1e-9:  # a circle
        r = h / 2
        return y + sign * math.sqrt(max(r * r - dx * dx, 0.0))
    r = 0.45 * h  # the rounding of draw_node's boxes
    flat = w / 2 - r
    if abs(dx) <= flat:
        return y + sign * h / 2
    ex = abs(dx) - flat
    return y + sign * (h / 2 - r + math.sqrt(max(r * r - ex * ex, 0.0)))


def _draw_edges(ax, edges, lay, pos, sizes, s, spec, drawing) -> None:
    from matplotlib.patches import FancyArrowPatch
    from matplotlib.path import Path

    outgoing: dict = {}
    incoming: dict = {}
    for e in edges:
        bends = lay.bends[(e.u, e.v)]
        first = bends[0][0] if bends else pos[e.v][0]
        last = bends[-1][0] if bends else pos[e.u][0]
        outgoing.setdefault(e.u, []).append((e, first))
        incoming.setdefault(e.v, []).append((e, last))
    start, end = {}, {}
    for table, where, top in ((outgoing, start, False), (incoming, end, True)):
        for v, items in table.items():
            w, h = sizes[v]
            half = 0.5 * h / 2 if w <= h + 1e-9 else 0.3 * w
            xs = ports(pos[v][0], half, [t for _, t in items], 0.05)
            for (e, _), px in zip(items, xs, strict=True):
                where[e.gid] = (px, _boundary(pos[v], sizes[v], px - pos[v][0], top))
    for e in edges:
        verts, codes = route_path(start[e.gid], lay.bends[(e.u, e.v)], end[e.gid],
                                  lay.row_height)
        light = spec.class_node in (e.u, e.v)
        arrow = FancyArrowPatch(
            path=Path(verts, codes), arrowstyle="-|>", mutation_scale=4 + 2.5 * s.line_width,
            color=e.color or s.edge_color, shrinkA=0, shrinkB=0,
            linewidth=e.width if e.width is not None else s.line_width, alpha=e.alpha,
            linestyle="--" if e.dashed else "-", zorder=1 if light else 2, gid=f"edge:{e.gid}")
        arrow.kgraph_ends = (spec.gids[e.u], spec.gids[e.v])
        ax.add_patch(arrow)
        drawing.edges.append(DrawnEdge(e.u, e.v, e.gid, verts, codes, True, e.dashed, light,
                                       e.width))
