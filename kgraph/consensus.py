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

__all__ = ["Consensus", "ConsensusEdge", "consensus"]


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
