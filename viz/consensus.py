"""Figure of an ensemble's structures: each edge once, as wide as the share of members
that have it."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from kgraph.consensus import EnsembleStructure, consensus
from viz._draw import LegendItem
from viz._graph import (
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

__all__ = ["plot_consensus"]


#: the most pairs per feature ``min_share="auto"`` draws (a kDB with k = 2 has 2 d - 3)
MAX_EDGES_PER_FEATURE = 2


def share_width(share: float, style: Style) -> float:
    """An edge's line width: from 0.4x the style's (no member) to 1.6x (every member), on
    one scale for every figure (most pairs of a consensus have every member: drawn as
    wide as the widest edges of the other figures, they would merge into ribbons)."""
    return style.line_width * (0.4 + 1.2 * share)


def _threshold(made, min_share: float | str) -> float:
    """The smallest share of members a drawn pair has (``min_share``, see
    :func:`plot_consensus`)."""
    if min_share != "auto":
        share = float(min_share)
        if not 0.0 <= share <= 1.0:
            raise ValueError(f"min_share must be 'auto' or a share in [0, 1]; got {min_share!r}.")
        return share
    room = MAX_EDGES_PER_FEATURE * len(made.order)
    for share in sorted({e.fraction for e in made.edges}):
        if sum(e.fraction >= share - 1e-12 for e in made.edges) <= room:
            return share
    return 1.0


def _members(ensemble: Any) -> Sequence:
    """The members: an EnsembleStructure's, a fitted ensemble's ``estimators_``, or the
    sequence given."""
    if isinstance(ensemble, EnsembleStructure):
        return list(ensemble.members)
    if hasattr(ensemble, "estimators_") and hasattr(ensemble, "weights_"):
        return list(ensemble.estimators_)
    if isinstance(ensemble, Sequence) and not isinstance(ensemble, str):
        return list(ensemble)
    raise TypeError(f"plot_consensus draws an ensemble: an EnsembleStructure, a fitted "
                    f"ensemble (estimators_ and weights_) or a sequence of structures or "
                    f"fitted network classifiers; got a {type(ensemble).__name__}.")


def plot_consensus(ensemble: Any, *, target: Hashable | None = None, ax: Axes | None = None,
                   style: Style | None = None, title: str | None = None,
                   width: str | float | None = None, feature_types: dict | None = None,
                   hubs: Any = "auto", min_share: float | str = "auto") -> Figure:
    """The consensus of an ensemble's structures (:func:`kgraph.consensus.consensus`): every
    feature pair some member joins drawn once, its line as wide as the share of members
    joining it (legend: the shares), an arrow where every such member has the same
    direction and a plain line where members differ; features some members leave out are
    dashed. The class sits on top, with light edges to every feature (stated in the legend
    past 12 features). A feature joined to many others is drawn as the class is (marked
    once, its edges not drawn, said in the legend) when its lines would otherwise run along
    each other (``hubs``, as in :func:`viz.ktree.plot_ktree`).

    Parameters
    ----------
    ensemble : EnsembleStructure, fitted ensemble (``estimators_``) or sequence
        The members: a :class:`kgraph.consensus.EnsembleStructure`, fitted network
        classifiers (their ``structure_``) or structures (:class:`kgraph.ParentSetDAG`,
        :class:`kgraph.AcyclicKTree`).
    target : hashable, optional
        The class vertex's name (the members' own when None).
    ax, style, title, width
        As every structure figure.
    feature_types : dict, optional
        ``{feature: "continuous" | "categorical"}`` for the node fills (the first member's
        when None).
    hubs : "auto", collection of features or None, default="auto"
        Features drawn as the class is (:mod:`viz._hubs`).
    min_share : float or "auto", default="auto"
        Pairs joined by a smaller share of the members are not drawn (the legend counts
        them). ``"auto"``: every pair when there are at most :data:`MAX_EDGES_PER_FEATURE`
        per feature (as many as a kDB with k = 2 has), else the smallest share that keeps
        that many or fewer: members of random attribute orders join hundreds of pairs
        once each, which no figure can show.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from kgraph import ParentSetDAG
    >>> a = ParentSetDAG({"x": [], "y": ["x"], "z": ["y"]}, target="c")
    >>> b = ParentSetDAG({"z": [], "y": ["z"], "x": ["y"]}, target="c")
    >>> fig = plot_consensus([a, b, ParentSetDAG({"x": [], "y": ["x"], "z": ["x"]}, target="c")])
    >>> sorted(e.gid for e in fig.kgraph_drawing.edges if not e.light)
    ['consensus:x->y', 'consensus:x->z', 'consensus:y->z']
    """
    members = _members(ensemble)
    made = consensus(members)
    target = target if target is not None else made.target
    if feature_types is None:
        feature_types = getattr(members[0], "feature_types_", None)
    feats = list(made.order)
    threshold = _threshold(made, min_share)
    shown = [e for e in made.edges if e.fraction >= threshold - 1e-12]
    s = resolve_style(style, width)
    with style_context(s):
        widths = {(e.u, e.v): share_width(e.fraction, s) for e in shown}
        samples = sorted({e.fraction for e in shown})
        samples = sorted({samples[0], samples[len(samples) // 2], samples[-1]}) if samples else []
        legend_widths = [LegendItem(f"share of the {made.n_members} members with the edge:",
                                    kind="text", keep_with_next=bool(samples))]
        legend_widths += [LegendItem(f"{f:.0%}", kind="line", width=share_width(f, s),
                                     color=s.edge_color, keep_with_next=i < len(samples) - 1)
                          for i, f in enumerate(samples)]
        partial = {v for v in feats if made.spanned[v] < made.n_members}
        looks = {v: NodeLook(face=feature_face(s, feature_types, v), dashed=v in partial)
                 for v in feats}
        labels, gids = {v: str(v) for v in feats}, {v: f"variable:{v}" for v in feats}
        if target is not None:
            labels[target], gids[target] = str(target), f"class:{target}"
            looks[target] = NodeLook(face=s.class_color, bold=True)
        edges = [EdgeSpec(e.u, e.v, f"consensus:{e.u}->{e.v}", directed=e.directed,
                          width=widths[(e.u, e.v)]) for e in shown]
        spec = GraphSpec(
            labels=labels, gids=gids, looks=looks, edges=edges, class_node=target,
            layered=True, hubs=hubs, badges={v: str(i + 1) for i, v in enumerate(feats)},
            badge_gids={v: f"order:{v}" for v in feats},
            class_edges=[EdgeSpec(target, v, f"class:{target}->{v}", color=s.light_color,
                                  width=0.6 * s.line_width) for v in feats]
            if target is not None else [])
        extra = [LegendItem("numbers: mean position in the members' orders", kind="text")]
        if len(shown) < len(made.edges):
            extra.append(LegendItem(
                f"{len(made.edges) - len(shown)} pairs joined by fewer than {threshold:.0%} "
                "of the members not drawn", kind="text"))
        if any(not e.directed for e in shown):
            extra.append(LegendItem("line: members differ in direction", kind="text"))
        if partial:
            extra.append(LegendItem("dashed: left out by some members", dashed=True))
        spec.legend = node_kinds_legend(
            s, feature_types=feature_types, nodes=feats,
            class_label=None if target is None else str(target), extra=extra) + legend_widths
        return draw_graph(spec, s, ax, title)
