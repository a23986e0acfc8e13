"""``check_figure``: does a figure print legibly at its size?

A figure is drawn once with the Agg renderer, recording every text actually drawn (the
renderer is told which :class:`~matplotlib.text.Text` each string belongs to), and three
things are checked at the figure's physical size (its size in inches, as printed):

* no two text labels overlap (their rendered boxes share more than ``tolerance`` points
  in both directions);
* every artist lies inside the figure, and no node, edge or label is cut by the axes it is
  clipped to (an edge arc running out of the frame);
* every text is at least ``min_font_size`` points;
* no two node boxes (patches whose gid starts with ``"node:"``) overlap, and no edge (a
  patch or line whose gid starts with ``"edge:"``) passes through the box of a node other
  than its two ends: the edge's drawn path, flattened to segments in display coordinates,
  is tested against every node box it does not start or end on (a reader would take such
  an edge for an edge of that node);
* with ``along``, no two edges run along each other: their paths stay within 1 mm of
  each other over more than 10 mm (:mod:`viz.along` gives the definition and the reasons
  for the numbers), so every edge can be traced.

Researchers call it on their own figures; the tests run it on every structure figure.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from viz.along import DISTANCE, LENGTH
from viz.style import MIN_FONT_SIZE

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

__all__ = ["FigureProblems", "check_figure"]


class FigureProblems(ValueError):
    """Raised by ``check_figure(fig, strict=True)``; ``problems`` lists what is wrong."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s) with the figure:\n"
                         + "\n".join(f"- {p}" for p in problems))


@dataclass
class _Drawn:
    artist: object
    text: str
    size: float


def _describe(artist) -> str:
    gid = artist.get_gid()
    text = artist.get_text() if hasattr(artist, "get_text") else ""
    name = type(artist).__name__
    shown = f" {text!r}" if text else ""
    return f"{name}{shown}" + (f" (gid {gid})" if gid else "")


