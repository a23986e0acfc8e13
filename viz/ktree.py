"""Figures of paper 2's structures: the acyclic k-tree with its creation order (fig. 2a, and
the k-TAN of fig. 2c with a class vertex), its tree-representation (fig. 2b) and the pbkt
certificate of the backbone dynamic program."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from kgraph.ktree import AcyclicKTree
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
from viz._overlap import separate
from viz.layout import centre, line_layout, rooted_children, stress_layout, tidy_forest
from viz.style import Style, style_context

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_ktree", "plot_tree_representation", "plot_pbkt"]

ROW = 1.4  # layout units between rows


def _ktree(obj: Any) -> AcyclicKTree:
    """An AcyclicKTree, or the ``structure_`` of a fitted k-TAN-like model."""
    if isinstance(obj, AcyclicKTree):
        return obj
    structure = getattr(obj, "structure_", None)
    if isinstance(structure, AcyclicKTree):
        return structure
    raise TypeError(f"Expected an AcyclicKTree or a fitted model with an AcyclicKTree "
                    f"'structure_'; got {type(obj).__name__}.")


def _creation_number(ax: Axes, xy: tuple[float, float], i: int, style: Style, v: Hashable,
                     below: bool = False) -> None:
    """The creation number of a vertex, small, at the upper (lower) right of its node."""
    r = style.node_radius
    ax.text(xy[0] + 0.9 * r, xy[1] + (-0.9 if below else 0.9) * r, str(i),
            ha="left", va="top" if below else "bottom", fontsize=style.font_size - 2,
            color=style.light_color, zorder=5, gid=f"creation:{v}",
            bbox=dict(boxstyle="round,pad=0.05", facecolor="white", edgecolor="none"))


def _ktree_layout(kt: AcyclicKTree, style: Style) -> dict:
    """A tidy tree for k = 1; a stress (Kamada–Kawai) layout for k >= 2."""
    order = list(kt.order)
    if kt.k == 1:
        roots, children = rooted_children(order, kt.edges, [order[0]])
        return spread(centre(tidy_forest(roots, children, row=ROW)), map(str, order), style)
    widest = max(node_width(str(v), style) for v in order)
    pos = stress_layout(order, kt.edges, edge_length=max(1.6, 1.2 * widest + 0.4))
    return separate(pos, {v: (node_width(str(v), style), 2 * style.node_radius) for v in order})


def plot_ktree(ktree: AcyclicKTree | Any, *, target: Hashable | None = None,
               ax: Axes | None = None, style: Style | None = None,
               title: str | None = None) -> Figure:
    """Paper 2 fig. 2a (2c with ``target``): an acyclic k-tree with its creation order.

    A 1-tree is drawn as a tidy tree from its first vertex, a k-tree (k >= 2) with the
    Kamada–Kawai layout (deterministic, first vertex on top). Each vertex carries its creation
    number (1 = first); edges are arrows parent -> child, bent around other vertices; the
    initial k-clique is shaded. With ``target`` the class vertex is drawn on
    top with light edges to every feature (the k-TAN).

    Parameters
    ----------
    ktree : AcyclicKTree or fitted model with an AcyclicKTree ``structure_``
    target : hashable, optional
        Name of a class vertex to add (k-TAN); must not be a vertex of the k-tree.
    ax : matplotlib Axes, optional
    style : Style, optional
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from kgraph import AcyclicKTree
    >>> from viz.ktree import plot_ktree
    >>> t = AcyclicKTree(2, "abcde", {"c": "ab", "d": "bc", "e": "bd"})
    >>> ax = plot_ktree(t).axes[0]
    >>> sum(p.get_gid().startswith("edge:parent") for p in ax.patches)
    7
    """
    kt = _ktree(ktree)
    if target is not None and target in kt.parent_map:
        raise ValueError(f"The target {target!r} is a vertex of the k-tree; name the class "
                         "vertex differently.")
    order = list(kt.order)
    with style_context(style) as s:
        pos = _ktree_layout(kt, s)
        every = dict(pos)
        if target is not None:
            every[target] = (0.0, max(y for _, y in pos.values()) + ROW)
        fig, ax, box = graph_axes(ax, s, every, {v: node_width(str(v), s) for v in every},
                                  title=title)
        patches = {}
        for i, v in enumerate(order):
            face = s.soft_highlight_color if i < kt.k else None
            patches[v] = draw_node(ax, pos[v], str(v), s, face=face, gid=f"variable:{v}")
            _creation_number(ax, pos[v], i + 1, s, v)
        if target is not None:
            patches[target] = draw_node(ax, every[target], str(target), s, bold=True,
                                        face=s.class_color, gid=f"class:{target}")
            for v in order:
                rad = clear_rad(every[target], pos[v], [pos[w] for w in order if w != v],
                                1.4 * s.node_radius)
                draw_edge(ax, patches[target], patches[v], s, color=s.light_color, rad=rad,
                          width=0.6 * s.line_width, zorder=1, gid=f"class:{target}->{v}")
        for p, v in kt.edges:
            rad = clear_rad(pos[p], pos[v], [pos[w] for w in order if w not in (p, v)],
                            1.4 * s.node_radius)
            draw_edge(ax, patches[p], patches[v], s, directed=True, rad=rad,
                      gid=f"parent:{p}->{v}")
        finish_graph_axes(ax, box, title=title)
    return fig


def plot_tree_representation(ktree: AcyclicKTree | Any, *, ax: Axes | None = None,
                             style: Style | None = None, title: str | None = None) -> Figure:
    """Paper 2 fig. 2b: the tree of the (k+1)-cliques Δ_v of an acyclic k-tree (def. 4).

    Each clique is a box listing its vertices in creation order, captioned ``Δ v`` with the
    vertex that created it; each tree edge is labelled with its separator, the parent set
    of the later clique's vertex. The first clique is the root of the tidy layout.

    Parameters
    ----------
    ktree : AcyclicKTree or fitted model with an AcyclicKTree ``structure_``
    ax, style, title : as in :func:`plot_ktree`

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
    graph = kt.tree_representation()
    rank = {v: i for i, v in enumerate(kt.order)}
    cliques = kt.cliques()
    labels = {c: format_set(c, rank) for c in cliques}
    roots, children = rooted_children(cliques, graph.edges())
    captions = {c: f"Δ{graph.node_attrs(c)['vertex']}" for c in cliques}
    with style_context(style) as s:
        widths = [f"{captions[c]}  {labels[c]}" for c in cliques]
        pos = spread(centre(tidy_forest(roots, children, row=ROW)), widths, s)
        fig, ax, box = graph_axes(ax, s, pos, {c: node_width(w, s) for c, w in
                                               zip(cliques, widths, strict=True)}, title=title)
        patches = {}
        for c in cliques:
            attrs = graph.node_attrs(c)
            patches[c] = draw_node(ax, pos[c], labels[c], s, box=True,
                                   gid=f"clique:{attrs['index']}")
            x, y = pos[c]
            ax.text(x - node_width(labels[c], s) / 2 - 0.08, y, captions[c],
                    ha="right", va="center", fontsize=s.font_size - 1.5, color=s.light_color, zorder=5,
                    gid=f"created:{attrs['vertex']}")
        for a, b in graph.edges():
            draw_edge(ax, patches[a], patches[b], s, gid=f"tree:{labels[a]}-{labels[b]}")
            if s.edge_labels:
                sep = graph.edge_attrs(a, b)["separator"]
                edge_label(ax, pos[a], pos[b], format_set(sep, rank), s,
                           gid=f"separator:{labels[a]}-{labels[b]}", color=s.light_color)
        finish_graph_axes(ax, box, title=title)
    return fig


