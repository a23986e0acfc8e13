"""The structure of an averaged n-dependence estimator (AODE, AnDE): a set of SPODEs.

A super-parent n-dependence estimator (SPODE) with super-parent set S makes the class and
every member of S parents of every other feature (and orders S among itself: each member's
parents are the class and the earlier members). AnDE averages the SPODEs of a collection of
n-subsets S (all of them by default), so its structure is that collection; its graph is
the *union* of the SPODEs' DAGs: an edge ``s -> v`` (``kind="super-parent"``) whenever some
S holds s and not v (for AODE every ordered pair of features), carrying ``spodes``, the
number of the collection's SPODEs that have the arc.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from kgraph.graphdb import GraphDB
from kgraph.structure import Structure, check_distinct

__all__ = ["SuperParentEnsemble"]


class SuperParentEnsemble(Structure):
    """The SPODEs averaged by an AnDE classifier, as one structure.

    Parameters
    ----------
    features : sequence of hashable
        Feature names, in column order.
    super_parents : sequence of sequence of hashable
        The super-parent sets S (each of ``n`` distinct features), in the order averaged;
        empty when no SPODE is defined (then the model is naive Bayes).
    n : int
        The size of every super-parent set (1 for AODE, 2 for A2DE).
    target : hashable, default="class"
        Name of the class vertex (not a feature).

    Examples
    --------
    >>> from kgraph.superparent import SuperParentEnsemble
    >>> aode = SuperParentEnsemble(["a", "b", "c"], [("a",), ("b",), ("c",)], n=1)
    >>> aode.parents("b", ("a",))
    ('a',)
    >>> g = aode.graph
    >>> len(g.edges(kind="super-parent")), g.edge_attrs("a", "b")["spodes"]
    (6, 1)
    >>> SuperParentEnsemble.from_graph(g) == aode
    True
    """

    def __init__(self, features: Sequence[Hashable], super_parents: Sequence[Sequence[Hashable]],
                 n: int, target: Hashable = "class"):
        self._features = tuple(check_distinct(features, "Feature"))
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"n must be an int >= 1. Got {n!r} instead.")
        if target in self._features:
            raise ValueError(f"The class vertex {target!r} is also a feature.")
        known = set(self._features)
        sets = []
        for S in super_parents:
            S = tuple(check_distinct(S, "Super-parent"))
            if len(S) != n or not set(S) <= known:
                raise ValueError(f"Super-parent set {S!r} must hold {n} of the features "
                                 f"{list(self._features)!r}.")
            sets.append(S)
        self._sets = tuple(check_distinct(sets, "Super-parent set"))
        self._n, self._target = n, target

    @property
    def features(self) -> tuple:
        return self._features

    @property
    def super_parents(self) -> tuple:
        """The super-parent sets, in the order averaged."""
        return self._sets

    @property
    def n(self) -> int:
        return self._n

    @property
    def target(self) -> Hashable:
        return self._target

    def parents(self, v: Hashable, S: Sequence[Hashable]) -> tuple:
        """The feature parents of ``v`` in the SPODE of ``S``: S itself for a feature
        outside S, the earlier members of S for a member."""
        S = tuple(S)
        return S[:S.index(v)] if v in S else S

    def _identity(self) -> tuple:
        return self._features, self._sets, self._n, self._target

    def to_graph(self, backend: str = "networkx") -> GraphDB:
        g = self._new_graph(True, backend, n=self._n, target=self._target,
                            super_parent_sets=[list(S) for S in self._sets])
        g.add_node(self._target, kind="class")
        arcs: dict = {}
        for S in self._sets:
            for v in self._features:
                for p in self.parents(v, S):
                    arcs[p, v] = arcs.get((p, v), 0) + 1
        for i, v in enumerate(self._features):
            g.add_node(v, kind="variable", position=i,
                       super_parent=any(v in S for S in self._sets))
            g.add_edge(self._target, v, kind="class-edge")
        for (p, v), count in arcs.items():
            g.add_edge(p, v, kind="super-parent", spodes=count)
        return g

    @classmethod
    def _from_graph(cls, graph: GraphDB) -> SuperParentEnsemble:
        xs = sorted(graph.nodes(kind="variable", data=True), key=lambda item: item[1]["position"])
        return cls([v for v, _ in xs], [tuple(S) for S in graph.attrs["super_parent_sets"]],
                   int(graph.attrs["n"]), graph.attrs["target"])

    def __repr__(self) -> str:
        return (f"SuperParentEnsemble(n={self._n}, {len(self._sets)} SPODEs over "
                f"{len(self._features)} features)")
