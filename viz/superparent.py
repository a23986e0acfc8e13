"""Figure of an AODE/AnDE structure: the union of its SPODEs' arcs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgraph.superparent import SuperParentEnsemble
from viz._draw import LegendItem
from viz._graph import (
    CLASS_EDGES_UP_TO,
    EdgeSpec,
    GraphSpec,
    NodeLook,
    draw_graph,
    feature_face,
    node_kinds_legend,
)
from viz.style import Style, resolve_style, style_context

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_superparent"]


def plot_superparent(structure: SuperParentEnsemble, *, ax: Axes | None = None,
                     style: Style | None = None, title: str | None = None,
                     width: str | float | None = None, weights: dict | None = None,
                     feature_types: dict | None = None) -> Figure:
    """The union graph of an AnDE's SPODEs: the class on top, an arrow ``s -> v`` where
    some super-parent set holds s and not v, one plain line where the arcs go both ways
    (every pair, for AODE); super-parents shaded.

    Parameters
    ----------
    structure : SuperParentEnsemble
    ax, style, title, width
        As every structure figure.
    weights, feature_types : dict, optional
        Accepted for the common figure interface; feature types colour the nodes.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from kgraph.superparent import SuperParentEnsemble
    >>> fig = plot_superparent(SuperParentEnsemble(["a", "b", "c"], [("a",), ("b",)], 1))
    >>> type(fig).__name__
    'Figure'
    """
    s = resolve_style(style, width)
    feats, target = list(structure.features), structure.target
    arcs = set(structure.graph.edges(kind="super-parent"))
    supers = {v for S in structure.super_parents for v in S}
    with style_context(s):
        looks = {v: NodeLook(face=feature_face(s, feature_types, v)
                             or (s.soft_highlight_color if v in supers else None))
                 for v in feats}
        looks[target] = NodeLook(face=s.class_color, bold=True)
        edges = []
        pairs = {frozenset(e) for e in arcs}
        complete = all(frozenset((u, v)) in pairs for u in supers for v in feats if v != u)
        for u, v in sorted(arcs, key=lambda e: (feats.index(e[0]), feats.index(e[1]))):
            both = (v, u) in arcs
            if both and feats.index(v) < feats.index(u):
                continue  # drawn once, as the pair's line
            edges.append(EdgeSpec(u, v, f"super-parent:{u}->{v}", directed=not both))
        spec = GraphSpec(
            labels={**{v: str(v) for v in feats}, target: str(target)},
            gids={**{v: f"variable:{v}" for v in feats}, target: f"class:{target}"},
            looks=looks, edges=edges, class_node=target,
            class_edges=[EdgeSpec(target, v, f"class:{target}->{v}", color=s.light_color,
                                  width=0.6 * s.line_width) for v in feats])
        extra = [LegendItem("super-parent", face=s.soft_highlight_color),
                 LegendItem("line: arcs both ways", kind="text")]
        if complete and len(edges) > 2 * CLASS_EDGES_UP_TO:  # hundreds of arcs tell nothing
            spec.edges = []  # that one sentence does not
            extra[1:] = [LegendItem("every super-parent is a parent of every other feature "
                                    f"({len(arcs)} arcs, not drawn)", kind="text")]
        spec.legend = node_kinds_legend(
            s, feature_types=feature_types, nodes=feats, class_label=str(target), extra=extra)
        n_sets = len(structure.super_parents)
        name = "AODE" if structure.n == 1 else f"A{structure.n}DE"
        return draw_graph(spec, s, ax, title or f"{name}: {n_sets} SPODEs")
