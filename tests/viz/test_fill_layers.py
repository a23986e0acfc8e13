"""viz._layered.fill_layers: layers filled top down counting the edges that cross them.
Checked against what the layers are (every vertex below its parents; each layer's boxes and
the edges crossing it, counted from the result, inside the width) and against the layer
counts of a star worked out by hand."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from viz._layered import ROW_PRIORITIES, fill_layers


@st.composite
def dags(draw):
    n = draw(st.integers(1, 25))
    parents = {v: sorted(draw(st.sets(st.integers(0, v - 1), max_size=min(v, 3)))) if v else []
               for v in range(n)}
    widths = {v: draw(st.sampled_from([0.15, 0.2, 0.4, 0.9])) for v in range(n)}
    return list(range(n)), parents, widths


@settings(max_examples=80, deadline=None)
@given(dags(), st.sampled_from([1.0, 2.0, 3.42]), st.sampled_from(ROW_PRIORITIES))
def test_every_layer_holds_its_boxes_and_crossing_edges_inside_the_width(dag, width, priority):
    order, parents, widths = dag
    gap, slot = 0.09, 0.065
    layer = fill_layers(order, parents, widths, width, gap, slot, priority)
    edges = sum(len(ps) for ps in parents.values())
    if layer is None:  # only when some vertex cannot fit a layer beside the other edges
        assert any(widths[v] + gap + (edges - len(parents[v])) * slot > width for v in order)
        return
    assert set(layer) == set(order)
    assert all(layer[p] < layer[v] for v in order for p in parents[v])
    for d in set(layer.values()):
        boxes = sum(widths[v] + gap for v in order if layer[v] == d)
        crossing = sum(1 for v in order for p in parents[v] if layer[p] < d < layer[v])
        assert boxes + crossing * slot <= width + 1e-9, (d, boxes, crossing)
    assert sorted(set(layer.values())) == list(range(1 + max(layer.values())))
    ample = sum(widths.values()) + gap * len(order) + slot * edges
    longest: dict = {}  # with room for everything, the longest-path layers
    for v in order:
        longest[v] = 1 + max((longest[p] for p in parents[v]), default=-1)
    assert fill_layers(order, parents, widths, ample, gap, slot, priority) == longest


@pytest.mark.parametrize("children,width", [(20, 3.42), (22, 2.0), (8, 7.0)])
def test_a_hubs_children_fill_layers_as_worked_out_by_hand(children, width):
    w, gap, slot = 0.2, 0.09, 0.065
    order = ["hub", *range(children)]
    parents = {c: ["hub"] for c in range(children)}
    layer = fill_layers(order, parents, {"hub": w, **dict.fromkeys(range(children), w)},
                        width, gap, slot)
    expected, left, depth = {}, children, 1  # a layer: the children left cross it or end in it
    while left:
        fit = min(left, math.floor((width - left * slot) / (w + gap - slot) + 1e-9))
        expected[depth] = fit
        left, depth = left - fit, depth + 1
    counts = {d: sum(1 for c in range(children) if layer[c] == d) for d in expected}
    assert counts == expected and layer["hub"] == 0


def test_an_unknown_priority_is_refused():
    with pytest.raises(ValueError, match="Unknown priority 'widest'; use one of"):
        fill_layers("ab", {"b": "a"}, dict.fromkeys("ab", 1.0), 3.0, 0.1, 0.1, "widest")
