"""Figure of the plate graph of latent conditional Naive Bayes (paper 3, fig. 1 style)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kgraph.plate import LatentCNBPlate
from viz._draw import draw_edge, draw_node, finish_graph_axes, graph_axes, text_width
from viz.style import Style, style_context

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_plate"]

_COLUMNS = ("prior", "pi", "z", "x", "theta")
_GAP = {"theta": 0.6}  # layout units between neighbouring columns' widest boxes (0.2
#                       otherwise): room for the two plates' edges between x and θ


def _columns(widths: dict, part: dict) -> dict[str, float]:
    """Column centres: at least 1.5 apart (the figure for short names), farther when a
    column's widest box needs it, so that no two boxes overlap."""
    widest = {c: max(w for v, w in widths.items() if part[v] == c) for c in _COLUMNS}
    x, out = 0.0, {}
    for prev, c in zip((None, *_COLUMNS), _COLUMNS, strict=False):
        if prev is not None:
            x += max(1.5, (widest[prev] + widest[c]) / 2 + _GAP.get(c, 0.2))
        out[c] = x
    return out


def _plate(obj: Any) -> LatentCNBPlate:
    if isinstance(obj, LatentCNBPlate):
        return obj
    make = getattr(obj, "plate_graph", None)
    if callable(make):
        return make()
    raise TypeError(f"Expected a LatentCNBPlate or a fitted LatentCNB; got {type(obj).__name__}.")


def plot_plate(plate: LatentCNBPlate | Any, *, ax: Axes | None = None,
               style: Style | None = None, title: str | None = None) -> Figure:
    """The plate graph: prior -> π -> z_j -> x_j <- θ_j, with the row plate (N) around π, z
    and x and the component plate (K) around θ; observed x_j are shaded.

    Parameters
    ----------
    plate : LatentCNBPlate or a fitted LatentCNB (its ``plate_graph()``)
    ax : matplotlib Axes, optional
    style : Style, optional
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from kgraph.plate import LatentCNBPlate
    >>> from viz.plate import plot_plate
    >>> ax = plot_plate(LatentCNBPlate(["a", "b", "c"], 3)).axes[0]
    >>> sum(p.get_gid().startswith("edge:") for p in ax.patches)
    10
    """
    pl = _plate(plate)
    g = pl.graph
    feats = list(pl.features)
    mid = (len(feats) - 1) / 2
    labels = {"prior": g.node_attrs("prior").get("distribution", "prior"), "pi": "π"}
    labels |= {("z", f): f"z[{f}]" for f in feats} | {("x", f): f"x[{f}]" for f in feats}
    labels |= {("theta", f): f"θ[{f}]" for f in feats}
    part = {v: v if isinstance(v, str) else v[0] for v in labels}
    with style_context(style) as s:
        from matplotlib.patches import Rectangle

        widths = {v: max(1.3, text_width(label, s) + 0.2) for v, label in labels.items()}
        columns = _columns(widths, part)
        pos: dict = {"prior": (columns["prior"], -mid), "pi": (columns["pi"], -mid)}
        for j, f in enumerate(feats):
            for name in ("z", "x", "theta"):
                pos[(name, f)] = (columns[name], -float(j))
        fig, ax, box = graph_axes(ax, s, pos, widths, margin=0.6, title=title)
        patches = {}
        for v, xy in pos.items():
            face = s.soft_highlight_color if part[v] == "x" else None
            face = s.class_color if v == "prior" else face
            patches[v] = draw_node(ax, xy, labels[v], s, face=face, box=True, gid=str(v))
        for u, v in g.edges():
            draw_edge(ax, patches[u], patches[v], s, directed=True, gid=f"{u}->{v}")
        low = -(len(feats) - 1) - 0.75  # room for the plate names below the last row
        half = {name: max(w for v, w in widths.items() if part[v] == name) / 2 for name in columns}
        spans = {"rows (N)": (columns["pi"] - half["pi"] - 0.15, columns["x"] + half["x"] + 0.15),
                 f"components (K = {pl.n_components})": (columns["theta"] - half["theta"] - 0.15,
                                                         columns["theta"] + half["theta"] + 0.15)}
        for name, (x0, x1) in spans.items():
            ax.add_patch(Rectangle((x0, low), x1 - x0, -low + 0.6, fill=False, zorder=1,
                                   linewidth=s.line_width, edgecolor=s.light_color,
                                   gid=f"plate:{name}"))
            ax.text(x1 - 0.05, low + 0.08, name, ha="right", va="bottom",
                    fontsize=s.font_size - 2, color=s.light_color)
        finish_graph_axes(ax, box, title=title or f"latent CNB ({pl.prior}, {pl.family})")
    return fig
