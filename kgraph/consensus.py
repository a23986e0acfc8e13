"""The consensus of several structures over the same features: each feature pair once, with
how many structures join it and in which direction.

An ensemble of network classifiers (several kDBs with different attribute orders, ...) has one
structure per member; :func:`consensus` counts, for every pair of features some member
joins, the members with the edge ``u -> v`` and those with ``v -> u``. The pair is written
``(u, v)`` in its majority direction (ties: the consensus order). The consensus order is
the features by their mean relative position in the members' orders (a feature a member does
not span counts nowhere), ties by name.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from kgraph.dag import ParentSetDAG
from kgraph.graphdb import GraphDB
from kgraph.structure import Structure

__all__ = ["Consensus", "ConsensusEdge", "EnsembleStructure", "consensus"]


@dataclass(frozen=True)
class ConsensusEdge:
    """One feature pair: ``forward`` members have ``u -> v``, ``backward`` ``v -> u``."""

    u: Hashable
    v: Hashable
    forward: int
    backward: int
    n_members: int

    @property
    def members(self) -> int:
        """Members joining the pair (either direction)."""
        return self.forward + self.backward

    @property
    def fraction(self) -> float:
        """The share of all members joining the pair."""
        return self.members / self.n_members

    @property
    def directed(self) -> bool:
        """Every member joining the pair has it as ``u -> v``."""
        return self.backward == 0


@dataclass(frozen=True)
class Consensus:
    """What :func:`consensus` returns: the features in consensus order, the pairs (most
    members first, then in consensus order), how many members span each feature, the
    number of members and the class vertex (None when the members name none or differ)."""

    order: tuple
    edges: tuple[ConsensusEdge, ...]
    spanned: dict
    n_members: int
    target: Hashable | None


def _structure(member):
    """A structure with ``order`` and ``edges``: the member itself, or its ``structure_``."""
    if isinstance(member, EnsembleStructure):
        raise TypeError("An EnsembleStructure is a whole ensemble, not a member: pass it "
                        "alone (consensus(ensemble.members)).")
    if hasattr(member, "order") and hasattr(member, "edges"):
        return member
    found = getattr(member, "structure_", None)
    if found is None or not (hasattr(found, "order") and hasattr(found, "edges")):
        raise TypeError(f"Expected structures with an order and parent -> child edges "
                        f"(ParentSetDAG, AcyclicKTree) or fitted models with one as "
                        f"'structure_'; got {type(member).__name__}.")
    return found


def consensus(members: Sequence) -> Consensus:
    """The consensus of ``members``: structures (:class:`~kgraph.ParentSetDAG`,
    :class:`~kgraph.AcyclicKTree`) or fitted models with one as ``structure_``.

    Examples
    --------
    >>> from kgraph import ParentSetDAG
    >>> a = ParentSetDAG({"x": [], "y": ["x"], "z": ["y"]}, target="c")
    >>> b = ParentSetDAG({"z": [], "y": ["z"], "x": ["y"]}, target="c")
    >>> c = ParentSetDAG({"x": [], "y": ["x"], "z": ["x"]}, target="c")
    >>> out = consensus([a, b, c])
    >>> out.order
    ('x', 'y', 'z')
    >>> [(e.u, e.v, e.forward, e.backward, round(e.fraction, 2)) for e in out.edges]
    [('x', 'y', 2, 1, 1.0), ('y', 'z', 1, 1, 0.67), ('x', 'z', 1, 0, 0.33)]
    """
    if isinstance(members, EnsembleStructure):
        members = members.members
    structures = [_structure(m) for m in members]
    if not structures:
        raise ValueError("A consensus needs at least one structure.")
    n = len(structures)
    position: dict = {}
    spanned: dict = {}
    counts: dict = {}
    for s in structures:
        order = list(s.order)
        for i, v in enumerate(order):
            position.setdefault(v, []).append(i / max(len(order) - 1, 1))
            spanned[v] = spanned.get(v, 0) + 1
        for p, c in s.edges:
            counts[(p, c)] = counts.get((p, c), 0) + 1
    mean = {v: sum(x) / len(x) for v, x in position.items()}
    order = tuple(sorted(mean, key=lambda v: (mean[v], str(v))))
    rank = {v: i for i, v in enumerate(order)}
    edges = []
    for pair in {frozenset(e) for e in counts}:
        a, b = sorted(pair, key=rank.__getitem__)
        ab, ba = counts.get((a, b), 0), counts.get((b, a), 0)
        u, v, f, r = (a, b, ab, ba) if ab >= ba else (b, a, ba, ab)
        edges.append(ConsensusEdge(u, v, f, r, n))
    edges.sort(key=lambda e: (-e.members, min(rank[e.u], rank[e.v]), max(rank[e.u], rank[e.v])))
    targets = {getattr(s, "target", None) for s in structures}
    target = targets.pop() if len(targets) == 1 else None
    return Consensus(order, tuple(edges), spanned, n, target)


class EnsembleStructure(Structure):
    """The structures of an ensemble's members as one structure: a
    :class:`~kgraph.ParentSetDAG` per member (any structure with parent sets is converted),
    one class vertex. Its graph is the consensus (:func:`consensus`): the class, every
    feature (``position`` in the consensus order, ``members``: how many members span it)
    and each feature pair once, ``kind="consensus"``, in its majority direction, with
    ``forward``, ``backward``, ``members`` and ``weight`` = the share of members joining
    it; the members' own parent sets are the graph attribute ``member_parents``.

    Parameters
    ----------
    members : sequence
        The members' structures (:class:`~kgraph.ParentSetDAG`, or anything with
        ``order`` and ``parents(v)``, e.g. :class:`~kgraph.AcyclicKTree`).
    target : hashable, default="class"
        The class vertex.

    Examples
    --------
    >>> from kgraph import ParentSetDAG
    >>> from kgraph.consensus import EnsembleStructure
    >>> a = ParentSetDAG({"x": [], "y": ["x"], "z": ["y"]}, target="c")
    >>> b = ParentSetDAG({"z": [], "y": ["z"], "x": ["y"]}, target="c")
    >>> ens = EnsembleStructure([a, b], target="c")
    >>> g = ens.graph
    >>> g.edge_attrs("x", "y")["weight"], g.edge_attrs("x", "y")["backward"]
    (1.0, 1)
    >>> EnsembleStructure.from_graph(g) == ens
    True
    """

    def __init__(self, members: Sequence, target: Hashable = "class") -> None:
        if not members:
            raise ValueError("An EnsembleStructure needs at least one member.")
        out = []
        for m in members:
            if not isinstance(m, ParentSetDAG):
                if not callable(getattr(m, "parents", None)) or not hasattr(m, "order"):
                    raise TypeError(f"A member must be a structure with parent sets "
                                    f"(ParentSetDAG, AcyclicKTree); got {type(m).__name__}.")
                m = ParentSetDAG({v: m.parents(v) for v in m.order}, target=target)
            elif m.target != target:
                m = ParentSetDAG({v: m.parents(v) for v in m.features}, target=target,
                                 max_in_degree=m.max_in_degree)
            out.append(m)
        self._members, self._target = tuple(out), target

    @property
    def members(self) -> tuple:
        """The members' DAGs, in order."""
        return self._members

    @property
    def target(self) -> Hashable:
        return self._target

    def consensus(self) -> Consensus:
        """The members' :func:`consensus`."""
        return consensus(self._members)

    def _identity(self) -> tuple:
        return self._target, tuple(m._identity() for m in self._members)

    def to_graph(self, backend: str = "networkx") -> GraphDB:
        made = self.consensus()
        parents = [[[v, sorted(m.parents(v), key=list(m.features).index)] for v in m.features]
                   for m in self._members]
        g = self._new_graph(True, backend, target=self._target, n_members=made.n_members,
                            member_parents=parents,
                            member_max_in_degree=[m.max_in_degree for m in self._members])
        g.add_node(self._target, kind="class")
        for i, v in enumerate(made.order):
            g.add_node(v, kind="variable", position=i, members=made.spanned[v])
            g.add_edge(self._target, v, kind="class-edge")
        for e in made.edges:
            g.add_edge(e.u, e.v, kind="consensus", forward=e.forward, backward=e.backward,
                       members=e.members, weight=e.fraction)
        return g

    @classmethod
    def _from_graph(cls, graph: GraphDB) -> EnsembleStructure:
        target = graph.attrs["target"]
        bounds = graph.attrs.get("member_max_in_degree") or [None] * len(
            graph.attrs["member_parents"])
        return cls([ParentSetDAG({v: ps for v, ps in member}, target=target,
                                 max_in_degree=None if b is None else int(b))
                    for member, b in zip(graph.attrs["member_parents"], bounds, strict=True)],
                   target)

    def __repr__(self) -> str:
        return f"EnsembleStructure({len(self._members)} members, class {self._target!r})"
