"""Figures of paper 2's structures: the acyclic k-tree with its creation order (fig. 2a, and
the k-TAN of fig. 2c with a class vertex), its tree-representation (fig. 2b) and the pbkt
certificate of the backbone dynamic program."""

from __future__ import annotations

from collections.abc import Collection, Hashable
from typing import TYPE_CHECKING, Any

from kgraph.dag import ParentSetDAG
from kgraph.ktree import AcyclicKTree
from viz._draw import LegendItem, Sheet, draw_edge, draw_node, format_set, rect
from viz._fit import GAP_X, MARGIN, abbreviate, node_height, node_size
from viz._graph import (
    EdgeSpec,
    GraphSpec,
    NodeLook,
    draw_graph,
    feature_face,
    label_limits,
    node_kinds_legend,
    weight_widths,
)
from viz._model import lookup, model_extras
from viz.layout import rooted_children
from viz.style import Style, resolve_style, style_context

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_ktree", "plot_tree_representation", "plot_pbkt"]

Width = str | float | None


def _ktree(obj: Any) -> AcyclicKTree | ParentSetDAG:
    """An AcyclicKTree or ParentSetDAG, or the ``structure_`` of a fitted model with one."""
    if isinstance(obj, AcyclicKTree | ParentSetDAG):
        return obj
    structure = getattr(obj, "structure_", None)
    if isinstance(structure, AcyclicKTree | ParentSetDAG):
        return structure
    raise TypeError(f"Expected an AcyclicKTree, a ParentSetDAG or a fitted model with one as "
                    f"'structure_'; got {type(obj).__name__}.")


def plot_ktree(ktree: AcyclicKTree | Any, *, target: Hashable | None = None,
               ax: Axes | None = None, style: Style | None = None,
               title: str | None = None, width: Width = None, weights: dict | None = None,
               feature_types: dict | None = None,
               class_free: Collection[Hashable] | None = None,
               weight_unit: str | None = "nats", hubs: Any = "auto") -> Figure:
    """Paper 2 fig. 2a (2c with ``target``): an acyclic k-tree with its creation order;
    also a :class:`kgraph.ParentSetDAG` (kDB, BAN) with its topological order, its class
    vertex drawn unless another ``target`` is given.

    A 1-tree is drawn as a tidy tree from its first vertex when it fits the width, a k-tree
    (k >= 2, or a tree too wide) with the Kamada–Kawai layout (deterministic) spread over
    the width. Each vertex carries its creation number (1 = first) at the right inside its
    box; edges are arrows parent -> child, bent around other vertices, as wide as their
    weight when weights are known; the initial k-clique is shaded. With ``target`` the
    class vertex is drawn on top, with light edges to every feature (for up to 12
    features; the legend says so for more).

    Parameters
    ----------
    ktree : AcyclicKTree, ParentSetDAG or fitted model with one as ``structure_``
    target : hashable, optional
        Name of a class vertex to add (k-TAN); must not be a vertex of the k-tree.
    ax : matplotlib Axes, optional
        Where to draw (the layout fits its size); a new figure when None.
    style : Style, optional
    title : str, optional
    width : {"column", "page"} or float, optional
        Figure width (3.5 in, 7.0 in or inches); replaces ``style.width``.
    weights : dict, optional
        ``{(parent, child): w}`` drawn as line widths with a legend (a fitted model's edge
        scores when None).
    feature_types : dict, optional
        ``{feature: "continuous" | "categorical"}`` for the node fills (a fitted model's
        when None).
    class_free : collection, optional
        Features whose class edge the fitted model does not use (class-free factors of
        ``continuous="auto"``): their outlines and class edges are dashed, with a legend
        entry (a fitted model's ``factor_kinds_`` when None).
    weight_unit : str or None, default="nats"
        The unit the weight legend names (kgraph's edge scores are nats); None for none.
    hubs : "auto", collection of vertices or None, default="auto"
        Vertices drawn as the class is: their edges left out, the vertex and each of its
        children marked (●, ■, ▲, ◆ before the number) and the legend saying so.
        ``"auto"``: only when edges would otherwise run along each other (a vertex with at
        least five children, while that lets more edges be traced; see
        :func:`viz.along.runs_along`); None: every edge drawn.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from kgraph import AcyclicKTree
    >>> from viz.ktree import plot_ktree
    >>> t = AcyclicKTree(2, "abcde", {"c": "ab", "d": "bc", "e": "bd"})
    >>> ax = plot_ktree(t, width="column").axes[0]
    >>> sum(p.get_gid().startswith("edge:parent") for p in ax.patches)
    7
    """
    kt = _ktree(ktree)
    k = getattr(kt, "k", None)  # None for a DAG: no initial clique
    if k is None and target is None:
        target = kt.target
    if target is not None and target in kt.parent_map:
        raise ValueError(f"The target {target!r} is a vertex of the k-tree; name the class "
                         "vertex differently.")
    weights, feature_types = model_extras(ktree, weights, feature_types)
    kinds = getattr(ktree, "factor_kinds_", None) if class_free is None else None
    if kinds:  # a fitted model's
        from estimators.semiparametric.selection import CLASS_FREE

        class_free = [v for v, kind in kinds.items() if kind == CLASS_FREE]
    class_free = set(class_free or ()) if target is not None else set()
    order = list(kt.order)
    s = resolve_style(style, width)
    with style_context(s):
        widths, weight_legend = weight_widths(
            {(p, v): lookup(weights, p, v) for p, v in kt.edges
             if lookup(weights, p, v) is not None}, s, weight_unit)
        looks = {}
        for i, v in enumerate(order):
            face = feature_face(s, feature_types, v)
            first = k is not None and i < k
            looks[v] = NodeLook(face=face or (s.soft_highlight_color if first else None),
                                edge=s.highlight_color if first and face else None,
                                dashed=v in class_free)
        labels = {v: str(v) for v in order}
        gids = {v: f"variable:{v}" for v in order}
        if target is not None:
            labels[target], gids[target] = str(target), f"class:{target}"
            looks[target] = NodeLook(face=s.class_color, bold=True)
        tree = None
        if k == 1:
            tree = rooted_children(order, kt.edges, [order[0]])
        spec = GraphSpec(
            labels=labels, gids=gids, looks=looks, tree=tree, class_node=target, layered=True,
            badges={v: str(i + 1) for i, v in enumerate(order)},
            badge_gids={v: f"creation:{v}" for v in order},
            edges=[EdgeSpec(p, v, f"parent:{p}->{v}", directed=True, width=widths.get((p, v)))
                   for p, v in kt.edges], hubs=hubs,
            class_edges=[EdgeSpec(target, v, f"class:{target}->{v}", color=s.light_color,
                                  width=0.6 * s.line_width, dashed=v in class_free)
                         for v in order]
            if target is not None else [])
        extra = [LegendItem("numbers: topological order", kind="text")]
        if k is not None:
            what = "root (first vertex)" if k == 1 else f"initial {k}-clique"
            first = LegendItem(what, face=s.soft_highlight_color)
            if feature_types:
                first = LegendItem(f"{what}, orange outline", face="#FFFFFF",
                                   edge=s.highlight_color)
            extra = [first, LegendItem("numbers: creation order", kind="text")]
        if class_free:
            extra.append(LegendItem("dashed: class-free factor (the class is not its parent)",
                                    dashed=True))
        spec.legend = node_kinds_legend(
            s, feature_types=feature_types, nodes=order,
            class_label=None if target is None else str(target), extra=extra) + weight_legend
        return draw_graph(spec, s, ax, title)


