"""Drawing primitives shared by the graph figures: the sheet (figure and axes in inches),
nodes, edges, labels, legends and the key of abbreviations.

Every node is one patch whose ``gid`` starts with ``"node:"`` and every edge one patch whose
``gid`` starts with ``"edge:"`` (ids that also appear in SVG files), so what a figure shows
can be counted from its artists. matplotlib is imported inside the functions only.

A graph figure is a :class:`Sheet`: one axes whose data units are inches, as wide as the
figure; the content is laid out for that width, then the legend and the key of
abbreviations flow below it and the figure gets the height all of it needs.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from viz._fit import (
    DEFAULT_MAX_WIDTH,
    GAP_X,
    MARGIN,
    PAD_X,
    Size,
    label_size,
    line_height,
    node_height,
)
from viz.style import Style

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

Point = tuple[float, float]
Rect = tuple[float, float, float, float]  # x0, x1, y0, y1 in inches


def chart_size(style: Style, size: tuple[float, float] | None = None) -> tuple[float, float]:
    """The size of a new chart: ``style.figsize``; else the style's width by at most 3.2 in
    (0.7 of a narrow width); else ``size`` or 4.8 x 3.2 in."""
    if style.figsize is not None:
        return style.figsize
    width = style.inches
    if width is not None:
        return (width, min(3.2, 0.7 * width, style.max_aspect * width))
    return size or (4.8, 3.2)


def new_axes(ax: Axes | None, style: Style, size: tuple[float, float] | None = None
             ) -> tuple[Figure, Axes]:
    """The figure and axes of a chart: ``ax`` itself, or a new pyplot-free figure of
    :func:`chart_size` with a constrained layout."""
    if ax is not None:
        return ax.figure, ax
    from matplotlib.figure import Figure

    fig = Figure(figsize=chart_size(style, size), dpi=style.dpi, layout="constrained")
    fig.get_layout_engine().set(w_pad=0.02, h_pad=0.02)
    return fig, fig.add_subplot()


@dataclass(frozen=True)
class LegendItem:
    """One legend entry: a node swatch, a line sample, or text alone."""

    label: str
    kind: str = "node"  # "node", "line" or "text"
    face: str = "#FFFFFF"
    edge: str = "#1A1A1A"
    bold: bool = False
    dashed: bool = False
    width: float = 1.0
    alpha: float = 1.0
    color: str = "#1A1A1A"
    keep_with_next: bool = False  # a heading: never the last item of a row


class Sheet:
    """A graph figure drawn in inches.

    ``width``: the style's width, else the width of a given ``ax``, else the content's
    ``natural`` width (at most a page). ``max_height``: the height left for the content
    (``max_aspect`` times the width, or the given axes' height, minus the title).
    """

    def __init__(self, style: Style, ax: Axes | None, natural: float, title: str | None):
        self.style = style
        self.title = title
        self.title_height = 1.7 * line_height(style.font_size) if title else 0.0
        self.user_ax = ax
        if ax is not None:
            box = ax.get_position()
            fw, fh = ax.figure.get_size_inches()
            self.width = box.width * fw
            total = box.height * fh
        else:
            self.width = style.inches or DEFAULT_MAX_WIDTH
            total = style.max_aspect * self.width
        self.max_height = max(total - self.title_height - 2 * MARGIN, 0.5)
        self.inner = self.width - 2 * MARGIN
        self.extra: list[Point] = []  # curve points that must stay inside
        if ax is None:
            from matplotlib.figure import Figure

            fig = Figure(figsize=(self.width, self.width), dpi=style.dpi)
            ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
        self.fig, self.ax = ax.figure, ax

    def finish(self, rects: Iterable[Rect], legend: Sequence[LegendItem] = (),
               key: Sequence[tuple[str, str]] = (), key_title: str = "Abbreviations") -> Figure:
        """Draw the legend and key below the content and size the figure around it all."""
        rects = list(rects)
        xs = [r[0] for r in rects] + [r[1] for r in rects] + [p[0] for p in self.extra]
        ys = [r[2] for r in rects] + [r[3] for r in rects] + [p[1] for p in self.extra]
        left, right = min(xs, default=0.0) - MARGIN, max(xs, default=0.0) + MARGIN
        points = self.style.small_font_size
        key_items = self.key_items(key, key_title)
        if self.user_ax is None and self.style.inches is None:  # as wide as needed
            needed = [right - left]
            needed += [self._item_width(it, points) + 2 * MARGIN for it in [*legend, *key_items]]
            if self.title:
                needed.append(label_size(self.title, self.style.font_size)[0] + 2 * MARGIN)
            wide = min(max(needed), self.width)
            left, right = min(left, self.width / 2 - wide / 2), max(right, self.width / 2 + wide / 2)
        else:
            left, right = min(left, 0.0), max(right, self.width)
        self.left, self.inner = left + MARGIN, right - left - 2 * MARGIN
        top = max(ys, default=0.0) + MARGIN
        bottom = min(ys, default=0.0)
        if legend:
            bottom = self._flow(legend, bottom - 0.06, points)
        if key_items:
            bottom = self._flow(key_items, bottom - 0.04, points)
        bottom -= MARGIN
        ax = self.ax
        ax.set_xlim(left, right)
        ax.set_ylim(bottom, top)
        ax.set_axis_off()
        if self.user_ax is None:
            height = top - bottom + self.title_height
            self.fig.set_size_inches(right - left, height)
            ax.set_position((0.0, 0.0, 1.0, (top - bottom) / height))
        else:
            ax.set_aspect("equal", adjustable="box")
        if self.title:
            ax.set_title(self.title, pad=0.3 * self.style.font_size,
                         fontsize=self.style.font_size)
        return self.fig

    GLYPH = {"node": 0.2, "line": 0.28, "text": 0.0}

    def _run_width(self, items: Sequence[LegendItem], i: int, points: float) -> float:
        """Width of item i and the items it must stay on a row with."""
        w = self._item_width(items[i], points)
        while items[i].keep_with_next and i + 1 < len(items):
            i += 1
            w += 0.16 + self._item_width(items[i], points)
        return w

    def _item_width(self, it: LegendItem, points: float) -> float:
        return (self.GLYPH[it.kind] + (0.05 if it.kind != "text" else 0.0)
                + label_size(it.label, points)[0])

    def key_items(self, key: Sequence[tuple[str, str]], key_title: str = "Abbreviations"
                  ) -> list[LegendItem]:
        """The key of abbreviations as legend text items."""
        if not key:
            return []
        return [LegendItem(f"{key_title}:", kind="text"),
                *(LegendItem(f"{short} = {full}", kind="text") for short, full in key)]

    def flow_height(self, items: Sequence[LegendItem]) -> float:
        """The height :meth:`finish` will use for these legend items at the full width."""
        if not items:
            return 0.0
        points = self.style.small_font_size
        row_h = max(line_height(points), 0.8 * node_height(self.style)) + 0.03
        rows, used = 1, 0.0
        for i, it in enumerate(items):
            w = self._run_width(items, i, points)
            if used and used + 0.16 + w > self.inner:
                rows, used = rows + 1, 0.0
            used += (0.16 if used else 0.0) + self._item_width(it, points)
        return rows * row_h + 0.06

    def _flow(self, items: Sequence[LegendItem], top: float, points: float) -> float:
        """Legend items left to right, wrapped at the width; returns the lowest y used."""
        from matplotlib.lines import Line2D
        from matplotlib.patches import FancyBboxPatch

        s, ax = self.style, self.ax
        row_h = max(line_height(points), 0.8 * node_height(s)) + 0.03
        glyph = self.GLYPH
        widths = [self._item_width(it, points) for it in items]
        rows: list[list[int]] = [[]]
        used = 0.0
        for i, w in enumerate(widths):
            if rows[-1] and used + 0.16 + self._run_width(items, i, points) > self.inner:
                rows.append([])
                used = 0.0
            used += (0.16 if rows[-1] else 0.0) + w
            rows[-1].append(i)
        y = top - row_h / 2
        for row in rows:
            x = self.left
            for i in row:
                it = items[i]
                if it.kind == "node":
                    h = 0.75 * node_height(s)
                    ax.add_patch(FancyBboxPatch(
                        (x, y - h / 2), glyph["node"], h,
                        boxstyle=f"round,pad=0,rounding_size={0.3 * h}", facecolor=it.face,
                        edgecolor=it.edge, linewidth=s.line_width,
                        linestyle="--" if it.dashed else "-", gid=f"legend:{it.label}"))
                elif it.kind == "line":
                    ax.add_line(Line2D([x, x + glyph["line"]], [y, y], color=it.color,
                                       linewidth=it.width, alpha=it.alpha,
                                       linestyle="--" if it.dashed else "-",
                                       gid=f"legend:{it.label}"))
                gx = glyph[it.kind] + (0.05 if it.kind != "text" else 0.0)
                ax.text(x + gx, y, it.label, ha="left", va="center", fontsize=points,
                        fontweight="bold" if it.bold else "normal", gid=f"legend-text:{it.label}")
                x += widths[i] + 0.16
            y -= row_h
        return y + row_h / 2


def draw_node(ax: Axes, xy: Point, label: str, style: Style, *, gid: str, size: Size,
              face: str | None = None, edge: str | None = None, bold: bool = False,
              dashed: bool = False, badge: str | None = None, badge_gid: str | None = None
              ) -> Patch:
    """A node: a rounded box of ``size`` inches (a circle when as wide as high) with its
    label inside; a ``badge`` (a creation number, a multiplicity) is written small and
    light at the right end inside the box, the label then at the left."""
    from matplotlib.patches import Circle, FancyBboxPatch

    w, h = size
    common = dict(facecolor=face or style.variable_color, edgecolor=edge or style.edge_color,
                  linewidth=style.line_width, zorder=3, gid=f"node:{gid}",
                  linestyle="--" if dashed else "-")
    if w <= h + 1e-9:
        patch = Circle(xy, h / 2, **common)
    else:
        patch = FancyBboxPatch((xy[0] - w / 2, xy[1] - h / 2), w, h,
                               boxstyle=f"round,pad=0,rounding_size={0.45 * h}", **common)
    ax.add_patch(patch)
    x = xy[0]
    if badge:
        bw = label_size(badge, style.small_font_size)[0]
        ax.text(xy[0] + w / 2 - PAD_X - bw / 2, xy[1], badge, ha="center",
                va="center_baseline", zorder=4, fontsize=style.small_font_size,
                color=style.light_color, gid=badge_gid or f"badge:{gid}")
        x = xy[0] - w / 2 + PAD_X + label_size(label, style.font_size, bold)[0] / 2
    ax.text(x, xy[1], label, ha="center", va="center_baseline", zorder=4,
            fontsize=style.font_size, fontweight="bold" if bold else "normal",
            gid=f"label:{gid}")
    return patch


def badge_width(badge: str | None, style: Style) -> float:
    """Room a node's badge takes inside its box (0 without one)."""
    return label_size(badge, style.small_font_size)[0] + 0.05 if badge else 0.0


def draw_edge(ax: Axes, a: Patch, b: Patch, style: Style, *, gid: str,
              directed: bool = False, color: str | None = None, width: float | None = None,
              rad: float = 0.0, dashed: bool = False, zorder: float = 2,
              alpha: float | None = None) -> Patch:
    """An edge between two node patches (clipped at their outlines), optionally an arrow
    a -> b and curved by ``rad`` (matplotlib's arc3 connection)."""
    from matplotlib.patches import FancyArrowPatch

    arrow = FancyArrowPatch(
        posA=_centre(a), posB=_centre(b), patchA=a, patchB=b,
        arrowstyle="-|>" if directed else "-", mutation_scale=4 + 2.5 * style.line_width,
        connectionstyle=f"arc3,rad={rad}", color=color or style.edge_color,
        linewidth=width if width is not None else style.line_width, alpha=alpha,
        linestyle="--" if dashed else "-", shrinkA=0.5, shrinkB=0.5, zorder=zorder,
        gid=f"edge:{gid}")
    ax.add_patch(arrow)
    return arrow


def arc_points(p: Point, q: Point, rad: float, n: int = 25) -> list[Point]:
    """Points along matplotlib's arc3 curve from p to q (a quadratic Bézier whose control
    point is the midpoint moved by ``rad`` times (dy, -dx))."""
    import numpy as np

    p_, q_ = np.asarray(p, float), np.asarray(q, float)
    d = q_ - p_
    control = (p_ + q_) / 2 + rad * np.array([d[1], -d[0]])
    t = np.linspace(0.0, 1.0, n)[:, None]
    curve = (1 - t) ** 2 * p_ + 2 * t * (1 - t) * control + t ** 2 * q_
    return [(float(x), float(y)) for x, y in curve]


def route(p: Point, q: Point, obstacles: Iterable[Rect], bounds: Rect | None = None,
          rads: Sequence[float] = (0.0, 0.12, -0.12, 0.25, -0.25, 0.4, -0.4)) -> float:
    """The arc3 curvature in ``rads`` whose curve p -> q crosses the fewest obstacle boxes
    (the first one of the fewest), staying inside ``bounds``: edges bend around nodes.

    Examples
    --------
    >>> route((0, 0), (0, -2), [(-0.1, 0.1, -1.1, -0.9)])
    0.12
    >>> route((0, 0), (0, -2), [(0.9, 1.1, -1.1, -0.9)])
    0.0
    """
    import numpy as np

    boxes = np.asarray(list(obstacles), dtype=float).reshape(-1, 4)
    best, fewest = rads[0], None
    for rad in rads:
        pts = np.asarray(arc_points(p, q, rad, 41)[2:-2])
        if bounds is not None and (pts[:, 0].min() < bounds[0] or pts[:, 0].max() > bounds[1]
                                   or pts[:, 1].min() < bounds[2]
                                   or pts[:, 1].max() > bounds[3]):
            continue
        if boxes.size:
            inside = ((pts[:, None, 0] > boxes[None, :, 0]) & (pts[:, None, 0] < boxes[None, :, 1])
                      & (pts[:, None, 1] > boxes[None, :, 2]) & (pts[:, None, 1] < boxes[None, :, 3]))
            hits = int(inside.any(axis=0).sum())
        else:
            hits = 0
        if fewest is None or hits < fewest:
            best, fewest = rad, hits
        if hits == 0:
            break
    return best


def rect(xy: Point, size: Size, pad: float = 0.0) -> Rect:
    """The box of a node of ``size`` at ``xy``, grown by ``pad`` on every side."""
    return (xy[0] - size[0] / 2 - pad, xy[0] + size[0] / 2 + pad,
            xy[1] - size[1] / 2 - pad, xy[1] + size[1] / 2 + pad)


def _hits(r: Rect, others: Iterable[Rect]) -> bool:
    return any(r[0] < o[1] and o[0] < r[1] and r[2] < o[3] and o[2] < r[3] for o in others)


def edge_label(ax: Axes, p: Point, q: Point, label: str, style: Style, *, gid: str,
               occupied: list[Rect], rad: float = 0.0, color: str | None = None) -> bool:
    """A small label on the (possibly arc3-curved) edge p-q, on a white pad, at the first
    place along it (middle first), else just beside it, that is free of ``occupied``
    boxes; the box used is added to ``occupied``. False (nothing drawn) when no place is
    free."""
    points = style.small_font_size
    w, h = label_size(label, points)
    curve = arc_points(p, q, rad, 21)
    places = [(i, dx) for dx in (0.0, w / 2 + 0.04, -w / 2 - 0.04)
              for i in (10, 7, 13, 5, 15, 3, 17)]  # on the edge first, then beside it
    for i, dx in places:
        x, y = curve[i][0] + dx, curve[i][1]
        box = (x - w / 2 - 0.02, x + w / 2 + 0.02, y - h / 2 - 0.02, y + h / 2 + 0.02)
        if not _hits(box, occupied):
            occupied.append(box)
            ax.text(x, y, label, ha="center", va="center_baseline", fontsize=points,
                    zorder=5, color=color or style.edge_color, gid=f"edge-label:{gid}",
                    bbox=dict(boxstyle="round,pad=0.1", facecolor="white", edgecolor="none"))
            return True
    return False


def _centre(patch: Patch) -> Point:
    from matplotlib.patches import Circle

    if isinstance(patch, Circle):
        return tuple(patch.center)
    x, y = patch.get_x(), patch.get_y()
    return (x + patch.get_width() / 2, y + patch.get_height() / 2)


def format_set(members: Iterable[Hashable], order: Sequence[Hashable] | Mapping,
               names: Mapping[Hashable, str] | None = None) -> str:
    """Members joined by commas, in the given order (unknown members last, by text), each
    written as ``names[v]`` when given.

    Examples
    --------
    >>> format_set(frozenset({2, 0, 1}), [0, 1, 2])
    '0,1,2'
    """
    rank = order if isinstance(order, Mapping) else {v: i for i, v in enumerate(order)}
    items = sorted(members, key=lambda v: (rank.get(v, len(rank)), str(v)))
    return ",".join(names[v] if names and v in names else str(v) for v in items)


def count_gids(ax: Axes, prefix: str) -> int:
    """The number of patches and texts of ``ax`` whose gid starts with ``prefix``."""
    artists = list(ax.patches) + list(ax.texts)
    return sum(1 for a in artists if (a.get_gid() or "").startswith(prefix))


__all__ = ["GAP_X", "PAD_X", "LegendItem", "Sheet", "arc_points", "badge_width", "chart_size",
           "count_gids", "draw_edge", "draw_node", "edge_label", "format_set", "new_axes", "rect",
           "route"]
