"""The GNB structure as conditional Gaussian families, for ``parameters="discriminative"``.

A Gaussian GNB forest (the first ``n_clusters_`` clusters) is, class by class, a Gaussian
tree: oriented from a root, ``ln p(x | y) = Σ_roots ln p(x_r | y) + Σ_arcs ln p(x_c | x_m, y)``
(the ratio form of MATH.md §3 is this product). The log-linear features of
:mod:`estimators.discriminative` are those of these families (the CG factors of MATH.md §7,
fitted here by :func:`estimators.network.fitting.fit_cg_factor` for their layout, warm start and
per-family log-factors); the generative offset stays the GNB's own ``ln p(y, x_O)``.
Only the Gaussian dependence is a CG model; the copula and KDE pair models are refused.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from estimators.columns import EncodedColumns
from estimators.network.fitting import fit_cg_factor

__all__ = ["forest_families", "family_factors"]


def forest_families(edges, mother_of: dict | None = None) -> list[tuple[int, tuple]]:
    """``(v, parents)`` of the vertices covered by ``edges``, parents first.

    ``mother_of`` gives each child's mother (the arcs of a rooted forest); without it the
    undirected ``edges`` are oriented away from the first vertex of each tree, in the order
    the edges are given.

    Examples
    --------
    >>> forest_families([(2, 0), (0, 1), (3, 4)])
    [(2, ()), (0, (2,)), (1, (0,)), (3, ()), (4, (3,))]
    """
    edges = [(int(a), int(b)) for a, b in edges]
    if mother_of is None:
        graph = nx.Graph(edges)
        mother_of = {}
        seen: set[int] = set()
        for start in dict.fromkeys(v for e in edges for v in e):
            if start not in seen:  # breadth first over one tree
                mother_of.update((w, v) for v, w in nx.bfs_edges(graph, start))
                seen.update(nx.node_connected_component(graph, start))
    vertices = list(dict.fromkeys(v for e in edges for v in e))
    position = {v: i for i, v in enumerate(vertices)}
    arcs = nx.DiGraph()
    arcs.add_nodes_from(vertices)
    arcs.add_edges_from((m, v) for v, m in mother_of.items() if v in position)
    # the order of repeated passes over ``vertices`` that place a vertex once its mother is
    # placed: a child placed after its mother in one pass, or in the next pass if it comes first
    sweep: dict[int, int] = {}
    for v in nx.topological_sort(arcs):
        m = mother_of.get(v)
        sweep[v] = 0 if m is None else sweep[m] + (position[m] > position[v])
    order = sorted(vertices, key=lambda v: (sweep[v], position[v]))
    return [(v, (mother_of[v],) if v in mother_of else ()) for v in order]


def family_factors(enc: EncodedColumns, codes: np.ndarray, n_classes: int, families,
                   var_smoothing: float) -> list:
    """The CG factor of every family ``(v, parents)`` on ``(enc, codes)``."""
    return [fit_cg_factor(enc, codes, n_classes, v, parents, var_smoothing=var_smoothing,
                          ridge=0.0, shrink=not enc.observed[:, [v, *parents]].all())
            for v, parents in families]
