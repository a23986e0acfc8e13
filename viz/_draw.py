"""Drawing primitives shared by the graph figures: axes, nodes, edges, labels.

Every node is one patch whose ``gid`` starts with ``"node:"`` and every edge one patch whose
``gid`` starts with ``"edge:"`` (ids that also appear in SVG files), so what a figure shows
can be counted from its artists. matplotlib is imported inside the functions only.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from viz.style import Style

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

Point = tuple[float, float]


def new_axes(ax: Axes | None, style: Style, size: tuple[float, float] | None = None
             ) -> tuple[Figure, Axes]:
    """The figure and axes to draw into: ``ax`` itself, or a new pyplot-free figure of
    ``style.figsize`` (else ``size`` inches, else 4.8 x 3.2)."""
    if ax is not None:
        return ax.figure, ax
    from matplotlib.figure import Figure

    figsize = style.figsize or size or (4.8, 3.2)
    fig = Figure(figsize=figsize, dpi=style.dpi, layout="constrained")
    fig.get_layout_engine().set(w_pad=0.02, h_pad=0.02)
    return fig, fig.add_subplot()


Box = tuple[float, float, float, float]  # x0, x1, y0, y1 in layout units


def graph_axes(ax: Axes | None, style: Style, positions: Mapping[Any, Point],
               widths: Mapping[Any, float] | None = None, margin: float = 0.35,
               title: str | None = None) -> tuple[Figure, Axes, Box]:
    """Axes for a graph drawing and the layout box it shows: every node (of the given width,
    default a circle) plus ``margin``. A new figure is sized so that one layout unit is
    ``style.unit`` inches and text fits the nodes drawn for it."""
    widths = widths or {}
    r = style.node_radius
    half = {v: widths.get(v, 2 * r) / 2 for v in positions}
    x0 = min((p[0] - half[v] for v, p in positions.items()), default=-r) - margin
    x1 = max((p[0] + half[v] for v, p in positions.items()), default=r) + margin
    y0 = min((p[1] for p in positions.values()), default=0.0) - r - margin
    y1 = max((p[1] for p in positions.values()), default=0.0) + r + margin
    size = ((x1 - x0) * style.unit + 0.15, (y1 - y0) * style.unit + 0.15 + 0.3 * bool(title))
    fig, ax = new_axes(ax, style, size)
    return fig, ax, (x0, x1, y0, y1)


def finish_graph_axes(ax: Axes, box: Box, title: str | None = None) -> None:
    """Equal aspect, no frame, the layout box as limits."""
    ax.set_xlim(box[0], box[1])
    ax.set_ylim(box[2], box[3])
    ax.set_aspect("equal", adjustable="box")
    ax.set_axis_off()
    if title:
        ax.set_title(title)


def text_width(label: str, style: Style) -> float:
    """Approximate width of a label in layout units (DejaVu Sans averages ~0.6 em)."""
    points = 0.6 * style.font_size * len(label)
    return points / 72.0 / style.unit


def node_width(label: str, style: Style) -> float:
    """Width of the node drawn for a label: a circle, or a box around long labels."""
    r = style.node_radius
    width = text_width(label, style)
    return 2 * r if width <= 1.7 * r else max(width + 0.2, 2 * r)


def spread(positions: Mapping[Any, Point], labels: Iterable[str], style: Style
           ) -> dict[Any, Point]:
    """Stretch columns so that nodes one column apart do not overlap (0.3 units between)."""
    widest = max((node_width(label, style) for label in labels), default=0.0)
    factor = max(1.0, widest + 0.3)
    return {v: (x * factor, y) for v, (x, y) in positions.items()}


def draw_node(ax: Axes, xy: Point, label: str, style: Style, *, gid: str,
              face: str | None = None, edge: str | None = None, bold: bool = False,
              box: bool | None = None, dashed: bool = False) -> Patch:
    """A node: a circle (short labels) or a rounded box (long labels) with its label inside."""
    from matplotlib.patches import Circle, FancyBboxPatch

    r = style.node_radius
    if box is None:
        box = node_width(label, style) > 2 * r
    common = dict(facecolor=face or style.variable_color, edgecolor=edge or style.edge_color,
                  linewidth=style.line_width, zorder=3, gid=f"node:{gid}",
                  linestyle="--" if dashed else "-")
    if box:
        w = max(text_width(label, style) + 0.2, 2 * r)
        h = 1.5 * r
        patch = FancyBboxPatch((xy[0] - w / 2, xy[1] - h / 2), w, h,
                               boxstyle=f"round,pad=0,rounding_size={0.35 * h}", **common)
    else:
        patch = Circle(xy, r, **common)
    ax.add_patch(patch)
    ax.text(xy[0], xy[1], label, ha="center", va="center", zorder=4,
            fontweight="bold" if bold else "normal", gid=f"label:{gid}")
    return patch


def draw_edge(ax: Axes, a: Patch, b: Patch, style: Style, *, gid: str,
              directed: bool = False, color: str | None = None, width: float | None = None,
              rad: float = 0.0, dashed: bool = False, zorder: float = 2) -> Patch:
    """An edge between two node patches (clipped at their outlines), optionally an arrow
    a -> b and curved by ``rad`` (matplotlib's arc3 connection)."""
    from matplotlib.patches import FancyArrowPatch

    arrow = FancyArrowPatch(
        posA=_centre(a), posB=_centre(b), patchA=a, patchB=b,
        arrowstyle="-|>" if directed else "-", mutation_scale=3 + 3 * style.line_width,
        connectionstyle=f"arc3,rad={rad}", color=color or style.edge_color,
        linewidth=width if width is not None else style.line_width,
        linestyle="--" if dashed else "-", shrinkA=1, shrinkB=1, zorder=zorder,
        gid=f"edge:{gid}")
    ax.add_patch(arrow)
    return arrow


def clear_rad(p: Point, q: Point, obstacles: Iterable[Point], clearance: float,
              rads: Sequence[float] = (0.0, 0.15, -0.15, 0.3, -0.3, 0.45, -0.45)) -> float:
    """The first arc3 curvature in ``rads`` whose curve p -> q keeps ``clearance`` away from
    every obstacle centre (the last one tried when none does): edges bend around nodes.

    Examples
    --------
    >>> clear_rad((0, 0), (0, -2), [(0, -1)], 0.25)
    0.3
    >>> clear_rad((0, 0), (0, -2), [(1, -1)], 0.3)
    0.0
    """
    import numpy as np

    obstacles = np.asarray(list(obstacles), dtype=float).reshape(-1, 2)
    p_, q_ = np.asarray(p, float), np.asarray(q, float)
    t = np.linspace(0.05, 0.95, 37)[:, None]
    d = q_ - p_
    for rad in rads:
        control = (p_ + q_) / 2 + rad * np.array([d[1], -d[0]])
        curve = (1 - t) ** 2 * p_ + 2 * t * (1 - t) * control + t ** 2 * q_
        if not obstacles.size:
            return rad
        gaps = np.linalg.norm(curve[:, None, :] - obstacles[None, :, :], axis=2)
        if gaps.min() >= clearance:
            return rad
    return rads[-1]


def edge_label(ax: Axes, p: Point, q: Point, label: str, style: Style, *, gid: str,
               rad: float = 0.0, color: str | None = None) -> None:
    """A small label at the middle of the (possibly arc3-curved) edge p-q, on a white pad."""
    # arc3 puts its control point at the midpoint + rad * (dy, -dx); the curve passes
    # half-way to it at t = 1/2.
    dx, dy = q[0] - p[0], q[1] - p[1]
    x = (p[0] + q[0]) / 2 + rad * dy / 2
    y = (p[1] + q[1]) / 2 - rad * dx / 2
    ax.text(x, y, label, ha="center", va="center", fontsize=style.font_size - 1.5, zorder=5,
            color=color or style.edge_color, gid=f"edge-label:{gid}",
            bbox=dict(boxstyle="round,pad=0.12", facecolor="white", edgecolor="none"))


def _centre(patch: Patch) -> Point:
    from matplotlib.patches import Circle

    if isinstance(patch, Circle):
        return tuple(patch.center)
    x, y = patch.get_x(), patch.get_y()
    return (x + patch.get_width() / 2, y + patch.get_height() / 2)


def format_set(members: Iterable[Hashable], order: Sequence[Hashable] | Mapping) -> str:
    """Members joined by commas, in the given order (unknown members last, by text).

    Examples
    --------
    >>> format_set(frozenset({2, 0, 1}), [0, 1, 2])
    '0,1,2'
    """
    rank = order if isinstance(order, Mapping) else {v: i for i, v in enumerate(order)}
    items = sorted(members, key=lambda v: (rank.get(v, len(rank)), str(v)))
    return ",".join(str(v) for v in items)


def count_gids(ax: Axes, prefix: str) -> int:
    """The number of patches and texts of ``ax`` whose gid starts with ``prefix``."""
    artists = list(ax.patches) + list(ax.texts)
    return sum(1 for a in artists if (a.get_gid() or "").startswith(prefix))