def plot_tree_representation(ktree: AcyclicKTree | Any, *, ax: Axes | None = None,
                             style: Style | None = None, title: str | None = None,
                             width: Width = None) -> Figure:
    """Paper 2 fig. 2b: the tree of the (k+1)-cliques Δ_v of an acyclic k-tree (def. 4).

    Each clique is a box listing its vertices in creation order, marked ``Δv`` with the
    vertex that created it; each tree edge is labelled with its separator, the parent set
    of the later clique's vertex. The first clique is the root of the tidy layout (a stress
    layout when the tidy tree is wider than the figure). Vertex names too long for the
    figure are abbreviated, with a key.

    Parameters
    ----------
    ktree : AcyclicKTree or fitted model with an AcyclicKTree ``structure_``
    ax, style, title, width : as in :func:`plot_ktree`

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from kgraph import AcyclicKTree
    >>> from viz.ktree import plot_tree_representation
    >>> t = AcyclicKTree(2, "abcde", {"c": "ab", "d": "bc", "e": "bd"})
    >>> ax = plot_tree_representation(t).axes[0]
    >>> sorted(x.get_text() for x in ax.texts if x.get_gid().startswith("label:clique"))
    ['a,b,c', 'b,c,d', 'b,d,e']
    """
    kt = _ktree(ktree)
    if not isinstance(kt, AcyclicKTree):
        raise TypeError(f"A tree-representation is a k-tree's; got a {type(kt).__name__} "
                        "(draw it with plot_ktree).")
    graph = kt.tree_representation()
    rank = {v: i for i, v in enumerate(kt.order)}
    cliques = kt.cliques()
    s = resolve_style(style, width)
    labels = {c: format_set(c, rank) for c in cliques}
    roots, children = rooted_children(cliques, graph.edges())

    def members(c) -> tuple:
        return tuple(sorted(c, key=rank.__getitem__))

    with style_context(s):
        spec = GraphSpec(
            labels=labels, members={c: members(c) for c in cliques},
            gids={c: f"clique:{graph.node_attrs(c)['index']}" for c in cliques},
            badge_members={c: ("Δ", graph.node_attrs(c)["vertex"]) for c in cliques},
            badge_gids={c: f"created:{graph.node_attrs(c)['vertex']}" for c in cliques},
            edges=[EdgeSpec(a, b, f"tree:{labels[a]}-{labels[b]}",
                            label_members=members(graph.edge_attrs(a, b)["separator"]),
                            label_gid=f"separator:{labels[a]}-{labels[b]}",
                            label_color=s.light_color) for a, b in graph.edges()],
            tree=(roots, children))
        spec.legend = [LegendItem(f"({kt.k + 1})-clique Δv, created by v", face="#FFFFFF")]
        if s.edge_labels:
            spec.legend.append(LegendItem("edge labels: separators", kind="text"))
        return draw_graph(spec, s, ax, title)


