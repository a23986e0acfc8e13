"""A drawn structure figure as a standalone TikZ picture or a Graphviz DOT file.

Both writers read what the figure drew (``fig.kgraph_drawing``, kept by every node-and-edge
figure laid out in layers): the same node positions and box sizes in inches, the same
labels (numbers or shortened names with their key when the figure uses them), the same
edge paths (cubic curves and straight runs) and arrowheads. A researcher can then restyle
the figure in the fonts of their paper (TikZ) or hand it to Graphviz tools
(``neato -n2 -Tpdf fig.dot``, which keeps the given positions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

__all__ = ["to_dot", "to_tikz"]

_TEX = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&",
        "#": r"\#", "^": r"\^{}", "_": r"\_", "%": r"\%", "~": r"\textasciitilde{}",
        # the marks of the hubs (viz._hubs), which pdflatex's fonts do not hold as text
        "\u25cf": r"$\bullet$", "\u25a0": r"$\blacksquare$", "\u25b2": r"$\blacktriangle$",
        "\u25c6": r"$\blacklozenge$"}


def tex_escape(text: str) -> str:
    r"""Text safe inside a TikZ node.

    Examples
    --------
    >>> tex_escape("od280/od315_of_diluted_wines 100%")
    'od280/od315\\_of\\_diluted\\_wines 100\\%'
    """
    return "".join(_TEX.get(c, c) for c in text)


def _drawing(fig: Figure):
    drawing = getattr(fig, "kgraph_drawing", None)
    if drawing is None:
        raise ValueError("This figure keeps no drawing to export: TikZ and DOT are written "
                         "for the node-and-edge structure figures (plot_ktree, plot_gnb_graph, "
                         "plot_structure...), not for overviews or charts.")
    return drawing, {v: f"n{i}" for i, v in enumerate(drawing.nodes)}


def _f(x: float) -> str:
    return f"{x:.4f}".rstrip("0").rstrip(".") if x else "0"


def to_tikz(fig: Figure) -> str:
    r"""The figure as a standalone LaTeX document with one ``tikzpicture`` (units: inches),
    as wide as the figure.

    Every node is ``\node[...] (nI) at (x,y) {label};`` with its box size and the figure's
    fill and outline colours (a parent repeated in a later panel is dotted and gray); every
    edge is ``\draw`` along the drawn path (``.. controls .. and ..`` for the curves) in its
    colour, with an arrow tip on directed edges; below them, wrapped at the figure's width
    as in the figure, the legend (node and line swatches, notes such as the class being a
    parent of every feature) and the key of numbered or shortened names, each entry
    unbroken (no hyphenation). The bounding box is the figure's width exactly.

    Raises
    ------
    ValueError
        For a figure that keeps no drawing (an overview or a chart).
    """
    from viz._fit import MARGIN

    d, ids = _drawing(fig)
    colours = _Colours()
    looks = _artists(fig)
    body = []
    for v, n in d.nodes.items():
        shape = "circ" if n.circle else "box"
        size = (f"minimum size={_f(n.height)}in" if n.circle else
                f"minimum width={_f(n.width)}in, minimum height={_f(n.height)}in")
        patch = looks.get(f"node:{n.gid}")
        paint = "" if patch is None else (f", fill={colours(patch.get_facecolor())}, "
                                          f"draw={colours(patch.get_edgecolor())}")
        extra = (", font=\\sffamily\\scriptsize\\bfseries" if n.bold else "") + \
            (", dashed" if n.dashed else "") + (", dotted, gray" if n.copy else "")
        label = tex_escape(n.label) + (f" {{\\tiny {tex_escape(n.badge)}}}" if n.badge else "")
        body.append(f"\\node[{shape}, {size}{paint}{extra}] ({ids[v]}) at "
                    f"({_f(n.x)},{_f(n.y)}) {{{label}}}; % {tex_escape(n.gid)}")
    for e in d.edges:
        opts = ["edge"]
        if e.directed:
            opts.append("arrow" if not e.reverse else "{Stealth[length=3pt]}-")
        arrow = looks.get(f"edge:{e.gid}")
        if arrow is not None:
            opts.append(f"draw={colours(arrow.get_edgecolor())}")
            if arrow.get_alpha() is not None and arrow.get_alpha() < 1:
                opts.append(f"draw opacity={_f(arrow.get_alpha())}")
        elif e.light:
            opts.append("light")
        if e.dashed:
            opts.append("dashedline")
        if e.width is not None:
            opts.append(f"line width={_f(e.width)}pt")
        body.append(f"\\draw[{', '.join(opts)}] {_tikz_path(e.vertices, e.codes)}; "
                    f"% {ids[e.u]} -> {ids[e.v]} ({tex_escape(e.gid)})")
    left, right = fig.axes[0].get_xlim()
    inner = right - left - 2 * MARGIN
    bottom = min(n.y - n.height / 2 for n in d.nodes.values())
    top = max(n.y + n.height / 2 for n in d.nodes.values())
    below = f"({_f(left + MARGIN)},{_f(bottom - 0.06)})"
    items = [_legend_item(it, colours) for it in d.legend_items]
    if items:
        body.append(f"\\node[flow, text width={_f(inner)}in] (legend) at {below} "
                    f"{{{_FLOW_GAP.join(items)}}}; % legend")
        below = "([yshift=-0.04in]legend.south west)"
    if d.key and d.key_in_figure:
        entries = [f"\\mbox{{{tex_escape(a)} = {tex_escape(b)}}}" for a, b in d.key]
        entries[0] = f"\\mbox{{Abbreviations:}} {entries[0]}"
        body.append(f"\\node[flow, text width={_f(inner)}in] at {below} "
                    f"{{{_FLOW_GAP.join(entries)}}}; % key")
    elif d.key:  # too long for the figure: the caption's (kgraph plot writes FIG_key.txt)
        body += [f"% key (for the caption): {tex_escape(a)} = {tex_escape(b)}" for a, b in d.key]
    body += ["% the figure's width exactly: the frame of the figure, the height of the content",
             r"\coordinate (kgbottom) at (current bounding box.south);",
             r"\pgfresetboundingbox",
             f"\\path[use as bounding box] ({_f(left)},{_f(top + MARGIN)}) rectangle "
             f"({_f(right)},0 |- kgbottom);"]
    lines = [r"\documentclass[tikz,border=0pt]{standalone}",
             r"\usepackage{amssymb}",  # the hubs' marks
             r"\usetikzlibrary{arrows.meta}",
             *colours.definitions(),
             r"\begin{document}",
             r"\begin{tikzpicture}[x=1in, y=1in, font=\sffamily\scriptsize,",
             r"  box/.style={draw, rounded corners=2pt, inner sep=0pt, align=center},",
             r"  circ/.style={draw, circle, inner sep=0pt},",
             r"  edge/.style={line width=0.6pt}, arrow/.style={-{Stealth[length=3pt]}},",
             r"  light/.style={gray}, dashedline/.style={dashed},",
             r"  flow/.style={anchor=north west, inner sep=0pt, align=left, font=\sffamily\tiny}]",
             *body, r"\end{tikzpicture}", r"\end{document}", ""]
    return "\n".join(lines)


#: the space between two legend or key entries (a line may break there, nowhere else)
_FLOW_GAP = " \\hspace{0.16in plus 0.05in} "


class _Colours:
    """The figure's colours as named xcolor definitions (``kgc0``, ``kgc1``...)."""

    def __init__(self):
        self.names: dict[str, str] = {}

    def __call__(self, colour) -> str:
        from matplotlib.colors import to_hex

        code = to_hex(colour, keep_alpha=False)[1:].upper()
        return self.names.setdefault(code, f"kgc{len(self.names)}")

    def definitions(self) -> list[str]:
        return [f"\\definecolor{{{name}}}{{HTML}}{{{code}}}" for code, name in self.names.items()]


