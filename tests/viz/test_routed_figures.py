"""Structure figures that never mislead (issue 44): every directed structure kind at 10, 30
and 60 features, one column and one page wide, passes the extended checker; an
independent test samples every drawn edge path and tests the points against every node box
(not the checker's code); a straight-line drawing fails the checker; the CLI and plot_ktree
give the same positions; the TikZ and DOT text hold every node label and edge."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from slow_cases import representative

from viz._routed import HEIGHT_LIMIT
from viz.check import check_figure
from viz.export import tex_escape, to_dot, to_tikz
from viz.gallery import STRUCTURE_KINDS, generated_structure
from viz.key import figure_key, key_in_figure
from viz.ktree import plot_ktree
from viz.style import PAPER_WIDTHS, Style

ROOT = Path(__file__).resolve().parents[2]


def draw(kind, n, width, seed=1, **kw):
    st = generated_structure(kind, n, seed=seed)
    target = "Attrition" if kind in ("tan", "ktan") else None
    return st, plot_ktree(st, target=target, width=width, **kw)


def boxes_and_paths(fig):
    """Display-space node boxes by gid and, per edge, its ends and sampled path points
    (each Bezier piece evaluated at 40 parameters: not the checker's flattening)."""
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    ax = fig.axes[0]
    boxes = {p.get_gid()[len("node:"):]: p.get_window_extent(renderer).extents
             for p in ax.patches if (p.get_gid() or "").startswith("node:")}
    edges = []
    for p in ax.patches:
        if not (p.get_gid() or "").startswith("edge:"):
            continue
        path = p.get_transform().transform_path(p.get_path())
        pts = np.vstack([bez(np.linspace(0.0, 1.0, 40)) for bez, _ in path.iter_bezier()])
        edges.append((p, pts))
    return boxes, edges


#: every kind in the default run at three of the six sizes (the widest at column width, the
#: narrowest routing); the other three in the ``slow`` step
CASES = representative(
    [(k, n, w) for k in STRUCTURE_KINDS for n in (10, 30, 60) for w in ("column", "page")],
    keep=[(k, n, w) for k in STRUCTURE_KINDS for n, w in ((10, "page"), (30, "column"),
                                                           (60, "column"))])


@pytest.mark.parametrize("kind,n,width", CASES)
def test_every_directed_structure_passes_the_checker_and_the_sampling_test(kind, n, width):
    st, fig = draw(kind, n, width)
    assert check_figure(fig) == []
    boxes, edges = boxes_and_paths(fig)
    features = [f"variable:{v}" for v in st.order]
    assert set(features) <= set(boxes)  # every feature is drawn, labelled (below)
    labels = {t.get_gid()[len("label:"):]: t.get_text() for t in fig.axes[0].texts
              if (t.get_gid() or "").startswith("label:")}
    key = dict(figure_key(fig))
    for v in st.order:  # its name, or a short key that the key explains
        shown = labels[f"variable:{v}"]
        assert shown == str(v) or key.get(shown) == str(v), (v, shown)
    read = {(key.get(a, a), key.get(b, b)) for a, b in reader_edges(fig)}
    assert read == {(str(p), str(v)) for p, v in st.edges}  # every parent read right
    parent_edges = [p for p, _ in edges if p.get_gid().startswith("edge:parent:")]
    assert len(parent_edges) + sum(hidden for _, _, hidden in hubs_read(fig)) == len(st.edges)
    assert all(p.get_arrowstyle().__class__.__name__ == "CurveFilledB" for p in parent_edges)
    shrink = 1.0  # pixels: a point on the outline is not inside
    for patch, pts in edges:
        ends = set(patch.kgraph_ends)
        for gid, (x0, y0, x1, y1) in boxes.items():
            if gid in ends:
                continue
            inside = ((pts[:, 0] > x0 + shrink) & (pts[:, 0] < x1 - shrink)
                      & (pts[:, 1] > y0 + shrink) & (pts[:, 1] < y1 - shrink))
            assert not inside.any(), f"{patch.get_gid()} passes through {gid}"
    for (_a, x), (_b, y) in [(i, j) for i in boxes.items() for j in boxes.items() if i[0] < j[0]]:
        assert min(x[2], y[2]) - max(x[0], y[0]) <= 0 or min(x[3], y[3]) - max(x[1], y[1]) <= 0
    assert min(t.get_fontsize() for t in fig.axes[0].texts) >= 6.0
    w, h = fig.get_size_inches()
    assert w <= PAPER_WIDTHS[width] + 1e-6  # never wider than asked
    assert h <= HEIGHT_LIMIT + 1e-6


def hubs_read(fig):
    """(mark, hub name, edges not drawn) of each legend line "● X (bold): parent of every
    ● (n edges not drawn)" (a hub drawn as the class is)."""
    import re

    found = [re.fullmatch(r"(\S) (.+) \(bold\): parent of every \1 \((\d+) edges not drawn\)",
                          line) for line in fig.kgraph_drawing.legend]
    return [(m[1], m[2], int(m[3])) for m in found if m]


def reader_edges(fig):
    """The (parent, child) names a reader takes from the figure: each arrow from the box it
    starts on to the box it ends on, a dotted copy read as the node it repeats; and a hub's
    edge to every other node carrying its mark."""
    names = {}
    for n in fig.kgraph_drawing.nodes.values():
        names[n.gid] = n.label
    out = set()
    for p in fig.axes[0].patches:
        if (p.get_gid() or "").startswith("edge:parent:"):
            a, b = p.kgraph_ends
            out.add((names[a], names[b]))
    key = dict(figure_key(fig))
    for mark, hub, _ in hubs_read(fig):
        out |= {(hub, n.label) for n in fig.kgraph_drawing.nodes.values()
                if mark in (n.badge or "") and key.get(n.label, n.label) != hub}
    return out


def test_a_deep_structure_is_drawn_in_panels_that_read_as_the_structure():
    names = [f"f{i}" for i in range(1, 61)]  # sonar's TAN: a chain of neighbouring bands
    chain60 = chain(60)
    fig = plot_ktree(chain60, target="class", width="column")
    d = fig.kgraph_drawing
    w, h = fig.get_size_inches()
    assert w <= 3.5 + 1e-6 and h <= Style().max_aspect * 3.5 + 1e-6  # one panel: 60 rows
    assert d.panels >= 2 and check_figure(fig) == []
    assert reader_edges(fig) == set(chain60.edges)  # copies read as their node
    copies = [n for n in d.nodes.values() if n.copy]
    originals = [n for n in d.nodes.values() if not n.copy]
    assert sorted(n.label for n in originals) == sorted([*names, "class"])
    assert len(copies) == d.panels - 1  # one per panel after the first
    below = {(e.u.node if hasattr(e.u, "node") else e.u): e for e in d.edges if hasattr(e.u, "node")}
    for c in copies:  # each copy stands right above its child, in the child's panel
        child = d.nodes[below[c.label].v]
        assert child.y < c.y and abs(child.x - c.x) < 0.5
        patch = next(p for p in fig.axes[0].patches if p.get_gid() == f"node:{c.gid}")
        assert patch.get_linestyle() == ":"
    assert "dotted: parent repeated from a panel on the left" in d.legend
    assert to_tikz(fig).count("dotted, gray") == len(copies)  # the exports say so too
    assert to_dot(fig).count('style="rounded,dotted"') == len(copies)


def straight_drawing(st):
    """Today's straight-line drawing: rows by longest path, an edge from centre to centre."""
    from viz._draw import Sheet, draw_edge, draw_node
    from viz._fit import node_size
    from viz.layout import layered_dag
    from viz.style import Style

    s = Style(width="page")
    sheet = Sheet(s, None, 7.0, None)
    parents = {v: st.parents(v) for v in st.order}
    pos = layered_dag(st.order, parents)
    pos = {v: (3.5 + 0.9 * x, 0.5 * y) for v, (x, y) in pos.items()}
    patches = {v: draw_node(sheet.ax, pos[v], str(v), s, gid=f"variable:{v}",
                            size=node_size(str(v), s)) for v in st.order}
    for p, v in st.edges:
        draw_edge(sheet.ax, patches[p], patches[v], s, gid=f"parent:{p}->{v}", directed=True)
    rects = [(x - 0.6, x + 0.6, y - 0.1, y + 0.1) for x, y in pos.values()]
    return sheet.finish(rects)


def test_the_checker_fails_a_straight_line_drawing_of_30_features():
    st = generated_structure("ktan", 30, seed=1)
    with pytest.raises(ValueError, match="passes through") as raised:
        check_figure(straight_drawing(st), strict=True)
    through = [p for p in raised.value.problems if "passes through" in p]
    assert len(through) >= 5, raised.value.problems
    assert all("a node that is not one of its ends" in p for p in through)


def node_positions(fig):
    return {n.gid: (round(n.x, 6), round(n.y, 6)) for n in fig.kgraph_drawing.nodes.values()}


def chain(n):
    from kgraph import AcyclicKTree

    names = [f"f{i}" for i in range(1, n + 1)]
    return AcyclicKTree(1, names, {v: [u] for u, v in zip(names, names[1:], strict=False)})


@pytest.mark.parametrize("what,width", [("tan30", "column"), ("tan30", "page"),
                                        ("chain60", "column")])
def test_the_cli_draws_the_same_positions_as_plot_ktree(tmp_path, what, width):
    st = generated_structure("tan", 30, seed=1) if what == "tan30" else chain(60)
    st.to_graph().write_graphml(tmp_path / "s.graphml")
    out = tmp_path / "fig.tex"
    env = {"PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg", "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, "-m", "viz.cli", "plot", str(tmp_path / "s.graphml"),
                          "--out", str(out), "--width", width, "--to", "tikz"],
                         capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    fig = plot_ktree(st, width=width)
    tikz = out.read_text()
    assert tikz == to_tikz(fig)
    assert (fig.kgraph_drawing.panels > 1) == (what == "chain60")  # panels drawn alike too
    key_file = tmp_path / "fig_key.txt"
    if not figure_key(fig):
        assert not key_file.exists() and "short keys" not in run.stdout
    elif key_in_figure(fig):
        assert not key_file.exists() and "drawn in the figure" in run.stdout
    else:
        assert key_file.read_text().splitlines()[0].split("\t")[1] == figure_key(fig)[0][1]
        assert str(key_file) in run.stdout


def test_tikz_and_dot_hold_every_label_edge_and_position():
    st, fig = draw("ktan", 10, "page", hubs=None)  # every edge drawn
    drawing = fig.kgraph_drawing
    tikz, dot = to_tikz(fig), to_dot(fig)
    nodes = [line for line in tikz.splitlines() if line.startswith("\\node[")]
    assert len(nodes) == len(drawing.nodes) + bool(drawing.legend_items) + bool(
        drawing.key and drawing.key_in_figure)
    assert tikz.count(r"\draw[") == len(drawing.edges) == len(st.edges) + 10  # and class edges
    for n in drawing.nodes.values():
        x = f"{n.x:.4f}".rstrip("0").rstrip(".")
        assert f"at ({x}," in tikz and f"{{{tex_escape(n.label)}" in tikz
        assert f'label="{n.label}"' in dot
    assert dot.count(" -> ") == len(drawing.edges)
    assert tikz.count("arrow") >= len(st.edges)


def test_export_refuses_a_figure_without_a_drawing():
    from matplotlib.figure import Figure

    with pytest.raises(ValueError, match="keeps no drawing"):
        to_tikz(Figure())


def test_an_aode_of_many_super_parents_states_its_arcs_instead_of_drawing_them():
    from kgraph.superparent import SuperParentEnsemble
    from viz.superparent import plot_superparent

    feats = [f"x{i}" for i in range(30)]
    fig = plot_superparent(SuperParentEnsemble(feats, [(v,) for v in feats], 1), width="page")
    ax = fig.axes[0]
    assert not [p for p in ax.patches if (p.get_gid() or "").startswith("edge:super-parent")]
    texts = [t.get_text() for t in ax.texts]
    assert "every super-parent is a parent of every other feature (870 arcs, not drawn)" in texts
    assert check_figure(fig) == [] and fig.get_size_inches()[0] == pytest.approx(7.0)
    small = plot_superparent(SuperParentEnsemble(feats[:3], [("x0",)], 1)).axes[0]
    drawn = [p for p in small.patches if (p.get_gid() or "").startswith("edge:super-parent")]
    assert len(drawn) == 2  # x0 -> x1, x0 -> x2
