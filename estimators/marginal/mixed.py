"""ln p(y, x_O) of a conditional Gaussian network, exact up to a stated quadrature error
(MATH.md §7–§8).

Per missing pattern (rows grouped by ``np.unique`` over the mask rows, all rows of a pattern
handled together by broadcasting, no loop over rows):

1. Missing vertices without an observed descendant integrate to 1 and drop.
2. The remaining missing vertices split three ways:

   * categorical: summed over their states;
   * continuous with only continuous descendants (set G): Gaussian marginalisation, exact.
     Given the categorical values and the quadrature nodes, G's regressions form a
     linear-Gaussian network ``x_G ~ N(m_G, S_G)`` and the observed continuous children O'
     of G are linear-Gaussian observations ``x_O' = h + H x_G + e``; their factor is
     ``N(x_O'; h + H m_G, H S_G H' + diag(var_O'))``;
   * continuous with a categorical descendant (set Q): a Gauss–Hermite rule of fixed order
     ``gh_order`` (default 64, ``numpy.polynomial.hermite_e.hermegauss``). Everything
     Gaussian in x_q is first absorbed exactly: its own regression, its observed continuous
     children (linear-Gaussian evidence) and, for a categorical child given by Bayes' rule
     with x_q as only continuous parent, the Gaussian numerator ``p(c | d, y) N(x_q; mu_c,
     var_c)``. The nodes ``x_q = m* + s* t_k`` are placed on that Gaussian posterior; the
     rule then integrates only the smooth remainder (the Bayes-rule denominators, and
     factors of other Gauss–Hermite vertices or of a Gaussian block below x_q).

3. The log-factors are summed out by log-space variable elimination (:mod:`._elimination`)
   over the categorical states and Gauss–Hermite nodes.

A pattern where some of those Gauss-Hermite vertices are not continuous parents of a
Bayes-rule vertex goes to :mod:`.posterior` instead (``posterior=True``, the default) when
that writes fewer cells (with the same memory bound and order fallback): nodes only for those
parents, on their exact joint Gaussian posterior, every other missing continuous vertex
integrated in closed form (fewer axes, and evidence anywhere below moves the nodes). The
steps above, the bound and the error below are this module's path.

Measured error of the rule (the d = 4 mixed model of ``tests/estimators/marginal/
test_mixed_marginal.py``, all 16 missing patterns, against brute-force grid integration):
largest absolute error in ln p(y, x_O) 3.5e-2 at order 6, 1.1e-2 at 8, 3.4e-3 at 10,
1.3e-3 at 12, 5e-4 at 16, 1.9e-5 at 32, 1.2e-6 at 48, 1.3e-7 at 64 (the default), 3e-10 at
128. It grows when a categorical child's posterior
switches sharply within the spread of x_q; raise ``gh_order`` then. All-continuous models
use only the exact Gaussian algebra, all-categorical ones only exact sums.

Memory bound. The Gaussian block is split into its connected components (block vertices
joined by a regression or a shared observed child); given the categorical values and the
nodes they are independent, so one log-factor per component is exact and spans only the
axes that component touches. Before a pattern is computed, an upper bound of the cells held at once per row is
taken from the pattern alone (:func:`_cells_bound`: the full table of the summed
variables times the number of factors and temporaries); only when that bound exceeds the
budget are its factors built for one row with a 2-node rule and the elimination replayed on
their shapes (:func:`._elimination.peak_cells`), which gives the cells held at once per row
at any order (factors, their construction's temporaries, combined tables). If rows x that
exceeds ``max_cells`` (default 2**26 float64 cells, 512 MB), the
pattern's rows are processed in chunks that fit. If one row alone exceeds it, the
pattern uses the largest Gauss-Hermite order that fits, not below 6, and one warning
states the order used and its measured error above (a chain of six regression-linked
vertices, each with a categorical child, fits at order 12; at order 10 in 2**24 cells); if order 6 does not fit either,
a ValueError names the number of missing continuous features with a categorical
descendant and suggests a lower ``gh_order`` or imputation.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, partial

import numpy as np
from networkx.utils import UnionFind
from numpy.polynomial.hermite_e import hermegauss as _hermegauss

from estimators.base.user_warnings import warn_user
from estimators.marginal._elimination import (
    axis_shape,
    eliminate,
    peak_cells,
    work_cells,
)
from estimators.marginal._linear import linear_in, pattern_values
from estimators.marginal._linear import mean_at as _mean
from estimators.marginal._linear import regression_at as _regression
from estimators.marginal._patterns import kept_vertices, missing_patterns, topological_order
from estimators.marginal.posterior import posterior_pattern_factors, posterior_vertices
from estimators.stats.gaussian import LOG_2PI

#: default order of the Gauss–Hermite rule
GH_ORDER = 64
#: default memory budget: float64 cells held at once per chunk of rows (512 MB)
MAX_CELLS = 2**26
#: lowest Gauss-Hermite order the memory bound falls back to
_MIN_ORDER = 6
#: measured error of the rule by order (module docstring)
_MEASURED_ERROR = {6: 3.5e-2, 8: 1.1e-2, 10: 3.4e-3, 12: 1.3e-3, 16: 5e-4, 32: 1.9e-5, 48: 1.2e-6, 64: 1.3e-7, 128: 3e-10}


@cache
def hermegauss(order: int) -> tuple[np.ndarray, np.ndarray]:
    """The Gauss-Hermite rule of ``order`` (numpy's ``hermegauss``, computed once per order:
    it is an eigenproblem, asked for once per missing pattern). Read-only arrays."""
    nodes, weights = _hermegauss(order)
    nodes.flags.writeable = weights.flags.writeable = False
    return nodes, weights


def _descendants_with_categorical(factors, keep: np.ndarray) -> np.ndarray:
    """True for vertices with a kept categorical descendant (strict) among kept vertices."""
    d = len(factors)
    children: list[list[int]] = [[] for _ in range(d)]
    for f in factors:
        for p in f.parents:
            children[p].append(f.vertex)
    flag = np.zeros(d, dtype=bool)
    for v in reversed(topological_order([f.parents for f in factors])):
        flag[v] = any(keep[c] and (not factors[c].continuous or flag[c]) for c in children[v])
    return flag


def _hermite_vertices(factors, pattern: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(keep, continuous, quad)`` of a missing pattern: the vertices kept (not summed
    away for lack of observed descendants), the continuous ones, and the missing continuous
    kept vertices with a categorical descendant -- this module's Gauss-Hermite vertices."""
    keep = kept_vertices([tuple(f.parents) for f in factors], pattern)
    continuous = np.array([f.continuous for f in factors])
    quad = _descendants_with_categorical(factors, keep) & continuous & keep & pattern
    return keep, continuous, quad


