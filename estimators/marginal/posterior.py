"""Gauss-Hermite nodes on the exact joint Gaussian posterior of the few vertices that need
them: the mixed engine's path for a missing pattern whose Gauss-Hermite vertices include
ancestors that need no quadrature (MATH.md §8).

In :mod:`.mixed` every missing continuous vertex with a categorical descendant is a
Gauss-Hermite vertex, its nodes placed on its regression given its parents' nodes and its
local evidence, so a chain of them spans ``order ** length`` nodes per row (a k = 2 tree on
oj with 40 % of the cells empty: five such vertices, 10 s for one row), and evidence below
a deeper vertex does not move an ancestor's nodes (a near-deterministic observed child, as
oj's price differences, then falls between them: errors of tens of nats measured). Yet the
only factor that is not Gaussian in a continuous vertex is a categorical child given by
Bayes' rule (its denominator); given the categorical values and the class, everything else
is a linear-Gaussian network. So here:

* the Gauss-Hermite vertices are only the missing continuous parents of kept Bayes-rule
  vertices (set N, a subset of :mod:`.mixed`'s set);
* every other missing continuous vertex is integrated out exactly: the missing continuous
  vertices split into components (linked by a regression, an observed continuous child or
  a Bayes-rule numerator they share; given the categorical values the components are
  independent), and per component the linear-Gaussian joint of its missing vertices
  ``N(m_G, S_G)`` with the observations ``x_O = h + H x_G + e`` gives, exactly,
  ``ln N(x_O; h + H m_G, H S_G H' + diag var_O)`` and the posterior ``N(m, S)`` of the
  component's N vertices (Gaussian conditioning, one Cholesky factor per cell);
* the observations are the observed continuous children and, for every kept Bayes-rule
  vertex with a parent in N, its Gaussian numerator ``p(c | d, y) N(x_C; mu_c, S_c)``
  (the observation ``mu_c = x_C + e``, ``e ~ N(0, S_c)``, whitened by the Cholesky factor
  of ``S_c``), so the rule integrates only the smooth remainder
  ``ln p(c | x_C, d, y) - ln N(x_C; mu_c, S_c)`` (:mod:`.mixed` absorbs the numerator of a
  single continuous parent the same way);
* the nodes are ``x_N = m + R t`` with ``R R' = S`` (Cholesky, N in parents-first order)
  and ``t`` the tensor grid of the rule on N's axes: the product Gauss-Hermite rule for
  the Gaussian weight ``N(x_N; m, S)`` -- the same rule (order, weight) as :mod:`.mixed`'s,
  on the exact posterior instead of each vertex's regression given its parents' nodes.

The tables span ``order ** |N|`` nodes per component (the Cholesky factor couples its N
vertices) times the summed categorical states of the component's cells.
:func:`.mixed.cg_log_marginal` takes this path for a pattern when N is strictly smaller
than its own Gauss-Hermite set, building and eliminating the factors here writes fewer
cells (both paths probed for one row with a 2-node rule), with the same memory bound and
order fallback (a k-GNB on oj with 40 % of the cells empty: nine Gauss-Hermite vertices
there needed 227,245,892 cells per row at order 6, five here fit at order 16).
Error: the rule's on the remainder; measured against brute-force integration in
``tests/estimators/marginal/test_posterior_marginal.py`` (below 1e-12 at order 64 on its
models, where :mod:`.mixed`'s path errs by 1.6 nats on the narrow-evidence one).
"""

from __future__ import annotations

import numpy as np
from networkx.utils import UnionFind

from estimators.marginal._elimination import axis_shape
from estimators.marginal._linear import (
    linear_in,
    mean_at,
    pattern_values,
    regression_at,
)
from estimators.marginal._patterns import kept_vertices
from estimators.stats.gaussian import LOG_2PI

__all__ = ["posterior_pattern_factors", "posterior_vertices"]


def posterior_vertices(factors, keep: np.ndarray, pattern: np.ndarray) -> np.ndarray:
    """True for the missing continuous parents of kept categorical vertices (Bayes-rule
    factors): the vertices this path integrates by the Gauss-Hermite rule."""
    out = np.zeros(len(factors), dtype=bool)
    for f in factors:
        if keep[f.vertex] and not f.continuous:
            for p in getattr(f, "continuous_parents", ()):
                out[p] = bool(pattern[p])
    return out


