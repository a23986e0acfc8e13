"""The layered (Sugiyama) layout of a directed graph of boxes, with every edge routed.

1. **Layers** from the parent relation: a vertex one layer below its lowest parent (longest
   path), pushed further down while its layer is full (``capacity`` inches of boxes), so
   that wide levels fold into more layers instead of leaving the figure. When that does
   not fit the width (the edges crossing a layer take room too), the layers are filled top
   down counting those edges (:func:`fill_layers`), which folds a wide structure into far
   fewer layers than a smaller ``capacity`` would.
2. **Dummy vertices** on every edge that spans several layers, one per layer crossed.
3. **Crossings reduced**: two orders of each layer (nodes and dummies) — barycentre sweeps
   here (the best of 12 sweeps kept) and igraph's ``Graph.layout_sugiyama`` with our
   layers, when igraph (optional) is installed — each improved by adjacent transpositions
   that remove crossings; the one with fewer crossings is drawn.
4. **Coordinates**: each layer's boxes and dummies keep their order and their gaps and sit
   as close as they can to the mean x of their neighbours (order-preserving least squares,
   blocks merged), sweeping down and up; a layer never exceeds the width.
5. **Routes**: an edge leaves its parent's box at a port on its bottom side, crosses each
   gap between two layers as a cubic curve with vertical tangents (its control points stay
   inside that gap, where no box is) and crosses each intermediate layer straight down
   through its own dummy slot (kept free of boxes), ending at a port on the top side of the
   child's box. So no edge passes through a box other than its ends, by construction.

Every length is in inches; y decreases downwards (layer 0 at y = 0).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

Point = tuple[float, float]
Size = tuple[float, float]

DUMMY_WIDTH = 0.02  # inches an edge reserves where it crosses a layer
TRANSPOSE_PASSES = 4
ORDERINGS = ("barycentre", "igraph")  # the layer orders tried (igraph's when installed)
PANEL_GAP = 0.12  # inches between two side-by-side panels (a thin rule in the middle)


@dataclass
class Layered:
    """A layered layout: node centres, the layer of each node, each edge's dummy points
    (one per layer it crosses, top to bottom) and the rows' y and common height."""

    pos: dict[Hashable, Point]
    layer: dict[Hashable, int]
    bends: dict[tuple[Hashable, Hashable], list[Point]]
    row_height: float
    crossings: int = 0
    layers: list[list] = field(default_factory=list)
    panel: dict[Hashable, int] = field(default_factory=dict)  # side-by-side panels
    rules: list[float] = field(default_factory=list)  # x between two panels


@dataclass(frozen=True)
class Copy:
    """A parent drawn again in a later panel, just above its highest child there (its
    edges to that panel's children start from it)."""

    node: Hashable
    panel: int


def assign_layers(order: Sequence[Hashable], parents: Mapping[Hashable, Sequence[Hashable]],
                  widths: Mapping[Hashable, float], capacity: float, gap: float
                  ) -> dict[Hashable, int]:
    """Longest-path layers with a width bound: each vertex (``order`` lists parents first)
    goes one layer below its lowest parent, or lower while that layer holds ``capacity``
    inches of boxes already.

    Examples
    --------
    >>> assign_layers("abcd", {"b": "a", "c": "a", "d": "a"}, dict.fromkeys("abcd", 1.0),
    ...               2.5, 0.1)
    {'a': 0, 'b': 1, 'c': 1, 'd': 2}
    """
    layer: dict[Hashable, int] = {}
    load: dict[int, float] = {}
    for v in order:
        i = 1 + max((layer[p] for p in parents.get(v, ())), default=-1)
        while load.get(i, 0.0) > 0 and load[i] + widths[v] > capacity + 1e-9:
            i += 1
        layer[v] = i
        load[i] = load.get(i, 0.0) + widths[v] + gap
    return layer


ROW_PRIORITIES = ("order", "indegree")  # the ready vertices a layer takes first


