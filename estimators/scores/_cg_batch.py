"""The conditional Gaussian score of many hyperedges at once, from cell statistics.

:func:`cg_gains` gives the same ``f(v, P)`` as the row path (which fits the two factors
of each hyperedge from its rows, MATH.md §7) without fitting anything per hyperedge:

* :class:`CGTables` computes, once per fitted score and lazily per tuple ``D'`` of
  categorical columns, the :class:`~estimators.stats.cell_statistics.CellStats` of all the
  continuous columns in every cell (missingness pattern, configuration of ``D'``, class).
* The hyperedges are grouped by (categorical members, number of continuous members, role
  of v); a group's cell statistics are index gathers into that block and a sum over the
  missingness patterns in which its continuous members are observed. Everything after runs
  over the whole group, in compiled loops (numba) with one pass per hyperedge over its
  cells: for a continuous v, the pooling of small cells and the ridge regressions with
  their residual sums from the cells' moments (:mod:`estimators.scores._cg_continuous_kernel`;
  its numpy form with pseudo-inverses where ``ridge = 0``); for a categorical v with continuous
  parents, the Bayes-rule factor's pooled Gaussians per cell
  (:mod:`estimators.scores._cg_bayes_kernel`) and its normaliser ``log sum_c`` -- not a
  function of moments -- on the rows, still batched over the group
  (:mod:`estimators.scores._cg_kernel`: rows x states x hyperedges; also the gather's sums
  over patterns). A categorical v without continuous members needs only the counts of its
  cells (:meth:`CGTables.counts`): contingency tables, scored together for all such
  hyperedges with the same layout.
* **First runs in numpy.** The gather, the continuous v with at most two continuous
  parents and the Bayes-rule factor with one or two run in numpy forms of the kernels that
  do the same operations in the same order (:mod:`~estimators.scores._cg_numpy`: the same
  numbers bit for bit on every CPU, both forms computing ``log`` and ``exp`` by the same
  written-out fdlibm code) while the kernel
  is neither compiled in this process nor in numba's disk cache, until the process has spent
  a time budget in that numpy form (:class:`~estimators.base.kernel_choice.KernelChoice`):
  a small table's first run (TAN on helpmiss) compiles no kernel (~20 s CPU of compilation
  for ~0.1 s of work), and a warm process runs the kernels.

**Missing cells (available cases, MATH.md §8).** A row enters a hyperedge's statistics when
v, every parent and the class are observed: rows with a missing categorical member are in
no cell of that ``D'`` (code -1), and rows with a missing continuous member are excluded by
summing only the missingness patterns (of the continuous columns) in which all continuous
members are observed. Empty cells (no complete row) contribute nothing, as on the row path.

**Precision.** The moments are differences of raw sums of columns shifted by their means,
not two-pass centred sums, so a cell whose variance (or regression residual) is below
``1e-5`` of its raw second moment -- a constant or collinear cell, whose variance the floor
replaces -- would lose the digits the row path keeps. Such hyperedges are flagged and
scored on the row path instead (``cg_gains`` returns the mask; the score counts them).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from math import prod

import numpy as np

from estimators.base.kernel_choice import KernelChoice
from estimators.columns import EncodedColumns
from estimators.scores import _cg_numpy
from estimators.scores._cg_rows_batch import gains_on_rows, row_path_key
from estimators.stats.cell_statistics import CellStats

__all__ = ["CGTables", "Hyperedges", "cg_gains"]

#: relative size below which a variance or residual is recomputed on the row path
TINY = 1e-5
#: gathered floats per chunk of hyperedges (bounds memory)
_BUDGET = 1 << 22
#: the kernels or their numpy forms, per call (module docstring, "First runs in numpy"); each
#: budget about its kernel's compilation on a first run (CPU seconds, ``benchmarks/first_run.py
#: --compile-times``: gather ~1.8, continuous gains ~5 with its helpers, the Bayes-rule pair
#: ~28), so that a first run spends at most about twice the better of the two choices
#: (ski rental); kTAN on helpmiss spends ~3, ~2 and ~6 s in the three numpy forms
_GATHER = KernelChoice("estimators.scores._cg_kernel:gather_moments", budget=1.5)
_CONTINUOUS = KernelChoice("estimators.scores._cg_continuous_kernel:continuous_gains",
                           budget=5.0)
_BAYES = KernelChoice("estimators.scores._cg_bayes_kernel:bayes_parameters",
                      "estimators.scores._cg_kernel:bayes_row_sums", budget=10.0)
#: (hyperedge, row) pairs per call of the row path: its arrays stay in the cache (250 rather
#: than 2,230 hyperedges a call on helpmiss: 0.82 -> 0.60 s CPU, the same values)
_ROW_PAIRS = 1 << 16


def _mixed_radix(codes: np.ndarray, levels) -> np.ndarray:
    """Row-major code of each row's configuration; -1 where a member is missing."""
    out = np.zeros(codes.shape[0], dtype=np.int64)
    for j, lv in enumerate(levels):
        out = out * int(lv) + codes[:, j]
    return np.where((codes < 0).any(axis=1), -1, out)


