"""TikZ and DOT exports keep what the figure shows: the figure's width (column and page),
its colours, legend, notes and key (TikZ), and the arrowheads of directed edges (DOT, drawn
by Graphviz ``neato -n2`` and ``dot`` where Graphviz is installed, else read from the
``pos`` attributes)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from matplotlib.colors import to_hex

from viz.export import ARROW_POINTS, tex_escape, to_dot, to_tikz
from viz.gallery import generated_structure
from viz.ktree import plot_ktree

#: (kind, features, width): a key drawn in the figure, a key for the caption with the
#: note that the class is a parent of every feature, a k-tree at page width
CASES = [("tan", 12, "column"), ("tan", 30, "column"), ("ktan", 30, "page")]


def _figure(kind, n, width):
    return plot_ktree(generated_structure(kind, n, seed=1), target="Attrition", width=width)


def _numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", text)]


@pytest.mark.parametrize("kind,n,width", CASES)
def test_tikz_is_the_figure_width_with_its_colours_legend_and_key(kind, n, width):
    fig = _figure(kind, n, width)
    d, tikz = fig.kgraph_drawing, to_tikz(fig)
    left, right = fig.axes[0].get_xlim()
    box = next(line for line in tikz.splitlines() if "use as bounding box" in line)
    x0, _, x1, _ = _numbers(box)
    assert x1 - x0 == pytest.approx(fig.get_size_inches()[0], abs=1e-3)
    for line in tikz.splitlines():  # every node and text block inside that frame
        at = re.search(r"\) at \((-?[\d.]+),", line)
        if line.startswith("\\node[flow"):
            wide = float(re.search(r"text width=([\d.]+)in", line).group(1))
            start = float(at.group(1)) if at else left + 0.04
            assert start >= x0 - 1e-9 and start + wide <= x1 + 1e-9
        elif line.startswith("\\node[") and at:
            half = float(re.search(r"minimum (?:width|size)=([\d.]+)in", line).group(1)) / 2
            assert x0 - 1e-9 <= float(at.group(1)) - half and float(at.group(1)) + half <= x1
    colours = dict(re.findall(r"\\definecolor\{(kgc\d+)\}\{HTML\}\{([0-9A-F]{6})\}", tikz))
    patches = {p.get_gid(): p for p in fig.axes[0].patches}
    for node in d.nodes.values():
        line = next(x for x in tikz.splitlines() if x.endswith(f"% {node.gid}")
                    and x.startswith("\\node["))
        fill = re.search(r"fill=(kgc\d+)", line).group(1)
        face = to_hex(patches[f"node:{node.gid}"].get_facecolor())[1:].upper()
        assert colours[fill] == face
    assert len(set(colours.values())) >= 3  # class, feature, root/clique and edge colours
    for item in d.legend_items:  # the legend, notes included, each entry unbroken
        assert f"{tex_escape(item.label)}}}" in tikz
    if any("parent of every feature" in it.label for it in d.legend_items):
        assert "Attrition is a parent of every feature" in tikz
    if d.key and d.key_in_figure:
        for a, b in d.key:
            assert re.search(r"\\mbox\{[^{}]*" + re.escape(f"{a} = {b}") + "}", tikz)
    elif d.key:
        assert tikz.count("% key (for the caption):") == len(d.key)


def _typeset(tex: str, tmp_path) -> str:
    """pdflatex's output on the TikZ document (in an article: the standalone class may be
    absent), with the picture's width typed out as KGWIDTH."""
    head, body = tex.split("\\begin{document}")
    head = head.replace("\\documentclass[tikz,border=0pt]{standalone}",
                        "\\documentclass{article}\\usepackage{tikz}")
    body = body.split("\\end{document}")[0].strip()
    (tmp_path / "f.tex").write_text(
        head + "\\begin{document}\\newsavebox\\kgbox\\sbox\\kgbox{" + body + "}"
        "\\typeout{KGWIDTH=\\the\\wd\\kgbox}\\end{document}")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "f.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert "\n! " not in run.stdout, run.stdout[-2000:]
    return run.stdout


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="needs pdflatex (TeX Live)")
@pytest.mark.parametrize("kind,n,width", CASES)
def test_tikz_typesets_within_the_figure_width(tmp_path, kind, n, width):
    """pdflatex measures the picture."""
    fig = _figure(kind, n, width)
    out = _typeset(to_tikz(fig), tmp_path)
    assert "Overfull" not in out
    inches = float(re.search(r"KGWIDTH=([\d.]+)pt", out).group(1)) / 72.27
    assert inches == pytest.approx(fig.get_size_inches()[0], abs=2e-3)


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="needs pdflatex (TeX Live)")
def test_tikz_of_a_figure_with_hubs_typesets_their_marks(tmp_path):
    """The marks of the hubs (● ■ ▲ ◆) are math symbols in TikZ: pdflatex's text fonts have
    no such glyphs."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "kdb30_figures", Path(__file__).with_name("test_along.py"))
    figures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(figures)
    fig = figures.draw("page")
    assert fig.kgraph_hubs
    tex = to_tikz(fig)
    assert "\u25cf" not in tex and r"$\bullet$" in tex
    _typeset(tex, tmp_path)


def _arrowheads_in_pos(dot: str) -> tuple[int, int]:
    """(directed edges, directed edges whose pos has an e, or s, arrow point at the drawn
    tip, ARROW_POINTS from the spline's end)."""
    directed = ok = 0
    for line in dot.splitlines():
        if " -> " not in line or "dir=none" in line:
            continue
        directed += 1
        pos = re.search(r'pos="([es]),(\S+),(\S+) ([^"]+)"', line)
        if pos is None:
            continue
        tip = (float(pos.group(2)), float(pos.group(3)))
        pts = [tuple(map(float, p.split(","))) for p in pos.group(4).split()]
        near = pts[-1] if pos.group(1) == "e" else pts[0]
        gap = ((near[0] - tip[0]) ** 2 + (near[1] - tip[1]) ** 2) ** 0.5
        ok += 0 < gap <= ARROW_POINTS + 1e-3 and (len(pts) - 1) % 3 == 0
    return directed, ok


@pytest.mark.parametrize("kind,n,width", CASES[:2])
def test_dot_edges_carry_their_arrowheads(tmp_path, kind, n, width):
    fig = _figure(kind, n, width)
    dot = to_dot(fig)
    directed, ok = _arrowheads_in_pos(dot)
    assert directed == sum(e.directed for e in fig.kgraph_drawing.edges) > 0
    assert ok == directed
    if shutil.which("neato") is None or shutil.which("dot") is None:
        pytest.skip("Graphviz not installed: checked on the pos attributes only")
    (tmp_path / "f.dot").write_text(dot)
    for command in (["neato", "-n2"], ["dot"]):
        svg = subprocess.run([*command, "-Tsvg", str(tmp_path / "f.dot")], capture_output=True,
                             text=True, check=True, timeout=120).stdout
        groups = re.findall(r'class="edge">(.*?)</g>', svg, re.S)
        assert len(groups) == len(fig.kgraph_drawing.edges)
        assert sum("<polygon" in g for g in groups) == directed, command
