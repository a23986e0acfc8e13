"""Exact marginalisation of a rooted GNB / k-GNB whose factors are not all conditional
Gaussian (Gaussian-copula or KDE pairs on mixed tables; MATH.md §8).

Per missing pattern (rows grouped by their pattern over the structure's features):

1. missing vertices without an observed descendant integrate to 1 and drop
   (:func:`estimators.marginal._patterns.kept_vertices`);
2. every other missing vertex is a summed variable: its categories for a categorical one;
   for a continuous one, the nodes of a trapezoid rule on a regular grid over
   ``[min - 8 s, max + 8 s]`` of its training values with spacing ``s / 4``, ``s`` the
   smallest kernel bandwidth of the vertex over the classes (at most ``s = std / 5``), the
   scale on which its densities vary, and at most ``MAX_NODES`` nodes (a column whose range
   spans more than ~60 bandwidths gets a coarser spacing, and a larger quadrature error,
   so that a k-GNB factor over three missing features stays within 128^3 cells per row);
3. each factor is evaluated on the grid of its summed variables (rows x nodes), and the
   variables are summed out by log-space variable elimination
   (:func:`estimators.marginal._elimination.eliminate`), whose greedy order keeps the
   tables within the width of the structure.

Rows are processed in chunks so that no table exceeds ``MAX_CELLS`` entries. The rule's
error is far below the binning error of the KDE evaluation that defines the model; the
tests compare against brute-force integration of the complete-data density.
"""

from __future__ import annotations

import numpy as np

from estimators.columns import EncodedColumns
from estimators.marginal import check_summed, eliminate, kept_vertices, missing_patterns

__all__ = ["coarsened", "grid_log_marginal", "integration_grids", "trapezoid_grid"]

#: largest rows x nodes table evaluated at once
MAX_CELLS = 1 << 21
SPACING, REACH = 0.25, 8.0
#: most nodes of one rule (a wide column with narrow kernels gets a coarser spacing)
MAX_NODES = 128


def integration_grids(enc: EncodedColumns, density, vertices) -> dict:
    """Nodes and log trapezoid weights of each continuous vertex (see the module docstring)."""
    grids = {}
    for v in vertices:
        if not enc.continuous[v]:
            continue
        x = enc.values[:, v]
        x = x[~np.isnan(x)]
        sd = float(np.std(x)) or 1.0
        scale = min([sd / 5.0, *_bandwidths(density, v)])
        lo, hi = x.min() - REACH * scale, x.max() + REACH * scale
        size = int(min(np.ceil((hi - lo) / (SPACING * scale)) + 1, MAX_NODES))
        grids[int(v)] = trapezoid_grid(lo, hi, size)
    return grids


def trapezoid_grid(lo: float, hi: float, size: int) -> tuple[np.ndarray, np.ndarray]:
    """``size`` equally spaced nodes on [lo, hi] and the log of their trapezoid weights.

    Examples
    --------
    >>> nodes, log_w = trapezoid_grid(0.0, 1.0, 3)
    >>> nodes.tolist(), np.exp(log_w).tolist()
    ([0.0, 0.5, 1.0], [0.25, 0.5, 0.25])
    """
    nodes = np.linspace(lo, hi, size)
    w = np.full(size, (hi - lo) / (size - 1))
    w[[0, -1]] *= 0.5
    return nodes, np.log(w)


def _bandwidths(density, v: int) -> list[float]:
    if hasattr(density, "kdes_"):
        return [k[v].h for k in density.kdes_]
    if hasattr(density, "kde1_"):
        return [k[v].h for k in density.kde1_ if v in k]
    return []


def _expand(enc: EncodedColumns, cols: list[int], nodes: list[np.ndarray]) -> EncodedColumns:
    """Each row repeated over the product of the nodes of ``cols`` (row-major), those cells
    set to the nodes."""
    sizes = [n.size for n in nodes]
    reps = int(np.prod(sizes)) if sizes else 1
    values = np.repeat(enc.values, reps, axis=0)
    codes = np.repeat(enc.codes, reps, axis=0)
    mesh = np.meshgrid(*nodes, indexing="ij") if nodes else []
    for c, m in zip(cols, mesh, strict=True):
        flat = np.tile(m.ravel(), enc.codes.shape[0])
        if enc.continuous[c]:
            values[:, c] = flat
        else:
            codes[:, c] = flat.astype(np.int64)
    return EncodedColumns(values, codes, enc.types, enc.n_levels, enc.names, enc.n_unseen)


