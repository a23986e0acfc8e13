"""Figures of paper 1's structures: the GNB graph (fig. 1), its junction trees in the
tree-like and compact forms (fig. 2) and the GNB forest of a reduced model (fig. 4)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from kgraph.gnb import GNBForest, GNBJunctionTree
from kgraph.graphdb import GraphDB
from kgraph.junction import CherryJunctionTree
from viz._draw import LegendItem, format_set
from viz._graph import (
    EdgeSpec,
    GraphSpec,
    NodeLook,
    draw_graph,
    feature_face,
    node_kinds_legend,
    weight_widths,
)
from viz._model import lookup, model_extras
from viz.layout import rooted_children
from viz.style import Style, resolve_style, style_context

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_gnb_graph", "plot_gnb_forest", "plot_junction_tree"]

GNBStructure = GNBJunctionTree | GNBForest
Width = str | float | None


def _gnb_structure(obj: Any, reduced: bool) -> GNBStructure:
    """The structure of a GNB structure or of a fitted GNB classifier (``structure_``; with
    ``reduced``, the forest of its first ``n_clusters_`` clusters)."""
    if isinstance(obj, GNBJunctionTree | GNBForest):
        return obj
    structure = getattr(obj, "structure_", None)
    if isinstance(structure, GNBJunctionTree):
        m = getattr(obj, "n_clusters_", None)
        if reduced and m is not None and m < len(structure.edges):
            return structure.prefix(int(m))
        return structure
    raise TypeError(
        f"Expected a GNBJunctionTree, a GNBForest or a fitted GNB classifier (with a "
        f"'structure_' GNBJunctionTree); got {type(obj).__name__}."
    )


def _draw_gnb(gnb: GNBStructure, ax: Axes | None, style: Style, colour_trees: bool,
              title: str | None, weights: dict | None, feature_types: dict | None) -> Figure:
    features = gnb.features
    mothers = {v: gnb.mother(v) for v in features}
    roots = [t[0][0] for t in gnb.trees]
    _, children = rooted_children(features, [(m, v) for v, m in mothers.items() if m is not None],
                                  roots)
    tree_of = {v: i for i, t in enumerate(gnb.trees) for e in t for v in e}

    def colour(v: Hashable) -> str:
        return style.color(tree_of[v]) if colour_trees else style.edge_color

    widths, weight_legend = weight_widths(
        {(m, v): lookup(weights, m, v) for v, m in mothers.items()
         if m is not None and lookup(weights, m, v) is not None}, style)
    order = {frozenset(e): i for i, e in enumerate(gnb.edges)}
    target = gnb.target
    spec = GraphSpec(
        labels={target: str(target), **{v: str(v) for v in features}},
        gids={target: f"class:{target}", **{v: f"variable:{v}" for v in features}},
        looks={target: NodeLook(face=style.class_color, bold=True),
               **{v: NodeLook(face=feature_face(style, feature_types, v), edge=colour(v))
                  for v in features}},
        edges=[EdgeSpec(m, v, f"tree:{m}->{v}", directed=True, color=colour(v),
                        width=widths.get((m, v)), label=str(order[frozenset((m, v))] + 1),
                        label_gid=f"order:{m}->{v}", label_color=colour(v))
               for v, m in mothers.items() if m is not None],
        class_edges=[EdgeSpec(target, v, f"class:{target}->{v}", color=style.light_color,
                              width=0.6 * style.line_width) for v in features],
        tree=(roots, children), class_node=target)
    extra = [LegendItem(f"tree {i + 1}", kind="line", color=style.color(i), width=1.5)
             for i in range(len(gnb.trees))] if colour_trees and len(gnb.trees) > 1 else []
    if style.edge_labels:
        extra.append(LegendItem("edge numbers: selection order", kind="text"))
    spec.legend = node_kinds_legend(style, feature_types=feature_types, nodes=features,
                                    class_label=str(target), extra=extra) + weight_legend
    return draw_graph(spec, style, ax, title)


def plot_gnb_graph(gnb: GNBJunctionTree | Any, *, ax: Axes | None = None,
                   style: Style | None = None, title: str | None = None, width: Width = None,
                   weights: dict | None = None, feature_types: dict | None = None) -> Figure:
    """Paper 1 fig. 1: the class vertex and the feature tree with its mothers.

    The feature tree is drawn as a tidy tree from the first vertex of the first cluster;
    each tree edge is an arrow mother -> child labelled with its selection order (the
    cluster's position); the class edges are drawn lighter.

    Parameters
    ----------
    gnb : GNBJunctionTree, GNBForest or fitted GNB classifier
        A classifier is drawn through its ``structure_`` (all clusters).
    ax : matplotlib Axes, optional
        Where to draw (the layout fits its size); a new figure when None.
    style : Style, optional
    title : str, optional
    width : {"column", "page"} or float, optional
        Figure width (3.5 in, 7.0 in or inches); replaces ``style.width``. The height
        follows from the layout.
    weights : dict, optional
        Edge weights ``{(u, v): w}`` drawn as line widths, with a legend; read from a fitted
        classifier when None.
    feature_types : dict, optional
        ``{feature: "continuous" | "categorical"}`` for the node fills, with a legend; read
        from a fitted classifier when None.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from kgraph import GNBJunctionTree
    >>> from viz.gnb import plot_gnb_graph
    >>> gnb = GNBJunctionTree.from_tree([(1, 2), (2, 3), (1, 4), (1, 5)], target=0)
    >>> fig = plot_gnb_graph(gnb)
    >>> sum(p.get_gid().startswith("edge:tree") for p in fig.axes[0].patches)
    4
    """
    weights, feature_types = model_extras(gnb, weights, feature_types)
    with style_context(resolve_style(style, width)) as s:
        return _draw_gnb(_gnb_structure(gnb, reduced=False), ax, s, False, title, weights,
                         feature_types)


def plot_gnb_forest(forest: GNBForest | GNBJunctionTree | Any, *, ax: Axes | None = None,
                    style: Style | None = None, title: str | None = None, width: Width = None,
                    weights: dict | None = None, feature_types: dict | None = None) -> Figure:
    """Paper 1 fig. 4: a GNB forest, its trees joined through the class vertex only.

    Each tree has its own colour; the title says how many clusters and trees it has.

    Parameters
    ----------
    forest : GNBForest, GNBJunctionTree or fitted GNB classifier
        A classifier is drawn through the forest of its first ``n_clusters_`` clusters.
    ax, style, title, width, weights, feature_types : as in :func:`plot_gnb_graph`
        ``title`` defaults to "GNB forest: m clusters, r trees".

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from kgraph import GNBJunctionTree
    >>> from viz.gnb import plot_gnb_forest
    >>> forest = GNBJunctionTree.from_tree([(1, 2), (3, 4), (2, 3)]).prefix(2)
    >>> plot_gnb_forest(forest).axes[0].get_title()
    'GNB forest: 2 clusters, 2 trees'
    """
    structure = _gnb_structure(forest, reduced=True)
    if title is None:
        m, r = len(structure.edges), structure.n_trees
        title = f"GNB forest: {m} cluster{'s' * (m != 1)}, {r} tree{'s' * (r != 1)}"
    weights, feature_types = model_extras(forest, weights, feature_types)
    with style_context(resolve_style(style, width)) as s:
        return _draw_gnb(structure, ax, s, True, title, weights, feature_types)


def _junction_graph(obj: Any, form: str) -> tuple[GraphDB, list]:
    """The junction graph of a GNB structure or cherry junction tree in the given form, and
    the variable order used in labels."""
    if form not in ("tree", "compact"):
        raise ValueError(f"Unknown junction-tree form {form!r}; valid forms: 'compact', 'tree'.")
    if isinstance(obj, CherryJunctionTree):
        g = GraphDB()
        for i, c in enumerate(obj.clusters):
            g.add_node(c, kind="cluster", index=i)
        if form == "tree":
            for a, b in obj.junction_edges:
                g.add_edge(a, b, kind="junction", separator=a & b)
        else:
            for sep, nu in obj.separators.items():
                g.add_node(sep, kind="separator", multiplicity=nu)
                for c in obj.clusters:
                    if sep <= c:
                        g.add_edge(sep, c, kind="contains")
        return g, obj.variables
    gnb = _gnb_structure(obj, reduced=False)
    return gnb.junction_tree(form), [gnb.target, *gnb.features]


def plot_junction_tree(jt: GNBJunctionTree | GNBForest | CherryJunctionTree | Any,
                       form: str = "tree", *, ax: Axes | None = None,
                       style: Style | None = None, title: str | None = None,
                       width: Width = None) -> Figure:
    """Paper 1 fig. 2: the junction tree of a GNB structure (or any cherry junction tree).

    ``form="tree"``: the clusters joined tree-like, each junction edge labelled with its
    separator. ``form="compact"``: each separator drawn once as a shaded node, joined to
    every cluster that contains it and annotated with its multiplicity ``ν=...``. Variable
    names too long for the figure are abbreviated, with a key below it.

    Parameters
    ----------
    jt : GNBJunctionTree, GNBForest, CherryJunctionTree or fitted GNB classifier
    form : {"tree", "compact"}, default="tree"
    ax, style, title, width : as in :func:`plot_gnb_graph`

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ValueError
        For an unknown ``form``.

    Examples
    --------
    >>> from kgraph import GNBJunctionTree
    >>> from viz.gnb import plot_junction_tree
    >>> gnb = GNBJunctionTree.from_tree([(1, 2), (2, 3), (1, 4), (1, 5)], target=0)
    >>> ax = plot_junction_tree(gnb, form="compact").axes[0]
    >>> sorted(t.get_text() for t in ax.texts if t.get_gid().startswith("multiplicity"))
    ['ν=2', 'ν=3']
    """
    graph, order = _junction_graph(jt, form)
    clusters = sorted(graph.nodes(kind="cluster"), key=lambda c: graph.node_attrs(c)["index"])
    index = {c: i for i, c in enumerate(clusters)}
    seps = sorted(graph.nodes(kind="separator"),
                  key=lambda s: min(index[c] for c in graph.neighbors(s)))
    roots, children = rooted_children([*clusters, *seps], graph.edges())
    s = resolve_style(style, width)
    rank = {v: i for i, v in enumerate(order)}

    def members(c) -> tuple:
        return tuple(sorted(c, key=lambda v: (rank.get(v, len(rank)), str(v))))

    labels = {v: format_set(v, order) for v in [*clusters, *seps]}
    with style_context(s):
        spec = GraphSpec(
            labels=labels, members={v: members(v) for v in labels},
            gids={**{c: f"cluster:{index[c]}" for c in clusters},
                  **{p: f"separator:{labels[p]}" for p in seps}},
            looks={p: NodeLook(face="#E8E8E8", edge=s.light_color) for p in seps},
            badges={p: f"ν={graph.node_attrs(p)['multiplicity']}" for p in seps},
            badge_gids={p: f"multiplicity:{labels[p]}" for p in seps},
            edges=[EdgeSpec(a, b, f"junction:{labels[a]}-{labels[b]}",
                            label_members=members(graph.edge_attrs(a, b)["separator"])
                            if form == "tree" else None,
                            label_gid=f"separator:{labels[a]}-{labels[b]}",
                            label_color=s.light_color)
                   for a, b in graph.edges()],
            tree=(roots, children))
        spec.legend = [LegendItem("cluster", face=s.variable_color)]
        if seps:
            spec.legend.append(LegendItem("separator (ν: multiplicity)", face="#E8E8E8",
                                          edge=s.light_color))
        elif s.edge_labels:
            spec.legend.append(LegendItem("edge labels: separators", kind="text"))
        return draw_graph(spec, s, ax, title)
