"""make_gaussian_tree: the precision matrix is zero exactly off the returned tree."""

import numpy as np
import pytest

from estimators.datasets import make_gaussian_tree


@pytest.mark.parametrize("seed", [0, 1])
def test_within_class_precision_vanishes_off_the_tree(seed):
    X, y, edges = make_gaussian_tree(40000, 6, rho=(0.4, 0.8), random_state=seed)
    resid = X - X.groupby(y).transform("mean")
    assert np.allclose(resid.std(), 1.0, atol=0.02)  # unit variance in each feature
    precision = np.linalg.inv(np.corrcoef(resid.to_numpy(), rowvar=False))
    partial = -precision / np.sqrt(np.outer(np.diag(precision), np.diag(precision)))
    index = {name: i for i, name in enumerate(X.columns)}
    tree = {frozenset((index[u], index[v])) for u, v in edges}
    for i in range(6):
        for j in range(i + 1, 6):
            if frozenset((i, j)) in tree:
                assert abs(partial[i, j]) > 0.3
            else:  # conditional independence: partial correlation 0 up to ~4 standard errors
                assert abs(partial[i, j]) < 4 / np.sqrt(40000)
    assert sorted(y.unique()) == [0, 1] and y.mean() == 0.5
    assert np.allclose(X.groupby(y).mean().diff().iloc[1], 1.0, atol=0.05)


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="n_features must be at least 2 for a tree; got 1"):
        make_gaussian_tree(10, 1)
    with pytest.raises(ValueError, match=r"rho must be \(low, high\) with 0 <= low <= high < 1"):
        make_gaussian_tree(10, 3, rho=(0.5, 1.0))
