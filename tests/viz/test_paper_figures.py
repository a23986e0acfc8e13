"""Figures at paper sizes: every structure figure at 5, 20, 30 and 60 features, one column
(3.5 in) and one page (7 in) wide, passes ``viz.check_figure`` (no overlapping labels,
nothing outside the figure, no font below 6 pt); the checker itself fails broken figures;
vector files embed TrueType fonts and rasterise no text."""

from __future__ import annotations

import re

import numpy as np
import pytest
from matplotlib.figure import Figure
from slow_cases import representative

from kgraph import AcyclicKTree, GNBJunctionTree
from kgraph.pbkt import PBKT
from kgraph.plate import LatentCNBPlate
from viz import check_figure
from viz._routed import HEIGHT_LIMIT
from viz.check import FigureProblems
from viz.confidence import plot_confidence
from viz.gnb import plot_gnb_forest, plot_gnb_graph, plot_junction_tree
from viz.ktree import plot_ktree, plot_pbkt, plot_tree_representation
from viz.plate import plot_plate
from viz.style import Style, paper_width, save_figure

#: Real column names of the project's tables, long and short, numbered to be distinct.
BASES = ["WeekofPurchase", "bill_length_mm", "PriceCH", "bkblk", "x", "SalePriceMM",
         "flipper_length_mm", "od280/od315_of_diluted_wines", "age", "LoyalCH"]


def names(n: int) -> list[str]:
    return [f"{BASES[i % len(BASES)]}{i}" for i in range(n)]


def tree(n: int, seed: int = 0) -> list[tuple[str, str]]:
    """A random tree: feature i hangs below a random earlier one (seeded)."""
    rng = np.random.default_rng(seed + n)
    nm = names(n)
    return [(nm[int(rng.integers(0, i))], nm[i]) for i in range(1, n)]


def two_tree(n: int) -> AcyclicKTree:
    rng = np.random.default_rng(n)
    nm = names(n)
    parents, edges = {nm[1]: [nm[0]]}, [(nm[0], nm[1])]
    for v in nm[2:]:
        a, b = edges[int(rng.integers(len(edges)))]
        parents[v] = [a, b]
        edges += [(a, v), (b, v)]
    return AcyclicKTree(2, nm, parents)


def tan(n: int) -> AcyclicKTree:
    nm = names(n)
    return AcyclicKTree(1, nm, {v: [u] for u, v in tree(n, seed=1)})


def gnb(n: int) -> GNBJunctionTree:
    return GNBJunctionTree.from_tree(tree(n), target="species")


def confidence_graph(n: int):
    g = gnb(n).to_graph()
    rng = np.random.default_rng(n)
    for u, v in g.edges(kind="tree"):
        g.set_edge_attrs(u, v, confidence=float(rng.uniform(0.2, 1.0)))
    return g


def pbkt(n: int) -> PBKT:
    """A 2-tree grown along a path (each vertex joins its predecessor and one of the
    predecessor's parents), with that path as backbone."""
    rng = np.random.default_rng(n)
    nm = names(n)
    parents = {nm[1]: [nm[0]]}
    for i in range(2, n):
        options = parents[nm[i - 1]]
        parents[nm[i]] = [nm[i - 1], options[int(rng.integers(len(options)))]]
    return PBKT.from_ktree(AcyclicKTree(2, nm, parents), nm)