def _pbkt(obj: Any) -> Any:
    """A pbkt (anything with ``to_ktree()``), or the ``certificate_`` of a fitted model
    whose backbone DP kept one; otherwise a one-line TypeError naming what is drawn."""
    if callable(getattr(obj, "to_ktree", None)):
        return obj
    certificate = getattr(obj, "certificate_", None)
    if callable(getattr(certificate, "to_ktree", None)):
        return certificate
    name = type(obj).__name__
    why = (f"this {name} was fitted with search={obj.search_!r}, which keeps none (draw its "
           "structure with plot_ktree)" if hasattr(obj, "certificate_") else f"got a {name}")
    raise TypeError("plot_pbkt draws the certificate of the backbone DP: a kgraph PBKT or a "
                    f"model fitted with search='backbone-dp' (its certificate_); {why}.")


def plot_pbkt(pbkt: Any, *, ax: Axes | None = None, style: Style | None = None,
              title: str | None = None, width: Width = None) -> Figure:
    """The certificate of the backbone DP: a pbkt drawn along its backbone.

    The backbone vertices stand on a straight line in backbone order; the retained backbone
    edges join neighbours with thick straight segments (dotted where a consecutive pair is
    not an edge of the pbkt); every other k-tree edge is an arc above the line. The root
    (k+1)-clique and its edges are highlighted; each vertex carries its creation number in
    ``pbkt.to_ktree()``; backbone vertices outside the pbkt are dashed. When the line is
    wider than the figure, the k-tree is drawn with a stress layout instead, the backbone
    edges thick and the root clique highlighted.

    Parameters
    ----------
    pbkt : kgraph.pbkt.PBKT or fitted model
        Anything with ``backbone``, ``root``, ``retained``, ``vertices`` and ``to_ktree()``,
        or a model fitted with ``search="backbone-dp"`` (e.g. ``KTANClassifier(k=2)``),
        whose ``certificate_`` it is.
    ax, style, title, width : as in :func:`plot_ktree`

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    The certificate of a backbone DP on a toy score (a model fitted with
    ``search="backbone-dp"`` is drawn the same way, from its ``certificate_``):

    >>> from estimators.search import backbone_dp
    >>> from viz import plot_pbkt
    >>> f = lambda v, ps: float(len(ps)) if v != "c" else 3.0 * ("e" in ps)
    >>> res = backbone_dp(f, "abcde", 2)
    >>> fig = plot_pbkt(res.pbkt)
    >>> res.pbkt.backbone, type(fig).__name__
    (('a', 'b', 'c', 'd', 'e'), 'Figure')
    """
    pbkt = _pbkt(pbkt)
    backbone = list(pbkt.backbone)
    kt = pbkt.to_ktree()
    created = {v: i + 1 for i, v in enumerate(kt.order)}
    root, inside = frozenset(pbkt.root), frozenset(pbkt.vertices)
    retained = {frozenset(e) for e in pbkt.retained}
    where = {v: i for i, v in enumerate(backbone)}
    skeleton = kt.skeleton()
    arcs = [(p, v, *sorted((p, v), key=where.__getitem__)) for p, v in kt.edges
            if frozenset((p, v)) not in retained]
    s = resolve_style(style, width)
    with style_context(s):
        names, key = abbreviate({v: str(v) for v in backbone}, s, label_limits(s.inches or 7.0)[0])
        badges = {v: str(created[v]) for v in backbone if v in created}
        sizes = {v: (node_size(names[v], s)[0] + _badge(badges.get(v), s), node_height(s))
                 for v in backbone}
        gap = 2 * GAP_X
        line = sum(w for w, _ in sizes.values()) + gap * (len(backbone) - 1)
        sheet = Sheet(s, ax, line, title)
        if line > sheet.inner:
            return _pbkt_as_graph(backbone, kt, root, inside, retained, skeleton, names, key,
                                  badges, s, ax, title)
        x = MARGIN + (sheet.inner - line) / 2
        pos = {}
        for v in backbone:
            pos[v] = (x + sizes[v][0] / 2, 0.0)
            x += sizes[v][0] + gap
        ax = sheet.ax
        patches = {}
        for v in backbone:
            face = s.highlight_color if v in root else None
            patches[v] = draw_node(ax, pos[v], names[v], s, gid=f"variable:{v}", size=sizes[v],
                                   face=face, dashed=v not in inside,
                                   edge=None if v in inside else s.light_color,
                                   badge=badges.get(v), badge_gid=f"creation:{v}")
        for a, b in zip(backbone, backbone[1:], strict=False):
            pair = frozenset((a, b))
            if pair in retained:
                draw_edge(ax, patches[a], patches[b], s, gid=f"backbone:{a}-{b}",
                          color=s.highlight_color if pair <= root else s.edge_color,
                          width=2 * s.line_width)
            elif pair not in skeleton:
                draw_edge(ax, patches[a], patches[b], s, gid=f"gap:{a}-{b}",
                          color=s.light_color, dashed=True)
        from matplotlib.patches import Arc

        half = node_height(s) / 2
        room = max(sheet.max_height - 1.0, 0.4)
        spans = [pos[b][0] - pos[a][0] for _, _, a, b in arcs]
        scale = min(0.35, room / max(spans, default=1.0))
        for p, v, a, b in arcs:
            (xa, _), (xb, _) = pos[a], pos[b]
            height = half + 0.05 + scale * (xb - xa)
            ax.add_patch(Arc(((xa + xb) / 2, 0.0), xb - xa, 2 * height, theta1=0, theta2=180,
                             color=s.highlight_color if {p, v} <= root else s.edge_color,
                             linewidth=s.line_width, zorder=1, gid=f"edge:arc:{p}->{v}"))
            sheet.extra.append(((xa + xb) / 2, height))
        legend = [LegendItem("root clique", face=s.highlight_color),
                  LegendItem("backbone edge", kind="line", width=2 * s.line_width),
                  LegendItem("other k-tree edge", kind="line", width=s.line_width),
                  LegendItem("numbers: creation order", kind="text")]
        if inside != frozenset(backbone):
            legend.insert(1, LegendItem("outside this pbkt", dashed=True, edge=s.light_color))
        return sheet.finish([rect(pos[v], sizes[v]) for v in backbone], legend, key)


