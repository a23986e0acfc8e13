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
        "#": r"\#", "^": r"\^{}", "_": r"\_", "%": r"\%", "~": r"\textasciitilde{}"}


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
    r"""The figure as a standalone LaTeX document with one ``tikzpicture`` (units: inches).

    Every node is ``\node[...] (nI) at (x,y) {label};`` with its box size (a parent
    repeated in a later panel is dotted and gray); every edge is
    ``\draw`` along the drawn path (``.. controls .. and ..`` for the curves), with an
    arrow tip on directed edges; the key of numbered or shortened names follows below.

    Raises
    ------
    ValueError
        For a figure that keeps no drawing (an overview or a chart).
    """
    d, ids = _drawing(fig)
    lines = [r"\documentclass[tikz,border=2pt]{standalone}",
             r"\usetikzlibrary{arrows.meta}",
             r"\begin{document}",
             r"\begin{tikzpicture}[x=1in, y=1in, font=\sffamily\scriptsize,",
             r"  box/.style={draw, rounded corners=2pt, inner sep=0pt, align=center},",
             r"  circ/.style={draw, circle, inner sep=0pt},",
             r"  edge/.style={line width=0.6pt}, arrow/.style={-{Stealth[length=3pt]}},",
             r"  light/.style={gray}, dashedline/.style={dashed}]"]
    for v, n in d.nodes.items():
        shape = "circ" if n.circle else "box"
        size = (f"minimum size={_f(n.height)}in" if n.circle else
                f"minimum width={_f(n.width)}in, minimum height={_f(n.height)}in")
        extra = (", font=\\sffamily\\scriptsize\\bfseries" if n.bold else "") + \
            (", dashed" if n.dashed else "") + (", dotted, gray" if n.copy else "")
        label = tex_escape(n.label) + (f" {{\\tiny {tex_escape(n.badge)}}}" if n.badge else "")
        lines.append(f"\\node[{shape}, {size}{extra}] ({ids[v]}) at ({_f(n.x)},{_f(n.y)}) "
                     f"{{{label}}}; % {tex_escape(n.gid)}")
    for e in d.edges:
        opts = ["edge"]
        if e.directed:
            opts.append("arrow" if not e.reverse else "{Stealth[length=3pt]}-")
        if e.light:
            opts.append("light")
        if e.dashed:
            opts.append("dashedline")
        if e.width is not None:
            opts.append(f"line width={_f(e.width)}pt")
        lines.append(f"\\draw[{', '.join(opts)}] {_tikz_path(e.vertices, e.codes)}; "
                     f"% {ids[e.u]} -> {ids[e.v]} ({tex_escape(e.gid)})")
    if d.key:
        bottom = min(n.y - n.height / 2 for n in d.nodes.values()) - 0.1
        left = min(n.x - n.width / 2 for n in d.nodes.values())
        entries = "; ".join(f"{tex_escape(a)} = {tex_escape(b)}" for a, b in d.key)
        lines.append(f"\\node[anchor=north west, text width=5in, align=left] at "
                     f"({_f(left)},{_f(bottom)}) {{{entries}}}; % key")
    lines += [r"\end{tikzpicture}", r"\end{document}", ""]
    return "\n".join(lines)


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
    box sizes (inches), the drawn edge paths as ``pos`` splines and the key as a comment;
    ``neato -n2`` draws it as laid out here.

    Raises
    ------
    ValueError
        For a figure that keeps no drawing (an overview or a chart).
    """
    d, ids = _drawing(fig)
    lines = ["digraph structure {", '  graph [splines=true, outputorder=edgesfirst];',
             '  node [shape=box, style=rounded, fontname="DejaVu Sans", fontsize=7, '
             'fixedsize=true];']
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
        pts = _cubic_points(e.vertices, e.codes)
        spline = " ".join(f"{_f(72 * x)},{_f(72 * y)}" for x, y in pts)
        attrs = [f'pos="{spline}"', f"id={_dot_quote(e.gid)}"]
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