def posterior_pattern_factors(factors, order, class_log_prior, X, pattern, rule):
    """The log-factors of one missing pattern (rows of ``X``), the number of summed
    variables (categorical states and Gauss-Hermite nodes of N), the axes of the N vertices
    and per log-factor the cells its construction holds per table cell (as
    :func:`.mixed._pattern_factors`, for the engine's memory bound)."""
    parents = [tuple(f.parents) for f in factors]
    continuous = np.array([f.continuous for f in factors])
    n_classes = np.shape(class_log_prior)[0]
    keep = kept_vertices(parents, pattern)
    quad = posterior_vertices(factors, keep, pattern)
    summed, axis, values = pattern_values(factors, order, X, pattern, keep, quad)
    n_vars = len(summed)
    ndim = 2 + n_vars
    gauss = {v for v in order if keep[v] and pattern[v] and continuous[v]}
    evidence = [v for v in order if keep[v] and not pattern[v] and continuous[v]
                and gauss.intersection(factors[v].continuous_parents)]
    numerators = {}
    for z in order:  # Bayes-rule vertices with a continuous parent in N
        cp = tuple(getattr(factors[z], "continuous_parents", ()))
        if (keep[z] and not continuous[z] and gauss.intersection(cp)
                and hasattr(factors[z], "gaussian_numerators")):
            cats = {p: values[p] for p in factors[z].categorical_parents}
            lw, mu, cov = factors[z].gaussian_numerators(values[z], cats)
            chol = np.linalg.cholesky(cov)
            numerators[z] = (cp, mu, chol, np.linalg.inv(chol), lw, cats)
    logs = [np.reshape(class_log_prior, (1, n_classes) + (1,) * n_vars)]
    log_w = np.log(rule[1]) - 0.5 * LOG_2PI
    wide: dict[int, int] = {}
    for block, kids, pseudo in _components(factors, order, gauss, evidence, numerators):
        log_ev, mean, chol = _condition(factors, block, kids, [numerators[z] for z in pseudo],
                                        values, ndim, [quad[v] for v in block])
        for z in pseudo:  # the Jacobian of the whitened numerator observations
            logs.append(-np.log(np.diagonal(numerators[z][2], axis1=-2, axis2=-1)).sum(axis=-1))
        if log_ev is not None:
            logs.append(log_ev)
            wide[len(logs) - 1] = (len(block) + len(kids) + len(pseudo)) ** 2
        nodes = [v for v in block if quad[v]]
        t = [rule[0].reshape(axis_shape(n_vars, axis[v], rule[0].size)) for v in nodes]
        for i, v in enumerate(nodes):
            values[v] = mean[..., i] + sum(chol[..., i, j] * t[j] for j in range(i + 1))
            logs.append(log_w.reshape(t[i].shape))
    for v in order:
        if not keep[v] or v in gauss or v in evidence:
            continue
        if continuous[v]:
            intercept, coef, var = regression_at(factors[v], values, ndim)
            resid = values[v] - mean_at(factors[v], values, intercept, coef)
            logs.append(-0.5 * (resid**2 / var + np.log(var) + LOG_2PI))
            continue
        wide[len(logs)] = factors[v].n_states * max(
            1, len(getattr(factors[v], "continuous_parents", ())))
        if v in numerators:  # its numerator is in the posterior: the remainder only
            logs.append(numerators[v][4] - _log_normaliser(factors[v], values, numerators[v][5]))
        else:
            logs.append(factors[v].log_prob_values(values[v], {p: values[p] for p in parents[v]}))
    widths = [wide.get(i, 1) for i in range(len(logs))]
    return logs, n_vars, [2 + axis[v] for v in summed if quad[v]], widths


def _log_normaliser(factor, values: dict, cats: dict) -> np.ndarray:
    """``ln sum_c p(c | d, y) N(x_C; mu_c, S_c)``, the denominator of a Bayes-rule factor at
    the values of its continuous parents: with its numerator in the posterior, the
    remainder the rule integrates is ``ln p(value | d, y)`` minus this (it spans the node
    axes but not the vertex's own states). One table per state c, then a stable log-sum.

    The Gaussian log-density is written out (Cholesky, triangular solve by hand) rather than
    taken from :data:`scipy.stats.multivariate_normal`: here ``mu`` and ``S_c`` differ per
    cell of the broadcast node axes (one covariance per parent configuration and class) and
    ``x_C`` is a grid of quadrature nodes, while scipy's ``logpdf`` takes one mean and one
    covariance per call (a Python loop over the cells, on the prediction path)."""
    cp = factor.continuous_parents
    terms = []
    for c in range(factor.n_states):
        lw, mu, cov = factor.gaussian_numerators(np.full((1,) * np.ndim(values[cp[0]]), c), cats)
        chol = np.linalg.cholesky(cov)
        inv = np.linalg.inv(chol)
        quad = 0.0
        for r in range(len(cp)):
            w = sum(inv[..., r, j] * (values[p] - mu[..., j]) for j, p in enumerate(cp[:r + 1]))
            quad = quad + w * w
        terms.append(lw - 0.5 * quad - 0.5 * len(cp) * LOG_2PI
                     - np.log(np.diagonal(chol, axis1=-2, axis2=-1)).sum(axis=-1))
    top = terms[0]
    for t in terms[1:]:
        top = np.maximum(top, t)
    top = np.where(np.isfinite(top), top, 0.0)
    total = sum(np.exp(t - top) for t in terms)
    with np.errstate(divide="ignore"):
        return np.log(total) + top