def _artists(fig: Figure) -> dict:
    """The figure's drawn patches by gid (nodes ``node:GID``, edges ``edge:GID``)."""
    return {a.get_gid(): a for ax in fig.axes for a in ax.patches if a.get_gid()}


def _legend_item(it, colours: _Colours) -> str:
    """One legend entry as an unbreakable TeX box: a node or line swatch and its label."""
    label = tex_escape(it.label)
    if it.kind == "node":
        style = ", dashed" if it.dashed else ""
        swatch = (f"\\tikz[baseline=-0.5ex]\\node[draw={colours(it.edge)}, "
                  f"fill={colours(it.face)}, rounded corners=1pt, minimum width=0.2in, "
                  f"minimum height=0.1in, inner sep=0pt{style}] {{}};")
    elif it.kind == "line":
        style = ", dashed" if it.dashed else ""
        opacity = f", draw opacity={_f(it.alpha)}" if it.alpha < 1 else ""
        swatch = (f"\\tikz[baseline=-0.5ex]\\draw[draw={colours(it.color)}, "
                  f"line width={_f(it.width)}pt{style}{opacity}] (0,0) -- (0.28in,0);")
    else:
        return f"\\mbox{{{label}}}"
    return f"\\mbox{{{swatch}\\,{label}}}"