def fill_layers(order: Sequence[Hashable], parents: Mapping[Hashable, Sequence[Hashable]],
                widths: Mapping[Hashable, float], width: float, gap: float, slot: float,
                priority: str = "order") -> dict[Hashable, int] | None:
    """Layers filled top down, each with as many ready vertices (every parent in a layer
    above) as fit ``width`` inches together with the edges that cross it (``slot`` inches
    each: a dummy vertex and its gap). A vertex placed in a layer ends its parents' edges
    there, freeing their slots. The ready vertices are taken in ``order`` (which lists
    parents first) or, with ``priority="indegree"``, those with the most parents first.
    None when a layer's crossing edges leave no room for any ready vertex.

    Examples
    --------
    A hub's three children: the third goes one layer down, its edge crossing the second
    layer beside the other two; at half the room, no layer holds the hub's three edges.

    >>> star = {"b": "a", "c": "a", "d": "a"}
    >>> fill_layers("abcd", star, dict.fromkeys("abcd", 1.0), 2.5, 0.1, 0.1)
    {'a': 0, 'b': 1, 'c': 1, 'd': 2}
    >>> fill_layers("abcd", star, dict.fromkeys("abcd", 1.0), 0.2, 0.1, 0.1) is None
    True
    """
    if priority not in ROW_PRIORITIES:
        raise ValueError(f"Unknown priority {priority!r}; use one of {ROW_PRIORITIES}.")
    rank = {v: i for i, v in enumerate(order)}
    missing = {v: len(parents.get(v, ())) for v in order}  # parents not yet placed
    children: dict = {}
    for v in order:
        for p in parents.get(v, ()):
            children.setdefault(p, []).append(v)
    layer: dict[Hashable, int] = {}
    ready = [v for v in order if not missing[v]]
    crossing = 0  # edges from a placed parent to a child not yet placed
    depth = 0
    while ready:
        if priority == "indegree":
            ready.sort(key=lambda v: (-len(parents.get(v, ())), rank[v]))
        else:
            ready.sort(key=rank.__getitem__)
        load, taken = crossing * slot, []
        for v in ready:
            more = widths[v] + gap - len(parents.get(v, ())) * slot
            if load + more <= width + 1e-9:
                taken.append(v)
                load += more
        if not taken:
            return None
        for v in taken:
            layer[v] = depth
            crossing += len(children.get(v, ())) - len(parents.get(v, ()))
        ready = [v for v in ready if v not in layer]
        for v in taken:
            for c in children.get(v, ()):
                missing[c] -= 1
                if not missing[c]:
                    ready.append(c)
        depth += 1
    return layer if len(layer) == len(order) else None


def _segments(edges, layer):
    """Chains of items (node or ``(edge, k)`` dummies) of each edge, top to bottom."""
    chains = {}
    for u, v in edges:
        chains[(u, v)] = [u, *[((u, v), k) for k in range(layer[u] + 1, layer[v])], v]
    return chains


def count_crossings(layers: Sequence[Sequence], chains: Mapping) -> int:
    """Crossings between consecutive layers of the given orders (pairs of segments whose
    ends are in opposite orders).

    Examples
    --------
    >>> count_crossings([["a", "b"], ["c", "d"]], {1: ["a", "d"], 2: ["b", "c"]})
    1
    """
    where = {x: i for row in layers for i, x in enumerate(row)}
    total = 0
    by_gap: dict[int, list[tuple[int, int]]] = {}
    depth = {x: d for d, row in enumerate(layers) for x in row}
    for chain in chains.values():
        for a, b in zip(chain, chain[1:], strict=False):
            by_gap.setdefault(depth[a], []).append((where[a], where[b]))
    for segs in by_gap.values():
        total += _inversions(segs)
    return total


def _inversions(segs: list[tuple[int, int]]) -> int:
    segs = sorted(segs)
    n = 0
    for i in range(len(segs)):
        for j in range(i + 1, len(segs)):
            if segs[i][0] < segs[j][0] and segs[i][1] > segs[j][1]:
                n += 1
    return n