#: Every structure figure by name: (n, width) -> figure.
FIGURES = {
    "gnb_graph": lambda n, w: plot_gnb_graph(gnb(n), width=w),
    "gnb_forest": lambda n, w: plot_gnb_forest(gnb(n).prefix(max(1, n // 2)), width=w),
    "junction_tree": lambda n, w: plot_junction_tree(gnb(n), "tree", width=w),
    "junction_tree_compact": lambda n, w: plot_junction_tree(gnb(n), "compact", width=w),
    "tan": lambda n, w: plot_ktree(tan(n), target="species", width=w),
    "ktree": lambda n, w: plot_ktree(two_tree(n), width=w),
    "ktan": lambda n, w: plot_ktree(two_tree(n), target="species", width=w),
    "tree_representation": lambda n, w: plot_tree_representation(two_tree(n), width=w),
    "plate": lambda n, w: plot_plate(LatentCNBPlate(names(n), 3), width=w),
    "confidence": lambda n, w: plot_confidence(confidence_graph(n), width=w,
                                               title="edge confidence, 20 resamples"),
}

def figure(name: str, n: int, width: str) -> Figure:
    return FIGURES[name](n, width)


#: every figure in the default run at three of the eight sizes: small, a taller column, the
#: widest at page width; the other five in the ``slow`` step
DEFAULT_SIZES = [(5, "column"), (30, "column"), (60, "page")]


@pytest.mark.parametrize(("name", "n", "width"), representative(
    [(f, n, w) for f in sorted(FIGURES) for n in (5, 20, 30, 60) for w in ("column", "page")],
    keep=[(f, n, w) for f in sorted(FIGURES) for n, w in DEFAULT_SIZES]))
def test_every_structure_figure_passes_the_checker(name, n, width):
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig = figure(name, n, width)
    assert check_figure(fig) == []
    w, h = fig.get_size_inches()
    wider = [str(c.message) for c in caught if "drawn wider" in str(c.message)]
    assert w == pytest.approx(paper_width(width)) or (w > paper_width(width) and wider)
    if n <= 20 or width == "page":  # 30 and 60 labelled features in a column: taller
        assert h <= Style().max_aspect * w + 1e-9
    assert h <= HEIGHT_LIMIT + 1e-9  # a journal's tallest figure
    labels = [t for ax in fig.axes for t in ax.texts if (t.get_gid() or "").startswith("label:")]
    sizes = {t.get_fontsize() for t in labels}
    assert len(sizes) == 1 and sizes <= {7.0, 6.0}  # the full size, or 6 pt to fit the height
    if sizes == {6.0}:  # only where 7 pt would be too tall
        assert n > 20 and width == "column", (name, n, width)
    if name in ("gnb_graph", "tan", "ktree", "ktan", "confidence"):
        assert len(labels) >= n  # every feature labelled, none dropped


@pytest.mark.parametrize("n", [5, 25])
def test_pbkt_along_its_backbone_or_as_a_graph_passes_the_checker(n):
    for width in ("column", "page"):
        assert check_figure(plot_pbkt(pbkt(n), width=width)) == []


def test_labels_stay_inside_their_boxes_at_column_width():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = plot_ktree(two_tree(20), target="species", width="column")
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    ax = fig.axes[0]
    boxes = {p.get_gid()[len("node:"):]: p.get_window_extent(renderer) for p in ax.patches
             if (p.get_gid() or "").startswith("node:")}
    for text in ax.texts:
        gid = text.get_gid() or ""
        if gid.startswith("label:"):
            box, inner = boxes[gid[len("label:"):]], text.get_window_extent(renderer)
            assert box.x0 - 0.5 <= inner.x0 and inner.x1 <= box.x1 + 0.5, gid
            assert box.y0 - 0.5 <= inner.y0 and inner.y1 <= box.y1 + 0.5, gid


def test_long_names_are_abbreviated_with_a_key():
    from viz.key import figure_key, key_caption, key_in_figure

    fig = plot_ktree(two_tree(20), target="species", width="column")
    texts = [t.get_text() for t in fig.axes[0].texts]
    key = dict(figure_key(fig))
    shown = key_caption(fig)
    assert "od280/od315_of_diluted_wines7" in key.values()
    assert "= od280/od315_of_diluted_wines7" in shown
    short = next(a for a, b in key.items() if b == "od280/od315_of_diluted_wines7")
    assert short in texts and "…" in short  # the node shows the cut name
    if key_in_figure(fig):  # the key below the figure, else the legend says where it is
        assert "Abbreviations:" in texts
        assert any(t.endswith("od280/od315_of_diluted_wines7") for t in texts if " = " in t)
    else:
        assert "shortened names: key in the caption (too long for the figure)" in texts
    big = plot_ktree(two_tree(20), target="species", width=7.0)  # a page: in the figure
    assert key_in_figure(big) and "Abbreviations:" in [t.get_text() for t in big.axes[0].texts]


def test_weights_are_line_widths_with_a_legend():
    kt = tan(8)
    weights = {(p, v): float(i + 1) for i, (p, v) in enumerate(kt.edges)}
    ax = plot_ktree(kt, weights=weights, width="column").axes[0]
    edges = {p.get_gid(): p.get_linewidth() for p in ax.patches
             if (p.get_gid() or "").startswith("edge:parent:")}
    ordered = [edges[f"edge:parent:{p}->{v}"] for p, v in kt.edges]
    assert ordered == sorted(ordered) and ordered[0] < ordered[-1]
    legend = [t.get_text() for t in ax.texts if (t.get_gid() or "").startswith("legend-text:")]
    assert "edge weight (nats):" in legend and "1.000" in legend and "7.000" in legend
    plain = plot_ktree(kt, weights=weights, width="column", weight_unit=None).axes[0]
    assert "edge weight:" in [t.get_text() for t in plain.texts]


def test_feature_types_colour_the_nodes_with_a_legend():
    import matplotlib.colors as mcolors

    kt = tan(4)
    types = dict(zip(kt.order, ["continuous", "categorical"] * 2, strict=True))
    style = Style()
    ax = plot_ktree(kt, target="y", feature_types=types, width="column", style=style).axes[0]
    node = {p.get_gid(): mcolors.to_hex(p.get_facecolor()) for p in ax.patches}
    v = kt.order[2]  # a continuous feature outside the initial clique
    assert node[f"node:variable:{v}"] == style.continuous_color.lower()
    legend = [t.get_text() for t in ax.texts]
    assert "continuous feature" in legend and "categorical feature" in legend


def test_class_edges_stay_inside_the_figure_and_are_named_in_the_legend_when_many():
    few = plot_gnb_graph(gnb(8), width="column").axes[0]
    assert sum((p.get_gid() or "").startswith("edge:class:") for p in few.patches) == 8
    many = plot_gnb_graph(gnb(20), width="page").axes[0]
    assert not any((p.get_gid() or "").startswith("edge:class:") for p in many.patches)
    assert any("parent of every feature" in t.get_text() for t in many.texts)


def test_drawing_into_a_given_axes_fits_its_size():
    fig = Figure(figsize=(7, 4))
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    assert plot_gnb_graph(gnb(20), ax=ax) is fig
    assert check_figure(fig) == []
    assert tuple(fig.get_size_inches()) == (7, 4)


# -- the checker cannot pass vacuously ---------------------------------------------------


def test_checker_finds_overlapping_labels():
    fig = Figure(figsize=(3.5, 1.0))
    fig.text(0.1, 0.5, "bill_length_mm", fontsize=7)
    fig.text(0.15, 0.5, "flipper_length_mm", fontsize=7)
    problems = check_figure(fig)
    assert problems == ["Text 'bill_length_mm' overlaps Text 'flipper_length_mm'"]


def test_checker_finds_artists_outside_the_figure_and_cut_by_the_frame():
    from matplotlib.patches import Circle

    fig = Figure(figsize=(2.0, 1.0))
    fig.text(0.9, 0.5, "a long label running off", fontsize=7)
    ax = fig.add_axes((0.1, 0.1, 0.5, 0.8))
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.add_patch(Circle((1.0, 0.5), 0.2, gid="node:cut"))
    problems = check_figure(fig)
    assert "Text 'a long label running off' lies partly outside the figure" in problems
    assert "Circle (gid node:cut) is cut by the axes frame" in problems


def test_checker_finds_small_fonts_at_the_figure_size():
    fig = Figure(figsize=(3.5, 1.0))
    fig.text(0.1, 0.5, "tiny", fontsize=5.5)
    fig.text(0.6, 0.5, "fine", fontsize=6)
    assert check_figure(fig) == ["Text 'tiny' is 5.5 pt, below the minimum of 6.0 pt"]
    assert check_figure(fig, min_font_size=7) == [
        "Text 'tiny' is 5.5 pt, below the minimum of 7.0 pt",
        "Text 'fine' is 6.0 pt, below the minimum of 7.0 pt"]
    with pytest.raises(FigureProblems, match=r"1 problem\(s\) with the figure:\n- Text 'tiny'"):
        check_figure(fig, strict=True)


def test_checker_ignores_text_that_is_not_drawn():
    fig = Figure(figsize=(3.5, 1.0))
    fig.text(0.1, 0.5, "shown", fontsize=7)
    fig.text(0.12, 0.5, "hidden", fontsize=4, visible=False)
    ax = fig.add_axes((0.5, 0.1, 0.4, 0.8))
    ax.set_axis_off()  # its tick labels are not drawn, so not checked
    assert check_figure(fig) == []


# -- styles, widths and files --------------------------------------------------------------


def test_widths_and_fonts_are_validated():
    assert paper_width("column") == 3.5 and paper_width("page") == 7.0 and paper_width(5) == 5.0
    with pytest.raises(ValueError, match="Unknown figure width 'A4': use 'column' \\(3.5 in\\)"):
        Style(width="A4")
    with pytest.raises(ValueError, match="between 1 and 40; got -2"):
        plot_gnb_graph(gnb(3), width=-2)
    with pytest.raises(ValueError, match="font_size must be at least min_font_size"):
        Style(font_size=5.5)
    with pytest.raises(ValueError, match="min_font_size must be at least 6.0 pt"):
        Style(min_font_size=4, font_size=5)
    assert Style().font_size >= 7 and Style().small_font_size >= 6


def test_vector_files_embed_truetype_and_rasterise_no_text(tmp_path):
    fig = plot_ktree(two_tree(10), target="species", width="column")
    pdf = save_figure(fig, tmp_path / "f.pdf").read_bytes()
    assert b"/FontFile2" in pdf and b"/Subtype /Image" not in pdf  # TrueType, no images
    assert b"DejaVuSans" in pdf
    svg = save_figure(fig, tmp_path / "f.svg").read_text()
    assert "<image" not in svg and re.search(r'width="252pt"', svg)  # 3.5 in = 252 pt
