"""Hubs drawn as the class is: a parent of many features marked once, its edges not drawn.

A node with many children draws its edges as a ribbon of near-parallel wires that a reader
cannot follow (a kDB's most informative feature is often the parent of twenty). Such a
*hub* is drawn the way the class node already is when its edges are left out: its edges
(arrows from it, and lines with it at one end in a figure with undirected edges, e.g. the
consensus of an ensemble) are not drawn, the hub and each of its children carry the hub's
mark (``●``, ``■``, ``▲``, ``◆``) before their number, the hub's name is bold, and the legend says "● JobRole
(bold): parent of every ● (22 edges not drawn)". Nothing is lost: the marks give every
one of its edges.

:func:`draw_with_hubs` chooses the hubs (``hubs="auto"``): the figure is drawn as it is;
while two of its edges run along each other (:func:`viz.along.runs_along`, 1 mm over
10 mm, on the paths the figure keeps in ``kgraph_drawing``: no render needed), the node
with at least :data:`MIN_CHILDREN` children whose edges are in the most such pairs
becomes one more hub and the figure is drawn again (at most :data:`MAX_HUBS`
hubs); the drawing with the fewest such pairs is kept (the fewest hubs among equals). A
figure whose edges can all be traced is therefore drawn exactly as before.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Hashable
from dataclasses import replace
from typing import TYPE_CHECKING

from viz._draw import LegendItem

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from viz._graph import GraphSpec

MARKS = ("●", "■", "▲", "◆")
MAX_HUBS = len(MARKS)
MIN_CHILDREN = 4
"""Fewest children of a hub. Three edges from one box do not make a ribbon; four can (the
30-feature kDB of the tests needs its parent of four drawn as a hub at page width, after
its parents of 22 and 21, for every remaining edge to pass the check)."""


def children(spec: GraphSpec) -> dict[Hashable, list]:
    """Each node's children along the spec's directed edges, in edge order, and its
    neighbours along undirected ones (a line from a hub is left out as its arrows are)."""
    out: dict = {}
    for e in spec.edges:
        out.setdefault(e.u, []).append(e.v)
        if not e.directed:
            out.setdefault(e.v, []).append(e.u)
    return out


def _hidden(e, mark: dict) -> bool:
    """The edge is a hub's: an arrow from a hub, or a line with a hub at one end."""
    return e.u in mark or (not e.directed and e.v in mark)


def with_hubs(spec: GraphSpec, hubs: list) -> GraphSpec:
    """The spec with the edges of ``hubs`` left out, each hub's mark in front of its own
    badge and of its children's, and a legend line per hub."""
    from viz._graph import NodeLook

    if not hubs:
        return spec
    kids = children(spec)
    mark = {h: MARKS[i] for i, h in enumerate(hubs)}
    marks: dict = {}
    for h in hubs:
        for v in [h, *kids[h]]:
            marks[v] = marks.get(v, "") + mark[h]
    badges = dict(spec.badges)
    for v, m in marks.items():
        badges[v] = f"{m} {badges[v]}" if badges.get(v) else m
    legend = list(spec.legend)
    arrows = {h: all(e.directed for e in spec.edges if h in (e.u, e.v) and _hidden(e, {h: 1}))
              for h in hubs}
    legend += [LegendItem(f"{mark[h]} {spec.labels[h]} (bold): "
                          f"{'parent of' if arrows[h] else 'joined to'} every {mark[h]} "
                          f"({len(kids[h])} edges not drawn)", kind="text") for h in hubs]
    edges = [e for e in spec.edges if not _hidden(e, mark)]
    looks = {**spec.looks, **{h: replace(spec.looks.get(h, NodeLook()), bold=True)
                              for h in hubs}}
    return replace(spec, edges=edges, badges=badges, legend=legend, looks=looks)


def drawn_along(fig: Figure) -> list[tuple[Hashable, Hashable]]:
    """The parents of the pairs of drawn edges that run along each other (read from the
    figure's ``kgraph_drawing``, in millimetres at its size)."""
    import numpy as np
    from matplotlib.path import Path

    from viz.along import runs_along

    drawing = fig.kgraph_drawing
    mm, dots = 25.4, 300.0  # curves flattened as at 300 dpi
    paths = [[p * (mm / dots) for p in Path(np.asarray(e.vertices) * dots, e.codes)
              .to_polygons(closed_only=False)] for e in drawing.edges]
    boxes = np.array([(n.x - n.width / 2, n.y - n.height / 2, n.x + n.width / 2,
                       n.y + n.height / 2) for n in drawing.nodes.values()]).reshape(-1, 4) * mm
    ups = [e.v if e.reverse else e.u for e in drawing.edges]
    return [(ups[a.i], ups[a.j]) for a in runs_along(paths, boxes)]


def draw_with_hubs(spec: GraphSpec, draw: Callable[[GraphSpec], Figure],
                   hubs: str | Collection[Hashable] | None = "auto") -> Figure:
    """Draw ``spec`` with ``draw``, the hubs drawn as the class is: ``"auto"`` (chosen
    as the module docstring says), a collection of nodes, or None (none). The figure
    keeps its hubs as ``kgraph_hubs`` (a list)."""
    if hubs == "auto":
        fig, chosen = _auto(spec, draw)
    else:
        chosen = list(hubs or ())
        fig = draw(with_hubs(spec, chosen))
    fig.kgraph_hubs = chosen
    return fig


def _auto(spec: GraphSpec, draw: Callable[[GraphSpec], Figure]) -> tuple[Figure, list]:
    """The drawing and hubs the ``"auto"`` rule keeps (the module docstring)."""
    kids = children(spec)
    fig = draw(spec)
    pairs = drawn_along(fig)
    best, chosen = (len(pairs), 0, fig), []
    while pairs and len(chosen) < MAX_HUBS:
        counts = Counter(p for pair in pairs for p in set(pair)
                         if p not in chosen and len(kids.get(p, ())) >= MIN_CHILDREN)
        if not counts:
            break
        chosen.append(max(counts, key=lambda p: (counts[p], len(kids[p]))))
        fig = draw(with_hubs(spec, chosen))
        pairs = drawn_along(fig)
        best = min(best, (len(pairs), len(chosen), fig), key=lambda b: b[:2])
    chosen = chosen[:best[1]]
    if best[2] is not fig:  # drawn again: the axes given hold the last drawing
        fig = draw(with_hubs(spec, chosen))
    return fig, chosen
