"""Shared data and factories for the score tests."""

import numpy as np
import pandas as pd
import pytest

from estimators.scores import DiscreteCMI, GaussianCMI, GaussianCopulaCMI, KDECopulaCMI

SCORES = {
    "gaussian": GaussianCMI,
    "copula-rank-kernel": GaussianCopulaCMI,
    "copula-kernel": lambda **kw: GaussianCopulaCMI(marginals="kernel", **kw),
    "copula-rank": lambda **kw: GaussianCopulaCMI(marginals="rank", **kw),
    "kde": KDECopulaCMI,
    "discrete": DiscreteCMI,
}


def chain_data(n=400, d=5, seed=0, discrete=False):
    """A Markov chain X0 -> X1 -> ... with class-dependent strength, as a DataFrame."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = np.empty((n, d))
    X[:, 0] = rng.normal(size=n)
    for i in range(1, d):
        X[:, i] = (0.4 + 0.4 * y) * X[:, i - 1] + rng.normal(size=n)
    if discrete:
        X = np.digitize(X, [-0.5, 0.5])
    names = [f"x{i}" for i in range(d)]
    return pd.DataFrame(X, columns=names), np.where(y == 1, "pos", "neg")


@pytest.fixture(params=sorted(SCORES))
def kind(request):
    return request.param


def make(kind, **kw):
    return SCORES[kind](**kw)


def data_for(kind, **kw):
    return chain_data(discrete=(kind == "discrete"), **kw)