def _igraph_order(items_by_layer, chains):
    """Each layer's items ordered by igraph's Sugiyama layout (barycentre sweeps)."""
    import igraph as ig

    items = [x for row in items_by_layer for x in row]
    index = {x: i for i, x in enumerate(items)}
    depth = {x: d for d, row in enumerate(items_by_layer) for x in row}
    edges = [(index[a], index[b]) for chain in chains.values()
             for a, b in zip(chain, chain[1:], strict=False)]
    graph = ig.Graph(n=len(items), edges=edges, directed=True)
    layout = graph.layout_sugiyama(layers=[depth[x] for x in items], maxiter=200)
    xs = {x: layout[index[x]][0] for x in items}
    return [sorted(row, key=lambda x: (xs[x], index[x])) for row in items_by_layer]


def _barycentre_order(rows: list[list], up: Mapping, down: Mapping, sweeps: int = 12
                      ) -> list[list]:
    """Layers reordered by the mean position of their neighbours, sweeping down then up;
    the ordering with the fewest crossings seen is returned."""
    def crossings(order):
        total = 0
        for d in range(len(order) - 1):
            below = {x: i for i, x in enumerate(order[d + 1])}
            segs = [(i, below[y]) for i, x in enumerate(order[d]) for y in down.get(x, ())]
            total += _inversions(segs)
        return total

    best, fewest = [list(r) for r in rows], None
    order = [list(r) for r in rows]
    for sweep in range(sweeps):
        downward = sweep % 2 == 0
        layers = range(1, len(order)) if downward else range(len(order) - 2, -1, -1)
        for d in layers:
            ref = order[d - 1] if downward else order[d + 1]
            where = {x: i for i, x in enumerate(ref)}
            links = up if downward else down
            now = {x: i for i, x in enumerate(order[d])}

            def key(x, links=links, where=where, now=now):
                ns = [where[n] for n in links.get(x, ()) if n in where]
                return (sum(ns) / len(ns) if ns else now[x], now[x])

            order[d] = sorted(order[d], key=key)
        n = crossings(order)
        if fewest is None or n < fewest:
            best, fewest = [list(r) for r in order], n
    return best


def _transpose(layers: list[list], up: Mapping, down: Mapping) -> None:
    """Swap neighbours in a layer while that removes crossings with the layers above and
    below (in place)."""
    for _ in range(TRANSPOSE_PASSES):
        improved = False
        for d, row in enumerate(layers):
            above = {x: i for i, x in enumerate(layers[d - 1])} if d else {}
            below = {x: i for i, x in enumerate(layers[d + 1])} if d + 1 < len(layers) else {}
            for i in range(len(row) - 1):
                a, b = row[i], row[i + 1]
                before = _pair(a, b, up, above) + _pair(a, b, down, below)
                after = _pair(b, a, up, above) + _pair(b, a, down, below)
                if after < before:
                    row[i], row[i + 1] = b, a
                    improved = True
        if not improved:
            return


def _pair(a, b, links, where) -> int:
    """Crossings between a's and b's segments to one neighbouring layer, a left of b."""
    return sum(1 for x in links.get(a, ()) for y in links.get(b, ())
               if where[x] > where[y])


def _place(row: list, desired: Mapping, widths: Mapping, sep, width: float) -> dict:
    """x of the row's items in this order, separated, as close to ``desired`` as possible
    (least squares: blocks of touching items share their mean wish), inside [0, width]."""
    blocks: list[list] = []  # [x of the first item, items, offsets from the first]
    for v in row:
        blocks.append([desired[v], [v], [0.0]])
        while len(blocks) > 1:
            prev, last = blocks[-2], blocks[-1]
            a, b = prev[1][-1], last[1][0]
            need = prev[2][-1] + (widths[a] + widths[b]) / 2 + sep(a, b)
            if prev[0] + need <= last[0] + 1e-12:
                break
            items = prev[1] + last[1]
            offsets = prev[2] + [o + need for o in last[2]]
            start = sum(desired[u] - o for u, o in zip(items, offsets, strict=True)) / len(items)
            blocks[-2:] = [[start, items, offsets]]
    xs = {u: s + o for s, items, offsets in blocks for u, o in zip(items, offsets, strict=True)}
    for i, u in enumerate(row):  # inside [0, width]: push right, then left
        least = widths[u] / 2 if i == 0 else \
            xs[row[i - 1]] + (widths[row[i - 1]] + widths[u]) / 2 + sep(row[i - 1], u)
        xs[u] = max(xs[u], least)
    for i in range(len(row) - 1, -1, -1):
        u = row[i]
        most = width - widths[u] / 2 if i == len(row) - 1 else \
            xs[row[i + 1]] - (widths[row[i + 1]] + widths[u]) / 2 - sep(u, row[i + 1])
        xs[u] = min(xs[u], most)
    return xs


