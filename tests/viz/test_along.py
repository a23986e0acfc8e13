"""Edges that run along each other (``viz.along``, ``check_figure(along=True)``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from viz.along import runs_along


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
