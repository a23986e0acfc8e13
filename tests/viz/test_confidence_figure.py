"""plot_confidence: which edges are drawn, how confidence sets width / opacity, the legend."""

import numpy as np
import pytest

from estimators.learning.structure_confidence import StructureConfidence
from kgraph import AcyclicKTree, GNBJunctionTree, GraphDB
from viz._draw import count_gids
from viz.confidence import plot_confidence
from viz.style import Style, save_figure

CONF = {("a", "b"): 1.0, ("b", "c"): 0.6, ("c", "d"): 0.2, ("a", "d"): 0.05}


def graph(directed=False):
    g = GraphDB(directed=directed)
    for (u, v), c in CONF.items():
        g.add_edge(u, v, confidence=c)
    return g


def edge(ax, gid):
    (patch,) = [p for p in ax.patches if p.get_gid() == f"edge:confidence:{gid}"]
    return patch


def test_threshold_selects_the_edges_drawn():
    for threshold, n in [(0.0, 4), (0.1, 3), (0.5, 2), (1.0, 1)]:
        ax = plot_confidence(graph(), threshold=threshold).axes[0]
        assert count_gids(ax, "edge:confidence:") == n
        assert count_gids(ax, "node:variable:") == 4  # every variable is kept


@pytest.mark.parametrize("encode", ["width", "alpha", "both"])
def test_confidence_orders_width_or_opacity(encode):
    ax = plot_confidence(graph(), encode=encode).axes[0]
    patches = [edge(ax, f"{u}-{v}") for u, v in CONF]  # CONF is in decreasing confidence
    widths = [p.get_linewidth() for p in patches]
    alphas = [p.get_alpha() for p in patches]
    if encode in ("width", "both"):
        assert widths == sorted(widths, reverse=True) and widths[0] > widths[-1]
    if encode in ("alpha", "both"):
        assert alphas == sorted(alphas, reverse=True) and alphas[0] > alphas[-1]
    levels = ["0.25", "0.50", "0.75", "1.00"]
    texts = [t.get_text() for t in ax.texts if (t.get_gid() or "").startswith("legend-text:")]
    assert texts[-5:] == ["confidence:", *levels]
    samples = {line.get_gid(): line for line in ax.lines}
    widths = [samples[f"legend:{level}"].get_linewidth() for level in levels]
    alphas = [samples[f"legend:{level}"].get_alpha() for level in levels]
    if encode == "width":
        assert widths == sorted(widths) and widths[0] < widths[-1]
    if encode == "alpha":
        assert alphas == sorted(alphas) and alphas[0] < alphas[-1]


def test_labels_arrows_and_class_vertex():
    annotated = GNBJunctionTree([("x1", "x2"), ("x2", "x3")], target="y").to_graph()
    for u, v, c in (("x1", "x2", 0.9), ("x2", "x3", 0.4)):
        annotated.set_edge_attrs(u, v, confidence=c)
    ax = plot_confidence(annotated).axes[0]
    assert count_gids(ax, "node:class:y") == 1 and count_gids(ax, "edge:class:y->") == 3
    labels = sorted(t.get_text() for t in ax.texts
                    if (t.get_gid() or "").startswith("edge-label:confidence:"))
    assert labels == ["0.40", "0.90"]
    directed = plot_confidence(graph(directed=True)).axes[0]
    assert edge(directed, "a->b").get_arrowstyle().__class__.__name__ == "CurveFilledB"
    quiet = plot_confidence(graph(), style=Style(edge_labels=False)).axes[0]
    assert count_gids(quiet, "edge-label:") == 0


def test_a_fitted_structure_confidence_is_drawn_averaged():
    def learner(X, y):
        return AcyclicKTree(1, ["a", "b", "c"], {"b": ["a"], "c": ["b"]})

    conf = StructureConfidence(learner, n_resamples=3, random_state=0).fit(np.zeros((6, 1)))
    ax = plot_confidence(conf, threshold=0.5).axes[0]
    assert count_gids(ax, "edge:confidence:") == 2


def test_drawing_twice_gives_identical_png_bytes(tmp_path):
    small = Style(dpi=50)
    a = save_figure(plot_confidence(graph(), style=small), tmp_path / "a.png", small)
    b = save_figure(plot_confidence(graph(), style=small), tmp_path / "b.png", small)
    assert a.read_bytes() == b.read_bytes() and a.read_bytes()[:4] == b"\x89PNG"


def test_bad_inputs_name_what_is_wrong():
    with pytest.raises(ValueError, match="Unknown encode 'colour'; valid encodings are"):
        plot_confidence(graph(), encode="colour")
    plain = GraphDB()
    plain.add_edge("a", "b")
    with pytest.raises(ValueError, match="No edge of the graph carries a 'confidence'"):
        plot_confidence(plain)
    with pytest.raises(TypeError, match="or a fitted StructureConfidence; got list"):
        plot_confidence([("a", "b")])
