"""Closed-form Gaussian marginals: linear-Gaussian k-TAN and the GNB normal-score models.

*Linear-Gaussian k-TAN / TAN.* Within class y the regressions ``x = a_y + B_y x + e``,
``e ~ N(0, D_y)`` (B strictly lower triangular in a parents-first order) give the joint
``N(mu_y, Sigma_y)`` with ``mu_y = (I - B_y)^-1 a_y`` and ``Sigma_y = (I - B_y)^-1 D_y
(I - B_y)^-T``. The marginal of the observed set O is ``N(x_O; mu_O, Sigma_OO)``: drop the
rows and columns of the missing features.

*GNB / k-GNB, Gaussian and Gaussian copula.* Both densities are ``c_R(z) prod_i f_i(x_i)``
with normal scores ``z_i = Phi^-1(F_i(x_i))`` (Gaussian model: ``z`` the standardised value,
``f`` the normal density). The junction-tree ratio of the cluster marginals of R is the
Gaussian density whose k-tree structured precision reproduces every cluster marginal: it is
the linear-Gaussian network that regresses each vertex on its parents with the cluster's
own correlations, so its correlation matrix follows by the same recursion
(:func:`junction_correlation`). Marginalising: every ``z_i`` is a strictly increasing
function of ``x_i`` alone, so integrating ``x_M`` out of ``c_R(z) prod f`` is integrating
``z_M`` out of the standard-normal-margined Gaussian of correlation R (the Jacobian
``f_i / phi(z_i)`` of each coordinate cancels); the result is ``c_{R_OO}(z_O) prod_{i in O}
f_i(x_i)``, the same form on the observed subset.

All rows of a missing pattern are evaluated together: one Cholesky factor per class.
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx
import numpy as np

from estimators.densities import NormalScoreDensity
from estimators.marginal._patterns import missing_patterns
from estimators.stats.gaussian import LOG_2PI


def linear_gaussian_joint(factors: Sequence) -> tuple[np.ndarray, np.ndarray]:
    """Mean ``(n_classes, d)`` and covariance ``(n_classes, d, d)`` of x given each class,
    for a linear-Gaussian network: ``factors[v]`` a
    :class:`~estimators.network.factors.LinearGaussianFactor` of vertex v without
    categorical parents (e.g. :attr:`~estimators.network.model.CGNetwork.marginal_factors` of
    a Gaussian k-TAN).

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.network.factors import LinearGaussianFactor
    >>> f0 = LinearGaussianFactor.from_dense(0, (), (), np.array([1.0]), np.zeros((1, 0)), np.array([16.0]))
    >>> f1 = LinearGaussianFactor.from_dense(1, (), (0,), np.array([-5.0]), np.array([[0.5]]),
    ...                           np.array([16.0]))
    >>> mean, cov = linear_gaussian_joint([f0, f1])
    >>> mean[0].tolist(), cov[0].tolist()
    ([1.0, -4.5], [[16.0, 8.0], [8.0, 20.0]])
    """
    d = len(factors)
    for v, f in enumerate(factors):
        if f.categorical_parents:
            raise ValueError(f"Vertex {v} has categorical parents; linear_gaussian_joint takes "
                             "an all-continuous network (use cg_log_marginal for mixed ones).")
    regressions = [f.regression({}) for f in factors]  # each (1, m), (1, m, |C|), (1, m)
    n_classes = np.shape(regressions[0][2])[1]
    B = np.zeros((n_classes, d, d))
    a = np.empty((n_classes, d))
    var = np.empty((n_classes, d))
    for v, (f, (intercept, coef, s2)) in enumerate(zip(factors, regressions, strict=True)):
        a[:, v], var[:, v] = intercept[0], s2[0]
        B[:, v, list(f.continuous_parents)] = coef[0]
    L = np.linalg.inv(np.eye(d) - B)
    mean = np.einsum("cij,cj->ci", L, a)
    cov = np.einsum("cij,cj,ckj->cik", L, var, L)
    return mean, 0.5 * (cov + np.swapaxes(cov, 1, 2))


def gaussian_log_marginal(
    mean: np.ndarray, cov: np.ndarray, X: np.ndarray, missing: np.ndarray
) -> np.ndarray:
    """``ln N(x_O; mu_O, Sigma_OO)`` per row and class, O the observed entries of each row.

    Parameters
    ----------
    mean : ndarray of shape (n_classes, d)
    cov : ndarray of shape (n_classes, d, d)
    X : ndarray of shape (n_samples, d)
        Values; entries under ``missing`` are ignored (NaN allowed).
    missing : ndarray of bool, shape (n_samples, d)

    Returns
    -------
    ndarray of shape (n_samples, n_classes)
        ``ln p(x_O | y)`` (0 for a row with nothing observed).

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.stats import multivariate_normal
    >>> cov = np.array([[[2.0, 0.5], [0.5, 1.0]]])
    >>> X = np.array([[0.3, np.nan]])
    >>> out = gaussian_log_marginal(np.zeros((1, 2)), cov, X, np.isnan(X))
    >>> bool(np.isclose(out[0, 0], multivariate_normal(0, 2.0).logpdf(0.3)))
    True
    """
    X = np.asarray(X, dtype=float)
    out = np.zeros((X.shape[0], mean.shape[0]))
    for pattern, rows in missing_patterns(missing):
        obs = np.flatnonzero(~pattern)
        if obs.size == 0:
            continue
        chol = np.linalg.cholesky(cov[:, obs[:, None], obs])  # (C, o, o)
        resid = X[rows][:, obs][None, :, :] - mean[:, None, obs]  # (C, r, o)
        w = np.linalg.solve(chol, np.swapaxes(resid, 1, 2))  # (C, o, r)
        logdet = np.log(np.diagonal(chol, axis1=1, axis2=2)).sum(axis=1)  # (C,)
        out[rows] = (
            -0.5 * np.einsum("cor,cor->rc", w, w) - logdet - 0.5 * obs.size * LOG_2PI
        )
    return out


def tree_order(edges: Sequence[tuple[int, int]]) -> list[tuple[int, tuple[int, ...]]]:
    """``(vertex, parents)`` in creation order for a GNB forest: each tree rooted at its
    first vertex in edge order, each vertex's parent its mother (neighbour towards the root).

    Examples
    --------
    >>> tree_order([(0, 1), (2, 3), (1, 2)])
    [(0, ()), (1, (0,)), (2, (1,)), (3, (2,))]
    """
    graph = nx.Graph((int(i), int(j)) for i, j in edges)
    order: list[tuple[int, tuple[int, ...]]] = []
    seen: set[int] = set()
    for root in (int(v) for e in edges for v in e):
        if root not in seen:
            order.append((root, ()))
            order += [(w, (u,)) for u, w in nx.bfs_edges(graph, root)]
            seen.update(nx.node_connected_component(graph, root))
    return order


def junction_correlation(
    corr: np.ndarray, order: Sequence[tuple[int, Sequence[int]]]
) -> np.ndarray:
    """Correlation matrix of the junction-tree (k-tree) Gaussian with these cluster marginals.

    Each vertex v, in creation order, is the regression of v on its parents pi(v) computed
    from ``corr`` restricted to ``{v} u pi(v)``; for every earlier vertex u,
    ``R[v, u] = b_v' R[pi(v), u]`` and ``R[v, v] = 1``. Entries of vertices not in ``order``
    are those of the identity.

    Parameters
    ----------
    corr : ndarray of shape (n_classes, d, d)
        Fitted class correlation matrices (only the cluster blocks are used).
    order : sequence of (int, sequence of int)
        ``(vertex, parents)`` in creation order; the parents precede the vertex.

    Examples
    --------
    >>> import numpy as np
    >>> corr = np.array([[[1, .5, .9], [.5, 1, .2], [.9, .2, 1]]])
    >>> R = junction_correlation(corr, tree_order([(0, 1), (1, 2)]))
    >>> round(float(R[0, 0, 2]), 6)  # rho_01 * rho_12 on the path 0 - 1 - 2
    0.1
    """
    n_classes, d, _ = corr.shape
    R = np.tile(np.eye(d), (n_classes, 1, 1))
    placed: list[int] = []
    for v, pa in order:
        pa = list(pa)
        if pa and placed:
            b = np.linalg.solve(corr[:, pa][:, :, pa], corr[:, pa, v][:, :, None])[:, :, 0]
            row = np.einsum("cp,cpu->cu", b, R[:, pa][:, :, placed])
            R[:, v, placed] = row
            R[:, placed, v] = row
        placed.append(v)
    return R


def normal_score_log_marginal(
    density: NormalScoreDensity,
    order: Sequence[tuple[int, Sequence[int]]],
    X: np.ndarray,
    missing: np.ndarray,
) -> np.ndarray:
    """``ln p(x_O | y)`` of a GNB / k-GNB with Gaussian or Gaussian-copula densities.

    Parameters
    ----------
    density : ClassGaussian or ClassGaussianCopula
        The fitted densities (``density_`` of the classifier).
    order : sequence of (int, sequence of int)
        Covered features with their parents in creation order: :func:`tree_order` of the
        GNB forest's edges, or the k-GNB's ``(v, parents)`` list. Features not covered do
        not enter the model (as in the classifier's reduced forest).
    X : ndarray of shape (n_samples, d)
    missing : ndarray of bool, shape (n_samples, d)

    Returns
    -------
    ndarray of shape (n_samples, n_classes)

    Examples
    --------
    A Gaussian GNB on the chain 0 - 1 - 2: with feature 2 missing, the marginal is the pair
    density of (0, 1); with nothing missing, the junction-tree density:

    >>> import numpy as np
    >>> from estimators.densities import ClassGaussian
    >>> from estimators.marginal import normal_score_log_marginal, tree_order
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3))
    >>> X[:, 1] += X[:, 0]
    >>> X[:, 2] += X[:, 1]
    >>> codes = rng.integers(0, 2, 200)
    >>> density = ClassGaussian().fit(X, codes, 2, [(0, 1), (1, 2)])
    >>> order = tree_order([(0, 1), (1, 2)])
    >>> missing = np.zeros((5, 3), dtype=bool)
    >>> full = normal_score_log_marginal(density, order, X[:5], missing)
    >>> pair, single = density.logpdf2, density.logpdf1
    >>> tree = pair(X[:5], 0, 1) + pair(X[:5], 1, 2) - single(X[:5], 1)
    >>> bool(np.allclose(full, tree))
    True
    >>> missing[:, 2] = True
    >>> out = normal_score_log_marginal(density, order, X[:5], missing)
    >>> out.shape, bool(np.allclose(out, density.logpdf2(X[:5], 0, 1)))
    ((5, 2), True)
    """
    X = np.asarray(X, dtype=float)
    R = junction_correlation(density.corr_, order)
    covered = np.zeros(X.shape[1], dtype=bool)
    covered[[v for v, _ in order]] = True
    filled = np.where(missing, 0.0, X)  # any finite value: missing entries are not used
    out = np.zeros((X.shape[0], density.n_classes_))
    for pattern, rows in missing_patterns(missing):
        obs = np.flatnonzero(covered & ~pattern)
        if obs.size == 0:
            continue
        for c in range(density.n_classes_):
            lf, z = density._marginals(filled[rows], c, obs)
            chol = np.linalg.cholesky(R[c][np.ix_(obs, obs)])
            w = np.linalg.solve(chol, z.T)
            out[rows, c] = (
                lf.sum(axis=1)
                - np.log(np.diag(chol)).sum()
                - 0.5 * np.einsum("ij,ij->j", w, w)
                + 0.5 * np.einsum("ij,ij->i", z, z)
            )
    return out
