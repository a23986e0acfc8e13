"""Conditional probability tables smoothed by a hierarchical Dirichlet process.

The estimator of Petitjean, Buntine, Webb & Zaidi, "Accurate parameter estimation for
Bayesian network classifiers using hierarchical Dirichlet processes", *Machine Learning*
107 (2018) 1303-1331, ported from the authors' Java implementation (github
``fpetitjean/HDP``, GPL-3; the algorithm and its defaults, not its code).

A table ``p(x | z_1, ..., z_L)`` is a tree: the root is ``p(x)``, a node at depth ``d`` is
``p(x | z_1, ..., z_d)``, the leaves hold the counts. Each node's distribution is drawn from a
Dirichlet process whose base is its parent's (the root's base uniform), with concentration
``c_j``. The counts are explained by the Chinese restaurant franchise: a node with
``n_jk`` customers of value ``k`` seats them at ``t_jk`` tables (``1 <= t_jk <= n_jk`` when
``n_jk > 0``), and an internal node's customers are its children's tables,
``n_jk = sum_children t_ck``. Given the tables and concentrations the estimate is

``p_jk = (n_jk + c_j p_parent(j),k) / (N_j + c_j)``,  ``N_j = sum_k n_jk``.

The tables are sampled by collapsed Gibbs sampling, the posterior of the franchise being
``prod_j c_j^{T_j} / (c_j)_{N_j} prod_k S(n_jk, t_jk)`` (``S`` the unsigned Stirling
numbers of the first kind, ``(c)_N`` the rising factorial); the concentrations by the
auxiliary-variable scheme of Teh et al. (2006): ``q_j ~ Beta(c, N_j)`` for every node
sharing ``c``, then ``c ~ Gamma(2 + sum_j T_j, rate 1 + sum_j -ln q_j)`` (prior
Gamma(2, 1)). The estimate is ``p_jk`` averaged over the sweeps after the burn-in.

The reference's choices, kept: nodes only where there are counts (a configuration with
none takes the estimate of its deepest ancestor with counts, which is what a node without
customers would get); each sweep samples every node's tables from the deepest level up to
the root, value by value, each ``t_jk`` from the 21 values ``t_jk - 10, ..., t_jk + 10``
allowed (at most 10000); the root seats one table per value seen and has the fixed
concentration 2; every concentration starts at 2, is sampled every 5 sweeps (sweeps 3, 8,
13, ...) and is capped at 4000; the tables start at
``max(1, floor(c (psi(c + n) - psi(c))))`` (``t = n`` for ``n <= 1``); the defaults are
5000 sweeps, a burn-in of ``min(1000, iterations // 10)`` and concentrations tied per
level. The random numbers differ from the reference's (MRG32k3a here), so the two agree
in distribution, not draw for draw.

Examples
--------
>>> import numpy as np
>>> counts = np.array([[[9, 1], [0, 0]], [[2, 2], [1, 5]]])   # p(x | z1, z2), x binary
>>> p = hdp_cpt(counts, iterations=500, random_state=0)
>>> p.shape, bool(np.allclose(p.sum(axis=-1), 1.0)), bool((p > 0).all())
((2, 2, 2), True, True)
>>> bool(p[0, 0, 0] > 0.7)        # 9 of 10: kept, shrunk a little towards p(x | z1 = 0)
True
>>> tree = fit_hdp([[0, 0], [1, 0], [1, 1]], [[9, 1], [2, 2], [1, 5]], [2, 2],
...                iterations=500, random_state=0)
>>> # z = (0, 1) has no counts: its estimate is the node p(x | z1 = 0)'s
>>> bool(np.array_equal(tree.query([[0, 1]]), tree.probabilities[[1]]))
True
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from numbers import Integral

import numpy as np
from scipy.special import digamma
from sklearn.utils import check_random_state

from estimators.base.kernel_choice import KernelChoice
from estimators.stats import _hdp_kernel as _kernel

__all__ = ["DEFAULT_ITERATIONS", "TYINGS", "HDPTree", "default_burn_in", "fit_hdp",
           "hdp_cpt", "node_probabilities"]

#: Gibbs sweeps of the reference implementation's default
DEFAULT_ITERATIONS = 5000
#: the ways concentrations are shared (the reference's ``TyingStrategy``): one per level,
#: one for all nodes but the root, one per node, one per set of siblings
TYINGS = ("level", "single", "none", "same_parent")
#: the starting concentration of every node, and the root's fixed one (the reference's)
START_CONCENTRATION = 2.0
#: the shape of the concentrations' Gamma prior; its rate is ``shape / START_CONCENTRATION``
PRIOR_SHAPE = 2.0
#: concentrations are sampled every FREQUENCY sweeps
FREQUENCY = 5
#: sweeps per call of the Python form (the budget of :data:`_KERNEL` is checked between
#: calls; the compiled kernel runs all sweeps in one call)
_BLOCK = 20
#: columns of the Stirling table beyond the largest table count when (re)built
_MARGIN = 256

_KERNEL = KernelChoice("estimators.stats._hdp_kernel:gibbs_block", budget=1.5)
_STIRLING_LOCK = threading.Lock()
_STIRLING = np.zeros((1, 1))


def default_burn_in(iterations: int) -> int:
    """The reference's burn-in: ``min(1000, iterations // 10)`` sweeps.

    Examples
    --------
    >>> default_burn_in(5000), default_burn_in(50000), default_burn_in(9)
    (500, 1000, 0)
    """
    return min(1000, int(iterations) // 10)


def log_stirling(rows: int, cols: int) -> np.ndarray:
    """``ln S(n, t)`` (unsigned Stirling numbers of the first kind) for ``n < rows`` and
    ``t < cols`` at least (a shared table, grown as needed), ``-inf`` where ``S = 0``.

    Examples
    --------
    >>> np.exp(log_stirling(5, 5)[4, :5]).round(9).tolist()   # 4 customers: 6 11 6 1
    [0.0, 6.0, 11.0, 6.0, 1.0]
    """
    global _STIRLING
    table = _STIRLING
    if table.shape[0] >= rows and table.shape[1] >= cols:
        return table
    with _STIRLING_LOCK:
        table = _STIRLING
        if table.shape[0] >= rows and table.shape[1] >= cols:
            return table
        R = max(rows, int(table.shape[0] * 1.5) if rows > table.shape[0] else table.shape[0])
        C = max(cols, int(table.shape[1] * 1.5) if cols > table.shape[1] else table.shape[1])
        new = np.full((R, C), -np.inf)
        new[0, 0] = 0.0
        with np.errstate(divide="ignore"):
            for n in range(R - 1):  # S(n + 1, t) = S(n, t - 1) + n S(n, t): a loop over rows
                new[n + 1, 1:] = np.logaddexp(new[n, :-1], np.log(n) + new[n, 1:])
        _STIRLING = new
        return new


@dataclass(eq=False)
class HDPTree:
    """A fitted tree (:func:`fit_hdp`).

    Attributes
    ----------
    keys : list of ndarray
        Per depth ``d = 0, ..., L``, the sorted codes ``parent node * radix[d - 1] + z_d`` of
        its nodes (the root's: ``[0]``); node ``i`` of depth ``d`` is row
        ``level_start[d] + i``.
    level_start : ndarray of int
    radix : ndarray of int
        Per depth, the number of values of its conditioning variable.
    parent : ndarray of int
        Each node's parent row (-1 for the root).
    counts : ndarray of int, shape (n_nodes, K)
        The leaves' counts (zero elsewhere).
    tables : ndarray of int, shape (n_nodes, K)
        The table counts at the last sweep.
    concentrations : ndarray of float
        The sampled concentrations at the last sweep (one per tie, :attr:`tie`).
    tie : ndarray of int
        Each node's concentration (-1: the root's fixed one).
    probabilities : ndarray of float, shape (n_nodes, K)
        The averaged estimates of every node.
    n_samples : int
        The sweeps averaged.
    """

    keys: list
    level_start: np.ndarray
    radix: np.ndarray
    parent: np.ndarray
    counts: np.ndarray
    tables: np.ndarray
    concentrations: np.ndarray
    tie: np.ndarray
    probabilities: np.ndarray
    n_samples: int

    def nodes(self, paths: np.ndarray, depth: int | None = None) -> np.ndarray:
        """The row of each path's deepest node (the node with counts nearest the leaf on
        its path, at most ``depth`` levels down; None: the leaves'), shape (n,)."""
        paths = np.asarray(paths, dtype=np.int64).reshape(-1, self.radix.size)
        depth = self.radix.size if depth is None else min(int(depth), self.radix.size)
        node = np.zeros(paths.shape[0], dtype=np.int64)  # index within the level
        row = np.zeros(paths.shape[0], dtype=np.int64)
        alive = np.ones(paths.shape[0], dtype=bool)
        for d in range(1, depth + 1):
            if self.keys[d].size == 0:
                break
            key = node * self.radix[d - 1] + paths[:, d - 1]
            pos = np.minimum(np.searchsorted(self.keys[d], key), self.keys[d].size - 1)
            alive &= self.keys[d][pos] == key
            node = np.where(alive, pos, node)
            row = np.where(alive, self.level_start[d] + pos, row)
        return row

    def query(self, paths: np.ndarray, depth: int | None = None) -> np.ndarray:
        """The estimate of each path ``(z_1, ..., z_L)``: its deepest node's (at most
        ``depth`` levels down), shape (n, K)."""
        return self.probabilities[self.nodes(paths, depth)]


