"""Cherry junction trees of order k (paper 1, appendix A) and the decomposable formula.

A cherry junction tree has clusters of k variables joined by junction edges whose
separators have k - 1 variables; a separator S contained in ν_S clusters has multiplicity
ν_S, and the distribution it encodes is ``p = Π_C p(x_C) / Π_S p(x_S)^(ν_S - 1)``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any

import networkx as nx
import numpy as np

from kgraph._codec import sorted_mixed
from kgraph.graphdb import GraphDB
from kgraph.structure import Structure, check_distinct

__all__ = ["CherryJunctionTree", "decomposable_weight", "decomposable_log_density"]

Cluster = frozenset
SetFunction = Callable[[frozenset], Any] | Mapping[frozenset, Any]


def _call(fn: SetFunction, subset: frozenset) -> Any:
    return fn[subset] if isinstance(fn, Mapping) else fn(subset)


def decomposable_weight(
    clusters: Iterable[frozenset], separators: Mapping[frozenset, int], info: SetFunction
) -> float:
    """``Σ_C info(C) − Σ_S (ν_S − 1) info(S)``: the weight of a decomposable structure."""
    total = sum(float(_call(info, c)) for c in clusters)
    return total - sum((nu - 1) * float(_call(info, s)) for s, nu in separators.items())


def decomposable_log_density(
    clusters: Iterable[frozenset],
    separators: Mapping[frozenset, int],
    cluster_logpdf: SetFunction,
    separator_logpdf: SetFunction,
) -> np.ndarray:
    """``Σ_C ln p(x_C) − Σ_S (ν_S − 1) ln p(x_S)`` over rows (eq. 1 of paper 1, in logs)."""
    total = sum(np.asarray(_call(cluster_logpdf, c), dtype=float) for c in clusters)
    for s, nu in separators.items():
        if nu > 1:
            total = total - (nu - 1) * np.asarray(_call(separator_logpdf, s), dtype=float)
    return np.asarray(total, dtype=float)


def _is_tree(n_nodes: int, edges: list[tuple[int, int]]) -> bool:
    graph = nx.MultiGraph()
    graph.add_nodes_from(range(n_nodes))
    graph.add_edges_from(edges)
    return n_nodes > 0 and nx.is_tree(graph)


class CherryJunctionTree(Structure):
    """A cherry junction tree of order k: k-variable clusters, (k−1)-variable separators.

    Parameters
    ----------
    clusters : sequence of sets
        The clusters, each of k variables, in a meaningful order (kept).
    edges : sequence of pairs of clusters
        The junction edges; they must form a tree over the clusters in which adjacent
        clusters share k − 1 variables and the clusters holding any variable are connected
        (running intersection).

    Examples
    --------
    >>> from kgraph import CherryJunctionTree
    >>> c1, c2, c3 = {0, 1, 2}, {0, 2, 3}, {0, 1, 4}
    >>> jt = CherryJunctionTree([c1, c2, c3], [(c1, c2), (c1, c3)])
    >>> jt.order
    3
    >>> {tuple(sorted(s)): nu for s, nu in jt.separators.items()}
    {(0, 2): 2, (0, 1): 2}
    >>> jt.weight(lambda s: len(s))  # 3 + 3 + 3 - 2 - 2
    5.0
    """

    def __init__(self, clusters: Iterable[Iterable[Hashable]],
                 edges: Iterable[tuple[Iterable[Hashable], Iterable[Hashable]]] = ()) -> None:
        cl = check_distinct((frozenset(c) for c in clusters), "Cluster")
        if not cl:
            raise ValueError("A cherry junction tree needs at least one cluster; got none.")
        sizes = {len(c) for c in cl}
        if len(sizes) != 1:
            raise ValueError(f"All clusters must have the same size k; got sizes {sorted(sizes)}.")
        k = sizes.pop()
        if k < 1:
            raise ValueError("Clusters must not be empty.")
        index = {c: i for i, c in enumerate(cl)}
        pairs = []
        for a, b in edges:
            a, b = frozenset(a), frozenset(b)
            for c in (a, b):
                if c not in index:
                    raise ValueError(f"Junction edge end {set(c)} is not one of the clusters.")
            if len(a & b) != k - 1:
                raise ValueError(
                    f"Junction edge {set(a)} - {set(b)} has separator {set(a & b)} of size "
                    f"{len(a & b)}; a cherry junction tree of order {k} needs size {k - 1}."
                )
            pairs.append((index[a], index[b]))
        if not _is_tree(len(cl), pairs):
            raise ValueError(
                f"The {len(pairs)} junction edges do not form a tree over the {len(cl)} clusters."
            )
        self._clusters = tuple(cl)
        self._edges = tuple((cl[a], cl[b]) for a, b in pairs)
        self._k = k
        self._check_running_intersection()

    def _check_running_intersection(self) -> None:
        for v in self.variables:
            holding = {c for c in self._clusters if v in c}
            links = [(a, b) for a, b in self._edges if a in holding and b in holding]
            if len(links) != len(holding) - 1:
                raise ValueError(
                    f"Running intersection fails for variable {v!r}: the clusters holding it "
                    "are not connected in the junction tree."
                )

    # -- facts ---------------------------------------------------------------------
    @property
    def order(self) -> int:
        """k, the number of variables in each cluster."""
        return self._k

    @property
    def clusters(self) -> list[frozenset]:
        """The clusters, in the order given."""
        return list(self._clusters)

    @property
    def junction_edges(self) -> list[tuple[frozenset, frozenset]]:
        """The junction edges as pairs of clusters."""
        return list(self._edges)

    @property
    def variables(self) -> list:
        """All variables, sorted."""
        return sorted_mixed(set().union(*self._clusters))

    @property
    def separators(self) -> dict[frozenset, int]:
        """Separator -> multiplicity (the number of clusters that contain it)."""
        seps: dict[frozenset, int] = {}
        for a, b in self._edges:
            s = a & b
            seps[s] = seps.get(s, 1) + 1
        return seps

    def weight(self, info: SetFunction) -> float:
        """``Σ_C info(C) − Σ_S (ν_S − 1) info(S)`` for a set function ``info``."""
        return decomposable_weight(self._clusters, self.separators, info)

    def log_density(self, cluster_logpdf: SetFunction,
                    separator_logpdf: SetFunction) -> np.ndarray:
        """Eq. 1 of paper 1 in logs, from per-cluster and per-separator log-densities
        (callables of the variable set, or mappings, giving arrays over rows)."""
        return decomposable_log_density(self._clusters, self.separators,
                                        cluster_logpdf, separator_logpdf)

    def to_pgmpy(self):
        """A pgmpy ``JunctionTree`` with the same clusters (as sorted tuples) and edges."""
        from pgmpy.models import JunctionTree

        jt = JunctionTree()
        as_tuple = {c: tuple(sorted_mixed(c)) for c in self._clusters}
        jt.add_nodes_from(as_tuple.values())
        jt.add_edges_from((as_tuple[a], as_tuple[b]) for a, b in self._edges)
        return jt

    # -- Structure -----------------------------------------------------------------
    def _identity(self) -> tuple:
        return self._clusters, frozenset(frozenset(e) for e in self._edges)

    def to_graph(self, backend: str = "networkx") -> GraphDB:
        g = self._new_graph(False, backend, order=self._k)
        for i, c in enumerate(self._clusters):
            g.add_node(c, kind="cluster", index=i)
        for a, b in self._edges:
            g.add_edge(a, b, kind="junction", separator=a & b)
        return g

    @classmethod
    def _from_graph(cls, graph: GraphDB) -> CherryJunctionTree:
        clusters = sorted(graph.nodes(kind="cluster", data=True), key=lambda item: item[1]["index"])
        return cls([c for c, _ in clusters], graph.edges(kind="junction"))

    def __repr__(self) -> str:
        return (f"CherryJunctionTree(order={self._k}, clusters={len(self._clusters)}, "
                f"variables={len(self.variables)})")