def _drawn_texts(fig: Figure, renderer) -> list[_Drawn]:
    """Every text the renderer draws (once each), with its font size in points."""
    seen: dict[int, _Drawn] = {}
    original = renderer.draw_text

    def record(gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if mtext is not None and s.strip():
            seen.setdefault(id(mtext), _Drawn(mtext, mtext.get_text(), prop.get_size_in_points()))
        return original(gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)

    renderer.draw_text = record
    try:
        fig.draw(renderer)
    finally:
        del renderer.draw_text
    return list(seen.values())


def _renderer(fig: Figure):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    old = fig.canvas
    canvas = FigureCanvasAgg(fig)
    renderer = canvas.get_renderer()
    return renderer, old


def _clip_box(artist):
    if not artist.get_clip_on():
        return None
    return artist.get_clip_box()


def check_figure(fig: Figure, *, min_font_size: float = MIN_FONT_SIZE, tolerance: float = 0.5,
                 along: bool | tuple[float, float] | None = None,
                 strict: bool = False) -> list[str]:
    """The legibility problems of a figure at its physical size (empty list: none).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    min_font_size : float, default=6.0
        Smallest font size allowed, in points at the figure's size.
    tolerance : float, default=0.5
        Overlaps and excursions smaller than this many points are ignored (anti-aliasing).
    along : bool or (float, float), optional
        Also list the edges that run along each other: whose paths stay within
        ``along[0]`` millimetres of each other over more than ``along[1]`` millimetres at
        the printed size (``True``: 1 mm over 10 mm; see :mod:`viz.along`). Not checked
        by default: most layered figures of 20 or more features have such edges today.
    strict : bool, default=False
        Raise :class:`FigureProblems` (a ``ValueError`` listing every problem) instead of
        returning the list.

    Returns
    -------
    list of str
        One line per problem: overlapping labels or node boxes, edges through a node box
        other than their ends, edges that run along each other, artists outside the figure or cut by the axes frame, fonts
        below ``min_font_size``.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> fig = Figure(figsize=(2, 1))
    >>> _ = fig.text(0.1, 0.5, "legible", fontsize=7)
    >>> check_figure(fig)
    []
    >>> _ = fig.text(0.12, 0.5, "on top", fontsize=5)
    >>> for problem in check_figure(fig):
    ...     print(problem)
    Text 'legible' overlaps Text 'on top'
    Text 'on top' is 5.0 pt, below the minimum of 6.0 pt
    """
    renderer, old_canvas = _renderer(fig)
    try:
        texts = _drawn_texts(fig, renderer)
        problems = _overlaps(texts, renderer, tolerance)
        problems += _outside(fig, texts, renderer, tolerance)
        problems += _crossed_nodes(fig, renderer, tolerance)
        if along:
            problems += _along(fig, renderer, *((DISTANCE, LENGTH) if along is True else along))
    finally:
        fig.set_canvas(old_canvas)
    problems += [f"{_describe(t.artist)} is {t.size:.1f} pt, below the minimum of "
                 f"{min_font_size:.1f} pt" for t in texts if t.size < min_font_size - 1e-9]
    if strict and problems:
        raise FigureProblems(problems)
    return problems


def _overlaps(texts: list[_Drawn], renderer, tolerance: float) -> list[str]:
    import numpy as np

    if len(texts) < 2:
        return []
    scale = renderer.dpi / 72.0  # pixels per point
    boxes = np.array([tuple(t.artist.get_window_extent(renderer).extents) for t in texts])
    tol = tolerance * scale
    problems = []
    for i, j in itertools.combinations(range(len(texts)), 2):
        a, b = boxes[i], boxes[j]
        dx = min(a[2], b[2]) - max(a[0], b[0])
        dy = min(a[3], b[3]) - max(a[1], b[1])
        if dx > tol and dy > tol:
            problems.append(f"{_describe(texts[i].artist)} overlaps {_describe(texts[j].artist)}")
    return problems


def _outside(fig: Figure, texts: list[_Drawn], renderer, tolerance: float) -> list[str]:
    tol = tolerance * renderer.dpi / 72.0
    frame = fig.bbox
    drawn_patches = list(fig.patches)
    lines = list(fig.lines)
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        drawn_patches += [p for p in ax.patches if p.get_visible()]
        lines += [line for line in ax.lines if line.get_visible() and line.get_xydata().size]
        legend = ax.get_legend()
        if legend is not None and legend.get_visible():
            drawn_patches += [p for p in legend.get_patches() if p.get_visible()]
    problems = []

    def beyond(box, limit) -> bool:
        return (box.x0 < limit.x0 - tol or box.y0 < limit.y0 - tol or box.x1 > limit.x1 + tol
                or box.y1 > limit.y1 + tol)

    for artist in [t.artist for t in texts] + drawn_patches:
        box = artist.get_window_extent(renderer)
        if beyond(box, frame):
            problems.append(f"{_describe(artist)} lies partly outside the figure")
            continue
        clip = _clip_box(artist)
        if clip is not None and beyond(box, clip):
            problems.append(f"{_describe(artist)} is cut by the axes frame")
    for line in lines:
        box = line.get_window_extent(renderer)
        clip = _clip_box(line)
        if clip is not None:
            from matplotlib.transforms import Bbox

            box = Bbox.intersection(box, clip)
            if box is None:
                continue
        if beyond(box, frame):
            problems.append(f"{_describe(line)} lies partly outside the figure")
    return problems


def _node_boxes(fig: Figure, renderer) -> list[tuple[object, tuple[float, float, float, float]]]:
    """(patch, display extents) of every visible node patch."""
    out = []
    for ax in fig.axes:
        for p in ax.patches:
            if p.get_visible() and (p.get_gid() or "").startswith("node:"):
                out.append((p, tuple(p.get_window_extent(renderer).extents)))
    return out


def _edge_polylines(fig: Figure) -> list[tuple[object, list]]:
    """(artist, [polyline vertices in display coordinates, ...]) of every drawn edge."""
    out = []
    for ax in fig.axes:
        for artist in [*ax.patches, *ax.lines]:
            if not artist.get_visible() or not (artist.get_gid() or "").startswith("edge:"):
                continue
            path = artist.get_transform().transform_path(artist.get_path())
            polys = [p for p in path.to_polygons(closed_only=False) if len(p) > 1]
            out.append((artist, polys))
    return out


def segments_through_boxes(segments, boxes):
    """``hit[i, j]``: segment i (rows ``x0, y0, x1, y1``) meets the open box j (rows
    ``x0, y0, x1, y1``), by Liang–Barsky clipping.

    Examples
    --------
    >>> import numpy as np
    >>> segments_through_boxes(np.array([[0, 0, 4, 0], [0, 2, 4, 2]]), np.array([[1, -1, 2, 1]]))
    array([[ True],
           [False]])
    """
    import numpy as np

    S = np.asarray(segments, dtype=float)[:, None, :]
    B = np.asarray(boxes, dtype=float)[None, :, :]
    shape = (S.shape[0], B.shape[1])
    dx = np.broadcast_to(S[..., 2] - S[..., 0], shape)
    dy = np.broadcast_to(S[..., 3] - S[..., 1], shape)
    lo, hi, ok = np.zeros(shape), np.ones(shape), np.ones(shape, dtype=bool)
    for p, q in ((-dx, S[..., 0] - B[..., 0]), (dx, B[..., 2] - S[..., 0]),
                 (-dy, S[..., 1] - B[..., 1]), (dy, B[..., 3] - S[..., 1])):
        parallel = np.abs(p) < 1e-12
        ok &= ~(parallel & (q <= 0))
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.where(parallel, 0.0, q / np.where(parallel, 1.0, p))
        lo = np.where(~parallel & (p < 0), np.maximum(lo, r), lo)
        hi = np.where(~parallel & (p > 0), np.minimum(hi, r), hi)
    return ok & (lo < hi)


def _crossed_nodes(fig: Figure, renderer, tolerance: float) -> list[str]:
    """Node boxes that overlap, and edges through a node box other than their ends."""
    import numpy as np

    tol = tolerance * renderer.dpi / 72.0
    nodes = _node_boxes(fig, renderer)
    problems = []
    for (a, x), (b, y) in itertools.combinations(nodes, 2):
        if min(x[2], y[2]) - max(x[0], y[0]) > tol and min(x[3], y[3]) - max(x[1], y[1]) > tol:
            problems.append(f"{_describe(a)} overlaps {_describe(b)}")
    if not nodes:
        return problems
    boxes = np.array([box for _, box in nodes])
    inner = boxes + np.array([tol, tol, -tol, -tol])
    for artist, polys in _edge_polylines(fig):
        ends = np.array([p[k] for p in polys for k in (0, -1)])
        near = ((ends[:, None, 0] >= boxes[None, :, 0] - 2 * tol)
                & (ends[:, None, 0] <= boxes[None, :, 2] + 2 * tol)
                & (ends[:, None, 1] >= boxes[None, :, 1] - 2 * tol)
                & (ends[:, None, 1] <= boxes[None, :, 3] + 2 * tol)).any(axis=0)
        segs = np.vstack([np.hstack([p[:-1], p[1:]]) for p in polys])
        crossed = segments_through_boxes(segs, inner).any(axis=0) & ~near
        for j in np.flatnonzero(crossed):
            problems.append(f"{_describe(artist)} passes through {_describe(nodes[j][0])}, "
                            "a node that is not one of its ends")
    return problems


def _along(fig: Figure, renderer, distance: float, length: float) -> list[str]:
    """Pairs of edges whose paths run along each other (:func:`viz.along.runs_along`)."""
    import numpy as np

    from viz.along import runs_along

    mm = 25.4 / renderer.dpi  # millimetres per pixel
    edges = _edge_polylines(fig)
    boxes = np.array([box for _, box in _node_boxes(fig, renderer)]).reshape(-1, 4) * mm
    found = runs_along([[p * mm for p in polys] for _, polys in edges], boxes,
                       distance=distance, length=length)
    return [f"{_describe(edges[a.i][0])} runs along {_describe(edges[a.j][0])} for "
            f"{a.length:.0f} mm (within {distance:g} mm)" for a in found]
