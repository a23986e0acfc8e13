"""``check_figure``: does a figure print legibly at its size?

A figure is drawn once with the Agg renderer, recording every text actually drawn (the
renderer is told which :class:`~matplotlib.text.Text` each string belongs to), and three
things are checked at the figure's physical size (its size in inches, as printed):

* no two text labels overlap (their rendered boxes share more than ``tolerance`` points
  in both directions);
* every artist lies inside the figure, and no node, edge or label is cut by the axes it is
  clipped to (an edge arc running out of the frame);
* every text is at least ``min_font_size`` points.

Researchers call it on their own figures; the tests run it on every structure figure.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

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
                 strict: bool = False) -> list[str]:
    """The legibility problems of a figure at its physical size (empty list: none).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    min_font_size : float, default=6.0
        Smallest font size allowed, in points at the figure's size.
    tolerance : float, default=0.5
        Overlaps and excursions smaller than this many points are ignored (anti-aliasing).
    strict : bool, default=False
        Raise :class:`FigureProblems` (a ``ValueError`` listing every problem) instead of
        returning the list.

    Returns
    -------
    list of str
        One line per problem: overlapping labels, artists outside the figure or cut by the
        axes frame, fonts below ``min_font_size``.

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
