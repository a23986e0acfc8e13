"""Figure of the plate graph of latent conditional Naive Bayes (paper 3, fig. 1 style)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kgraph.plate import LatentCNBPlate
from viz._draw import LegendItem, Sheet, draw_edge, draw_node, rect
from viz._fit import MARGIN, abbreviate, label_size, line_height, node_height, node_size
from viz.style import Style, resolve_style, style_context

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_plate"]

_COLUMNS = ("prior", "pi", "z", "x", "theta")
_GAP = 0.22  # inches between neighbouring columns' widest boxes (room for the arrows)


def _plate(obj: Any) -> LatentCNBPlate:
    if isinstance(obj, LatentCNBPlate):
        return obj
    make = getattr(obj, "plate_graph", None)
    if callable(make):
        return make()
    raise TypeError(f"Expected a LatentCNBPlate or a fitted LatentCNB; got {type(obj).__name__}.")


def plot_plate(plate: LatentCNBPlate | Any, *, ax: Axes | None = None,
               style: Style | None = None, title: str | None = None,
               width: str | float | None = None) -> Figure:
    """The plate graph: prior -> π -> z_j -> x_j <- θ_j, with the row plate (N) around π, z
    and x and the component plate (K) around θ; observed x_j are shaded.

    One row per feature; when the rows do not fit the figure's height, the first ones and
    the last are drawn with a "⋮" row saying how many are left out. Feature names too long
    for the width are abbreviated, with a key.

    Parameters
    ----------
    plate : LatentCNBPlate or a fitted LatentCNB (its ``plate_graph()``)
    ax : matplotlib Axes, optional
    style : Style, optional
    title : str, optional
    width : {"column", "page"} or float, optional
        Figure width (3.5 in, 7.0 in or inches); replaces ``style.width``.

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
    from matplotlib.patches import Rectangle

    pl = _plate(plate)
    g = pl.graph
    feats = list(pl.features)
    s = resolve_style(style, width)
    title = title or f"latent CNB ({pl.prior}, {pl.family})"
    with style_context(s):
        sheet = Sheet(s, ax, 7.0, title)
        pitch = node_height(s) + 0.07
        k_name = f"components (K = {pl.n_components})"
        rows = max(3, int((sheet.max_height - 0.9) / pitch))
        limit = sheet.inner
        while True:
            shown_feats = feats if len(feats) <= rows else [*feats[:rows - 2], feats[-1]]
            skipped = len(feats) - len(shown_feats)
            names, key = abbreviate({f: str(f) for f in shown_feats}, s, limit)
            labels = {"prior": g.node_attrs("prior").get("distribution", "prior"), "pi": "π"}
            labels |= {("z", f): f"z[{names[f]}]" for f in shown_feats}
            labels |= {("x", f): f"x[{names[f]}]" for f in shown_feats}
            labels |= {("theta", f): f"θ[{names[f]}]" for f in shown_feats}
            part = {v: v if isinstance(v, str) else v[0] for v in labels}
            sizes = {v: node_size(t, s) for v, t in labels.items()}
            widest = {c: max(sizes[v][0] for v in labels if part[v] == c) for c in _COLUMNS}
            widest["theta"] = max(widest["theta"], label_size(k_name, s.small_font_size)[0])
            total = sum(widest.values()) + _GAP * (len(_COLUMNS) - 1) + 0.3
            if total > sheet.inner and limit >= 0.3:
                limit *= 0.8
                continue
            tall = (len(shown_feats) + bool(skipped)) * pitch + 0.6 + sheet.flow_height(
                sheet.key_items(key)) + sheet.flow_height([LegendItem("x")] * 4)
            if tall <= sheet.max_height or rows <= 3:
                break
            rows -= 1
        x = MARGIN + max((sheet.inner - total) / 2, 0.0) + 0.15
        columns = {}
        for c in _COLUMNS:
            columns[c] = x + widest[c] / 2
            x += widest[c] + _GAP
        row_y = {f: -pitch * (i + (1 if skipped and f == feats[-1] else 0))
                 for i, f in enumerate(shown_feats)}
        mid = (min(row_y.values()) + max(row_y.values())) / 2
        pos: dict = {"prior": (columns["prior"], mid), "pi": (columns["pi"], mid)}
        for f in shown_feats:
            for name in ("z", "x", "theta"):
                pos[(name, f)] = (columns[name], row_y[f])
            left = columns["z"] - widest["z"] / 2  # z boxes left-aligned: pi's arrows end on
            pos[("z", f)] = (left + sizes[("z", f)][0] / 2, row_y[f])  # their left sides
        ax = sheet.ax
        patches = {}
        for v, xy in pos.items():
            face = s.soft_highlight_color if part[v] == "x" else None
            face = s.class_color if v == "prior" else face
            patches[v] = draw_node(ax, xy, labels[v], s, face=face, gid=str(v), size=sizes[v])
        for u, v in g.edges():
            if u in patches and v in patches and part[u] == "pi" and part[v] == "z":
                from matplotlib.patches import FancyArrowPatch

                ax.add_patch(FancyArrowPatch(  # to the middle of the left side: past no box
                    posA=pos[u], posB=(pos[v][0] - sizes[v][0] / 2, pos[v][1]),
                    patchA=patches[u], arrowstyle="-|>", mutation_scale=4 + 2.5 * s.line_width,
                    color=s.edge_color, linewidth=s.line_width, shrinkA=0.5, shrinkB=0,
                    zorder=2, gid=f"edge:{u}->{v}"))
            elif u in patches and v in patches:
                draw_edge(ax, patches[u], patches[v], s, directed=True, gid=f"{u}->{v}")
        rects = [rect(pos[v], sizes[v]) for v in pos]
        if skipped:
            y = -pitch * (len(shown_feats) - 1)
            for c in ("z", "x", "theta"):
                ax.text(columns[c], y, "⋮", ha="center", va="center", fontsize=s.font_size,
                        gid=f"skipped:{c}")
        low = min(row_y.values()) - node_height(s) / 2 - 1.3 * line_height(s.small_font_size)
        high = max(row_y.values()) + node_height(s) / 2 + 0.07
        spans = {"rows (N)": (columns["pi"] - widest["pi"] / 2 - 0.07,
                              columns["x"] + widest["x"] / 2 + 0.07),
                 k_name: (
                     columns["theta"] - widest["theta"] / 2 - 0.07,
                     columns["theta"] + widest["theta"] / 2 + 0.07)}
        for name, (x0, x1) in spans.items():
            ax.add_patch(Rectangle((x0, low), x1 - x0, high - low, fill=False, zorder=1,
                                   linewidth=s.line_width, edgecolor=s.light_color,
                                   gid=f"plate:{name}"))
            ax.text(x1 - 0.03, low + 0.04, name, ha="right", va="bottom",
                    fontsize=s.small_font_size, color=s.light_color, gid=f"plate-name:{name}")
            rects.append((x0, x1, low, high))
        legend = [LegendItem("prior", face=s.class_color),
                  LegendItem("observed feature", face=s.soft_highlight_color),
                  LegendItem("latent or parameter", face=s.variable_color)]
        if skipped:
            legend.append(LegendItem(f"⋮: {skipped} more features, drawn alike", kind="text"))
        return sheet.finish(rects, legend, key)