def _tree(paths: np.ndarray, counts: np.ndarray, radix: np.ndarray):
    """The nodes with counts, level by level in lexicographic order (the reference's
    depth-first order): keys, level starts, parents and leaf counts."""
    L = radix.size
    keep = counts.sum(axis=1) > 0
    paths, counts = paths[keep], counts[keep]
    keys = [np.zeros(1, np.int64)]
    parent = [np.full(1, -1, np.int64)]
    node = np.zeros(paths.shape[0], np.int64)
    start = [0, 1]
    for d in range(1, L + 1):
        key = node * radix[d - 1] + paths[:, d - 1]
        level, node = np.unique(key, return_inverse=True)
        keys.append(level)
        parent.append(start[d - 1] + level // radix[d - 1])
        start.append(start[d] + level.size)
    K = counts.shape[1]
    n = np.zeros((start[-1], K), np.int64)
    np.add.at(n, start[L] + node, counts)
    return keys, np.asarray(start, np.int64), np.concatenate(parent), n


def _ties(tying: str, level_start: np.ndarray, parent: np.ndarray) -> np.ndarray:
    """Each node's concentration index (-1 for the root)."""
    depth = np.repeat(np.arange(level_start.size - 1), np.diff(level_start))
    if tying == "level":
        return depth - 1
    if tying == "single":
        return np.where(depth > 0, 0, -1)
    if tying == "none":
        return np.arange(parent.size) - 1
    groups = np.unique(parent[1:], return_inverse=True)[1]  # same_parent
    return np.r_[-1, groups]


def _start_tables(nk, level_start, parent):
    """The reference's starting tables, from the leaves up (``nk`` of internal nodes set
    from their children's tables)."""
    tk = np.zeros_like(nk)
    c = START_CONCENTRATION
    for d in range(level_start.size - 2, -1, -1):
        rows = np.arange(level_start[d], level_start[d + 1])
        if d < level_start.size - 2:
            nk[rows] = 0
            kids = np.arange(level_start[d + 1], level_start[d + 2])
            np.add.at(nk, parent[kids], tk[kids])
        n = nk[rows]
        if d == 0:
            tk[rows] = (n > 0).astype(np.int64)
        else:
            guess = np.floor(c * (digamma(c + n) - digamma(c))).astype(np.int64)
            tk[rows] = np.where(n <= 1, n, np.maximum(1, guess))
    return tk


def _check(iterations, burn_in, tying) -> int:
    if not isinstance(iterations, Integral) or iterations < 1:
        raise ValueError(f"iterations must be a positive integer; got {iterations!r}.")
    burn = default_burn_in(iterations) if burn_in is None else burn_in
    if not isinstance(burn, Integral) or not 0 <= burn < iterations:
        raise ValueError(f"burn_in must be an integer in [0, iterations); got {burn_in!r} "
                         f"with iterations={iterations}.")
    if tying not in TYINGS:
        raise ValueError(f"tying must be one of {TYINGS}; got {tying!r}.")
    return int(burn)


def fit_hdp(paths: np.ndarray, counts: np.ndarray, radix, *, iterations: int = DEFAULT_ITERATIONS,
            burn_in: int | None = None, tying: str = "level", random_state=None) -> HDPTree:
    """Fit the tree of ``p(x | z_1, ..., z_L)`` (module docstring) by Gibbs sampling.

    Parameters
    ----------
    paths : array-like of int, shape (n_cells, L)
        Each cell's conditioning values ``z_1, ..., z_L`` (codes ``0, ..., radix[d] - 1``), in
        the order of the tree's levels.
    counts : array-like of int, shape (n_cells, K)
        The counts of x's values in each cell (cells may repeat; empty cells are ignored).
    radix : array-like of int, shape (L,)
        The number of values of each conditioning variable.
    iterations : int, default=5000
        Gibbs sweeps (the reference's default).
    burn_in : int or None, default=None
        Sweeps not averaged; None: ``min(1000, iterations // 10)`` (the reference's).
    tying : {"level", "single", "none", "same_parent"}, default="level"
        Which nodes share a concentration (:data:`TYINGS`; the reference's default: level).
    random_state : int, RandomState instance or None
        Seeds the sampler.

    Returns
    -------
    HDPTree

    Examples
    --------
    >>> tree = fit_hdp([[0], [1]], [[30, 10], [1, 3]], [2], iterations=200, random_state=1)
    >>> tree.query([[0], [1]]).round(2).tolist()   # doctest: +SKIP
    [[0.74, 0.26], [0.36, 0.64]]
    >>> tree.query([[0], [1]]).sum(axis=1).round(12).tolist()
    [1.0, 1.0]
    """
    burn = _check(iterations, burn_in, tying)
    radix = np.asarray(radix, dtype=np.int64).reshape(-1)
    counts = np.asarray(counts)
    paths = np.asarray(paths, dtype=np.int64).reshape(counts.shape[0], radix.size)
    if counts.ndim != 2 or (counts < 0).any() or not np.array_equal(counts, np.round(counts)):
        raise ValueError("counts must be non-negative integers of shape (n_cells, K).")
    if paths.size and ((paths < 0).any() or (paths >= radix).any()):
        raise ValueError("paths must hold codes 0, ..., radix - 1 of each level.")
    counts = counts.astype(np.int64)
    keys, level_start, parent, nk = _tree(paths, counts, radix)
    tie = _ties(tying, level_start, parent)
    n_conc = int(tie.max()) + 1 if tie.size > 1 else 0
    tk = _start_tables(nk, level_start, parent)
    mn, mt = nk.sum(axis=1), tk.sum(axis=1)
    conc = np.full(n_conc, START_CONCENTRATION)
    sampled = np.ones(n_conc, bool)
    order = np.argsort(tie[1:], kind="stable") + 1
    tied_ptr = np.r_[0, np.cumsum(np.bincount(tie[1:], minlength=n_conc))].astype(np.int64)
    tied_nodes = order.astype(np.int64)
    total = int(counts.sum())
    lgr = np.zeros((n_conc + 1, total + _kernel.WINDOW + 2))
    lgr_valid = np.zeros(n_conc + 1, np.int64)
    rs = check_random_state(random_state)
    state = np.r_[rs.randint(1, _kernel._M1, size=3, dtype=np.int64),
                  rs.randint(1, _kernel._M2, size=3, dtype=np.int64)]
    K = counts.shape[1]
    pk, psum = np.zeros((nk.shape[0], K)), np.zeros((nk.shape[0], K))
    weights = np.zeros(2 * _kernel.WINDOW + 1)
    spare = np.zeros(2)  # the normal generator's spare (a flag, a value)
    conc_of = np.maximum(tie, 0)
    added = first = 0
    while first < iterations:
        n_iter = iterations - first if _KERNEL.use_kernel() else min(_BLOCK, iterations - first)
        cols = min(int(tk.max(initial=0)) + 2 * _kernel.WINDOW + _MARGIN,
                   _kernel.MAX_TABLES + 2 * _kernel.WINDOW + 2, total + 1)
        table = log_stirling(total + 1, cols)
        stirling = table[:total + 1, :max(cols, min(table.shape[1], total + 1))]
        args = (first, n_iter, burn, FREQUENCY, nk, tk, mn, mt, parent, level_start, conc_of,
                conc, sampled, tied_ptr, tied_nodes, START_CONCENTRATION,
                PRIOR_SHAPE / START_CONCENTRATION, PRIOR_SHAPE, stirling, lgr, lgr_valid,
                state, spare, pk, psum, weights)
        done, got = _KERNEL.call(_kernel.PYTHON["gibbs_block"], *args)
        first += done
        added += got
    return HDPTree(keys=keys, level_start=level_start, radix=radix, parent=parent,
                   counts=np.where(np.arange(nk.shape[0])[:, None] >= level_start[-2], nk, 0),
                   tables=tk, concentrations=conc, tie=tie, probabilities=psum / added,
                   n_samples=added)


def node_probabilities(tree: HDPTree, tables: np.ndarray, concentrations: np.ndarray,
                       root_concentration: float = START_CONCENTRATION) -> np.ndarray:
    """Every node's estimate for given table counts and concentrations (one Gibbs state:
    the internal nodes' counts are their children's tables), shape (n_nodes, K)."""
    tables = np.asarray(tables, dtype=np.int64)
    nk = tree.counts.copy()
    for d in range(tree.level_start.size - 3, -1, -1):
        kids = np.arange(tree.level_start[d + 1], tree.level_start[d + 2])
        np.add.at(nk, tree.parent[kids], tables[kids])
    pk = np.zeros(nk.shape, dtype=float)
    _kernel.PYTHON["probabilities"](nk, nk.sum(axis=1), tree.parent, np.maximum(tree.tie, 0),
                                    np.asarray(concentrations, float), float(root_concentration),
                                    pk)
    return pk


def hdp_cpt(counts: np.ndarray, *, iterations: int = DEFAULT_ITERATIONS,
            burn_in: int | None = None, tying: str = "level", random_state=None) -> np.ndarray:
    """The HDP estimate of a dense table of counts (module docstring).

    Parameters
    ----------
    counts : array-like of int, shape (n_1, ..., n_L, K)
        ``counts[z_1, ..., z_L, x]``; the tree's levels are the leading axes in order.
    iterations, burn_in, tying, random_state :
        As in :func:`fit_hdp`.

    Returns
    -------
    ndarray of shape (n_1, ..., n_L, K)
        ``p(x | z_1, ..., z_L)``, every row positive and summing to 1.
    """
    counts = np.asarray(counts)
    shape = counts.shape[:-1]
    paths = np.indices(shape).reshape(len(shape), -1).T if shape else np.zeros((1, 0), np.int64)
    tree = fit_hdp(paths, counts.reshape(-1, counts.shape[-1]), np.array(shape, np.int64),
                   iterations=iterations, burn_in=burn_in, tying=tying,
                   random_state=random_state)
    return tree.query(paths).reshape(counts.shape)
