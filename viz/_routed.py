"""Directed graph figures on the layered layout (:mod:`viz._layered`), every edge routed
around the other boxes and ending in an arrowhead on its child's box.

Labels are tried at the widths :func:`viz._graph.label_limits` allows (full names, then
names cut with an ellipsis, then numbers); the key of the cut names or numbers goes below
the figure when it fits the height, else it is left out of the figure and returned with it
(``fig.kgraph_key``, ``fig.kgraph_key_in_figure``) for a caption or a key file. Then
text at 6 pt, then 2-6 side-by-side panels (a parent in an earlier panel drawn again,
dotted, just above its child: :func:`viz._layered.panel_layout`), until the figure is at
most ``max_aspect`` times its width and :data:`HEIGHT_LIMIT` tall; else the least tall is
drawn (with a warning past :data:`HEIGHT_LIMIT`), never with edges through boxes.

What was drawn is kept on the figure as ``fig.kgraph_drawing`` (a :class:`Drawing`: boxes,
labels and edge paths in inches), which the TikZ and DOT writers use.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from viz._draw import LegendItem, Sheet, draw_node
from viz._fit import GAP_X, MARGIN, node_height
from viz._layered import Copy, layered_layout, panel_layout, ports, route_path

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
    copy: bool = False  # a parent drawn again at the top of a later panel


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
    reverse: bool = False  # the arrowhead at the start (an edge drawn against the layers)


@dataclass
class Drawing:
    """Everything a layered figure shows, in inches (y up), for other writers."""

    nodes: dict[Hashable, DrawnNode] = field(default_factory=dict)
    edges: list[DrawnEdge] = field(default_factory=list)
    key: list[tuple[str, str]] = field(default_factory=list)
    key_in_figure: bool = True
    legend: list[str] = field(default_factory=list)
    legend_items: list = field(default_factory=list)  # the LegendItems: swatches, colours
    crossings: int = 0  # edge crossings between consecutive layers
    panels: int = 1  # side-by-side panels (a deep structure)


def _numbered(shown: dict, badges: dict) -> dict:
    """Badges but those that repeat the label (numbered nodes show their number once; a
    hub's mark before it stays: :mod:`viz._hubs`)."""
    out = {}
    for v, b in badges.items():
        label = shown.get(v)
        if label and b.endswith(f" {label}"):
            b = b[:-len(label) - 1]
        if b != label:
            out[v] = b
    return out


HEIGHT_LIMIT = 8.75
"""Tallest figure drawn (inches, title, legend and key included): the smallest of the
common journals' largest figure heights (PLOS 22.2 cm; Springer 23.5 cm and Elsevier 24 cm
with the caption), so a figure that needs a whole column or page still prints unscaled."""

PANELS = (2, 3, 4, 5, 6)  # side-by-side panels tried for a structure too deep for its height


@dataclass
class _Plan:
    """One way to draw the structure: a style (font size), a layout and what it shows."""

    style: Style
    lay: object
    shown: dict
    key: list
    key_inside: bool
    badges: dict
    sizes: dict
    legend: list
    short: dict
    pitch: float
    panels: int
    height: float  # content + legend + key, inches


def draw_layered(spec: GraphSpec, style: Style, ax: Axes | None, title: str | None,
                 draw_class_edges: bool, legend: list[LegendItem]) -> Figure:
    """Draw a directed :class:`~viz._graph.GraphSpec` on the layered layout."""
    from viz._graph import NodeLook

    sheet = Sheet(style, ax, 7.0, title)
    features = [v for v in spec.labels if v != spec.class_node]
    edges = [e for e in spec.edges if e.u in spec.labels and e.v in spec.labels]
    if draw_class_edges:
        edges += spec.class_edges
    on_top = spec.class_node is not None and not draw_class_edges
    order = ([spec.class_node] if spec.class_node is not None and draw_class_edges else []) \
        + _feature_order(spec, features)
    rank = {v: i for i, v in enumerate(order)}
    down = [(e.u, e.v) if rank[e.u] < rank[e.v] else (e.v, e.u) for e in edges]
    plan = _choose(spec, style, sheet, order, down, legend, on_top, not draw_class_edges)
    s = sheet.style = plan.style
    lay, shown, key, badges, sizes, pitch = (plan.lay, dict(plan.shown), plan.key, plan.badges,
                                             dict(plan.sizes), plan.pitch)
    key_inside, legend, short = plan.key_inside, plan.legend, plan.short
    gids, looks = dict(spec.gids), dict(spec.looks)
    if plan.panels > 1:  # the edges from an earlier panel start at the parent's copy
        edges, down = _to_copies(edges, down, lay)
        for c in lay.pos:
            if isinstance(c, Copy):
                shown[c], sizes[c] = shown[c.node], sizes[c.node]
                if c.node in badges:
                    badges = {**badges, c: badges[c.node]}
                gids[c] = f"copy{c.panel}:{spec.gids[c.node]}"
                looks[c] = NodeLook(face="#FFFFFF", edge=s.light_color)
    lay.pos = {v: (x, -pitch * lay.layer[v]) for v, (x, _) in lay.pos.items()}
    lay.bends = {e: [(x, pitch * y) for x, y in pts] for e, pts in lay.bends.items()}
    pos = {v: (x + MARGIN, y) for v, (x, y) in lay.pos.items()}
    lay.bends = {e: [(x + MARGIN, y) for x, y in pts] for e, pts in lay.bends.items()}
    if on_top:
        xs = [pos[v][0] for v in features]
        pos[spec.class_node] = ((min(xs) + max(xs)) / 2, pitch)
    drawing = Drawing(key=list(key), key_in_figure=key_inside or not key,
                      crossings=lay.crossings, panels=plan.panels)
    ax_ = sheet.ax
    for v, xy in pos.items():
        look = looks.get(v, NodeLook())
        patch = draw_node(ax_, xy, shown[v], s, gid=gids[v], size=sizes[v], face=look.face,
                          edge=look.edge, bold=look.bold, dashed=look.dashed,
                          badge=badges.get(v),
                          badge_gid=None if isinstance(v, Copy) else spec.badge_gids.get(v))
        if isinstance(v, Copy):
            patch.set_linestyle(":")
        w, h = sizes[v]
        drawing.nodes[v] = DrawnNode(xy[0], xy[1], w, h, shown[v], gids[v],
                                     circle=w <= h + 1e-9, bold=look.bold, dashed=look.dashed,
                                     badge=badges.get(v), copy=isinstance(v, Copy))
    rects = [(x - sizes[v][0] / 2, x + sizes[v][0] / 2, y - sizes[v][1] / 2, y + sizes[v][1] / 2)
             for v, (x, y) in pos.items()]
    if plan.panels > 1:
        _panel_rules(ax_, lay, pos, sizes, s)
    paths = _draw_edges(ax_, edges, down, lay, pos, sizes, s, spec, drawing, gids)
    sheet.extra += [p for verts in paths for p in verts]  # the figure holds every edge
    occupied = list(rects)
    unplaced = []
    for e, verts in zip(edges, paths, strict=True):
        text = e.label
        if e.label_members is not None:
            text = ",".join(short.get(m, str(m)) for m in e.label_members)
        if text is not None and s.edge_labels and not _edge_label(
                ax_, verts, text, s, e.label_gid or e.gid, occupied, e.label_color):
            unplaced.append(f"{shown[e.u]}–{shown[e.v]}: {text}")
    legend = list(legend)
    if unplaced and spec.optional_labels:  # the line widths show them
        total = sum(e.label is not None or e.label_members is not None for e in edges)
        legend.append(LegendItem(f"{len(unplaced)} of {total} {spec.optional_labels} labels "
                                 "left out for lack of room (line widths show them)", kind="text"))
    elif unplaced:
        legend.append(LegendItem("edge labels without room on their edge:", kind="text",
                                 keep_with_next=True))
        legend += [LegendItem(t, kind="text") for t in unplaced]
    rects = occupied
    fig = sheet.finish(rects, legend, key if key_inside else [])
    drawing.legend = [it.label for it in legend]
    drawing.legend_items = list(legend)
    fig.kgraph_key = list(key)
    fig.kgraph_key_in_figure = drawing.key_in_figure
    fig.kgraph_drawing = drawing
    fig._kgraph_layout = "layered"
    w, h = fig.get_size_inches()
    import warnings

    if ax is None and h > HEIGHT_LIMIT + 1e-6:
        warnings.warn(f"The structure needs a figure {h:.1f} in tall, more than a journal page "
                      f"prints ({HEIGHT_LIMIT:g} in), even at {s.min_font_size:g} pt and in "
                      "side-by-side panels; draw it with width='page' or as an overview.",
                      UserWarning, stacklevel=4)
    if ax is None and s.inches is not None and w > s.inches + 1e-6:
        warnings.warn(f"The structure needs a figure {w:.1f} in wide (asked: {s.inches:g} in): "
                      "a layer holds more edges and boxes than the width; it is drawn wider "
                      "rather than with edges through boxes (draw it with width='page').",
                      UserWarning, stacklevel=4)
    return fig


def _choose(spec, s, sheet, order, down, legend, on_top, panels_allowed) -> _Plan:
    """The first plan whose height fits ``max_aspect`` times the width (and
    :data:`HEIGHT_LIMIT`), trying in turn:
    one panel at the style's font size (names, cut names, then numbers; the key inside,
    then outside; rows and edge slots closer together), the same at the smallest font
    size, then side-by-side panels (from as many as the least tall one-panel plan needs for
    the height, up to 6; only what fits the width in one panel). When none fits, the least tall (an earlier plan
    unless a later one is 5 % less tall). Only a structure with a layer that no plan
    fits in the width is drawn wider."""
    from viz._graph import _shown, label_limits

    soft = sheet.max_height - 0.02
    if sheet.user_ax is None:  # nor taller than a journal prints
        soft = min(soft, HEIGHT_LIMIT - sheet.title_height - 2 * MARGIN - 0.02)
    styles = [s] + ([s.with_(font_size=s.min_font_size)] if s.font_size > s.min_font_size
                    else [])
    limits = label_limits(sheet.width)
    attempts = [(limit, True, 0.045) for limit in limits]
    attempts += [(limit, False, 0.045) for limit in limits]
    attempts += [(limits[-1], False, g) for g in (0.03, 0.022)]  # edges 0.6 pt apart at least
    attempts += [(0.0, False, g) for g in (0.045, 0.022)]  # numbers (the smallest boxes)
    least = None
    named: dict = {}  # font size: whether some names are cut at the narrowest limit
    fits: set = set()  # the (font, label limit, edge gap) whose one-panel layout fits the width
    counts = [1]
    while counts:
        count = counts.pop(0)
        layouts: dict = {}
        for st in styles:
            for limit, key_inside, edge_gap in attempts:
                at = (st.font_size, limit, edge_gap)
                if count > 1 and (at not in fits or edge_gap == 0.03):
                    continue  # narrower panels do not fit what one panel does not
                if limit == 0.0 and not named.setdefault(st.font_size, bool(
                        _shown(spec, st, limits[-1])[1])):
                    continue  # numbers only where names are cut
                if at not in layouts:
                    layouts[at] = _attempt(spec, st, limit, sheet.inner, edge_gap, order, down,
                                           count=count)
                found = layouts[at]
                if found is None:
                    continue
                if count == 1:
                    fits.add(at)
                for band in (BAND, 0.22, 0.16):
                    plan = _plan(found, st, sheet, spec, key_inside, band, legend, on_top, count)
                    if plan.height <= soft:
                        return plan
                    if least is None or plan.height < 0.95 * least.height:
                        least = plan  # an earlier plan is kept unless 5 % taller
        if count == 1 and panels_allowed and least is not None:  # from the panels it needs
            need = min(math.ceil(least.height / soft), PANELS[-1])
            counts = [c for c in PANELS if c >= need] + [c for c in PANELS[::-1] if c < need]
        elif count > 1 and not any(layouts.values()):  # too narrow: fewer panels only
            counts = [c for c in counts if c < count]
    if least is not None:
        return least
    found = _attempt(spec, s, limits[-1], float("inf"), 0.03, order, down, sheet.inner)
    return _plan(found, s, sheet, spec, False, 0.16, legend, on_top, 1)


def _plan(found, st, sheet, spec, key_inside, band, legend, on_top, count) -> _Plan:
    """A plan and its height (content, legend and key) at a row ``band``."""
    lay, shown, key, short, badges, sizes = found
    key = key + spec.key
    pitch = node_height(st) + band
    extra = list(legend)
    if count > 1:
        extra.append(LegendItem("dotted: parent repeated from a panel on the left",
                                face="#FFFFFF", edge=st.light_color))
    if key and not key_inside:
        extra.append(_key_note(key))
    sheet.style = st
    below = sheet.flow_height(extra) + (sheet.flow_height(sheet.key_items(key))
                                        if key_inside else 0.0)
    rows = 1 + max(lay.layer.values()) + on_top
    height = (rows - 1) * pitch + lay.row_height + below
    return _Plan(st, lay, shown, key, key_inside, badges, sizes, extra, short, pitch, count,
                 height)


def _to_copies(edges, down, lay):
    """Edges and their (upper, lower) ends with every parent in an earlier panel replaced
    by its copy in the child's panel."""
    from dataclasses import replace

    out_edges, out_down = [], []
    for e, (a, b) in zip(edges, down, strict=True):
        c = Copy(a, lay.panel[b])
        if c in lay.pos:
            e = replace(e, u=c) if e.u == a else replace(e, v=c)
            a = c
        out_edges.append(e)
        out_down.append((a, b))
    return out_edges, out_down


def _panel_rules(ax, lay, pos, sizes, s) -> None:
    """A thin light rule between two panels, as tall as the boxes."""
    top = max(y + sizes[v][1] / 2 for v, (_, y) in pos.items())
    bottom = min(y - sizes[v][1] / 2 for v, (_, y) in pos.items())
    for x in lay.rules:
        ax.plot([x + MARGIN, x + MARGIN], [bottom, top], color=s.light_color,
                linewidth=0.4, zorder=0, gid="panel-rule")


def _attempt(spec, s, limit, room, edge_gap, order, down, room_min=0.0, count=1):
    """The layout (rows one inch apart) with labels cut at ``limit``, and what it shows;
    None when a layer does not fit ``room`` inches."""
    from viz._graph import _shown, _size

    shown, key, short = _shown(spec, s, limit)
    badges = _numbered(shown, spec.badges)
    badges |= {v: prefix + short.get(m, str(m)) for v, (prefix, m) in spec.badge_members.items()}
    sizes = {v: _size(shown[v], badges.get(v), s, v == spec.class_node or (
        v in spec.looks and spec.looks[v].bold)) for v in spec.labels}
    if count > 1:
        lay = panel_layout(order, down, sizes, room, count, GAP_X, edge_gap)
        return None if lay is None else (lay, shown, key, short, badges, sizes)
    lay = layered_layout(order, down, sizes, room, 1.0, GAP_X, edge_gap=edge_gap)
    if lay is not None and room == float("inf"):
        lay = layered_layout(order, down, sizes, max(_widest(lay, sizes, edge_gap), room_min),
                             1.0, GAP_X, capacity=float("inf"), edge_gap=edge_gap)
    return None if lay is None else (lay, shown, key, short, badges, sizes)


def _widest(lay, sizes, edge_gap) -> float:
    """Inches the widest layer of a layout needs (its boxes and edge slots, tight)."""
    from viz._layered import DUMMY_WIDTH, row_width

    def sep(a, b) -> float:
        return GAP_X if a in sizes and b in sizes else edge_gap

    widths = {x: sizes[x][0] if x in sizes else DUMMY_WIDTH for row in lay.layers for x in row}
    return max(row_width(row, widths, sep) for row in lay.layers)


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


def _feature_order(spec: GraphSpec, features: list) -> list:
    """The features parents first: the tree's breadth-first order, else the given order
    when every edge is directed and goes forward in it, else breadth first from the first."""
    if spec.tree is not None:
        roots, children = spec.tree
        out, frontier = [], list(roots)
        while frontier:
            out += frontier
            frontier = [c for v in frontier for c in children.get(v, ())]
        return out + [v for v in features if v not in set(out)]
    rank = {v: i for i, v in enumerate(features)}
    if all(e.directed and rank[e.u] < rank[e.v] for e in spec.edges
           if e.u in rank and e.v in rank):
        return features
    from viz._fit import bfs_levels

    levels, _ = bfs_levels(features, [(e.u, e.v) for e in spec.edges])
    return [v for level in levels for v in level]


def _edge_label(ax, verts, text, s, gid, occupied, color) -> bool:
    """A label on a white pad at the middle of one of the edge's curves between two rows
    (the longest first), else just beside it, where no box is; False when nowhere."""
    import numpy as np

    from viz._draw import _hits
    from viz._fit import label_size

    points = s.small_font_size
    w, h = label_size(text, points)
    spots = []
    i = 0
    while i + 3 < len(verts):
        p0, p1, p2, p3 = (np.asarray(v, float) for v in verts[i:i + 4])
        for t in (0.5, 0.35, 0.65):
            spots.append(tuple((1 - t) ** 3 * p0 + 3 * t * (1 - t) ** 2 * p1
                               + 3 * t * t * (1 - t) * p2 + t ** 3 * p3))
        i += 4
    for dx in (0.0, w / 2 + 0.04, -w / 2 - 0.04):
        for x, y in spots:
            box = (x + dx - w / 2 - 0.02, x + dx + w / 2 + 0.02, y - h / 2 - 0.02, y + h / 2 + 0.02)
            if not _hits(box, occupied):
                occupied.append(box)
                ax.text(x + dx, y, text, ha="center", va="center_baseline", fontsize=points,
                        zorder=5, color=color or s.edge_color, gid=f"edge-label:{gid}",
                        bbox=dict(boxstyle="round,pad=0.1", facecolor="white", edgecolor="none"))
                return True
    return False


def _draw_edges(ax, edges, down, lay, pos, sizes, s, spec, drawing, gids) -> list:
    from matplotlib.patches import FancyArrowPatch
    from matplotlib.path import Path

    outgoing: dict = {}
    incoming: dict = {}
    for e, (a, b) in zip(edges, down, strict=True):
        bends = lay.bends[(a, b)]
        first = bends[0][0] if bends else pos[b][0]
        last = bends[-1][0] if bends else pos[a][0]
        outgoing.setdefault(a, []).append((e, first))
        incoming.setdefault(b, []).append((e, last))
    start, end = {}, {}
    for table, where, top in ((outgoing, start, False), (incoming, end, True)):
        for v, items in table.items():
            w, h = sizes[v]
            half = 0.5 * h / 2 if w <= h + 1e-9 else 0.3 * w
            xs = ports(pos[v][0], half, [t for _, t in items], 0.05)
            for (e, _), px in zip(items, xs, strict=True):
                where[e.gid] = (px, _boundary(pos[v], sizes[v], px - pos[v][0], top))
    paths = []
    for e, (a, b) in zip(edges, down, strict=True):
        verts, codes = route_path(start[e.gid], lay.bends[(a, b)], end[e.gid], lay.row_height)
        paths.append(verts)
        light = spec.class_node in (e.u, e.v)
        directed = e.directed or light  # the class is every feature's parent
        style = ("-|>" if a == e.u else "<|-") if directed else "-"
        arrow = FancyArrowPatch(
            path=Path(verts, codes), arrowstyle=style,
            mutation_scale=4 + 2.5 * (e.width if e.width is not None else s.line_width),
            color=e.color or s.edge_color, shrinkA=0, shrinkB=0,
            linewidth=e.width if e.width is not None else s.line_width, alpha=e.alpha,
            linestyle="--" if e.dashed else "-", zorder=1 if light else 2, gid=f"edge:{e.gid}")
        arrow.kgraph_ends = (gids[e.u], gids[e.v])
        ax.add_patch(arrow)
        drawing.edges.append(DrawnEdge(a, b, e.gid, verts, codes, directed, e.dashed, light,
                                       e.width))
        if directed and a != e.u:
            drawing.edges[-1].reverse = True
    return paths