def grid_log_marginal(enc: EncodedColumns, order: list, factor_of, n_classes: int,
                      grids: dict, max_family_cells: int | None = None) -> np.ndarray:
    """``sum`` / integral over the missing cells of ``exp(sum_v ln p(x_v | x_pa(v), y))``,
    in logs, shape (n_rows, n_classes); ``order`` is ``(v, parents)``, parents first.

    ``max_family_cells`` (None: no limit): in a missing pattern whose largest factor table
    (the product of the node counts of one family's summed variables) exceeds it, the
    continuous summed variables of that family get coarser rules over the same interval
    (:func:`coarsened`), the one with the most nodes first, until it fits."""
    d = enc.codes.shape[1]
    parents = [()] * d
    covered = np.zeros(d, dtype=bool)
    for v, ps in order:
        parents[v] = tuple(ps)
        covered[v] = True
    out = np.zeros((enc.codes.shape[0], n_classes))
    for pattern, rows in missing_patterns(~enc.observed | ~covered):
        keep = kept_vertices(parents, pattern)
        summed = [v for v, _ in order if keep[v] and pattern[v]]
        check_summed(len(summed), "features")
        axis = {v: a for a, v in enumerate(summed)}
        nodes = {v: (grids[v][0] if v in grids else np.arange(int(enc.n_levels[v])))
                 for v in summed}
        families = [[u for u in (v, *ps) if u in axis] for v, ps in order if keep[v]]
        local = {v: grids[v] for v in summed if v in grids}
        if max_family_cells is not None:
            local = coarsened(local, families, max_family_cells)
            nodes.update({v: g[0] for v, g in local.items()})
        widest = max([1] + [int(np.prod([nodes[u].size for u in f])) for f in families])
        step = max(1, MAX_CELLS // widest)
        for s in range(0, rows.size, step):
            part = enc.take(rows[s:s + step])
            out[rows[s:s + step]] = _one_chunk(part, order, factor_of, n_classes, keep,
                                               summed, axis, nodes, local)
    return out


def coarsened(grids: dict, families: list, max_cells: int) -> dict:
    """``grids`` (vertex -> nodes, log trapezoid weights) with the largest rule of any
    family over more than ``max_cells`` nodes replaced by one of half its nodes (same
    interval), repeatedly, until every family's product of node counts (categorical
    members count 1 here) is at most ``max_cells`` or its rules have 3 nodes.

    Examples
    --------
    >>> import numpy as np
    >>> g = {0: (np.linspace(0, 1, 101), np.zeros(101)), 1: (np.linspace(0, 1, 11), np.zeros(11))}
    >>> out = coarsened(g, [[0, 1]], 300)
    >>> out[0][0].size, out[1][0].size, round(float(np.exp(out[0][1]).sum()), 12)
    (26, 11, 1.0)
    """
    grids = dict(grids)
    for family in families:
        cont = [u for u in family if u in grids]
        while cont and np.prod([grids[u][0].size for u in cont]) > max_cells:
            u = max(cont, key=lambda w: grids[w][0].size)
            size = grids[u][0].size
            if size <= 3:
                break
            lo, hi = grids[u][0][0], grids[u][0][-1]
            size = (size + 1) // 2
            w = np.full(size, (hi - lo) / (size - 1))
            w[[0, -1]] *= 0.5
            grids[u] = (np.linspace(lo, hi, size), np.log(w))
    return grids


def _one_chunk(enc, order, factor_of, n_classes, keep, summed, axis, nodes, grids):
    r, n_vars = enc.codes.shape[0], len(summed)
    logs = []
    for v in summed:
        if v in grids:
            shape = [1, 1] + [1] * n_vars
            shape[2 + axis[v]] = nodes[v].size
            logs.append(grids[v][1].reshape(shape))
    for v, ps in order:
        if not keep[v]:
            continue
        cols = [u for u in (v, *ps) if u in axis]
        cols.sort(key=lambda u: axis[u])
        lp = factor_of(v, ps).log_prob(_expand(enc, cols, [nodes[u] for u in cols]))
        sizes = [nodes[u].size for u in cols]
        lp = lp.reshape(r, *sizes, n_classes)
        lp = np.moveaxis(lp, -1, 1)  # (r, m, sizes...)
        shape = [r, n_classes] + [1] * n_vars
        for u in cols:
            shape[2 + axis[u]] = nodes[u].size
        logs.append(lp.reshape(shape))
    return eliminate(logs, r, n_classes, n_vars)