def row_width(row: Sequence, widths: Mapping, sep) -> float:
    """Inches a row of items takes at its tightest."""
    return sum(widths[x] for x in row) + sum(sep(a, b) for a, b in zip(row, row[1:], strict=False))


def layered_layout(order: Sequence[Hashable], edges: Sequence[tuple[Hashable, Hashable]],
                   sizes: Mapping[Hashable, Size], width: float, pitch: float,
                   gap: float = 0.09, capacity: float | None = None,
                   edge_gap: float = 0.045) -> Layered | None:
    """The layered layout of a DAG of boxes inside ``width`` inches (None if a layer cannot
    fit even folded). ``order`` lists every vertex, parents before children; rows are
    ``pitch`` inches apart; an edge crossing a layer keeps ``edge_gap`` inches from its
    neighbours there.

    Examples
    --------
    >>> lay = layered_layout("abc", [("a", "b"), ("a", "c"), ("b", "c")],
    ...                      dict.fromkeys("abc", (0.3, 0.2)), 3.0, 0.5)
    >>> [lay.layer[v] for v in "abc"], len(lay.bends[("a", "c")])
    ([0, 1, 2], 1)
    """
    parents: dict[Hashable, list] = {v: [] for v in order}
    for u, v in edges:
        parents[v].append(u)
    widths = {v: sizes[v][0] for v in order}
    row_h = max((sizes[v][1] for v in order), default=0.0)
    placed = {v: 0.0 if isinstance(v, Copy) else w for v, w in widths.items()}  # copies: below
    cap = capacity if capacity is not None else 0.8 * width
    for attempt in range(12):
        layer = _lift_copies(edges, assign_layers(order, parents, placed, cap, gap))
        result = _arrange(order, edges, layer, widths, width, pitch, gap, row_h, edge_gap)
        if result is not None:
            return result
        if attempt == 0:  # the longest-path layers do not fit: fill them counting the edges
            fills = [fill_layers(order, parents, placed, width, gap, DUMMY_WIDTH + edge_gap, p)
                     for p in ROW_PRIORITIES]
            fills = [f for f in fills if f is not None]
            if fills:  # the fewest layers (the first of equals)
                layer = _lift_copies(edges, min(fills, key=lambda f: max(f.values())))
                result = _arrange(order, edges, layer, widths, width, pitch, gap, row_h,
                                  edge_gap)
                if result is not None:
                    return result
        if cap <= max(widths.values()) + 1e-9:
            return None
        cap = max(0.8 * cap, max(widths.values()))
    return None


def _lift_copies(edges, layer: dict) -> dict:
    """The layers with each parent's :class:`Copy` just above its highest child (in place)."""
    for v in layer:
        if isinstance(v, Copy):
            layer[v] = max(layer[v], min(layer[b] for a, b in edges if a == v) - 1)
    return layer


