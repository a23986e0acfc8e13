"""Edges that run along each other (``viz.along``, ``check_figure(along=True)``) and hubs
drawn as the class is (``viz._hubs``): a dense kDB figure that today's drawing makes
untraceable is flagged, and the default drawing passes at page and column width."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from kgraph import ParentSetDAG
from viz.along import runs_along
from viz.check import check_figure
from viz.ktree import plot_ktree

FIXTURE = Path(__file__).with_name("kdb30_structure.json")


def kdb30():
    d = json.loads(FIXTURE.read_text())
    dag = ParentSetDAG(d["parents"], target=d["target"])
    weights = {(p, v): w for p, v, w in d["weights"]}
    return dag, d["target"], weights, d["feature_types"]


def draw(width, **kw):
    dag, target, weights, types = kdb30()
    return plot_ktree(dag, target=target, width=width, weights=weights, feature_types=types,
                      **kw)


def line(y0, y1, x1=30.0):
    return [np.array([[0.0, y0], [x1, y1]])]


def test_parallel_lines_run_along_over_their_common_length():
    shifted = [np.array([[5.0, 0.5], [40.0, 0.5]])]
    found = runs_along([line(0, 0), shifted])
    overlap = 25.0 + math.sqrt(1.0 - 0.5**2)  # and within 1 mm of the other's end
    assert len(found) == 1 and found[0].length == pytest.approx(overlap, abs=0.25)
    # ends 0.5 mm apart count as one end: 3 mm left out at each
    found = runs_along([line(0, 0), line(0.5, 0.5)])
    assert len(found) == 1 and found[0].length == pytest.approx(24.0, abs=0.5)


def test_lines_apart_or_short_do_not():
    assert runs_along([line(0, 0), line(1.2, 1.2)]) == []  # farther than 1 mm
    assert runs_along([line(0, 0, 9.0), line(0.5, 0.5, 9.0)]) == []  # shorter than 10 mm


@pytest.mark.parametrize("degrees", [3.0, 5.0, 8.0])
def test_a_shallow_crossing_is_close_over_2d_over_sin(degrees):
    """Two lines crossing at angle a are within d of each other (measured along one,
    distance to the other) over 2 d / sin(a): 38 mm at 3°, 23 mm at 5°, 14 mm at 8°."""
    a = math.radians(degrees)
    other = [np.array([[-40 * math.cos(a), -40 * math.sin(a)],
                       [40 * math.cos(a), 40 * math.sin(a)]])]
    found = runs_along([[np.array([[-40.0, 0.0], [40.0, 0.0]])], other])
    expected = 2 * 1.0 / math.sin(a)
    assert len(found) == 1 and found[0].length == pytest.approx(expected, abs=0.5)


def test_a_shared_node_is_left_out_near_it():
    """Two edges leaving one box 0.5 mm apart and parting after 6 mm: not along each
    other; parting after 20 mm: along each other over the 17 mm beyond 3 mm of the box."""
    box = np.array([[-5.0, 0.0, 5.0, 4.0]])

    def fan(part):
        return [[np.array([[0.0, 0.0], [0.0, -part], [-20.0, -part - 20]])],
                [np.array([[0.5, 0.0], [0.5, -part], [20.5, -part - 20]])]]

    assert runs_along(fan(6.0), box) == []
    found = runs_along(fan(20.0), box)
    assert len(found) == 1 and found[0].length == pytest.approx(17.0, abs=0.5)


def test_check_figure_looks_only_when_asked():
    fig = draw("column", hubs=None)
    assert not any("runs along" in p for p in check_figure(fig))
    assert any("runs along" in p for p in check_figure(fig, along=True))


@pytest.mark.parametrize("width", ["page", "column"])
def test_todays_kdb_figure_is_flagged(width):
    """Every edge drawn (as before hubs): bundles from JobRole and NumCompaniesWorked."""
    problems = check_figure(draw(width, hubs=None), along=True)
    along = [p for p in problems if "runs along" in p]
    assert len(along) >= 10 and len(along) == len(problems)
    assert sum("JobRole" in p or "NumCompaniesWorked" in p for p in along) >= 10


@pytest.mark.parametrize("width", ["page", "column"])
def test_default_kdb_figure_passes_and_says_what_it_leaves_out(width):
    dag, *_ = kdb30()
    fig = draw(width)
    assert check_figure(fig, along=True) == []
    drawing = fig.kgraph_drawing
    hubs = [line for line in drawing.legend if "edges not drawn)" in line and "(bold)" in line]
    assert len(hubs) >= 2
    children = {v: [c for c in dag.order if v in dag.parent_map[c]] for v in dag.order}
    drawn = {(e.u, e.v) for e in drawing.edges}
    for text in hubs:  # "● JobRole (bold): parent of every ● (22 edges not drawn)"
        mark, rest = text.split(" ", 1)
        hub = next(v for v in dag.order if rest.startswith(f"{v} (bold)"))
        marked = {v for v in dag.order if mark in (drawing.nodes[v].badge or "")}
        assert marked == {hub, *children[hub]}  # every child marked, nothing else
        assert not any(u == hub for u, _ in drawn)
        assert f"({len(children[hub])} edges not drawn)" in text
    shown = {(p, c) for p, c in dag.edges if (p, c) in drawn}
    hidden = {(p, c) for p, c in dag.edges if (p, c) not in drawn}
    assert len(shown) + len(hidden) == 57 and all(
        any(t.split(" ", 1)[1].startswith(f"{p} (bold)") for t in hubs) for p, _ in hidden)


def test_hubs_can_be_named_or_refused():
    fig = draw("page", hubs=["JobRole"])
    assert not any(e.u == "JobRole" for e in fig.kgraph_drawing.edges)
    assert fig.kgraph_hubs == ["JobRole"]
    assert len(draw("page", hubs=None).kgraph_drawing.edges) == 57


def test_the_hubs_chosen_redraw_the_same_figure_and_into_given_axes_once():
    from matplotlib.figure import Figure

    auto = draw("column")
    again = draw("column", hubs=auto.kgraph_hubs)
    assert [e.vertices for e in auto.kgraph_drawing.edges] == \
        [e.vertices for e in again.kgraph_drawing.edges]
    ax = Figure(figsize=(3.5, 4.5)).add_axes((0, 0, 1, 1))
    fig = draw(None, ax=ax)
    nodes = [p for p in ax.patches if (p.get_gid() or "").startswith("node:")]
    assert fig.kgraph_hubs and len(nodes) == len(fig.kgraph_drawing.nodes) == 31


def test_a_sparse_figure_is_drawn_as_before():
    from kgraph import AcyclicKTree

    t = AcyclicKTree(2, "abcdefg", {"c": "ab", "d": "bc", "e": "bd", "f": "be", "g": "bf"})
    auto, none = plot_ktree(t, width="column"), plot_ktree(t, width="column", hubs=None)
    assert check_figure(none, along=True) == []  # b has 5 children, all traceable
    assert [(e.u, e.v, e.vertices) for e in auto.kgraph_drawing.edges] == \
        [(e.u, e.v, e.vertices) for e in none.kgraph_drawing.edges]
