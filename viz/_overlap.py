"""Remove overlaps between node boxes of a layout, keeping its shape.

Force layouts (stress, Kamada–Kawai) place node centres, not boxes: long labels drawn as
wide boxes can overlap. :func:`separate` pushes overlapping pairs apart along the axis of
least overlap (vectorised over all pairs) and, if that has not converged, scales the whole
layout until no two boxes overlap, which always terminates for distinct centres.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

import numpy as np

Point = tuple[float, float]


def _overlap(P: np.ndarray, W: np.ndarray, H: np.ndarray, i: np.ndarray, j: np.ndarray,
             gap: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    d = P[j] - P[i]
    ox = (W[i] + W[j]) / 2 + gap - np.abs(d[:, 0])
    oy = (H[i] + H[j]) / 2 + gap - np.abs(d[:, 1])
    return d, ox, oy, (ox > 1e-9) & (oy > 1e-9)


def separate(positions: Mapping[Hashable, Point], sizes: Mapping[Hashable, tuple[float, float]],
             gap: float = 0.2, max_iter: int = 300) -> dict[Hashable, Point]:
    """Positions where no two boxes (``sizes``: width, height) come closer than ``gap``.

    Examples
    --------
    >>> out = separate({"a": (0.0, 0.0), "b": (0.5, 0.0)}, {"a": (2.0, 1.0), "b": (2.0, 1.0)})
    >>> out  # apart along y, the axis of least overlap: 1.0 tall + 0.2 gap
    {'a': (0.0, -0.6), 'b': (0.5, 0.6)}
    """
    keys = list(positions)
    n = len(keys)
    if n < 2:
        return dict(positions)
    P = np.array([positions[k] for k in keys], dtype=float)
    W = np.array([sizes[k][0] for k in keys], dtype=float)
    H = np.array([sizes[k][1] for k in keys], dtype=float)
    i, j = np.triu_indices(n, k=1)
    for _ in range(max_iter):
        d, ox, oy, hit = _overlap(P, W, H, i, j, gap)
        if not hit.any():
            break
        along_x = hit & (ox <= oy)
        along_y = hit & ~along_x
        sign = np.where(d >= 0, 1.0, -1.0)
        push = np.zeros((i.size, 2))
        push[along_x, 0] = sign[along_x, 0] * ox[along_x] / 2
        push[along_y, 1] = sign[along_y, 1] * oy[along_y] / 2
        move = np.zeros_like(P)
        np.add.at(move, j, push)
        np.add.at(move, i, -push)
        P += move
    centre = P.mean(axis=0)
    while _overlap(P, W, H, i, j, gap)[3].any():  # fallback: spread the layout out
        P = centre + 1.2 * (P - centre)
    return {k: (float(x), float(y)) for k, (x, y) in zip(keys, P, strict=True)}
