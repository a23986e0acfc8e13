"""The SPODE joint grouped by the super-parents' missing pattern
(:mod:`estimators.bnc._spode_joint`) equals the general engine's
:meth:`CGNetwork.joint_log_likelihood` (rows grouped by their whole missing pattern) on
mixed tables with empty cells in every column, super-parents included."""

import numpy as np
import pandas as pd
import pytest

from estimators.bnc import A2DEClassifier, AODEClassifier
from estimators.bnc._spode_joint import spode_joint_log_likelihood


def _table(seed: int, kinds: str, n: int = 120, holes: float = 0.2):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    cols = {}
    for j, kind in enumerate(kinds):
        if kind == "c":
            cols[f"f{j}"] = np.where(rng.random(n) < 0.5, y % 3, rng.integers(0, 3, n)).astype(
                object)
        else:
            cols[f"f{j}"] = rng.normal(0.7 * y + 0.3 * j, 1.0)
    X = pd.DataFrame(cols)
    for c in X.columns:
        X.loc[rng.random(n) < holes, c] = np.nan
    return X, y


@pytest.mark.parametrize("cls", [AODEClassifier, A2DEClassifier])
@pytest.mark.parametrize("kinds", ["cgcg", "ccgg", "gcc"])
def test_grouped_by_super_parent_pattern_equals_the_engine(cls, kinds):
    X, y = _table(len(kinds) + len(cls.__name__), kinds)
    clf = cls().fit(X, y)
    enc = clf._check_X(X)
    for S, net in zip(clf._sets, clf.spodes_, strict=True):
        missing = ~enc.observed[:, list(S)]
        assert missing.any(axis=1).any()  # a missing super-parent is exercised
        fast = spode_joint_log_likelihood(net, S, enc, clf.class_log_prior_)
        general = net.joint_log_likelihood(enc, clf.class_log_prior_)
        np.testing.assert_allclose(fast, general, rtol=1e-12, atol=1e-10)
