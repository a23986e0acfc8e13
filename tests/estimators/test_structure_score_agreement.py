"""The searchers' objective and the structures' weight agree (MATH.md §2, §4).

For a CMI score, the score of an acyclic k-tree, Σ_v I(X_v; X_π(v) | Y), equals the weight of its
k-GNB junction tree under the exact multi-information of the empirical distribution, minus
Σ_s I(X_s; Y). The multi-information here is computed from entropies of value counts,
independently of the scores' code.
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from structure_strategies import ktree_sequences

from estimators.scores import DiscreteCMI
from estimators.search import backbone_dp, maximum_spanning_tree
from kgraph import AcyclicKTree


def entropy(frame: pd.DataFrame, columns) -> float:
    if not columns:
        return 0.0
    p = frame.groupby(sorted(columns)).size().to_numpy() / len(frame)
    return float(-(p * np.log(p)).sum())


def multi_information(frame, columns):
    return sum(entropy(frame, [c]) for c in columns) - entropy(frame, list(columns))


def discrete_data(n_vars, seed, n=400):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = np.empty((n, n_vars), dtype=int)
    X[:, 0] = rng.integers(0, 3, n)
    for i in range(1, n_vars):
        src = X[:, rng.integers(0, i)]
        X[:, i] = np.where(rng.random(n) < 0.3 + 0.4 * y, src, rng.integers(0, 3, n))
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(n_vars)])
    return frame, y


def check(ktree: AcyclicKTree, frame: pd.DataFrame, y: np.ndarray, score) -> None:
    full = frame.assign(Y=y)
    weight = ktree.to_junction_tree("Y").weight(lambda s: multi_information(full, s))
    class_info = sum(multi_information(full, [v, "Y"]) for v in frame.columns)
    assert ktree.score(score) == pytest.approx(weight - class_info, abs=1e-9)


@settings(max_examples=25, deadline=None)
@given(ktree_sequences(max_k=3, max_extra=3), st.integers(0, 1000))
def test_ktree_score_is_junction_tree_weight_minus_class_information(seq, seed):
    k, order, parents = seq
    frame, y = discrete_data(len(order), seed)
    names = {v: f"x{v}" for v in order}
    ktree = AcyclicKTree(k, [names[v] for v in order],
                         {names[v]: [names[p] for p in ps] for v, ps in parents.items()})
    check(ktree, frame, y, DiscreteCMI().fit(frame, y))


def test_searchers_results_agree_with_their_structures():
    frame, y = discrete_data(6, seed=3)
    score = DiscreteCMI().fit(frame, y)
    tree = maximum_spanning_tree(score)
    gnb = tree.junction_tree(target="Y")
    full = frame.assign(Y=y)
    w = gnb.weight(lambda s: multi_information(full, s))
    class_info = sum(multi_information(full, [v, "Y"]) for v in frame.columns)
    assert tree.weight == pytest.approx(w - class_info, abs=1e-9)
    dp = backbone_dp(score, list(frame.columns), 2)
    check(dp.structure, frame, y, score)
    assert dp.score == pytest.approx(dp.structure.score(score), abs=1e-12)