def _gaussian_block(
    factors, block: list[int], observed: list[int], values: dict, ndim: int
) -> np.ndarray:
    """``ln N(x_O'; h + H m_G, H S_G H' + diag var)``: the missing continuous vertices
    ``block`` (parents first) integrated out of their factors and their observed children's."""
    pos = {g: i for i, g in enumerate(block)}
    m, o = len(block), len(observed)
    lin = {}
    for v in (*block, *observed):
        lin[v] = linear_in(factors[v], values, ndim, pos)
    # slopes and variances select their cell by categorical values only: the covariance
    # algebra runs on those cells, the means (linear in the nodes) on the full shape
    cell = np.broadcast_shapes(*(np.shape(a) for _, row, var in lin.values() for a in (var, *row)))
    shape = np.broadcast_shapes(cell, *(np.shape(mean) for mean, _, _ in lin.values()),
                                *(np.shape(values[v]) for v in observed))

    def fill(vertices, size):
        mean, var = np.zeros(shape + (len(vertices),)), np.zeros(cell + (len(vertices),))
        coefs = np.zeros(cell + (len(vertices), size))
        for i, v in enumerate(vertices):
            mean[..., i], var[..., i] = lin[v][0], lin[v][2]
            for k, b in enumerate(lin[v][1]):
                coefs[..., i, k] = b
        return mean, coefs, var

    c, B, D = fill(block, m)
    L = np.linalg.inv(np.eye(m) - B)
    mG = np.einsum("...ij,...j->...i", L, c)
    SG = np.einsum("...ij,...j,...kj->...ik", L, D, L)
    h, H, V = fill(observed, m)
    x = np.zeros(shape + (o,))
    for i, v in enumerate(observed):
        x[..., i] = values[v]
    cov = np.einsum("...ij,...jk,...lk->...il", H, SG, H) + V[..., None] * np.eye(o)
    resid = x - h - np.einsum("...ij,...j->...i", H, mG)
    chol = np.linalg.cholesky(cov)
    w = np.linalg.solve(chol, resid[..., None])[..., 0]
    logdet = np.log(np.diagonal(chol, axis1=-2, axis2=-1)).sum(axis=-1)
    return -0.5 * (w * w).sum(axis=-1) - logdet - 0.5 * o * LOG_2PI