def _arrange(order, edges, layer, widths, width, pitch, gap, row_h, edge_gap
             ) -> Layered | None:
    chains = _segments(edges, layer)
    depth_count = 1 + max(layer.values(), default=0)
    rows: list[list] = [[] for _ in range(depth_count)]
    for v in order:
        rows[layer[v]].append(v)
    item_w = dict(widths)
    for chain in chains.values():
        for x in chain[1:-1]:
            rows[x[1]].append(x)
            item_w[x] = DUMMY_WIDTH
    nodes = set(order)

    def sep(a, b) -> float:
        return gap if a in nodes and b in nodes else edge_gap

    if any(row_width(r, item_w, sep) > width + 1e-9 for r in rows):
        return None
    up: dict = {}
    down: dict = {}
    for chain in chains.values():
        for a, b in zip(chain, chain[1:], strict=False):
            down.setdefault(a, []).append(b)
            up.setdefault(b, []).append(a)
    if chains:  # igraph's order and ours, each improved by transpositions: the better one
        candidates = [_barycentre_order(rows, up, down)] if "barycentre" in ORDERINGS else []
        try:
            if "igraph" in ORDERINGS or not candidates:
                candidates.append(_igraph_order(rows, chains))
        except ImportError:  # igraph is optional
            candidates = candidates or [_barycentre_order(rows, up, down)]
        for c in candidates:
            _transpose(c, up, down)
        rows = min(candidates, key=lambda c: count_crossings(c, chains))
    x: dict = {}
    for r in rows:  # start packed and centred
        total = row_width(r, item_w, sep)
        cursor = (width - total) / 2
        for i, v in enumerate(r):
            if i:
                cursor += sep(r[i - 1], v)
            x[v] = cursor + item_w[v] / 2
            cursor += item_w[v]
    for sweep in range(8):
        sequence = range(1, len(rows)) if sweep % 2 == 0 else range(len(rows) - 2, -1, -1)
        for d in sequence:
            links = up if sweep % 2 == 0 else down
            if sweep >= 6:  # last sweeps: both neighbours
                def wish(v):
                    ns = up.get(v, []) + down.get(v, [])
                    return sum(x[n] for n in ns) / len(ns) if ns else x[v]
            else:
                def wish(v, links=links):
                    ns = links.get(v, [])
                    return sum(x[n] for n in ns) / len(ns) if ns else x[v]
            desired = {v: wish(v) for v in rows[d]}
            x.update(_place(rows[d], desired, item_w, sep, width))
    _straighten(rows, chains, x, item_w, sep)
    pos = {v: (x[v], -pitch * layer[v]) for v in order}
    bends = {e: [(x[d], -pitch * d[1]) for d in chain[1:-1]] for e, chain in chains.items()}
    return Layered(pos, layer, bends, row_h, count_crossings(rows, chains), rows)


def _straighten(rows, chains, x, widths, sep) -> None:
    """Run every long edge straight down where the neighbours in each layer leave room:
    each dummy moves to the x of the dummy above it when it fits there; in place."""
    where = {item: (d, i) for d, row in enumerate(rows) for i, item in enumerate(row)}

    def fits(d, target) -> bool:
        row_i, i = where[d]
        row = rows[row_i]
        if i and target < x[row[i - 1]] + (widths[row[i - 1]] + widths[d]) / 2 \
                + sep(row[i - 1], d) - 1e-9:
            return False
        return not (i + 1 < len(row) and target > x[row[i + 1]] - (widths[row[i + 1]]
                    + widths[d]) / 2 - sep(d, row[i + 1]) + 1e-9)

    for _ in range(2):
        for chain in chains.values():
            dummies = chain[1:-1]
            for above, d in zip(dummies, dummies[1:], strict=False):
                if fits(d, x[above]):
                    x[d] = x[above]


def ports(centre: float, half_width: float, targets: Sequence[float], spacing: float
          ) -> list[float]:
    """x of edge ports along one side of a box (ordered like ``targets``, at most
    ``spacing`` apart, within the middle 60 % of the side)."""
    n = len(targets)
    if n == 0:
        return []
    step = min(spacing, 1.2 * half_width / max(n - 1, 1)) if n > 1 else 0.0
    rank = sorted(range(n), key=lambda i: (targets[i], i))
    out = [0.0] * n
    for k, i in enumerate(rank):
        out[i] = centre + (k - (n - 1) / 2) * step
    return out


