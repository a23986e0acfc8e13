"""ln p(x_O | y) of a GNB with bivariate KDE pair densities (paper 1 §3.2), missing entries
integrated out on the junction tree.

Per missing pattern (rows grouped by ``np.unique`` over the mask rows):

1. A missing leaf of the GNB forest drops with its edge: ``int f_ij(x_i, x_j) dx_i =
   f_j(x_j)``, because the product-kernel univariate KDE is the marginal of the bivariate one
   (same bandwidths), which cancels one power of the separator ``f_j``. Repeated until no
   missing leaf is left; a missing vertex left alone drops too.
2. What remains is the junction-tree ratio on the pruned forest,
   ``sum_{(i,j)} ln f_ij - sum_s (deg(s) - 1) ln f_s``, in which every missing vertex is
   internal: it is integrated by the trapezoid rule on a uniform grid per class, spacing
   ``h_v / 4`` (``h_v`` the class bandwidth of v) over ``[min - 8 h_v, max + 8 h_v]`` of the
   class's training values, and the grid variables are summed out by log-space variable
   elimination (:mod:`._elimination`). The kernel sums are Gaussian in x_v with sd h_v, for
   which this rule's own error is far below the error of the binned-grid KDE evaluation
   (:mod:`estimators.densities.kde`) that defines the model; tests measure the total
   against brute-force integration of the classifier's density.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from estimators.densities.kde_pair import ClassKDE
from estimators.marginal._elimination import check_summed, eliminate
from estimators.marginal._patterns import missing_patterns

#: grid spacing of the quadrature, in class bandwidths, and its reach beyond the data
SPACING, REACH = 0.25, 8.0


def prune_forest(
    edges: Sequence[tuple[int, int]], missing: np.ndarray
) -> tuple[list[tuple[int, int]], list[int]]:
    """Edges left after repeatedly removing missing leaves, and the vertices left.

    Examples
    --------
    >>> import numpy as np
    >>> prune_forest([(0, 1), (1, 2), (2, 3)], np.array([True, True, False, False]))
    ([(2, 3)], [2, 3])
    >>> prune_forest([(0, 1), (1, 2)], np.array([False, True, False]))
    ([(0, 1), (1, 2)], [0, 1, 2])
    """
    left = [tuple(int(v) for v in e) for e in edges]
    vertices = {v for e in left for v in e}
    while True:
        degree: dict[int, int] = {}
        for i, j in left:
            degree[i] = degree.get(i, 0) + 1
            degree[j] = degree.get(j, 0) + 1
        leaves = {v for v, k in degree.items() if k == 1 and missing[v]}
        if not leaves:
            break
        # a missing edge between two missing leaves drops once
        left = [e for e in left if not (e[0] in leaves or e[1] in leaves)]
        vertices -= {v for v in leaves}
    alone = {v for v in vertices if missing[v] and not any(v in e for e in left)}
    return left, sorted(vertices - alone)


def _grids(density: ClassKDE, v: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-class nodes ``(n_classes, G)`` and log trapezoid weights of vertex v."""
    spans = []
    for c in range(density.n_classes_):
        kde, h = density.kde1_[c][v], density.h_[c][v]
        spans.append((kde.data.min() - REACH * h, kde.data.max() + REACH * h, h))
    size = int(max(np.ceil((b - a) / (SPACING * h)) + 1 for a, b, h in spans))
    nodes = np.array([np.linspace(a, b, size) for a, b, _ in spans])
    w = np.ones(size)
    w[[0, -1]] = 0.5
    log_w = np.log(w)[None, :] + np.log((nodes[:, -1] - nodes[:, 0]) / (size - 1))[:, None]
    return nodes, log_w


def _per_class(fn, arrays: list[np.ndarray], n_classes: int) -> np.ndarray:
    """Evaluate ``fn(c, *flat arrays)`` per class on arrays broadcast to a common shape."""
    shape = list(np.broadcast_shapes(*(a.shape for a in arrays)))
    shape[1] = n_classes
    full = [np.broadcast_to(a, shape) for a in arrays]
    out = np.empty(shape)
    for c in range(n_classes):
        out[:, c] = fn(c, *(a[:, c].ravel() for a in full)).reshape(out[:, c].shape)
    return out


def kde_log_marginal(
    density: ClassKDE, edges: Sequence[tuple[int, int]], X: np.ndarray, missing: np.ndarray
) -> np.ndarray:
    """``ln p(x_O | y)`` of a KDE-pair GNB (forest ``edges``) per row and class.

    Parameters
    ----------
    density : ClassKDE
        The fitted pair densities (``GNBClassifier.density_`` with ``dependence="kde"``).
    edges : sequence of (int, int)
        The forest used to predict (``cluster_order_[:n_clusters_]``).
    X : ndarray of shape (n_samples, d)
    missing : ndarray of bool, shape (n_samples, d)

    Returns
    -------
    ndarray of shape (n_samples, n_classes)

    Examples
    --------
    A missing leaf of the forest drops exactly: on the chain 0 - 1 - 2 of iris's columns with
    column 2 missing, the marginal is the KDE pair density of (0, 1):

    >>> import numpy as np
    >>> from sklearn.datasets import load_iris
    >>> from estimators.densities import ClassKDE
    >>> from estimators.marginal import kde_log_marginal
    >>> X, codes = load_iris(return_X_y=True)
    >>> density = ClassKDE().fit(X, codes, 3, [(0, 1), (1, 2)])
    >>> missing = np.zeros((5, 4), dtype=bool)
    >>> missing[:, 2] = True
    >>> out = kde_log_marginal(density, [(0, 1), (1, 2)], X[:5], missing)
    >>> out.shape, bool(np.allclose(out, density.logpdf2(X[:5], 0, 1)))
    ((5, 3), True)
    """
    X = np.asarray(X, dtype=float)
    C = density.n_classes_
    out = np.zeros((X.shape[0], C))
    for pattern, rows in missing_patterns(missing):
        left, vertices = prune_forest(edges, pattern)
        summed = [v for v in vertices if pattern[v]]
        check_summed(len(summed), "KDE features")
        n_vars = len(summed)
        values, logs = {}, []
        for v in vertices:
            if pattern[v]:
                nodes, log_w = _grids(density, v)
                shape = [1, C] + [1] * n_vars
                shape[2 + summed.index(v)] = nodes.shape[1]
                values[v] = nodes.reshape(shape)
                logs.append(log_w.reshape(shape))
            else:
                values[v] = X[rows, v].reshape((rows.size, 1) + (1,) * n_vars)
        degree = dict.fromkeys(vertices, 0)
        for i, j in left:
            a, b = min(i, j), max(i, j)
            degree[a] += 1
            degree[b] += 1
            logs.append(_per_class(
                lambda c, x, z, a=a, b=b: density.kde2_[c][(a, b)].logpdf(x, z),
                [values[a], values[b]], C))
        for s in vertices:
            if degree[s] != 1:
                logs.append((1 - degree[s]) * _per_class(
                    lambda c, x, s=s: density.kde1_[c][s].logpdf(x), [values[s]], C))
        if logs:
            out[rows] = eliminate(logs, rows.size, C, n_vars)
    return out
