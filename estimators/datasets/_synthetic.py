"""Synthetic data with a known structure: a Gaussian tree under a class label."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.utils import check_random_state


def make_gaussian_tree(n_samples: int = 2000, n_features: int = 10, *,
                       rho: tuple[float, float] = (0.4, 0.8), class_shift: float = 1.0,
                       random_state=None) -> tuple[pd.DataFrame, pd.Series, list[tuple]]:
    """Rows of a class-conditional Gaussian whose dependence graph is a known tree.

    A random tree over ``x0 .. x{d-1}`` is drawn (feature ``i > 0`` joins a uniformly chosen
    earlier feature); along each tree edge the child is ``r * parent + sqrt(1 - r^2) * noise``
    with ``|r|`` uniform in ``rho`` and a random sign, so every feature has unit variance and
    the class-conditional covariance is the same tree-structured matrix in both classes. The
    class (0 or 1, balanced) shifts every feature's mean by ``class_shift``. The
    class-conditional mutual information of a pair is then ``-log(1 - r_ij^2) / 2`` with
    ``r_ij`` the product of the ``r`` along the tree path, largest on the tree edges, so a
    maximum-weight spanning tree recovers the tree in the limit.

    Returns
    -------
    X : DataFrame of shape (n_samples, n_features)
    y : Series of 0/1, named ``class``
    edges : list of (parent, child) name pairs, the true tree

    Examples
    --------
    >>> X, y, edges = make_gaussian_tree(500, 4, random_state=0)
    >>> X.shape, edges, float(y.mean())
    ((500, 4), [('x0', 'x1'), ('x0', 'x2'), ('x1', 'x3')], 0.5)
    """
    if n_features < 2:
        raise ValueError(f"n_features must be at least 2 for a tree; got {n_features}.")
    low, high = rho
    if not 0 <= low <= high < 1:
        raise ValueError(f"rho must be (low, high) with 0 <= low <= high < 1; got {rho!r}.")
    rng = check_random_state(random_state)
    names = [f"x{i}" for i in range(n_features)]
    parents = [int(rng.randint(i)) for i in range(1, n_features)]
    r = rng.uniform(low, high, size=n_features - 1) * rng.choice([-1.0, 1.0], n_features - 1)
    noise = rng.standard_normal((n_samples, n_features))
    X = np.empty_like(noise)
    X[:, 0] = noise[:, 0]
    for i in range(1, n_features):  # a loop over features, not rows
        p, ri = parents[i - 1], r[i - 1]
        X[:, i] = ri * X[:, p] + np.sqrt(1 - ri**2) * noise[:, i]
    y = np.arange(n_samples) % 2
    rng.shuffle(y)
    X += class_shift * y[:, None]
    edges = [(names[p], names[i]) for i, p in enumerate(parents, start=1)]
    return pd.DataFrame(X, columns=names), pd.Series(y, name="class"), edges
