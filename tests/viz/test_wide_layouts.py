"""Wide layouts: a 25-feature k-TAN and a plate with long feature names draw without
overlapping node boxes (checked on the rendered bounding boxes) and match their baselines."""

import itertools
from pathlib import Path

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.testing.compare import compare_images
from viz_cases import BASELINE_STYLE, CASES, STANDALONE, TOLERANCE

from viz.style import apply_style, save_figure

BASELINE = Path(__file__).parent / "baseline"


@pytest.fixture(autouse=True)
def _style():
    import matplotlib

    with matplotlib.rc_context():
        apply_style(BASELINE_STYLE)
        yield


def node_boxes(fig):
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    ax = fig.axes[0]
    nodes = {p.get_gid(): p.get_window_extent(renderer) for p in ax.patches
             if (p.get_gid() or "").startswith("node:")}
    labels = {t.get_gid()[len("label:"):]: t.get_window_extent(renderer) for t in ax.texts
              if (t.get_gid() or "").startswith("label:")}
    return nodes, labels


@pytest.mark.parametrize("name", STANDALONE)
def test_no_two_node_boxes_overlap_and_labels_fit(name):
    nodes, labels = node_boxes(CASES[name](style=BASELINE_STYLE))
    assert len(nodes) >= 15
    clashes = [(a, b) for (a, x), (b, y) in itertools.combinations(nodes.items(), 2)
               if x.overlaps(y)]
    assert clashes == []
    for gid, text in labels.items():  # each label inside its own box (1 px of slack)
        box = nodes[f"node:{gid}"]
        assert box.x0 - 1 <= text.x0 and text.x1 <= box.x1 + 1, gid


@pytest.mark.parametrize("name", STANDALONE)
def test_wide_layout_matches_its_baseline(name, tmp_path):
    actual = save_figure(CASES[name](style=BASELINE_STYLE), tmp_path / f"{name}.png",
                         BASELINE_STYLE)
    result = compare_images(str(BASELINE / f"{name}.png"), str(actual), tol=TOLERANCE)
    assert result is None, result



def test_the_two_plates_are_apart_with_long_names():
    fig = CASES["plate_long_names"](style=BASELINE_STYLE)
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    plates = [p.get_window_extent(renderer) for p in fig.axes[0].patches
              if (p.get_gid() or "").startswith("plate:")]
    assert len(plates) == 2 and not plates[0].overlaps(plates[1])
