"""Partial backbone k-trees (pbkts; paper 2, def. 10, generalised; MATH.md §5).

A pbkt is rooted at a (k+1)-clique Δ and retains a set α of backbone edges (pairs of
consecutive backbone vertices). Each child ``(u, v, child)`` hangs a pbkt rooted at
``Δ - {u} | {v}`` (v is created with parents ``Δ - {u}``). The vertices a child creates (v
and everything below it) are disjoint from Δ and from those of the other children, and the
child retains exactly the edges of α with an endpoint among them; the edges of α that no
child takes must lie inside Δ (for a leaf: ``α ⊆ E(Δ)``, def. 10 (1)).

Paper 2 requires the child to retain ``B(Δ, v)``, the backbone edges of the one interval of
Δ's positions that holds v (Proposition 3). That is too narrow: a child subtree may have to
cover several intervals of Δ. With backbone 1-2-3-4-5, k = 2, root {1, 2, 4}, vertex 3 created
with parents {2, 4} and vertex 5 with parents {3, 4}, the child rooted at {2, 3, 4} creates 3
and 5, which lie in two intervals of {1, 2, 4}. Here the child retains the union of the
intervals ``B(Δ, x)`` over its created vertices x (``B(Δ, v)`` among them).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from kgraph._codec import sorted_mixed
from kgraph.graphdb import GraphDB
from kgraph.ktree import AcyclicKTree, _check_k
from kgraph.structure import Structure, check_distinct

__all__ = ["PBKT"]

Edge = tuple[Hashable, Hashable]


class PBKT(Structure):
    """A partial backbone k-tree: a root (k+1)-clique, retained backbone edges, children.

    Parameters
    ----------
    k : int
        The width, k >= 1.
    backbone : sequence
        The backbone order of the vertices (distinct, at least k + 1).
    root : iterable
        The root (k+1)-clique Δ, vertices of the backbone.
    retained : iterable of pairs
        The backbone edges α this pbkt contains (pairs of consecutive backbone vertices, in
        either orientation).
    children : iterable of (u, v, PBKT)
        Sub-pbkts rooted at ``root - {u} | {v}``.

    Raises
    ------
    ValueError
        Naming what breaks the (generalised) def. 10: see the module docstring.

    Examples
    --------
    >>> from kgraph.pbkt import PBKT
    >>> p = PBKT.from_decomposition(2, [1, 2, 3, 4, 5], {1, 2, 4},
    ...                             [(1, 3, [(2, 5, [])])])
    >>> p.children[0][2].retained == {(2, 3), (3, 4), (4, 5)}
    True
    >>> t = p.to_ktree(root_order=[1, 2, 4])
    >>> t.order, sorted(t.parents(5))
    ((1, 2, 4, 3, 5), [3, 4])
    >>> PBKT.from_ktree(t, [1, 2, 3, 4, 5]) == p
    True
    """

    def __init__(self, k: int, backbone: Sequence[Hashable], root: Iterable[Hashable],
                 retained: Iterable[Iterable[Hashable]],
                 children: Iterable[tuple[Hashable, Hashable, PBKT]] = ()) -> None:
        self._k = _check_k(k)
        self._backbone = tuple(check_distinct(backbone, "Backbone vertex"))
        self._position = {v: i for i, v in enumerate(self._backbone)}
        self._root = frozenset(root)
        self._retained = frozenset(self._backbone_edge(e) for e in retained)
        self._children = tuple(self._child(c) for c in children)
        self._created = tuple(x for _, v, c in self._children for x in (v, *c.created))
        self.validate()

    # -- construction helpers --------------------------------------------------------
    def _backbone_edge(self, edge: Iterable[Hashable]) -> Edge:
        pair = tuple(edge)
        if len(pair) != 2 or any(x not in self._position for x in pair):
            raise ValueError(f"Retained edge {pair!r} is not a pair of backbone vertices.")
        a, b = sorted(pair, key=self._position.__getitem__)
        if self._position[b] != self._position[a] + 1:
            raise ValueError(f"Retained edge {pair!r} is not a backbone edge: {a!r} and {b!r} "
                             "are not consecutive on the backbone.")
        return a, b

    @staticmethod
    def _child(item: Any) -> tuple[Hashable, Hashable, PBKT]:
        try:
            u, v, child = item
        except (TypeError, ValueError):
            raise ValueError(f"A child is a triple (u, v, PBKT); got {item!r}.") from None
        if not isinstance(child, PBKT):
            raise TypeError(f"Child ({u!r}, {v!r}, ...) is a {type(child).__name__}, not a PBKT.")
        return u, v, child

    @classmethod
    def from_decomposition(cls, k: int, backbone: Sequence[Hashable], root: Iterable[Hashable],
                           children: Iterable, retained: Iterable | None = None) -> PBKT:
        """Build a pbkt from nested ``(u, v, grandchildren)`` triples, deriving what each
        child retains; ``retained`` defaults to every backbone edge (a full backbone k-tree)."""
        backbone = tuple(backbone)
        if retained is None:
            retained = list(zip(backbone[:-1], backbone[1:], strict=True))
        retained = [tuple(e) for e in retained]
        # top down, an explicit stack: rows[i] = (root, retained, [(u, v, child row)])
        rows: list[tuple[frozenset, list, list]] = [(frozenset(root), retained, [])]
        stack = [(0, children)]
        while stack:
            i, spec = stack.pop()
            here, kept, built = rows[i]
            for u, v, grand in spec:
                created = _created_by(v, grand)
                rows.append((here - {u} | {v}, [e for e in kept if created & set(e)], []))
                built.append((u, v, len(rows) - 1))
                stack.append((len(rows) - 1, grand))
        return cls._from_rows(k, backbone, rows)

    @classmethod
    def _from_rows(cls, k: int, backbone: Sequence[Hashable],
                   rows: Sequence[tuple[frozenset, Iterable, Sequence]]) -> PBKT:
        """Build bottom up from flat rows ``(root, retained, [(u, v, child row), ...])``,
        row 0 the root and every child row after its parent's (no recursion over depth)."""
        made: dict[int, PBKT] = {}
        for i in range(len(rows) - 1, -1, -1):
            root, retained, built = rows[i]
            made[i] = cls(k, backbone, root, retained, [(u, v, made.pop(j)) for u, v, j in built])
        return made[0]

    def _preorder(self) -> list[PBKT]:
        """This node and every node below it, parents before children."""
        out, stack = [], [self]
        while stack:
            node = stack.pop()
            out.append(node)
            stack.extend(c for _, _, c in reversed(node._children))
        return out

    def _rows(self) -> list[tuple[frozenset, frozenset, list]]:
        """The flat rows :meth:`_from_rows` rebuilds this pbkt from."""
        nodes = self._preorder()
        index = {id(n): i for i, n in enumerate(nodes)}
        return [(n._root, n._retained, [(u, v, index[id(c)]) for u, v, c in n._children])
                for n in nodes]

    def __reduce__(self):
        # flat rows: pickling a deep pbkt must not recurse once per level
        return _unpickle, (self._k, self._backbone, self._rows())

    @classmethod
    def from_ktree(cls, ktree: AcyclicKTree, backbone: Sequence[Hashable]) -> PBKT:
        """The pbkt of an acyclic k-tree that contains the backbone, rooted at its first
        (k+1)-clique and following its tree-representation (paper 2, def. 4)."""
        graph = ktree.tree_representation()
        cliques = ktree.cliques()
        below: dict[frozenset, list] = {c: [] for c in cliques}
        for a, b in graph.edges():
            parent, child = sorted((a, b), key=lambda c: graph.node_attrs(c)["index"])
            below[parent].append(child)

        top: list = []
        stack = [(cliques[0], top)]
        while stack:
            clique, into = stack.pop()
            for c in sorted(below[clique], key=lambda c: graph.node_attrs(c)["index"]):
                grand: list = []
                into.append((next(iter(clique - c)), graph.node_attrs(c)["vertex"], grand))
                stack.append((c, grand))
        return cls.from_decomposition(ktree.k, backbone, cliques[0], top)

    # -- validation ---------------------------------------------------------------------
    def validate(self) -> None:
        """Check the generalised def. 10 at this node (children validated themselves).

        Raises
        ------
        ValueError
            Naming the vertex, clique, child or edge at fault.
        """
        k, root = self._k, self._root
        if len(self._backbone) < k + 1:
            raise ValueError(f"A backbone {k}-tree needs at least k + 1 = {k + 1} backbone "
                             f"vertices; got {len(self._backbone)}.")
        unknown = [v for v in root if v not in self._position]
        if unknown:
            raise ValueError(f"Root vertex {unknown[0]!r} is not on the backbone.")
        if len(root) != k + 1:
            raise ValueError(f"The root of a {k}-pbkt is a (k+1)-clique of {k + 1} vertices; "
                             f"got {len(root)}: {self._show(root)}.")
        seen: dict[Hashable, Hashable] = {}
        taken: set[Edge] = set()
        for u, v, child in self._children:
            where = f"Child (u={u!r}, v={v!r}) of root {self._show(root)}"
            if child.k != k or child.backbone != self._backbone:
                raise ValueError(f"{where} has another k or backbone than its parent.")
            if u not in root:
                raise ValueError(f"{where}: u must be a vertex of the root.")
            if v in root:
                raise ValueError(f"{where}: v must not be a vertex of the root.")
            if child.root != root - {u} | {v}:
                raise ValueError(f"{where}: its root must be root - {{u}} | {{v}} = "
                                 f"{self._show(root - {u} | {v})}; got {self._show(child.root)}.")
            created = (v, *child.created)
            for x in created:
                if x in root or x in seen:
                    other = "the root" if x in root else f"the child with v={seen[x]!r}"
                    raise ValueError(f"{where} creates vertex {x!r}, which {other} has too.")
                seen[x] = v
            created = set(created)
            expected = {e for e in self._retained if created & set(e)}
            if child.retained != expected:
                raise ValueError(
                    f"{where} must retain the backbone edges touching the vertices it creates, "
                    f"{sorted(expected, key=self._edge_key)}; got "
                    f"{sorted(child.retained, key=self._edge_key)}.")
            taken |= expected
        for a, b in sorted(self._retained - taken, key=self._edge_key):
            if a not in root or b not in root:
                raise ValueError(f"Retained backbone edge ({a!r}, {b!r}) lies neither in the root "
                                 f"{self._show(root)} nor below a child that creates {a!r} or "
                                 f"{b!r}.")

    def _edge_key(self, edge: Edge) -> int:
        return self._position[edge[0]]

    def _show(self, vertices: Iterable[Hashable]) -> list:
        return sorted(vertices, key=lambda v: self._position.get(v, -1))

    # -- facts ----------------------------------------------------------------------------
    @property
    def k(self) -> int:
        """The width k."""
        return self._k

    @property
    def backbone(self) -> tuple:
        """The backbone order."""
        return self._backbone

    @property
    def root(self) -> frozenset:
        """The root (k+1)-clique Δ."""
        return self._root

    @property
    def retained(self) -> frozenset[Edge]:
        """The retained backbone edges α, each as (earlier, later) on the backbone."""
        return self._retained

    @property
    def children(self) -> tuple[tuple[Hashable, Hashable, PBKT], ...]:
        """The children ``(u, v, child)``."""
        return self._children

    @property
    def created(self) -> tuple:
        """The vertices created below the root, depth first."""
        return self._created

    @property
    def vertices(self) -> frozenset:
        """All vertices of the pbkt."""
        return self._root | set(self.created)

    # -- conversion ----------------------------------------------------------------------
    def to_ktree(self, root_order: Sequence[Hashable] | None = None) -> AcyclicKTree:
        """The acyclic k-tree the pbkt spans.

        Parameters
        ----------
        root_order : sequence, optional
            The creation order of the root clique (default: backbone order). Then the
            children follow breadth first, each v with parents ``child.root - {v}``.
        """
        if root_order is None:
            root_order = self._show(self._root)
        root_order = list(root_order)
        if len(root_order) != len(self._root) or set(root_order) != self._root:
            raise ValueError(f"root_order must order the root clique {self._show(self._root)}; "
                             f"got {root_order!r}.")
        order, queue = list(root_order), [self]
        parents = {root_order[self._k]: frozenset(root_order[:self._k])}
        while queue:
            node = queue.pop(0)
            for _, v, child in node.children:
                order.append(v)
                parents[v] = child.root - {v}
                queue.append(child)
        return AcyclicKTree(self._k, order, parents)

    # -- Structure ----------------------------------------------------------------------
    def _identity(self) -> tuple:
        # flat (no nested tuples to compare recursively): each clique with its parent link;
        # the cliques of a pbkt are distinct, so the links determine the tree
        links = [(None, None, None, self._root, self._retained)]
        for node in self._preorder():
            links += [(node._root, u, v, c._root, c._retained) for u, v, c in node._children]
        return self._k, self._backbone, self._root, frozenset(links)

    def to_graph(self, backend: str = "networkx") -> GraphDB:
        """The tree of cliques (directed parent -> child): nodes are the cliques (kind
        ``clique``, with ``retained`` edges and the ``created`` vertex), edges (kind ``child``)
        carry u (``removed``), v (``added``) and the child's ``position``."""
        g = self._new_graph(True, backend, k=self._k, backbone=self._backbone)
        g.add_node(self._root, kind="clique", retained=self._sorted_retained(), created=None)
        self._add_children(g)
        return g

    def _sorted_retained(self) -> tuple:
        return tuple(sorted(self._retained, key=self._edge_key))

    def _add_children(self, g: GraphDB) -> None:
        for node in self._preorder():
            for i, (u, v, child) in enumerate(node._children):
                g.add_node(child.root, kind="clique", retained=child._sorted_retained(), created=v)
                g.add_edge(node._root, child.root, kind="child", removed=u, added=v, position=i)

    @classmethod
    def _from_graph(cls, graph: GraphDB) -> PBKT:
        k, backbone = graph.attrs["k"], tuple(graph.attrs["backbone"])
        tops = [c for c in graph.nodes(kind="clique") if not graph.predecessors(c)]
        if len(tops) != 1:
            raise ValueError(f"A PBKT graph has one root clique; found {len(tops)}.")

        rows: list[tuple[frozenset, Any, list]] = []
        stack, index = [tops[0]], {}
        while stack:
            clique = stack.pop()
            index[clique] = len(rows)
            below = sorted(graph.successors(clique),
                           key=lambda c: graph.edge_attrs(clique, c)["position"])
            built = []
            rows.append((clique, graph.node_attrs(clique)["retained"], built))
            for c in below:
                built.append((graph.edge_attrs(clique, c)["removed"],
                              graph.edge_attrs(clique, c)["added"], c))
            stack.extend(reversed(below))
        return cls._from_rows(k, backbone, [(r, kept, [(u, v, index[c]) for u, v, c in built])
                                            for r, kept, built in rows])

    def __repr__(self) -> str:
        return (f"PBKT(k={self._k}, root={sorted_mixed(self._root)!r}, "
                f"n_vertices={len(self.vertices)}, n_cliques={1 + len(self.created)}, "
                f"n_retained={len(self._retained)})")


def _created_by(v: Hashable, grand: Iterable) -> set:
    """The vertices a nested ``(u, v, grandchildren)`` child creates."""
    out, stack = {v}, [grand]
    while stack:
        for _, w, deeper in stack.pop():
            out.add(w)
            stack.append(deeper)
    return out


def _unpickle(k: int, backbone: tuple, rows: list) -> PBKT:
    return PBKT._from_rows(k, backbone, rows)
