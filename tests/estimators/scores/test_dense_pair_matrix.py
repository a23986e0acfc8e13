"""The whole-matrix Gaussian edge scores equal the pair-block ones bit for bit."""

import numpy as np
import pytest

from estimators.scores import GaussianCMI, GaussianCopulaCMI
from estimators.scores._gaussian_cmi import gaussian_pair_block


@pytest.mark.parametrize("score", [GaussianCMI(), GaussianCopulaCMI(marginals="rank")],
                         ids=["gaussian", "copula"])
def test_dense_edge_matrix_equals_pair_blocks(score):
    rng = np.random.default_rng(1)
    X = rng.standard_normal((300, 40))
    X[:, 5] = X[:, 4]  # r = 1: an infinite score
    X[:, 7] = -2 * X[:, 6]
    y = rng.integers(0, 3, 300)
    fitted = score.fit(X, y)
    W = fitted.edge_matrix()
    iu, ju = np.triu_indices(40, 1)
    assert np.array_equal(W[iu, ju], gaussian_pair_block(fitted.data_, np.column_stack([iu, ju])))
    assert np.array_equal(W, W.T) and not W.diagonal().any()
    assert np.isinf(W[4, 5]) and W[6, 7] > 10
    # the closed form on one pair, independently
    r = [np.corrcoef(X[y == c][:, [0, 1]].T)[0, 1] for c in range(3)] if isinstance(
        score, GaussianCMI) else None
    if r is not None:
        prior = np.bincount(y) / len(y)
        assert W[0, 1] == pytest.approx(-0.5 * sum(p * np.log(1 - q * q)
                                                   for p, q in zip(prior, r, strict=True)))
