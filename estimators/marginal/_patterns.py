"""Rows grouped by their missing pattern: every engine does its work once per pattern."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import networkx as nx
import numpy as np


def missing_patterns(missing: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield ``(pattern, rows)``: each distinct boolean row of ``missing`` and its row indices.

    Examples
    --------
    >>> import numpy as np
    >>> m = np.array([[False, True], [False, False], [False, True]])
    >>> [(p.tolist(), r.tolist()) for p, r in missing_patterns(m)]
    [([False, False], [1]), ([False, True], [0, 2])]
    """
    missing = np.asarray(missing, dtype=bool)
    patterns, inverse = np.unique(missing, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    order = np.argsort(inverse, kind="stable")
    bounds = np.searchsorted(inverse[order], np.arange(patterns.shape[0] + 1))
    for p, pattern in enumerate(patterns):
        yield pattern, order[bounds[p] : bounds[p + 1]]


def kept_vertices(parents: Sequence[Sequence[int]], missing: np.ndarray) -> np.ndarray:
    """Vertices with an observed descendant (themselves included): the observed vertices and
    their ancestors. A missing vertex outside this set integrates to 1 and drops.

    Examples
    --------
    >>> import numpy as np
    >>> kept_vertices([(), (0,), (1,)], np.array([True, False, True])).tolist()
    [True, True, False]
    """
    keep = ~np.asarray(missing, dtype=bool)
    stack = list(np.flatnonzero(keep))
    while stack:
        v = stack.pop()
        for p in parents[v]:
            if not keep[p]:
                keep[p] = True
                stack.append(p)
    return keep


def topological_order(parents: Sequence[Sequence[int]]) -> list[int]:
    """A parents-first order of the vertices of a DAG given by its parent lists.

    Examples
    --------
    >>> topological_order([(2,), (), (1,)])
    [1, 2, 0]
    """
    graph = nx.DiGraph()
    graph.add_nodes_from(range(len(parents)))
    graph.add_edges_from((p, v) for v, ps in enumerate(parents) for p in ps)
    try:
        return [v for level in nx.topological_generations(graph) for v in sorted(level)]
    except nx.NetworkXUnfeasible:
        raise ValueError("The parent lists contain a directed cycle; a DAG is needed.") from None
