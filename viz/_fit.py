"""Geometry of figures drawn at print size: every length here is in inches.

A graph figure is laid out in inches for a given width (a journal column or page): node
boxes are sized from their measured labels at the style's font size, so a label is always
inside its box, and a layout is accepted only if it fits the width and the height the
style allows (``max_aspect`` times the width).

* :func:`label_size` — the measured size of a text at a font size (TrueType metrics of
  DejaVu Sans, the font every figure uses).
* :func:`abbreviate` — labels too wide for a figure, cut with an ellipsis; the key that
  explains them.
* :func:`tidy_fit` — a layered tidy tree of boxes (leaves packed by their widths).
* :func:`force_fit` — a stress (Kamada–Kawai) layout turned to landscape, scaled as large
  as the page allows and with box overlaps removed; None if it cannot fit.
* :func:`grid_fit` — boxes in reading order, wrapped at the width (always fits).
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Iterable, Mapping, Sequence

from viz.style import PAPER_WIDTHS, Style

Point = tuple[float, float]
Size = tuple[float, float]

#: Default width of graph figures drawn without a width: as wide as needed, at most a page.
DEFAULT_MAX_WIDTH = PAPER_WIDTHS["page"]
PAD_X = 0.045  # inches between a label and the sides of its box
GAP_X = 0.09   # inches between neighbouring boxes in a row
MARGIN = 0.04  # inches kept free along the figure's edges


@functools.lru_cache(maxsize=4096)
def label_size(text: str, points: float, bold: bool = False) -> Size:
    """Width and height (inches) of a one-line text at ``points`` in DejaVu Sans.

    Examples
    --------
    >>> w, h = label_size("petal", 7.0)
    >>> 0.2 < w < 0.3 and 0.08 < h < 0.13
    True
    """
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    prop = FontProperties(family="DejaVu Sans", size=points,
                          weight="bold" if bold else "normal")
    w, h, d = TextToPath().get_text_width_height_descent(text or " ", prop, ismath=False)
    return w / 72.0, max(h, points * 0.95) / 72.0


def line_height(points: float) -> float:
    """Inches from one line of text to the next at ``points``."""
    return 1.25 * points / 72.0


def node_height(style: Style) -> float:
    """Height of a node box in inches: the label and a thin pad above and below."""
    return 1.9 * style.font_size / 72.0


def node_size(label: str, style: Style, bold: bool = False) -> Size:
    """The box of a node label: its measured width plus padding, at least as wide as high."""
    w, _ = label_size(label, style.font_size, bold)
    h = node_height(style)
    return max(w + 2 * PAD_X, h), h


def abbreviate(labels: Mapping[Hashable, str], style: Style, max_width: float,
               shortest: int = 5) -> tuple[dict[Hashable, str], list[tuple[str, str]]]:
    """Labels that fit ``max_width`` inches (boxes included): longer ones keep their start
    and end around a "…" (numbered when two cuts coincide). When a label would keep fewer
    than ``shortest`` characters, every label becomes its number (1, 2, ... in the order
    given) instead. Returns the labels to show and the key ``[(shown, full), ...]``.

    Examples
    --------
    >>> shown, key = abbreviate({1: "od280/od315_of_diluted_wines", 2: "ash"}, Style(), 0.7)
    >>> shown[2], key[0][1]
    ('ash', 'od280/od315_of_diluted_wines')
    >>> "…" in shown[1] and shown[1] == key[0][0]
    True
    >>> abbreviate({"a": "WeekofPurchase", "b": "PriceCH"}, Style(), 0.2)
    ({'a': '1', 'b': '2'}, [('1', 'WeekofPurchase'), ('2', 'PriceCH')])
    """
    out: dict[Hashable, str] = {}
    cut: list[Hashable] = []
    for v, text in labels.items():
        if node_size(text, style)[0] <= max_width:
            out[v] = text
            continue
        n = len(text)
        while n > 2 and node_size(_elide(text, n), style)[0] > max_width:
            n -= 1
        if n < min(shortest, len(text)):
            numbers = {v: str(i) for i, v in enumerate(labels, 1)}
            return numbers, [(numbers[v], labels[v]) for v in labels]
        out[v] = _elide(text, n)
        cut.append(v)
    uncut = {out[v] for v in out if v not in cut}
    groups: dict[str, list[Hashable]] = {}
    for v in cut:
        groups.setdefault(out[v], []).append(v)
    for label, same in groups.items():
        if len(same) > 1 or label in uncut:
            for i, v in enumerate(same, 1):
                out[v] = f"{label}{i}"
    return out, [(out[v], labels[v]) for v in cut]


def _elide(text: str, n: int) -> str:
    """``text`` cut to ``n`` characters plus "…" in the middle (start and end kept: names
    often differ only at the end)."""
    head = (n + 1) // 2
    return text[:head] + "…" + text[len(text) - (n - head):] if n < len(text) else text


def _rows(pos: Mapping[Hashable, Point]) -> dict[float, list[Hashable]]:
    rows: dict[float, list[Hashable]] = {}
    for v, (_, y) in pos.items():
        rows.setdefault(round(y, 6), []).append(v)
    return rows


def tidy_fit(roots: Sequence[Hashable], children: Mapping[Hashable, Sequence[Hashable]],
             sizes: Mapping[Hashable, Size], pitch: float, gap: float = GAP_X
             ) -> dict[Hashable, Point]:
    """A layered tidy forest of boxes: depth gives the row (``pitch`` inches apart, the
    roots at y = 0), leaves are packed left to right by their widths with ``gap`` between
    them, a parent is centred over its children, and then every row is swept so that no
    two boxes come closer than ``gap``. The left edge is at x = 0.

    Examples
    --------
    >>> pos = tidy_fit([1], {1: [2, 3], 2: [], 3: []}, dict.fromkeys([1, 2, 3], (1.0, 0.2)), 0.5)
    >>> pos[2], pos[3], pos[1]
    ((0.5, -0.5), (1.6, -0.5), (1.05, 0.0))
    """
    pos: dict[Hashable, Point] = {}
    cursor = 0.0
    for root in roots:
        stack: list[tuple[Hashable, int, bool]] = [(root, 0, False)]
        while stack:
            v, depth, expanded = stack.pop()
            kids = children.get(v, ())
            if not kids:
                w = sizes[v][0]
                pos[v] = (cursor + w / 2, -pitch * depth)
                cursor += w + gap
            elif expanded:
                pos[v] = ((pos[kids[0]][0] + pos[kids[-1]][0]) / 2, -pitch * depth)
            else:
                stack.append((v, depth, True))
                stack.extend((c, depth + 1, False) for c in reversed(kids))
    for row in _rows(pos).values():  # a parent wider than its children's span
        row.sort(key=lambda v: pos[v][0])
        for a, b in zip(row, row[1:], strict=False):
            least = pos[a][0] + (sizes[a][0] + sizes[b][0]) / 2 + gap
            if pos[b][0] < least:
                pos[b] = (least, pos[b][1])
    left = min(x - sizes[v][0] / 2 for v, (x, _) in pos.items())
    return {v: (x - left, y) for v, (x, y) in pos.items()}


def extent(pos: Mapping[Hashable, Point], sizes: Mapping[Hashable, Size]
           ) -> tuple[float, float, float, float]:
    """``(x0, x1, y0, y1)``: the smallest box around every node box."""
    if not pos:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(x - sizes[v][0] / 2 for v, (x, _) in pos.items()),
            max(x + sizes[v][0] / 2 for v, (x, _) in pos.items()),
            min(y - sizes[v][1] / 2 for v, (_, y) in pos.items()),
            max(y + sizes[v][1] / 2 for v, (_, y) in pos.items()))


def _landscape(xy):
    """Rotate centred points so that their widest spread is horizontal (deterministic
    signs: the first point right of or on the vertical axis, above or on the horizontal)."""
    import numpy as np

    xy = xy - xy.mean(axis=0)
    if len(xy) > 1 and np.any(xy):
        _, vecs = np.linalg.eigh(xy.T @ xy)
        major = vecs[:, -1]
        xy = xy @ np.array([[major[0], -major[1]], [major[1], major[0]]])
    if len(xy) and xy[0, 1] < 0:
        xy[:, 1] = -xy[:, 1]
    if len(xy) and xy[0, 0] < 0:
        xy[:, 0] = -xy[:, 0]
    return np.round(xy, 9) + 0.0


@functools.lru_cache(maxsize=32)
def _stress(nodes: tuple, edges: tuple) -> dict:
    """The stress layout of a graph, computed once for the label sizes a figure tries."""
    from viz.layout import stress_layout

    return stress_layout(nodes, list(edges), edge_length=1.0)


def force_fit(nodes: Sequence[Hashable], edges: Iterable[tuple[Hashable, Hashable]],
              sizes: Mapping[Hashable, Size], width: float, height: float,
              gap: float = GAP_X) -> dict[Hashable, Point] | None:
    """A stress layout of boxes inside ``width`` x ``height`` inches, spread as much as
    fits; None when even the tightest one does not fit.

    The Kamada–Kawai layout (deterministic) is turned so that its widest spread is
    horizontal, stretched over the width and a height (0.45 and 0.7 of the width, then all
    of ``height``; at each, all of it and 75 % of it), and its box overlaps removed
    (:func:`viz._overlap.separate`): the first result that fits is returned, its lower
    left box corner at (0, 0).
    """
    import numpy as np

    from viz._overlap import separate

    nodes = list(nodes)
    if len(nodes) == 1:
        return {nodes[0]: (sizes[nodes[0]][0] / 2, sizes[nodes[0]][1] / 2)}
    raw = _stress(tuple(nodes), tuple(edges))
    xy = _landscape(np.array([raw[v] for v in nodes], dtype=float))
    xy = xy - xy.min(axis=0)
    xy = xy / np.maximum(xy.max(axis=0), 1e-9)  # the unit square
    widest = max(sizes[v][0] for v in nodes)
    tallest = max(sizes[v][1] for v in nodes)
    heights = sorted({min(h, height) for h in (0.45 * width, 0.7 * width, height)})
    for h in heights:
        for f in (1.0, 0.75):
            pos = separate({v: (float(x * f * (width - widest)), float(y * f * (h - tallest)))
                            for v, (x, y) in zip(nodes, xy, strict=True)},
                           {v: sizes[v] for v in nodes}, gap=gap, max_iter=120)
            x0, x1, y0, y1 = extent(pos, sizes)
            if x1 - x0 <= width + 1e-9 and y1 - y0 <= h + 1e-9:
                return {v: (x - x0, y - y0) for v, (x, y) in pos.items()}
    return None


def bfs_levels(nodes: Sequence[Hashable], edges: Iterable[tuple[Hashable, Hashable]]
               ) -> tuple[list[list[Hashable]], dict[Hashable, list[Hashable]]]:
    """Levels by breadth-first distance from the first node of each component (components
    one after the other), and each node's neighbours one level up.

    Examples
    --------
    >>> bfs_levels("abcd", [("a", "b"), ("a", "c"), ("c", "d")])
    ([['a'], ['b', 'c'], ['d']], {'a': [], 'b': ['a'], 'c': ['a'], 'd': ['c']})
    """
    from collections import deque

    adjacency: dict[Hashable, list[Hashable]] = {v: [] for v in nodes}
    for u, v in edges:
        if u in adjacency and v in adjacency:
            adjacency[u].append(v)
            adjacency[v].append(u)
    depth: dict[Hashable, int] = {}
    base = 0
    for root in nodes:
        if root in depth:
            continue
        depth[root] = base
        queue, deepest = deque([root]), base
        while queue:
            x = queue.popleft()
            for y in adjacency[x]:
                if y not in depth:
                    depth[y] = depth[x] + 1
                    deepest = max(deepest, depth[y])
                    queue.append(y)
        base = deepest + 1
    levels: list[list[Hashable]] = [[] for _ in range(base)]
    for v in nodes:
        levels[depth[v]].append(v)
    up = {v: [u for u in adjacency[v] if depth[u] == depth[v] - 1] for v in nodes}
    return levels, up


def _place_row(row: list[Hashable], desired: Mapping[Hashable, float],
               sizes: Mapping[Hashable, Size], width: float, gap: float) -> dict[Hashable, float]:
    """x centres of a row of boxes, ``gap`` apart, as near their desired x as possible in
    the least-squares sense (boxes that would overlap are merged into a block centred on
    their mean wish), all inside [0, width] (the row must fit)."""
    row = sorted(row, key=lambda v: desired[v])
    blocks: list[list] = []  # [left, items, offsets]
    for v in row:
        w = sizes[v][0]
        blocks.append([desired[v] - w / 2, [v], [w / 2]])
        while len(blocks) > 1:
            prev, last = blocks[-2], blocks[-1]
            prev_right = prev[0] + _block_width(prev, sizes, gap)
            if prev_right + gap <= last[0] + 1e-12:
                break
            shift = _block_width(prev, sizes, gap) + gap
            items = prev[1] + last[1]
            offsets = prev[2] + [o + shift for o in last[2]]
            left = sum(desired[u] - o for u, o in zip(items, offsets, strict=True)) / len(items)
            blocks[-2:] = [[left, items, offsets]]
    xs: dict[Hashable, float] = {}
    for left, items, offsets in blocks:
        for u, o in zip(items, offsets, strict=True):
            xs[u] = left + o
    ordered = sorted(xs, key=xs.__getitem__)
    right = -gap
    for u in ordered:  # inside [0, width]: push right, then left
        xs[u] = max(xs[u], right + gap + sizes[u][0] / 2)
        right = xs[u] + sizes[u][0] / 2
    left_edge = width + gap
    for u in reversed(ordered):
        xs[u] = min(xs[u], left_edge - gap - sizes[u][0] / 2)
        left_edge = xs[u] - sizes[u][0] / 2
    return xs


def _block_width(block: list, sizes: Mapping[Hashable, Size], gap: float) -> float:
    return sum(sizes[u][0] for u in block[1]) + gap * (len(block[1]) - 1)


def layered_fit(levels: Sequence[Sequence[Hashable]], up: Mapping[Hashable, Sequence[Hashable]],
                sizes: Mapping[Hashable, Size], width: float, pitch: float, sub_pitch: float,
                gap: float = GAP_X) -> dict[Hashable, Point]:
    """A layered layout folded to a width: each level is one band of rows, ``pitch`` below
    the previous band; a level wider than 85 % of the width is dealt round-robin into as
    many rows as it needs (``sub_pitch`` apart), so every row spans the width; in a row
    each box sits as near the mean x of its neighbours one level up as the others allow.
    The top row is at y = 0.

    Examples
    --------
    >>> pos = layered_fit([["a"], ["b", "c"]], {"a": [], "b": ["a"], "c": ["a"]},
    ...                   dict.fromkeys("abc", (1.0, 0.2)), 4.0, 0.6, 0.3)
    >>> pos["a"][1], pos["b"][1] == pos["c"][1] == -0.6, pos["b"][0] < pos["a"][0] < pos["c"][0]
    (0.0, True, True)
    """
    import math

    pos: dict[Hashable, Point] = {}
    y = 0.0
    for i, level in enumerate(levels):
        if i:
            y -= pitch
        desired = {}
        for v in level:
            ups = [pos[u][0] for u in up.get(v, ()) if u in pos]
            desired[v] = sum(ups) / len(ups) if ups else width / 2
        ordered = sorted(level, key=lambda v: desired[v])
        total = sum(sizes[v][0] + gap for v in ordered)
        k = max(1, math.ceil(total / (0.85 * width)))
        while True:
            rows = [ordered[j::k] for j in range(k)]
            if all(sum(sizes[v][0] + gap for v in r) - gap <= width for r in rows):
                break
            k += 1
        for j, r in enumerate(rows):
            if j:
                y -= sub_pitch
            for v, x in _place_row(r, desired, sizes, width, gap).items():
                pos[v] = (x, y)
    return pos


def grid_fit(order: Sequence[Hashable], sizes: Mapping[Hashable, Size], width: float,
             pitch: float, gap: float = GAP_X) -> dict[Hashable, Point]:
    """Boxes in reading order, wrapped into rows at ``width`` inches, ``pitch`` apart; each
    row centred. The top row is at y = 0.

    Examples
    --------
    >>> pos = grid_fit("abc", dict.fromkeys("abc", (1.0, 0.2)), 2.5, 0.5)
    >>> pos["a"][1] == pos["b"][1] == 0.0, pos["c"]
    (True, (1.25, -0.5))
    """
    rows: list[list[Hashable]] = [[]]
    used = 0.0
    for v in order:
        w = sizes[v][0]
        if rows[-1] and used + gap + w > width:
            rows.append([])
            used = 0.0
        used += (gap if rows[-1] else 0.0) + w
        rows[-1].append(v)
    pos: dict[Hashable, Point] = {}
    for i, row in enumerate(rows):
        total = sum(sizes[v][0] for v in row) + gap * (len(row) - 1)
        x = (width - total) / 2
        for v in row:
            pos[v] = (x + sizes[v][0] / 2, -pitch * i)
            x += sizes[v][0] + gap
    return pos


def shift(pos: Mapping[Hashable, Point], dx: float, dy: float) -> dict[Hashable, Point]:
    """Every position moved by (dx, dy)."""
    return {v: (x + dx, y + dy) for v, (x, y) in pos.items()}