def _tikz_path(vertices, codes) -> str:
    out = [f"({_f(vertices[0][0])},{_f(vertices[0][1])})"]
    i = 1
    while i < len(vertices):
        if codes[i] == 4:  # CURVE4: two control points and an end
            (a, b), (c, e), (x, y) = vertices[i:i + 3]
            out.append(f".. controls ({_f(a)},{_f(b)}) and ({_f(c)},{_f(e)}) .. "
                       f"({_f(x)},{_f(y)})")
            i += 3
        else:
            out.append(f"-- ({_f(vertices[i][0])},{_f(vertices[i][1])})")
            i += 1
    return " ".join(out)


def _dot_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_dot(fig: Figure) -> str:
    """The figure as a Graphviz ``digraph`` with fixed positions (``pos``, in points) and
    box sizes (inches), the drawn edge paths as ``pos`` splines ending where the arrowhead
    starts, with its tip as the ``e,`` point (``s,`` for an edge drawn against the layers)
    so that ``neato -n2`` draws the arrowheads, and the key as a comment; ``neato -n2``
    draws it as laid out here, ``dot`` lays it out anew with the same arrows.

    Raises
    ------
    ValueError
        For a figure that keeps no drawing (an overview or a chart).
    """
    d, ids = _drawing(fig)
    lines = ["digraph structure {", '  graph [splines=true, outputorder=edgesfirst];',
             '  node [shape=box, style=rounded, fontname="DejaVu Sans", fontsize=7, '
             'fixedsize=true];', f"  edge [arrowsize={_f(ARROW_POINTS / 10)}];"]
    lines += [f"  // key: {a} = {b}" for a, b in d.key]
    for v, n in d.nodes.items():
        attrs = [f"label={_dot_quote(n.label)}", f'pos="{_f(72 * n.x)},{_f(72 * n.y)}!"',
                 f"width={_f(n.width)}", f"height={_f(n.height)}",
                 f"id={_dot_quote(n.gid)}"]
        if n.circle:
            attrs.append("shape=circle")
        styles = ["rounded"] + (["dashed"] if n.dashed else []) + (["bold"] if n.bold else []) \
            + (["dotted"] if n.copy else [])  # a parent repeated in a later panel
        attrs.append(f'style="{",".join(styles)}"')
        lines.append(f"  {ids[v]} [{', '.join(attrs)}];")
    for e in d.edges:
        pts = [(72 * x, 72 * y) for x, y in _cubic_points(e.vertices, e.codes)]
        tip = ""
        if e.directed:  # Graphviz draws the head from the spline's end to the e (s) point
            if e.reverse:
                pts.reverse()
            end, pts = _shortened(pts)
            if e.reverse:
                pts.reverse()
            tip = f"{'s' if e.reverse else 'e'},{_f(end[0])},{_f(end[1])} "
        spline = " ".join(f"{_f(x)},{_f(y)}" for x, y in pts)
        attrs = [f'pos="{tip}{spline}"', f"id={_dot_quote(e.gid)}"]
        if not e.directed:
            attrs.append("dir=none")
        elif e.reverse:
            attrs.append("dir=back")
        if e.light:
            attrs.append("color=gray")
        if e.dashed:
            attrs.append("style=dashed")
        lines.append(f"  {ids[e.u]} -> {ids[e.v]} [{', '.join(attrs)}];")
    lines += ["}", ""]
    return "\n".join(lines)


#: the arrowhead's length in a DOT file (points; Graphviz's is 10 times ``arrowsize``)
ARROW_POINTS = 5.0


def _shortened(pts: list) -> tuple[tuple[float, float], list]:
    """The tip (the path's last point) and the cubic points with the end pulled back by
    :data:`ARROW_POINTS` along the last direction (control points within it with it)."""
    import math

    tip = pts[-1]
    back = next((p for p in reversed(pts[:-1]) if math.dist(p, tip) > 1e-9), None)
    if back is None:
        return tip, pts
    d = math.dist(back, tip)
    length = min(ARROW_POINTS, 0.5 * math.dist(pts[0], tip))
    end = (tip[0] + (back[0] - tip[0]) * length / d, tip[1] + (back[1] - tip[1]) * length / d)
    out = list(pts)
    out[-1] = end
    for i in (-2, -3):  # a control point past the new end would fold the curve back
        if math.dist(out[i], tip) < length:
            out[i] = end
    return tip, out


def _cubic_points(vertices, codes) -> list:
    """The path as 3n+1 cubic B\u00e9zier points (straight runs as cubics along the line)."""
    pts = [vertices[0]]
    i = 1
    while i < len(vertices):
        if codes[i] == 4:
            pts += list(vertices[i:i + 3])
            i += 3
        else:
            (x0, y0), (x1, y1) = pts[-1], vertices[i]
            pts += [(x0 + (x1 - x0) / 3, y0 + (y1 - y0) / 3),
                    (x0 + 2 * (x1 - x0) / 3, y0 + 2 * (y1 - y0) / 3), (x1, y1)]
            i += 1
    return pts