def _badge(badge: str | None, style: Style) -> float:
    from viz._draw import badge_width

    return badge_width(badge, style)


def _pbkt_as_graph(backbone, kt, root, inside, retained, skeleton, names, key, badges, s, ax,
                   title) -> Figure:
    """The pbkt as a graph figure (its backbone line does not fit the width)."""
    edges = []
    for a, b in zip(backbone, backbone[1:], strict=False):
        pair = frozenset((a, b))
        if pair in retained:
            edges.append(EdgeSpec(a, b, f"backbone:{a}-{b}", width=2.5 * s.line_width,
                                  color=s.highlight_color if pair <= root else s.edge_color))
        elif pair not in skeleton:
            edges.append(EdgeSpec(a, b, f"gap:{a}-{b}", color=s.light_color, dashed=True))
    edges += [EdgeSpec(p, v, f"arc:{p}->{v}", color=s.highlight_color if {p, v} <= root else None)
              for p, v in kt.edges if frozenset((p, v)) not in retained]
    spec = GraphSpec(
        labels=dict(names), gids={v: f"variable:{v}" for v in backbone},
        looks={v: NodeLook(face=s.highlight_color if v in root else None,
                           edge=None if v in inside else s.light_color,
                           dashed=v not in inside) for v in backbone},
        badges=badges, badge_gids={v: f"creation:{v}" for v in badges},
        edges=edges, abbreviate=False, key=key)
    spec.legend = [LegendItem("root clique", face=s.highlight_color),
                   LegendItem("backbone edge", kind="line", width=2.5 * s.line_width),
                   LegendItem("other k-tree edge", kind="line", width=s.line_width),
                   LegendItem("numbers: creation order", kind="text")]
    return draw_graph(spec, s, ax, title)
