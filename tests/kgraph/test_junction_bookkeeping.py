"""An independent check of the junction-tree bookkeeping on exact discrete distributions.

For a random joint P of (Y, X_1..X_d), the distribution built from eq. 1 of paper 1 with P's
marginals sums to 1 and KL(P, P_GNB) = Σ_i H(X_i) + H(Y) − H(X, Y) − W, with W the weight under
the exact multi-information (MATH.md §2). The same holds for the k-GNB junction tree of any
acyclic k-tree.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from structure_strategies import ktree_sequences, spanning_trees

from kgraph import AcyclicKTree, GNBJunctionTree


def random_joint(n_vars, seed):
    rng = np.random.default_rng(seed)
    shape = tuple(rng.integers(2, 4, size=n_vars))
    p = rng.dirichlet(np.full(int(np.prod(shape)), 0.7)).reshape(shape)
    return p


def log_marginal(p, subset):
    """ln P(x_S) broadcast over the full table (axis i is variable i)."""
    axes = tuple(i for i in range(p.ndim) if i not in subset)
    return np.log(p.sum(axis=axes, keepdims=True)) + np.zeros(p.shape)


def entropy(p, subset):
    axes = tuple(i for i in range(p.ndim) if i not in subset)
    m = p.sum(axis=axes)
    return float(-(m * np.log(m)).sum())


def multi_information(p, subset):
    return sum(entropy(p, {v}) for v in subset) - entropy(p, set(subset))


def check_identity(structure, p):
    logq = structure.log_density(lambda c: log_marginal(p, c), lambda s: log_marginal(p, s))
    assert np.exp(logq).sum() == pytest.approx(1.0, abs=1e-10)
    kl = float((p * (np.log(p) - logq)).sum())
    everything = set(range(p.ndim))
    expected = (sum(entropy(p, {v}) for v in everything) - entropy(p, everything)
                - structure.weight(lambda s: multi_information(p, s)))
    assert kl == pytest.approx(expected, abs=1e-10)
    assert kl >= -1e-12


@settings(max_examples=30, deadline=None)
@given(spanning_trees(min_d=2, max_d=5), st.integers(0, 2**31))
def test_gnb_kl_identity(tree, seed):
    features, edges = tree
    p = random_joint(len(features) + 1, seed)
    check_identity(GNBJunctionTree.from_tree(edges, target=0), p)


@settings(max_examples=30, deadline=None)
@given(spanning_trees(min_d=3, max_d=5), st.integers(0, 2**31), st.data())
def test_gnb_forest_is_a_proper_distribution_of_its_features(tree, seed, data):
    """Eq. 42 (with −(r − 1) ln p(y)) normalises over the covered features; eq. 44 would not."""
    features, edges = tree
    p = random_joint(len(features) + 1, seed)
    m = data.draw(st.integers(1, len(edges)))
    forest = GNBJunctionTree.from_tree(edges, target=0).prefix(m)
    covered = {0, *forest.features}
    q = p.sum(axis=tuple(i for i in range(p.ndim) if i not in covered), keepdims=True)
    logq = forest.log_density(lambda c: log_marginal(q, c), lambda s: log_marginal(q, s))
    assert np.exp(logq).sum() == pytest.approx(1.0, abs=1e-10)


@settings(max_examples=30, deadline=None)
@given(ktree_sequences(max_k=2, max_extra=2), st.integers(0, 2**31))
def test_kgnb_kl_identity(seq, seed):
    k, order, parents = seq
    relabel = {v: v + 1 for v in order}  # the class is variable 0
    t = AcyclicKTree(k, [relabel[v] for v in order],
                     {relabel[v]: [relabel[u] for u in ps] for v, ps in parents.items()})
    p = random_joint(len(order) + 1, seed)
    check_identity(t.to_junction_tree(0), p)
