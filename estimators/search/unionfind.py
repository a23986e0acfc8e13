"""A union-find (disjoint-set) structure: the building block of Kruskal's algorithm."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

__all__ = ["UnionFind"]


class UnionFind:
    """Disjoint sets with path halving and union by size.

    Parameters
    ----------
    elements : iterable, optional
        Initial singletons (others are added on first use).

    Examples
    --------
    >>> from estimators.search.unionfind import UnionFind
    >>> uf = UnionFind("abcd")
    >>> uf.union("a", "b"), uf.union("b", "a"), uf.connected("a", "b"), uf.n_sets
    (True, False, True, 3)
    """

    def __init__(self, elements: Iterable[Hashable] = ()) -> None:
        self._parent: dict[Hashable, Hashable] = {}
        self._size: dict[Hashable, int] = {}
        for x in elements:
            self.find(x)

    def find(self, x: Hashable) -> Hashable:
        """The representative of x's set (x becomes a singleton if new)."""
        parent = self._parent
        if x not in parent:
            parent[x], self._size[x] = x, 1
            return x
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: Hashable, b: Hashable) -> bool:
        """Merge the sets of a and b; False if they were already one set."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        if self._size[ra] < self._size[rb]:
            ra, rb = rb, ra
        self._parent[rb] = ra
        self._size[ra] += self._size.pop(rb)
        return True

    def connected(self, a: Hashable, b: Hashable) -> bool:
        """Whether a and b are in one set."""
        return self.find(a) == self.find(b)

    @property
    def n_sets(self) -> int:
        """The number of disjoint sets."""
        return len(self._size)

    def sets(self) -> list[set]:
        """The sets, each as a Python set."""
        groups: dict[Hashable, set] = {}
        for x in self._parent:
            groups.setdefault(self.find(x), set()).add(x)
        return list(groups.values())
