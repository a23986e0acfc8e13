"""Deterministic layouts computed from the structure alone (no random seeds, no physics).

* :func:`tidy_forest` — layered tidy trees: depth gives the row, leaves take consecutive
  columns in child order, a parent sits midway over its first and last child; trees stand
  side by side.
* :func:`layered_dag` — rows by longest path from the sources (a vertex one row below its
  latest parent), each row ordered by the mean column of the parents (creation order on ties).
* :func:`line_layout` — vertices on a horizontal line in a given order.
* :func:`stress_layout` — networkx's Kamada–Kawai layout, which starts from the circular
  layout of the nodes in the given order (no random start), rounded and scaled.

The same input always gives the same coordinates.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable, Mapping, Sequence

__all__ = ["tidy_forest", "rooted_children", "layered_dag", "line_layout", "stress_layout"]

Point = tuple[float, float]


def rooted_children(nodes: Sequence[Hashable], edges: Iterable[tuple[Hashable, Hashable]],
                    roots: Sequence[Hashable] | None = None
                    ) -> tuple[list[Hashable], dict[Hashable, list[Hashable]]]:
    """Orient an undirected forest away from its roots (breadth first).

    ``roots`` default: for each component, its first node in ``nodes``. Children keep the
    order of ``nodes``. Returns (roots, children).

    Examples
    --------
    >>> rooted_children([1, 2, 3, 4], [(2, 1), (2, 3)])
    ([1, 4], {1: [2], 2: [3], 3: [], 4: []})
    """
    rank = {v: i for i, v in enumerate(nodes)}
    adjacency: dict[Hashable, list[Hashable]] = {v: [] for v in nodes}
    for u, v in edges:
        adjacency[u].append(v)
        adjacency[v].append(u)
    children: dict[Hashable, list[Hashable]] = {v: [] for v in nodes}
    seen: set[Hashable] = set()
    found: list[Hashable] = []
    candidates = list(roots) if roots is not None else list(nodes)
    for root in candidates:
        if root in seen:
            continue
        found.append(root)
        seen.add(root)
        queue = deque([root])
        while queue:
            x = queue.popleft()
            for y in sorted(adjacency[x], key=rank.__getitem__):
                if y not in seen:
                    seen.add(y)
                    children[x].append(y)
                    queue.append(y)
    return found, children


def tidy_forest(roots: Sequence[Hashable], children: Mapping[Hashable, Sequence[Hashable]],
                gap: float = 1.0, top: float = 0.0, row: float = 1.0) -> dict[Hashable, Point]:
    """Positions of a forest: ``y = top - row * depth``, leaves one column apart in order,
    ``gap`` extra columns between trees.

    Examples
    --------
    >>> pos = tidy_forest([1], {1: [2, 3], 2: [], 3: [4], 4: []})
    >>> pos[1], pos[2], pos[3], pos[4]
    ((0.5, 0.0), (0.0, -1.0), (1.0, -1.0), (1.0, -2.0))
    """
    pos: dict[Hashable, Point] = {}
    column = 0.0
    for i, root in enumerate(roots):
        if i:
            column += gap
        # post-order with an explicit stack (no recursion: a chain of any length lays out)
        stack: list[tuple[Hashable, int, bool]] = [(root, 0, False)]
        while stack:
            v, depth, expanded = stack.pop()
            kids = children.get(v, ())
            if not kids:
                pos[v] = (column, top - row * depth)
                column += 1.0
            elif expanded:
                pos[v] = ((pos[kids[0]][0] + pos[kids[-1]][0]) / 2, top - row * depth)
            else:
                stack.append((v, depth, True))
                stack.extend((c, depth + 1, False) for c in reversed(kids))
    return pos


def centre(positions: Mapping[Hashable, Point]) -> dict[Hashable, Point]:
    """Shift positions so that their columns are centred on x = 0."""
    if not positions:
        return {}
    xs = [p[0] for p in positions.values()]
    mid = (min(xs) + max(xs)) / 2
    return {v: (x - mid, y) for v, (x, y) in positions.items()}


def layered_dag(order: Sequence[Hashable], parents: Mapping[Hashable, Iterable[Hashable]]
                ) -> dict[Hashable, Point]:
    """Rows by longest path from the sources; columns by the parents' mean (barycentre).

    ``order`` must list parents before children (a creation order).

    Examples
    --------
    >>> pos = layered_dag("abcd", {"a": "", "b": "a", "c": "ab", "d": "bc"})
    >>> [pos[v][1] for v in "abcd"]
    [0.0, -1.0, -2.0, -3.0]
    """
    rank = {v: i for i, v in enumerate(order)}
    depth: dict[Hashable, int] = {}
    for v in order:
        ps = list(parents.get(v, ()))
        depth[v] = 1 + max((depth[p] for p in ps), default=-1)
    rows: dict[int, list[Hashable]] = {}
    for v in order:
        rows.setdefault(depth[v], []).append(v)
    pos: dict[Hashable, Point] = {}
    for d in sorted(rows):
        row = rows[d]
        if d:
            def bary(v: Hashable) -> tuple[float, int]:
                ps = list(parents.get(v, ()))
                return (sum(pos[p][0] for p in ps) / len(ps), rank[v])

            row = sorted(row, key=bary)
        for i, v in enumerate(row):
            pos[v] = (i - (len(row) - 1) / 2, float(-d))
    return pos


def line_layout(order: Sequence[Hashable]) -> dict[Hashable, Point]:
    """Vertices on the x-axis, one unit apart, in order.

    Examples
    --------
    >>> line_layout("ab")
    {'a': (0.0, 0.0), 'b': (1.0, 0.0)}
    """
    return {v: (float(i), 0.0) for i, v in enumerate(order)}


def stress_layout(nodes: Sequence[Hashable], edges: Iterable[tuple[Hashable, Hashable]],
                  edge_length: float = 1.6) -> dict[Hashable, Point]:
    """Kamada–Kawai positions scaled to a mean edge length, with the first node on top.

    Deterministic: the optimisation starts from the circular layout in node order; the
    result is rotated so that the first node lies straight above the centroid and rounded
    to 1e-6.

    Examples
    --------
    >>> pos = stress_layout("abc", [("a", "b"), ("b", "c"), ("a", "c")])
    >>> pos["a"][0], pos["a"][1] > pos["b"][1]
    (0.0, True)
    """
    import networkx as nx
    import numpy as np

    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    raw = nx.kamada_kawai_layout(graph)
    xy = np.array([raw[v] for v in nodes], dtype=float)
    xy -= xy.mean(axis=0)
    angle = np.pi / 2 - np.arctan2(xy[0, 1], xy[0, 0]) if np.any(xy[0]) else 0.0
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    xy = xy @ rotation.T
    index = {v: i for i, v in enumerate(nodes)}
    lengths = [np.linalg.norm(xy[index[u]] - xy[index[v]]) for u, v in graph.edges()]
    if lengths and np.mean(lengths) > 0:
        xy *= edge_length / np.mean(lengths)
    xy = np.round(xy, 6) + 0.0  # + 0.0 turns -0.0 into 0.0
    return {v: (float(x), float(y)) for v, (x, y) in zip(nodes, xy, strict=True)}