class CGTables:
    """Cell statistics of an encoded table for the CG score (module docstring).

    Parameters
    ----------
    enc : EncodedColumns
    y : ndarray of int, shape (n,)
    n_classes : int
    """

    def __init__(self, enc: EncodedColumns, y: np.ndarray, n_classes: int):
        self.enc, self.y, self.m = enc, np.asarray(y, dtype=np.int64), int(n_classes)
        cont = np.flatnonzero(enc.continuous)
        self.pos = np.full(len(enc.types), -1)
        self.pos[cont] = np.arange(cont.size)
        X = enc.values[:, cont]
        obs = ~np.isnan(X)
        shift = np.where(obs, X, 0.0).sum(axis=0) / np.maximum(obs.sum(axis=0), 1)
        # row-major (the kernels read a row's columns together)
        self.X = np.ascontiguousarray(np.where(obs, X - shift, 0.0))
        self.obs = np.ascontiguousarray(obs)
        patterns, pid = np.unique(~obs, axis=0, return_inverse=True)
        self.pattern_observed = ~patterns  # (r, p): continuous columns observed per pattern
        self.pid = np.asarray(pid).reshape(-1)
        self._blocks: dict[tuple, tuple] = {}
        self._counts: dict[tuple, np.ndarray] = {}
        self._sorted: dict[tuple, tuple] = {}

    @property
    def n_patterns(self) -> int:
        return int(self.pattern_observed.shape[0])

    def cells(self, cats: tuple) -> tuple[np.ndarray, int]:
        """Each row's cell in the ``r * G`` layout -- (missingness pattern, configuration
        of ``cats``, class); -1 when a member of ``cats`` is missing -- and ``G``, the
        cells per pattern."""
        levels = self.enc.n_levels[list(cats)]
        code = _mixed_radix(self.enc.codes[:, list(cats)], levels)
        G = int(prod(int(v) for v in levels)) * self.m
        return np.where(code >= 0, self.pid * G + code * self.m + self.y, -1), G

    def table(self, cats: tuple) -> np.ndarray:
        """Rows per (configuration of ``cats``, class) over every missingness pattern, flat
        (``G``): a categorical hyperedge's contingency table (integers, exact in any
        order)."""
        cell_n = self.counts(cats).reshape(self.n_patterns, -1)
        return cell_n[0] if self.n_patterns == 1 else cell_n.sum(axis=0)

    def counts(self, cats: tuple) -> np.ndarray:
        """Rows per (pattern, configuration of ``cats``, class), flat (``r * G``): all that
        a hyperedge without continuous members needs, without :meth:`block`'s moments of
        every continuous column (most tuples of 3 or 4 categorical columns need no more)."""
        have = self._blocks.get(cats)
        if have is not None:
            return have[0]
        have = self._counts.get(cats)
        if have is None:
            key, G = self.cells(cats)
            have = np.bincount(key[key >= 0], minlength=self.n_patterns * G).astype(float)
            self._counts[cats] = have
        return have

    def rows_by_cell(self, v: int, D: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The rows with v and the categorical columns ``D`` observed, sorted by their cell
        (configuration of D, class) -- each cell's Gaussians of a Bayes-rule factor then
        apply to a contiguous run of rows --, v's state in each, and where each of the
        ``U * m`` cells starts (int64; computed once per (v, D))."""
        have = self._sorted.get((v, D))
        if have is None:
            enc = self.enc
            u = _mixed_radix(enc.codes[:, list(D)], enc.n_levels[list(D)])
            cv = enc.codes[:, v]
            cidx = u * self.m + self.y
            rows = np.flatnonzero((u >= 0) & (cv >= 0))
            G = int(prod(int(x) for x in enc.n_levels[list(D)])) * self.m
            key = cidx[rows]  # as int16 where the cells allow: numpy's stable sort is then a
            # radix sort (the same order, ~5x faster than on int64 keys)
            rows = rows[np.argsort(key.astype(np.int16) if G < 2**15 else key, kind="stable")]
            starts = np.searchsorted(cidx[rows], np.arange(G + 1))
            have = tuple(a.astype(np.int64) for a in (rows, cv[rows], starts))
            self._sorted[(v, D)] = have
        return have

    def block(self, cats: tuple, cross: bool) -> tuple:
        """Statistics per (pattern, configuration of ``cats``, class) -- ``r * G`` cells
        -- computed once per tuple, with each cell's reference point (its mean over the
        rows where a column is observed, any pattern) and the raw sums about it that make
        merging patterns a weighted sum."""
        have = self._blocks.get(cats)
        if have is not None and (have[1] or not cross):
            return have
        key, G = self.cells(cats)
        r, p = self.n_patterns, self.X.shape[1]
        # two-pass statistics of the non-empty cells only (most (pattern, configuration,
        # class) cells are empty), placed in the r * G layout: per cell the same sums
        # (np.unique's sorted cells and each row's rank among them, by counting)
        full = np.bincount(key[key >= 0], minlength=r * G) > 0
        used, rank = np.flatnonzero(full), np.cumsum(full) - 1
        kept = np.where(key >= 0, rank[np.maximum(key, 0)], -1)
        st = CellStats.from_arrays(self.X, kept, used.size, cross=cross)
        q, g = np.divmod(used, G)
        n, mean = np.zeros((r, G)), np.zeros((r, G, p))
        n[q, g], mean[q, g] = st.n, st.mean
        w = n[:, :, None] * self.pattern_observed[:, None, :]  # rows with column j observed
        ref = (w * mean).sum(axis=0) / np.maximum(w.sum(axis=0), 1.0)  # (G, p)
        d = mean[q, g] - ref[g]  # (cells, p)
        # cells last (r, p, G) and (r, p, p, G): a gather of some columns is contiguous;
        # an empty cell's sums are 0
        R1, R2 = np.zeros((r, p, G)), np.zeros((r, p, p, G) if cross else (r, p, G))
        R1[q, :, g] = st.n[:, None] * d
        R2[q, ..., g] = (st.M + st.n[:, None, None] * d[:, :, None] * d[:, None, :] if cross
                         else st.M + st.n[:, None] * d * d)
        self._blocks[cats] = have = (n.reshape(-1), cross, ref, R1, R2)
        return have

    def gather(self, cats: tuple, spos: np.ndarray) -> CellStats:
        """Statistics of the continuous columns ``spos`` (H, s), s >= 1, in the cells (H, G)
        of ``cats``, over the rows where those columns are observed: the sums about each
        cell's reference point over the patterns in which they are, centred at the end
        (a constant cell stays exactly constant)."""
        H, s = spos.shape
        r = self.n_patterns
        cell_n, _, ref, R1, R2 = self.block(cats, cross=s >= 2)
        G = cell_n.size // r
        comp = self.pattern_observed[:, spos].all(axis=-1).T  # (H, r)
        n = comp.astype(float) @ cell_n.reshape(r, G)  # (H, G)
        # per hyperedge the sums over the patterns in which its columns are observed, in
        # pattern order (a hyperedge's sums do not depend on its batch), centred at the end
        R2 = R2 if R2.ndim == 4 else R2[:, :, None]
        spos = np.ascontiguousarray(spos, dtype=np.int64)

        def kernel(gather_moments, comp, R1, R2, spos, ref, n):
            mean, M = np.empty((H, G, s)), np.empty((H, G, s, s))
            gather_moments(np.ascontiguousarray(comp), R1, R2, spos, ref, n, mean, M)
            return mean, M

        mean, M = _GATHER.call(_cg_numpy.gather_moments, comp, R1, R2, spos, ref, n,
                               kernel_form=kernel)
        return CellStats(n, mean, M)


def _gain_categorical(n, L, m, j):
    """f(v, D) for a categorical v (axis j of the layout ``L``) without continuous parents:
    the plug-in CMI ``sum N ln(N N_y / (N_vy N_Dy)) / n`` from counts (H, *L, m), summed in
    the layout of the sorted categorical members, so that ``f(a, {b})`` and ``f(b, {a})``
    are the same number (as the symmetric discrete score)."""
    H = n.shape[0]
    N = n.reshape(H, *L, m)
    axes_v = tuple(1 + i for i in range(len(L)) if i != j)  # sum over D: N_vy
    Ny = N.sum(axis=tuple(range(1, len(L) + 1)), keepdims=True)
    Nvy = N.sum(axis=axes_v, keepdims=True) if axes_v else N
    NDy = N.sum(axis=1 + j, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(N > 0, N * (np.log(N) + np.log(Ny) - (np.log(Nvy) + np.log(NDy))), 0.0)
    ntot = N.sum(axis=tuple(range(1, len(L) + 2)))
    return terms.sum(axis=tuple(range(1, len(L) + 2))) / np.maximum(ntot, 1.0), ntot


def _gain_bayes(tables: CGTables, v, cats, j, spos, mcr, vs, ridge):
    """f(v, C u D) for a categorical v (axis j of ``cats``) with continuous parents C."""
    m, enc = tables.m, tables.enc
    st = tables.gather(cats, spos)
    H, c = spos.shape
    L = [int(x) for x in enc.n_levels[list(cats)]]
    K = L[j]

    A, B = prod(L[:j]), prod(L[j + 1:])  # configurations of the members before / after v
    n, mean, M = (a.reshape(H, A, K, B, m, *e) for a, e in ((st.n, ()), (st.mean, (c,)),
                                                             (st.M, (c, c))))
    rows, cv, starts = tables.rows_by_cell(v, tuple(x for x in cats if x != v))
    G = starts.size - 1
    spos = np.ascontiguousarray(spos, dtype=np.int64)

    def numpy_form():
        params = _cg_numpy.bayes_parameters(n, mean, M, mcr, vs, ridge, TINY) if c <= 2 else None
        if params is None:  # (a singular pooled covariance: the kernel's stale values)
            return None
        p_mean, p_prec, p_const, class_ll, ntot, flag = params
        full = _cg_numpy.bayes_row_sums(
            tables.X, tables.obs, spos, rows, cv, starts, p_mean.reshape(H, K, G, c),
            p_prec.reshape(H, K, G, c, c), p_const.reshape(H, K, G))
        return full, class_ll, ntot, flag

    def kernel(bayes_parameters, bayes_row_sums):
        p_mean, p_prec = np.empty((H, K, A, B, m, c)), np.empty((H, K, A, B, m, c, c))
        p_const = np.empty((H, K, A, B, m))
        class_ll, ntot, flag = bayes_parameters(n, mean, M, mcr, vs, ridge, TINY, p_mean,
                                                p_prec, p_const)
        full = np.zeros(H)
        bayes_row_sums(tables.X, tables.obs, spos, rows, cv, starts, p_mean.reshape(H, K, G, c),
                       p_prec.reshape(H, K, G, c, c), p_const.reshape(H, K, G), full)
        return full, class_ll, ntot, flag

    full, class_ll, ntot, flag = _BAYES.call(numpy_form, kernel_form=kernel)
    return (full - class_ll) / np.maximum(ntot, 1.0), ntot, flag


@dataclass(frozen=True, eq=False)
class Hyperedges:
    """Hyperedges as arrays: ``V`` (N,) the vertices and ``P`` (N, J) the parents
    ascending, padded with -1 (column indices); sliced like a list of items (the chunks of
    :func:`~estimators.scores._parallel.run_chunked`)."""

    V: np.ndarray
    P: np.ndarray

    @classmethod
    def from_items(cls, items) -> Hyperedges:
        """From items ``(v, sorted parent tuple)`` (one pass per parent count)."""
        V = np.fromiter((v for v, _ in items), dtype=np.int64, count=len(items))
        width = max((len(ps) for _, ps in items), default=0)
        P = np.full((len(items), width), -1, dtype=np.int64)
        for j in range(1, width + 1):
            at = [i for i, (_, ps) in enumerate(items) if len(ps) == j]
            if at:
                P[at, :j] = [items[i][1] for i in at]
        return cls(V, P)

    def __len__(self) -> int:
        return int(self.V.size)

    def __getitem__(self, index) -> Hyperedges:
        return Hyperedges(self.V[index], self.P[index])

    def items(self) -> list[tuple[int, tuple]]:
        """As items ``(v, sorted parent tuple)``."""
        return [(v, tuple(p for p in ps if p >= 0))
                for v, ps in zip(self.V.tolist(), self.P.tolist(), strict=True)]


def _groups(cont: np.ndarray, V: np.ndarray, P: np.ndarray):
    """The items' groups -- (kind, categorical members ascending, number of continuous
    parents c, position j of v among the categorical members) -- and each item's
    continuous members (the continuous parents ascending, then v when continuous), as
    arrays: no per-item Python. Yields ``(kind, cats, c, j, idx, S)`` with ``idx`` the
    group's items in item order and ``S`` (len(idx), s) their continuous members."""
    N, J = P.shape
    d = cont.size
    valid = P >= 0
    pc = valid & cont[np.where(valid, P, 0)]  # continuous parents
    c = pc.sum(axis=1)
    vc = cont[V]
    members = np.column_stack([P, V])
    is_cat = np.column_stack([valid & ~pc, ~vc])
    cats = np.sort(np.where(is_cat, members, d), axis=1)  # categorical members, then d
    j = np.where(vc, -1, (is_cat & (members < V[:, None])).sum(axis=1))
    kind = np.where(vc, 0, np.where(c > 0, 2, 1))
    key = np.column_stack([kind, c, j + 1, cats])
    base = np.array([3, J + 1, J + 2] + [d + 1] * (J + 1), dtype=object)
    if np.prod(base) < 2**62:  # one int64 per item (row-major digits): a 1-d unique
        radix = np.cumprod(base[::-1])[::-1][1:].tolist() + [1]
        flat = key @ np.array(radix, dtype=np.int64)
        _, first, inv = np.unique(flat, return_index=True, return_inverse=True)
        uniq = key[first]
    else:
        uniq, inv = np.unique(key, axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    order = np.argsort(inv, kind="stable")
    cuts = np.searchsorted(inv[order], np.arange(1, uniq.shape[0]))
    # continuous parents first, in their order; then v
    lead = np.take_along_axis(P, np.argsort(~pc, axis=1, kind="stable"), axis=1)
    kinds = ("continuous", "table", "categorical")
    for row, idx in zip(uniq.tolist(), np.split(order, cuts), strict=True):  # Python ints
        k, cg, jg = row[0], row[1], row[2] - 1
        S = lead[idx, :cg]
        if k == 0:
            S = np.column_stack([S, V[idx]])
        yield kinds[k], tuple(x for x in row[3:] if x < d), cg, jg, idx, S


def cg_gains(tables: CGTables, items, *, min_cell_rows: int, var_smoothing: float,
             ridge: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``f(v, P)`` of each item ``(v, sorted parent tuple)`` -- or of ``(V, P)`` arrays as
    :class:`Hyperedges` -- from the cell statistics.

    Returns
    -------
    gain : ndarray
        -inf where fewer than ``max(min_cell_rows, |C| + 2)`` complete rows.
    n_rows : ndarray
        Complete rows of each hyperedge.
    row_path : ndarray of bool
        Hyperedges whose statistics are too degenerate for the moments (module docstring,
        "Precision"); their ``gain`` comes from the batched row path
        (:mod:`estimators.scores._cg_rows_batch`).
    """
    enc, m = tables.enc, tables.m
    hyper = items if isinstance(items, Hyperedges) else Hyperedges.from_items(items)
    V, P = hyper.V, hyper.P
    gain, nrows = np.empty(V.size), np.empty(V.size)
    flags = np.zeros(V.size, dtype=bool)
    # a "table" group is one hyperedge (its items repeat it): scored together per layout
    # (levels of the categorical members, position of v), each from its cells' counts
    counts: dict[tuple, list] = defaultdict(list)
    levels = enc.n_levels.tolist()
    for kind, cats, c, j, idx, S in _groups(enc.continuous, V, P):
        L = [levels[x] for x in cats]
        G = prod(L) * m
        if G == 0:  # a categorical member without any level (all missing): no rows
            gain[idx], nrows[idx] = -np.inf, 0.0
            continue
        if kind == "table":
            counts[tuple(L), j].append((cats, idx))
            continue
        spos = tables.pos[S]
        s = spos.shape[1]
        step = max(1, _BUDGET // max(1, tables.n_patterns * G * max(s, 1) ** 2))
        for a in range(0, idx.size, step):
            sl = slice(a, a + step)
            if kind == "continuous":
                st = tables.gather(cats, spos[sl])
                H = st.n.shape[0]
                args = (st.n.reshape(H, -1, m), st.mean.reshape(H, -1, m, s),
                        st.M.reshape(H, -1, m, s, s), min_cell_rows, var_smoothing, ridge, TINY)
                # ridge 0: pseudo-inverses, in numpy only
                g, nt, fl = (_CONTINUOUS.call(_cg_numpy.continuous_gains, *args) if ridge > 0
                             else _cg_numpy.continuous_gains(*args))
            else:  # (cats, j) names v: one vertex per group
                g, nt, fl = _gain_bayes(tables, cats[j], cats, j, spos[sl], min_cell_rows,
                                        var_smoothing, ridge)
            gain[idx[sl]], nrows[idx[sl]], flags[idx[sl]] = g, nt, fl
        small = nrows[idx] < max(min_cell_rows, c + 2)
        gain[idx[small]] = -np.inf
        flags[idx[small]] = False
    for (L, j), todo in counts.items():
        step = max(1, _BUDGET // (prod(L) * m))
        for a in range(0, len(todo), step):
            part = todo[a:a + step]
            N = np.stack([tables.table(cats) for cats, _ in part])
            g, nt = _gain_categorical(N, list(L), m, j)
            g = np.where(nt < max(min_cell_rows, 2), -np.inf, g)
            for (_, idx), gi, ni in zip(part, g, nt, strict=True):
                gain[idx], nrows[idx] = gi, ni
    # the flagged hyperedges of all groups on the row path, batched by what it shares
    redo: dict[tuple, list] = defaultdict(list)
    flagged = {int(i): (int(V[i]), tuple(int(p) for p in P[i] if p >= 0))
               for i in np.flatnonzero(flags)}
    for i, (v, ps) in flagged.items():
        redo[row_path_key(enc, v, ps)].append(i)
    step = max(1, _ROW_PAIRS // max(1, enc.codes.shape[0]))
    for idx in redo.values():
        for a in range(0, len(idx), step):
            part = idx[a:a + step]
            gain[part] = gains_on_rows(enc, tables.y, m, [flagged[i] for i in part],
                                       min_cell_rows=min_cell_rows,
                                       var_smoothing=var_smoothing, ridge=ridge)
    return gain, nrows, flags
