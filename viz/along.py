"""Edges that run along each other: the figure check that a reader can trace every edge.

Two edges *run along each other* when, at the figure's printed size, the centre line of
one stays within ``distance`` millimetres of the other's over more than ``length``
millimetres of its own path. Defaults: **1 mm over 10 mm**.

* 1 mm: two hairlines (0.3-1 pt, 0.1-0.35 mm) whose centres are 1 mm apart still show a
  white gap at least twice as wide as either line, which the eye follows at reading
  distance; the bundles that cannot be told apart are closer (0.3-0.6 mm in the dense
  layered figures), and edges routed side by side through a layer keep 0.56-1.1 mm.
* 10 mm: two edges that cross at a shallow angle, or leave neighbouring ports of a box,
  are close only over a few millimetres (edges crossing at 6° are within 1 mm of each
  other over 10 mm, and such a crossing is still read as one); a reader loses an edge
  when it runs inside a bundle for a length comparable to the distance between two rows
  of boxes (8-13 mm in the layered figures).

Edges leaving or entering the same node are close near that node by construction (their
ports are side by side): the part of both paths within ``near_end`` millimetres (3 mm) of
a node box they both end on is not counted (when the figure has no node boxes, within
``near_end`` of an end point they share).

Paths are sampled every :data:`STEP` millimetres; pairs of samples closer than
``distance`` are found with a k-d tree (so the cost grows with the number of close
samples, not with the square of the edges).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["Along", "DISTANCE", "LENGTH", "NEAR_END", "runs_along"]

DISTANCE = 1.0
"""Millimetres below which two edge paths are counted as running along each other."""
LENGTH = 10.0
"""Millimetres of one path that may stay within :data:`DISTANCE` of another."""
NEAR_END = 3.0
"""Millimetres around a node box (or end point) two edges share that are not counted."""
STEP = 0.2
"""Millimetres between two samples of a path."""
TOUCH = 1.0
"""Millimetres from a node box within which a vertex of an edge's path (an end, the tip of
its arrowhead) makes the edge end on that node."""


@dataclass(frozen=True)
class Along:
    """Edges ``i`` and ``j`` (indices into the paths given) run along each other over
    ``length`` millimetres (the longest stretch of either path within the distance)."""

    i: int
    j: int
    length: float


def _sample(polylines: Sequence[np.ndarray], step: float) -> tuple[np.ndarray, np.ndarray]:
    """Points every ``step`` along each polyline of one edge, and their arc length (a
    gap of 10 * step between two polylines, so no stretch joins them)."""
    points, arcs, offset = [], [], 0.0
    for poly in polylines:
        poly = np.asarray(poly, dtype=float)
        seg = np.hypot(*np.diff(poly, axis=0).T)
        cum = np.concatenate([[0.0], np.cumsum(seg)])
        at = np.append(np.arange(0.0, cum[-1], step), cum[-1])
        points.append(np.column_stack([np.interp(at, cum, poly[:, 0]),
                                       np.interp(at, cum, poly[:, 1])]))
        arcs.append(at + offset)
        offset += cum[-1] + 10 * step
    return np.vstack(points), np.concatenate(arcs)


def _box_distance(points: np.ndarray, box: np.ndarray) -> np.ndarray:
    """Distance of each point to a box (x0, y0, x1, y1); 0 inside."""
    dx = np.maximum(np.maximum(box[0] - points[:, 0], points[:, 0] - box[2]), 0.0)
    dy = np.maximum(np.maximum(box[1] - points[:, 1], points[:, 1] - box[3]), 0.0)
    return np.hypot(dx, dy)


def runs_along(paths: Sequence[Sequence[np.ndarray]], boxes: np.ndarray | None = None, *,
               distance: float = DISTANCE, length: float = LENGTH,
               near_end: float = NEAR_END, step: float = STEP) -> list[Along]:
    """The pairs of edge paths that run along each other (see the module docstring).

    Parameters
    ----------
    paths : sequence of sequences of (n, 2) arrays
        Each edge as one or more polylines, in millimetres at the printed size.
    boxes : (m, 4) array, optional
        Node boxes ``x0, y0, x1, y1`` in millimetres: an edge ends on a box when a vertex
        of one of its polylines (an end, an arrowhead's tip) is within :data:`TOUCH` of it.
    distance, length, near_end : float
        As in the module docstring (millimetres).
    step : float
        Sampling step along the paths (millimetres).

    Returns
    -------
    list of Along
        One per pair, ``i < j``, in order.

    Examples
    --------
    Two edges 0.5 mm apart over 30 mm (their ends, as close, count as shared: 3 mm left
    out at each), a third 3 mm away, a fourth crossing them:

    >>> import numpy as np
    >>> line = lambda y0, y1: [np.array([[0.0, y0], [30.0, y1]])]
    >>> found = runs_along([line(0, 0), line(0.5, 0.5), line(3, 3), line(-10, 10)])
    >>> [(a.i, a.j, round(a.length)) for a in found]
    [(0, 1, 24)]
    """
    from scipy.spatial import cKDTree

    samples = [_sample(p, step) for p in paths]
    if len(samples) < 2:
        return []
    counts = np.array([len(s[0]) for s in samples])
    edge = np.repeat(np.arange(len(samples)), counts)
    points = np.vstack([s[0] for s in samples])
    arc = np.concatenate([s[1] for s in samples])
    pairs = cKDTree(points).query_pairs(distance, output_type="ndarray")
    pairs = pairs[edge[pairs[:, 0]] != edge[pairs[:, 1]]]
    if not len(pairs):
        return []
    # every (sample, other edge) close pair, both ways
    a = np.concatenate([pairs[:, 0], pairs[:, 1]])
    other = np.concatenate([edge[pairs[:, 1]], edge[pairs[:, 0]]])
    keys = np.unique(np.column_stack([edge[a], other, a]), axis=0)
    keep = ~_near_shared_end(keys, paths, points, boxes, near_end, step, distance)
    keys = keys[keep]
    if not len(keys):
        return []
    # stretches: consecutive samples of one edge close to the same other edge
    s = arc[keys[:, 2]]
    new = np.ones(len(keys), dtype=bool)
    new[1:] = ((keys[1:, 0] != keys[:-1, 0]) | (keys[1:, 1] != keys[:-1, 1])
               | (keys[1:, 2] != keys[:-1, 2] + 1) | (s[1:] - s[:-1] > 1.5 * step))
    start = np.flatnonzero(new)
    stop = np.append(start[1:], len(keys)) - 1
    span = s[stop] - s[start]
    best: dict[tuple[int, int], float] = {}
    for k in np.flatnonzero(span > length):
        i, j = sorted((int(keys[start[k], 0]), int(keys[start[k], 1])))
        best[(i, j)] = max(best.get((i, j), 0.0), float(span[k]))
    return [Along(i, j, d) for (i, j), d in sorted(best.items())]


def _near_shared_end(keys, paths, points, boxes, near_end, step, distance) -> np.ndarray:
    """Whether each (edge, other edge, sample) key lies within ``near_end`` of a node box
    (or, without boxes, an end point) both edges end on."""
    ends = [np.array([p[k] for p in path for k in (0, -1)], dtype=float) for path in paths]
    corners = [np.vstack([np.asarray(p, dtype=float) for p in path]) for path in paths]
    out = np.zeros(len(keys), dtype=bool)
    pairs, where = np.unique(keys[:, :2], axis=0, return_inverse=True)
    where = where.ravel()
    if boxes is not None and len(boxes):
        boxes = np.asarray(boxes, dtype=float)
        touch = np.array([[(_box_distance(c, b) <= TOUCH).any() for b in boxes]
                          for c in corners])
    for n, (i, j) in enumerate(pairs):
        rows = np.flatnonzero(where == n)
        pts = points[keys[rows, 2]]
        near = np.zeros(len(rows), dtype=bool)
        if boxes is not None and len(boxes):
            for b in np.flatnonzero(touch[i] & touch[j]):
                near |= _box_distance(pts, boxes[b]) <= near_end
        else:
            d = np.hypot(*(ends[i][:, None, :] - ends[j][None, :, :]).transpose(2, 0, 1))
            for e in ends[i][(d <= distance).any(axis=1)]:
                near |= np.hypot(*(pts - e).T) <= near_end
        out[rows] = near
    return out