def plot_pbkt(pbkt: Any, *, ax: Axes | None = None, style: Style | None = None,
              title: str | None = None) -> Figure:
    """The certificate of the backbone DP: a pbkt drawn along its backbone.

    The backbone vertices stand on a straight line in backbone order; the retained backbone
    edges join neighbours with thick straight segments (dotted where a consecutive pair is
    not an edge of the pbkt); every other k-tree edge is an arc above the line. The root
    (k+1)-clique and its edges are highlighted; each vertex carries its creation number in
    ``pbkt.to_ktree()``; backbone vertices outside the pbkt are dashed.

    Parameters
    ----------
    pbkt : kgraph.pbkt.PBKT
        Anything with ``backbone``, ``root``, ``retained``, ``vertices`` and ``to_ktree()``.
    ax, style, title : as in :func:`plot_ktree`

    Returns
    -------
    matplotlib.figure.Figure
    """
    from matplotlib.patches import Arc

    backbone = list(pbkt.backbone)
    kt = pbkt.to_ktree()
    created = {v: i + 1 for i, v in enumerate(kt.order)}
    root, inside = frozenset(pbkt.root), frozenset(pbkt.vertices)
    retained = {frozenset(e) for e in pbkt.retained}
    where = {v: i for i, v in enumerate(backbone)}
    skeleton = kt.skeleton()
    arcs = []  # (p, v, a, b): k-tree edges not drawn as retained backbone segments
    for p, v in kt.edges:
        if frozenset((p, v)) not in retained:
            arcs.append((p, v, *sorted((p, v), key=where.__getitem__)))
    with style_context(style) as s:
        pos = spread(line_layout(backbone), [str(v) for v in backbone], s)
        top = max((0.5 + 0.45 * (pos[b][0] - pos[a][0]) for _, _, a, b in arcs), default=0.0)
        extent = {**pos, "_top": (0.0, top)}
        fig, ax, box = graph_axes(ax, s, extent, {v: node_width(str(v), s) for v in backbone},
                                  title=title)
        patches = {}
        for v in backbone:
            face = s.highlight_color if v in root else None
            patches[v] = draw_node(ax, pos[v], str(v), s, face=face, dashed=v not in inside,
                                   edge=None if v in inside else s.light_color,
                                   gid=f"variable:{v}")
            if v in created:
                _creation_number(ax, pos[v], created[v], s, v, below=True)
        for a, b in zip(backbone, backbone[1:], strict=False):
            pair = frozenset((a, b))
            if pair in retained:
                draw_edge(ax, patches[a], patches[b], s, gid=f"backbone:{a}-{b}",
                          color=s.highlight_color if pair <= root else s.edge_color,
                          width=2 * s.line_width)
            elif pair not in skeleton:
                draw_edge(ax, patches[a], patches[b], s, gid=f"gap:{a}-{b}",
                          color=s.light_color, dashed=True)
        for p, v, a, b in arcs:
            (xa, _), (xb, _) = pos[a], pos[b]
            height = 0.5 + 0.45 * (xb - xa)
            ax.add_patch(Arc(((xa + xb) / 2, 0.0), xb - xa, 2 * height, theta1=0, theta2=180,
                             color=s.highlight_color if {p, v} <= root else s.edge_color,
                             linewidth=s.line_width, zorder=1, gid=f"edge:arc:{p}->{v}"))
        finish_graph_axes(ax, box, title=title)
    return fig
