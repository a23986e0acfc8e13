"""Figures of paper 1's structures: the GNB graph (fig. 1), its junction trees in the
tree-like and compact forms (fig. 2) and the GNB forest of a reduced model (fig. 4)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from kgraph.gnb import GNBForest, GNBJunctionTree
from kgraph.graphdb import GraphDB
from kgraph.junction import CherryJunctionTree
from viz._draw import (
    clear_rad,
    draw_edge,
    draw_node,
    edge_label,
    finish_graph_axes,
    format_set,
    graph_axes,
    node_width,
    spread,
)
from viz.layout import centre, rooted_children, tidy_forest
from viz.style import Style, style_context

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_gnb_graph", "plot_gnb_forest", "plot_junction_tree"]

GNBStructure = GNBJunctionTree | GNBForest
ROW = 1.4  # layout units between the rows of a graph drawing


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
              title: str | None) -> Figure:
    features = gnb.features
    mothers = {v: gnb.mother(v) for v in features}
    roots = [t[0][0] for t in gnb.trees]
    _, children = rooted_children(features, [(m, v) for v, m in mothers.items() if m is not None],
                                  roots)
    pos = spread(centre(tidy_forest(roots, children, row=ROW)), [str(v) for v in features],
                 style)
    top = ROW
    target_xy = (0.0, top)
    every = {**pos, gnb.target: target_xy}
    fig, ax, box = graph_axes(ax, style, every, {v: node_width(str(v), style) for v in every},
                              title=title)
    tree_of = {v: i for i, t in enumerate(gnb.trees) for e in t for v in e}

    def colour(v: Hashable) -> str:
        return style.color(tree_of[v]) if colour_trees else style.edge_color

    patches = {gnb.target: draw_node(ax, target_xy, str(gnb.target), style, bold=True,
                                     face=style.class_color, gid=f"class:{gnb.target}")}
    for v in features:
        patches[v] = draw_node(ax, pos[v], str(v), style, edge=colour(v), gid=f"variable:{v}")
    for v in features:  # class edges: light, bowed outwards so they pass beside the tree
        others = [pos[w] for w in features if w != v]
        rad = clear_rad(target_xy, pos[v], others, 1.4 * style.node_radius)
        draw_edge(ax, patches[gnb.target], patches[v], style, color=style.light_color,
                  width=0.6 * style.line_width, rad=rad, zorder=1, gid=f"class:{gnb.target}->{v}")
    order = {frozenset(e): i for i, e in enumerate(gnb.edges)}
    for v, m in mothers.items():
        if m is None:
            continue
        draw_edge(ax, patches[m], patches[v], style, directed=True, color=colour(v),
                  gid=f"tree:{m}->{v}")
        if style.edge_labels:
            edge_label(ax, pos[m], pos[v], str(order[frozenset((m, v))] + 1), style,
                       gid=f"order:{m}->{v}", color=colour(v))
    finish_graph_axes(ax, box, title=title)
    return fig


def plot_gnb_graph(gnb: GNBJunctionTree | Any, *, ax: Axes | None = None,
                   style: Style | None = None, title: str | None = None) -> Figure:
    """Paper 1 fig. 1: the class vertex and the feature tree with its mothers.

    The feature tree is drawn as a tidy tree from the first vertex of the first cluster;
    each tree edge is an arrow mother -> child labelled with its selection order (the
    cluster's position); the class edges are drawn lighter.

    Parameters
    ----------
    gnb : GNBJunctionTree, GNBForest or fitted GNB classifier
        A classifier is drawn through its ``structure_`` (all clusters).
    ax : matplotlib Axes, optional
        Where to draw; a new figure sized by the layout when None.
    style : Style, optional
    title : str, optional

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
    with style_context(style) as s:
        return _draw_gnb(_gnb_structure(gnb, reduced=False), ax, s, False, title)


def plot_gnb_forest(forest: GNBForest | GNBJunctionTree | Any, *, ax: Axes | None = None,
                    style: Style | None = None, title: str | None = None) -> Figure:
    """Paper 1 fig. 4: a GNB forest, its trees joined through the class vertex only.

    Each tree has its own colour; the title says how many clusters and trees it has.

    Parameters
    ----------
    forest : GNBForest, GNBJunctionTree or fitted GNB classifier
        A classifier is drawn through the forest of its first ``n_clusters_`` clusters.
    ax, style, title : as in :func:`plot_gnb_graph`
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
    with style_context(style) as s:
        return _draw_gnb(structure, ax, s, True, title)


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
                       style: Style | None = None, title: str | None = None) -> Figure:
    """Paper 1 fig. 2: the junction tree of a GNB structure (or any cherry junction tree).

    ``form="tree"``: the clusters joined tree-like, each junction edge labelled with its
    separator. ``form="compact"``: each separator drawn once as a shaded node, joined to
    every cluster that contains it and annotated with its multiplicity ``ν=...``.

    Parameters
    ----------
    jt : GNBJunctionTree, GNBForest, CherryJunctionTree or fitted GNB classifier
    form : {"tree", "compact"}, default="tree"
    ax, style, title : as in :func:`plot_gnb_graph`

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
    labels = {v: format_set(v, order) for v in [*clusters, *seps]}
    shown = {v: labels[v] for v in clusters}  # separators carry "ν=..." on both sides' room
    shown |= {v: f"ν={graph.node_attrs(v)['multiplicity']}  {labels[v]}  ν=99" for v in seps}
    with style_context(style) as s:
        pos = spread(centre(tidy_forest(roots, children, row=ROW)), shown.values(), s)
        widths = {v: node_width(text, s) for v, text in shown.items()}
        fig, ax, box = graph_axes(ax, s, pos, widths, title=title)
        patches = {}
        for c in clusters:
            patches[c] = draw_node(ax, pos[c], labels[c], s, box=True,
                                   gid=f"cluster:{index[c]}")
        for sep in seps:
            label = labels[sep]
            patches[sep] = draw_node(ax, pos[sep], label, s, box=True, face="#E8E8E8",
                                     edge=s.light_color, gid=f"separator:{label}")
            nu = graph.node_attrs(sep)["multiplicity"]
            x, y = pos[sep]
            ax.text(x + 0.1 + node_width(label, s) / 2, y, f"ν={nu}", ha="left", va="center",
                    fontsize=s.font_size - 1, color=s.edge_color, zorder=5,
                    gid=f"multiplicity:{label}")
        for a, b in graph.edges():
            name = f"{format_set(a, order)}-{format_set(b, order)}"
            draw_edge(ax, patches[a], patches[b], s, gid=f"junction:{name}")
            if form == "tree" and s.edge_labels:
                sep = graph.edge_attrs(a, b)["separator"]
                edge_label(ax, pos[a], pos[b], format_set(sep, order), s, gid=f"separator:{name}",
                           color=s.light_color)
        finish_graph_axes(ax, box, title=title)
    return fig