def route_path(start: Point, bends: Sequence[Point], end: Point, row_height: float):
    """Vertices and codes (matplotlib path codes) of an edge: from ``start`` (a port on the
    bottom side of the parent) through each dummy point (straight down across its layer)
    to ``end`` (a port on the top of the child), each gap between layers crossed by a
    cubic with vertical tangents (inside that gap).

    Examples
    --------
    >>> verts, codes = route_path((0.0, -0.1), [], (1.0, -0.4), 0.2)
    >>> verts[0], verts[-1], codes
    ((0.0, -0.1), (1.0, -0.4), [1, 4, 4, 4])
    """
    MOVETO, LINETO, CURVE4 = 1, 2, 4
    verts: list[Point] = [start]
    codes = [MOVETO]
    points = [start]
    for bx, by in bends:
        points += [(bx, by + row_height / 2), (bx, by - row_height / 2)]
    points.append(end)
    for i in range(0, len(points) - 1, 2):
        (xa, ya), (xb, yb) = points[i], points[i + 1]
        mid = (ya - yb) / 2
        verts += [(xa, ya - mid), (xb, yb + mid), (xb, yb)]
        codes += [CURVE4] * 3
        if i + 2 < len(points):
            verts.append(points[i + 2])
            codes.append(LINETO)
    return verts, codes


def panel_layout(order, down, sizes, room, count, gap, edge_gap) -> Layered | None:
    """``count`` layered layouts side by side, each of a run of consecutive levels (longest
    path from the roots, split evenly); a parent in an earlier panel is drawn again as a
    :class:`Copy` on the first layer of its child's panel. None when a panel does not fit.

    Examples
    --------
    >>> chain = list("abcdef")
    >>> lay = panel_layout(chain, list(zip(chain, chain[1:])), dict.fromkeys(chain, (0.3, 0.2)),
    ...                    3.0, 2, 0.09, 0.045)
    >>> sorted(c.node for c in lay.pos if isinstance(c, Copy)), max(lay.layer.values())
    (['c'], 3)
    """
    rank = {v: i for i, v in enumerate(order)}
    depth: dict = {}
    parents: dict = {v: [] for v in order}
    for a, b in down:
        parents[b].append(a)
    for v in order:
        depth[v] = 1 + max((depth[p] for p in parents[v]), default=-1)
    levels = 1 + max(depth.values(), default=0)
    if levels < 2 * count:
        return None
    width = (room - (count - 1) * PANEL_GAP) / count
    load = [0.0] * levels  # rows a level takes folded into a panel
    for v in order:
        load[depth[v]] += sizes[v][0] + gap
    rows = [max(1.0, x / width) for x in load]
    start = [sum(rows[:i]) for i in range(levels)]  # the levels split evenly by rows
    cut = {i: min(count - 1, int(count * (start[i] + rows[i] / 2) / sum(rows)))
           for i in range(levels)}
    panel = {v: cut[depth[v]] for v in order}
    merged = Layered({}, {}, {}, 0.0, panel=dict(panel))
    for j in range(count):
        copies: dict = {}
        edges = []
        for a, b in down:
            if panel[b] == j:
                edges.append((a, b) if panel[a] == j else (copies.setdefault(a, Copy(a, j)), b))
        sub = [copies[a] for a in sorted(copies, key=rank.__getitem__)]
        sub += [v for v in order if panel[v] == j]
        lay = layered_layout(sub, edges, {v: sizes[v.node if isinstance(v, Copy) else v]
                                          for v in sub}, width, 1.0, gap, capacity=width,
                             edge_gap=edge_gap)
        if lay is None:
            return None
        dx = j * (width + PANEL_GAP)
        merged.pos |= {v: (x + dx, y) for v, (x, y) in lay.pos.items()}
        merged.layer |= lay.layer
        merged.bends |= {e: [(x + dx, y) for x, y in pts] for e, pts in lay.bends.items()}
        merged.row_height = max(merged.row_height, lay.row_height)
        merged.crossings += lay.crossings
        merged.panel |= {c: j for c in copies.values()}
        if j:
            merged.rules.append(dx - PANEL_GAP / 2)
    return merged