def cg_log_marginal(
    factors: Sequence,
    class_log_prior: np.ndarray,
    X: np.ndarray,
    missing: np.ndarray,
    gh_order: int = GH_ORDER,
    max_cells: int = MAX_CELLS,
    posterior: bool = True,
) -> np.ndarray:
    """``ln p(y, x_O)`` of every row and class of a CG network with missing entries.

    Parameters
    ----------
    factors : sequence of factors
        ``factors[v]`` is vertex v's factor (see :mod:`estimators.marginal.cg_vertex_factors`); the
        parent lists form a DAG.
    class_log_prior : ndarray of shape (n_classes,)
    X : ndarray of shape (n_samples, d)
        Continuous values and categorical codes (as floats); entries under ``missing``
        are ignored.
    missing : ndarray of bool, shape (n_samples, d)
    gh_order : int, default=64
        Order of the Gauss–Hermite rule for missing continuous vertices with a
        categorical descendant.
    max_cells : int, default=2**26
        Memory budget in float64 cells (512 MB by default) held at once per
        chunk of rows, see the module docstring.
    posterior : bool, default=True
        Take the path of :mod:`estimators.marginal.posterior` (Gauss-Hermite nodes only for
        the continuous parents of Bayes-rule vertices, on their exact joint Gaussian
        posterior) for a pattern where that set is smaller than this module's
        Gauss-Hermite set and it writes fewer cells (:func:`_posterior_probe`; it then
        falls back to a lower order the same way); False: this module's path for every
        pattern.

    Returns
    -------
    ndarray of shape (n_samples, n_classes)

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.network.factors import LinearGaussianFactor
    >>> f0 = LinearGaussianFactor.from_dense(0, (), (), np.zeros(1), np.zeros((1, 0)), np.ones(1))
    >>> f1 = LinearGaussianFactor.from_dense(1, (), (0,), np.zeros(1), np.ones((1, 1)), np.ones(1))
    >>> X = np.array([[np.nan, 0.5]])  # x1 = x0 + e: marginally N(0, 2)
    >>> out = cg_log_marginal([f0, f1], np.zeros(1), X, np.isnan(X))
    >>> bool(np.isclose(out[0, 0], -0.5 * (0.25 / 2 + np.log(2 * np.pi * 2))))
    True
    """
    X = np.asarray(X, dtype=float)
    missing = np.asarray(missing, dtype=bool)
    factors = list(factors)
    if any(f.vertex != v for v, f in enumerate(factors)):
        raise ValueError("factors[v] must be the factor of vertex v for every v.")
    order = topological_order([tuple(f.parents) for f in factors])
    n_classes = np.shape(class_log_prior)[0]
    out = np.empty((X.shape[0], n_classes))
    lowered: list[int] = []
    for pattern, rows in missing_patterns(missing):
        args = (factors, order, class_log_prior)
        build, per_row = _pattern_factors, _cells_bound(factors, n_classes, pattern, gh_order)
        probe = _posterior_probe(*args, X[rows[:1]], pattern, gh_order) if posterior else None
        if probe is not None:
            build, per_row = posterior_pattern_factors, _cells_at(probe, gh_order)
        if per_row <= max_cells:  # fits at gh_order for sure: no probe needed
            g = gh_order
        else:
            probe = probe or build(*args, X[rows[:1]], pattern, hermegauss(2))
            g, per_row = _fitting_order(probe, gh_order, max_cells)
        if g < gh_order:
            lowered.append(g)
        rule = hermegauss(g)
        step = max(1, max_cells // per_row)
        for start in range(0, rows.size, step):
            chunk = rows[start:start + step]
            logs, n_vars, _, _ = build(*args, X[chunk], pattern, rule)
            out[chunk] = eliminate(logs, chunk.size, n_classes, n_vars)
    if lowered:
        g = min(lowered)
        err = _MEASURED_ERROR[max(k for k in _MEASURED_ERROR if k <= g)]
        warn_user(
            f"Gauss-Hermite order lowered from {gh_order} to {g}"
            + (f" (the lowest used; highest {max(lowered)})" if max(lowered) > g else "")
            + f" for {len(lowered)} missing pattern(s) whose table at order {gh_order} exceeds {max_cells} cells per row; "
            f"measured error in ln p(y, x_O) at order {g}: about {err:.1e}."
        )
    return out


def _posterior_probe(factors, order, class_log_prior, row, pattern: np.ndarray, g: int):
    """The factors of the path of :mod:`.posterior` built for ``row`` with a 2-node rule
    (the probe of :func:`_fitting_order`) if that path applies and writes fewer cells at
    order ``g`` than this module's, else None. It applies when its node
    set N (the missing continuous parents of Bayes-rule vertices) is strictly smaller than
    this module's Gauss-Hermite set (where they are equal, this module's numbers stay
    those of its own rule). It has fewer node axes and no Gaussian block on them, but it
    couples the node vertices of a component and spans the categorical axes of its cells,
    where this module keeps each factor on its family's axes; so either can write fewer
    cells: both paths' factors are built for one row with a 2-node rule and their shapes
    replayed (:func:`_work`)."""
    keep, _, quad = _hermite_vertices(factors, pattern)
    if posterior_vertices(factors, keep, pattern).sum() >= quad.sum():
        return None
    args = (factors, order, class_log_prior, row, pattern, hermegauss(2))
    probe = posterior_pattern_factors(*args)
    return probe if _work(probe, g) < _work(_pattern_factors(*args), g) else None


def _shapes_at(probe, g: int) -> list[tuple[int, ...]]:
    """The shapes of a probe's log-factors (built for one row with a 2-node rule) at order
    ``g``."""
    logs, _, quad_axes, _ = probe
    return [tuple(1 if a == 0 else g if a in quad_axes and n > 1 else n
                  for a, n in enumerate(np.shape(f))) for f in logs]


def _cells_at(probe, g: int) -> int:
    """Cells per row held at once at order ``g``: the log-factors with the largest
    construction's temporaries, or the elimination's peak."""
    shapes = _shapes_at(probe, g)
    sizes = [int(np.prod(s)) for s in shapes]
    made = sum(sizes) + max(n * w for n, w in zip(sizes, probe[3], strict=True))
    return max(made, peak_cells(shapes, probe[1]))


def _work(probe, g: int) -> int:
    """Cells written per row at order ``g``: each log-factor times its construction's
    cells per table cell, plus the elimination's (:func:`._elimination.work_cells`)."""
    shapes = _shapes_at(probe, g)
    made = sum(int(np.prod(s)) * w for s, w in zip(shapes, probe[3], strict=True))
    return made + work_cells(shapes, probe[1])


def _cells_bound(factors, n_classes: int, pattern: np.ndarray, g: int) -> int:
    """An upper bound on the cells per row that :func:`_fitting_order` counts for this
    pattern at order ``g``, from the pattern alone (no factor is built). Every log-factor,
    construction temporary and combined table spans at most the full table T = classes x
    (states of each summed categorical vertex) x (g per Gauss-Hermite vertex); there are
    at most 5 d + 1 log-factors (the class prior; two per Gauss-Hermite vertex; two per
    other vertex; one per Gaussian component), a construction holds at most
    max(states x continuous parents, d**2) cells per table cell, and the elimination at
    most the pooled factors plus three tables of size T."""
    keep, continuous, quad = _hermite_vertices(factors, pattern)
    summed = keep & pattern & (quad | ~continuous)
    d = len(factors)
    table = n_classes * int(np.prod([g if quad[v] else factors[v].n_states
                                     for v in np.flatnonzero(summed)], dtype=np.int64))
    width = max([d * d] + [f.n_states * max(1, len(getattr(f, "continuous_parents", ())))
                           for f in factors if not f.continuous])
    return (5 * d + 1 + width + 3) * table


def _fitting_order(probe, gh_order: int, max_cells: int) -> tuple[int, int]:
    """The largest Gauss-Hermite order (``gh_order`` down to 6) whose cells held per
    row fit ``max_cells``, and those cells; ``probe`` is the pattern's factors built
    for one row with a 2-node rule (only their shapes are read)."""
    n_vars, quad_axes = probe[1], probe[2]
    cells = partial(_cells_at, probe)
    for g in range(gh_order, min(gh_order, _MIN_ORDER) - 1, -1):
        if cells(g) <= max_cells:
            return g, cells(g)
    floor = min(gh_order, _MIN_ORDER)
    raise ValueError(
        f"A missing pattern needs {cells(floor)} cells per row even at Gauss-Hermite order "
        f"{floor} (max_cells={max_cells}): it has {len(quad_axes)} missing continuous features "
        f"with a categorical descendant and {n_vars - len(quad_axes)} missing categorical "
        "features to integrate jointly. "
        + ("Pass a lower gh_order or impute" if quad_axes else "Impute")
        + " some of those features first."
    )


def _pattern_factors(factors, order, class_log_prior, X, pattern, rule):
    """The log-factors of one missing pattern (rows of ``X``), the number of summed
    variables (categorical states and Gauss-Hermite nodes), the axes of the Gauss-Hermite
    vertices, and per log-factor the cells its construction holds per table cell."""
    parents = [tuple(f.parents) for f in factors]
    n_classes = np.shape(class_log_prior)[0]
    keep, continuous, quad = _hermite_vertices(factors, pattern)
    block = [v for v in order if keep[v] and pattern[v] and continuous[v] and not quad[v]]
    summed, axis, values = pattern_values(factors, order, X, pattern, keep, quad)
    n_vars = len(summed)
    ndim = 2 + n_vars
    lead = (X.shape[0], 1) + (1,) * n_vars
    in_block = set(block)
    block_children = [v for v in order if keep[v] and not pattern[v] and continuous[v]
                      and in_block.intersection(parents[v])]
    logs = [np.reshape(class_log_prior, (1, n_classes) + (1,) * n_vars)]
    absorbed: set[int] = set()
    wide: dict[int, int] = {}
    numerators: dict[int, tuple] = {}
    placed: set[int] = set()
    for q in (v for v in order if quad[v]):
        # observed continuous children whose last Gauss-Hermite parent is q
        kids = [o for o in order if q in parents[o] and keep[o] and not pattern[o]
                and continuous[o] and o not in block_children
                and all(p == q or p in placed or not pattern[p] for p in parents[o])]
        # categorical children with q as only continuous parent and a Gaussian numerator
        bayes = [z for z in order if q in parents[z] and keep[z] and not continuous[z]
                 and len(getattr(factors[z], "continuous_parents", ())) == 1
                 and hasattr(factors[z], "gaussian_numerator")]
        placed.add(q)
        absorbed.update(kids)
        values[q] = np.zeros(lead)  # regressions select their cell by categorical parents only
        evidence = [_child_evidence(factors, o, q, values, ndim) for o in kids]
        for z in bayes:
            numerators[z] = factors[z].gaussian_numerator(
                values[z], {p: values[p] for p in parents[z]})
            evidence.append((1.0, numerators[z][1], numerators[z][2], numerators[z][0]))
        t = rule[0].reshape(axis_shape(n_vars, axis[q], rule[0].size))
        log_z, loc, scale = _gaussian_evidence(factors[q], values, evidence, ndim)
        values[q] = loc + scale * t
        logs += [log_z, (np.log(rule[1]) - 0.5 * LOG_2PI).reshape(t.shape)]
    for v in order:
        if not keep[v] or v in in_block or v in block_children or quad[v] or v in absorbed:
            continue
        if continuous[v]:
            intercept, coef, var = _regression(factors[v], values, ndim)
            resid = values[v] - _mean(factors[v], values, intercept, coef)
            logs.append(-0.5 * (resid**2 / var + np.log(var) + LOG_2PI))
        else:
            logs.append(factors[v].log_prob_values(values[v], {p: values[p] for p in parents[v]}))
            # its temporaries: states x continuous parents per cell (Bayes' rule)
            wide[len(logs) - 1] = factors[v].n_states * max(
                1, len(getattr(factors[v], "continuous_parents", ())))
            if v in numerators:  # its numerator went into the Gaussian evidence of x_q
                lw, mu, var = numerators[v]
                x = values[factors[v].continuous_parents[0]]
                logs.append(-lw + 0.5 * ((x - mu) ** 2 / var + np.log(var) + LOG_2PI))
    widths = [wide.get(i, 1) for i in range(len(logs))]
    for comp, kids in _block_components(parents, block, block_children):
        logs.append(_gaussian_block(factors, comp, kids, values, ndim))
        widths.append((len(comp) + len(kids)) ** 2)  # its per-cell matrices
    return logs, n_vars, [2 + axis[q] for q in summed if quad[q]], widths


def _block_components(parents, block: list[int], children: list[int]):
    """The Gaussian block split into connected components: block vertices joined through
    a parent/child edge or a shared observed child. Given the categorical values and the
    Gauss-Hermite nodes the components are independent, so the product of their marginals
    is the joint one exactly, and each factor spans only the axes its component touches.
    Yields ``(block vertices, observed children)`` per component, in ``block`` order."""
    joined = UnionFind((*block, *children))
    for v in (*block, *children):
        for p in parents[v]:
            if p in block:
                joined.union(p, v)
    comps: dict[int, tuple[list[int], list[int]]] = {}
    for v in block:
        comps.setdefault(joined[v], ([], []))[0].append(v)
    for v in children:
        comps[joined[v]][1].append(v)
    yield from comps.values()


def _child_evidence(factors, o: int, q: int, values: dict, ndim: int):
    """Observed continuous child o of q as Gaussian evidence on x_q:
    ``N(x_o; h + b x_q, v) = N(target = x_o - h; b x_q, v)``."""
    a, c, v = _regression(factors[o], values, ndim)
    b = c[..., factors[o].continuous_parents.index(q)]
    return b, values[o] - _mean(factors[o], values, a, c, skip={q}), v, 0.0


def _gaussian_evidence(factor, values: dict, evidence: list, ndim: int):
    """Combine x_q's regression N(m, s2) with Gaussian evidence terms
    ``exp(extra) N(target; b x_q, v)``: ``(ln Z, posterior mean, posterior sd)``, Z the
    integral of the product over x_q (exact Gaussian algebra)."""
    intercept, coef, s2 = _regression(factor, values, ndim)
    m = _mean(factor, values, intercept, coef)
    prec, shift, quad, log_z = 1.0 / s2, 0.0, 0.0, 0.0
    for b, target, v, extra in evidence:
        e = target - b * m
        prec = prec + b * b / v
        shift = shift + b * e / v
        quad = quad + e * e / v
        log_z = log_z + extra - 0.5 * np.log(2.0 * np.pi * v)
    u = shift / prec
    log_z = log_z - 0.5 * np.log(s2 * prec) - 0.5 * (quad - prec * u * u)
    return np.asarray(log_z, dtype=float), m + u, 1.0 / np.sqrt(prec)
