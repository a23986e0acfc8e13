"""Geometry of figures drawn at print size: every length here is in inches.

A graph figure is laid out in inches for a given width (a journal column or page): node
boxes are sized from their measured labels at the style's font size, so a label is always
inside its box, and a layout is accepted only if it fits the width and the height the
style allows (``max_aspect`` times the width).

* :func:`label_size` — the measured size of a text at a font size (TrueType metrics of
  DejaVu Sans, the font every figure uses).
* :func:`abbreviate` — labels too wide for a figure, cut with an ellipsis; the key that
  explains them.
* :func:`bfs_levels` — levels breadth first, for graphs without a direction.

The layered layout itself is :mod:`viz._layered`.
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


def bfs_levels(nodes: Sequence[Hashable], edges: Iterable[tuple[Hashable, Hashable]]
               ) -> tuple[list[list[Hashable]], dict[Hashable, list[Hashable]]]:
    """Levels by breadth-first distance from the first node of each component (components
    one after the other), and each node's neighbours one level up.

    Examples
    --------
    >>> bfs_levels("abcd", [("a", "b"), ("a", "c"), ("c", "d")])
    ([['a'], ['b', 'c'], ['d']], {'a': [], 'b': ['a'], 'c': ['a'], 'd': ['c']})
    """
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from((u, v) for u, v in edges if u in graph and v in graph)
    depth: dict[Hashable, int] = {}
    base = 0
    for root in nodes:
        if root in depth:
            continue
        for distance, layer in enumerate(nx.bfs_layers(graph, root)):
            depth.update(dict.fromkeys(layer, base + distance))
        base = max(depth.values()) + 1
    levels: list[list[Hashable]] = [[] for _ in range(base)]
    for v in nodes:
        levels[depth[v]].append(v)
    up = {v: [u for u in graph[v] if depth[u] == depth[v] - 1] for v in nodes}
    return levels, up