def _components(factors, order, gauss: set, evidence: list, numerators: dict):
    """The missing continuous vertices ``gauss`` split into connected components (a
    regression between two of them, or an observed continuous child or a Bayes-rule
    numerator they share); yields ``(missing vertices, observed children, numerator
    vertices)`` per component, each in ``order``."""
    joined = UnionFind((*gauss, *evidence, *numerators))
    for v in (*gauss, *evidence):
        for p in factors[v].continuous_parents:
            if p in gauss:
                joined.union(p, v)
    for z, (cp, *_) in numerators.items():
        for q in cp:
            if q in gauss:
                joined.union(z, q)
    comps: dict[int, tuple[list, list, list]] = {}
    rank = {v: i for i, v in enumerate(order)}
    for v in sorted(joined, key=rank.__getitem__):
        part = 0 if v in gauss else 1 if v in evidence else 2
        comps.setdefault(joined[v], ([], [], []))[part].append(v)
    yield from comps.values()


def _condition(factors, block: list, kids: list, pseudo: list, values: dict, ndim: int,
               is_node: list):
    """The missing continuous vertices ``block`` (parents first) given their observed
    children ``kids`` and the numerator observations ``pseudo`` (``(C, mu, chol, inv)``:
    ``mu = x_C + e``, ``e ~ N(0, chol chol')``, observed whitened by ``inv = chol^-1``): ``(ln density of the observations or None,
    posterior mean of the vertices flagged ``is_node`` (..., n), Cholesky factor of their
    posterior covariance (..., n, n))``, exact Gaussian algebra per cell."""
    pos = {g: i for i, g in enumerate(block)}
    m = len(block)
    rows = []  # (mean, coefficients on block, variance, observed value or None)
    for v in (*block, *kids):
        rows.append((*linear_in(factors[v], values, ndim, pos),
                     values[v] if v in kids else None))
    for cp, mu, _, inv, *_ in pseudo:  # whitened: inv mu = inv x_C + e, e ~ N(0, I)
        for r in range(len(cp)):
            row, h = [0.0] * m, 0.0
            for j, p in enumerate(cp[:r + 1]):  # inv is lower triangular
                if p in pos:
                    row[pos[p]] = inv[..., r, j]
                else:
                    h = h + inv[..., r, j] * values[p]
            rows.append((h, row, 1.0, sum(inv[..., r, j] * mu[..., j] for j in range(r + 1))))
    shape = np.broadcast_shapes(*(np.shape(a) for mean, row, var, x in rows
                                  for a in (mean, var, *row, *(() if x is None else (x,)))))

    def fill(part):
        mean, var = np.zeros(shape + (len(part),)), np.zeros(shape + (len(part),))
        coefs, x = np.zeros(shape + (len(part), m)), np.zeros(shape + (len(part),))
        for i, (a, row, s2, value) in enumerate(part):
            mean[..., i], var[..., i] = a, s2
            if value is not None:
                x[..., i] = value
            for k, b in enumerate(row):
                coefs[..., i, k] = b
        return mean, coefs, var, x

    c, B, D, _ = fill(rows[:m])
    L = np.linalg.inv(np.eye(m) - B)
    mean = np.einsum("...ij,...j->...i", L, c)
    cov = np.einsum("...ij,...j,...kj->...ik", L, D, L)
    log_ev = None
    if len(rows) > m:
        h, H, V, x = fill(rows[m:])
        o = len(rows) - m
        chol = np.linalg.cholesky(np.einsum("...ij,...jk,...lk->...il", H, cov, H)
                                  + V[..., None] * np.eye(o))
        w = np.linalg.solve(chol, (x - h - np.einsum("...ij,...j->...i", H, mean))[..., None])
        A = np.linalg.solve(chol, np.einsum("...ij,...jk->...ik", H, cov))  # (..., o, m)
        log_ev = (-0.5 * (w[..., 0] ** 2).sum(axis=-1)
                  - np.log(np.diagonal(chol, axis1=-2, axis2=-1)).sum(axis=-1) - 0.5 * o * LOG_2PI)
        mean = mean + np.einsum("...ji,...j->...i", A, w[..., 0])
        cov = cov - np.einsum("...ji,...jk->...ik", A, A)
    idx = [i for i, flag in enumerate(is_node) if flag]
    sub = cov[..., idx, :][..., :, idx]
    return log_ev, mean[..., idx], np.linalg.cholesky(0.5 * (sub + np.swapaxes(sub, -1, -2)))
