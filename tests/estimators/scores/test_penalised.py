"""BIC and BDeu scores against pgmpy, hand counts, least squares, and brute-force searches."""

import warnings

import numpy as np
import pandas as pd
import pytest

from estimators.scores import BIC, DiscreteBDeu, DiscreteCMI, GaussianCMI, KDECopulaCMI
from estimators.search import (
    backbone_dp,
    brute_force_ktree,
    brute_force_spanning_tree,
    greedy_ktree,
    maximum_spanning_tree,
)

with warnings.catch_warnings():
    warnings.simplefilter("ignore", FutureWarning)
    from pgmpy.estimators import BIC as PgmpyBIC
    from pgmpy.estimators import BDeu as PgmpyBDeu


def mixed_cardinality_data(n=400, seed=0):
    """Categorical features with 2, 3, 4, 3, 2, 3 levels, a chain with class-dependent noise."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    levels = [2, 3, 4, 3, 2, 3]
    cols = [rng.integers(0, levels[0], n)]
    for r in levels[1:]:
        copy = rng.random(n) < 0.3 + 0.2 * y
        cols.append(np.where(copy, cols[-1] % r, rng.integers(0, r, n)))
    X = pd.DataFrame({f"x{i}": c for i, c in enumerate(cols)})
    return X, y


def pgmpy_gain(cls, X, y, v, parents, **kw):
    frame = X.astype(str).assign(cls=np.asarray(y).astype(str))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = cls(frame, **kw)
        return s.local_score(v, [*parents, "cls"]) - s.local_score(v, ["cls"])


@pytest.mark.parametrize(("v", "parents"), [("x1", ("x0",)), ("x0", ("x1",)), ("x3", ("x2",)),
                                            ("x2", ("x1", "x3")), ("x5", ("x0", "x2", "x4"))])
def test_bdeu_equals_pgmpy(v, parents):
    X, y = mixed_cardinality_data()
    ours = DiscreteBDeu(ess=3.0).fit(X, y)(v, parents)
    assert ours == pytest.approx(pgmpy_gain(PgmpyBDeu, X, y, v, parents, equivalent_sample_size=3.0),
                                 rel=1e-10, abs=1e-9)


def test_bdeu_edge_matrix_equals_hyperedge_path_and_is_symmetric():
    X, y = mixed_cardinality_data(seed=3)
    score = DiscreteBDeu().fit(X, y)
    W = score.edge_matrix()
    direct = DiscreteBDeu().fit(X, y)
    names = list(X.columns)
    # the hyperedge code path (one-parent sets through hyperedge_table) gives the same numbers
    from estimators.scores._penalised import bdeu_hyperedge_block
    items = [(i, (j,)) for i in range(6) for j in range(6) if i != j]
    vals = bdeu_hyperedge_block(direct.data_, items)
    for (i, (j,)), val in zip(items, vals, strict=True):
        assert W[i, j] == pytest.approx(val, rel=1e-10, abs=1e-9), (names[i], names[j])
    np.testing.assert_allclose(W, W.T, rtol=1e-10, atol=1e-9)


@pytest.mark.parametrize(("v", "parents"), [("x1", ("x0",)), ("x2", ("x1", "x3")),
                                            ("x5", ("x0", "x2", "x4"))])
def test_bic_equals_pgmpy_bic_gain(v, parents):
    X, y = mixed_cardinality_data()
    ours = BIC().fit(X, y)(v, parents)
    assert ours == pytest.approx(pgmpy_gain(PgmpyBIC, X, y, v, parents), rel=1e-9, abs=1e-8)


def test_bic_penalty_is_the_hand_count():
    X, y = mixed_cardinality_data(n=500)
    n, m = 500, 3  # levels: x2 has 4, x1 3, x3 3
    hand = m * (4 - 1) * (3 * 3 - 1)  # 72 extra parameters for x2 given {x1, x3}
    cmi = DiscreteCMI().fit(X, y)("x2", ("x1", "x3"))
    assert BIC().fit(X, y)("x2", ("x1", "x3")) == pytest.approx(n * cmi - 0.5 * np.log(n) * hand)
    bic = BIC().fit(X, y)
    assert bic.base_.extra_parameters(2, frozenset({1, 3})) == 72
    assert bic.edge_matrix()[0, 4] == pytest.approx(
        n * DiscreteCMI().fit(X, y)("x0", ["x4"]) - 0.5 * np.log(n) * m * 1 * 1)


def test_gaussian_bic_equals_least_squares():
    rng = np.random.default_rng(2)
    n = 600
    y = rng.integers(0, 2, n)
    X = rng.normal(size=(n, 4))
    X[:, 1] += (0.3 + 0.5 * y) * X[:, 0]
    X[:, 3] += 0.4 * X[:, 2] - 0.2 * X[:, 0]
    hand = 0.0
    for c in (0, 1):  # ML residual variances with and without the parents, per class
        A = X[y == c]
        design = np.column_stack([np.ones(len(A)), A[:, [0, 2]]])
        resid = A[:, 3] - design @ np.linalg.lstsq(design, A[:, 3], rcond=None)[0]
        hand += 0.5 * len(A) * np.log(A[:, 3].var() / resid.var())
    hand -= 0.5 * np.log(n) * 2 * 2  # two coefficients per class, two classes
    assert BIC(GaussianCMI()).fit(X, y)(3, [0, 2]) == pytest.approx(hand, rel=1e-9)


SCORES = {
    "bic": lambda: BIC(),
    "bdeu": lambda: DiscreteBDeu(ess=1.0),
    "bdeu-ess10": lambda: DiscreteBDeu(ess=10.0),
}


@pytest.mark.parametrize("name", sorted(SCORES))
@pytest.mark.parametrize("k", [1, 2, 3])
def test_backbone_dp_equals_brute_force_with_negative_scores(name, k):
    X, y = mixed_cardinality_data(n=250, seed=k)
    score = SCORES[name]().fit(X, y)
    W = score.edge_matrix()
    assert (W[~np.eye(6, dtype=bool)] < 0).any()  # the test exercises negative scores
    backbone = ["x3", "x0", "x5", "x1", "x4", "x2"]
    dp = backbone_dp(score, backbone, k)
    bf = brute_force_ktree(score, k, backbone=backbone)
    assert dp.score == pytest.approx(bf.score, rel=1e-12, abs=1e-9)
    assert dp.structure.score(score) == pytest.approx(dp.score, rel=1e-12, abs=1e-9)
    greedy = greedy_ktree(score, k)
    assert greedy.score <= brute_force_ktree(score, k).score + 1e-9
    assert greedy.structure.score(score) == pytest.approx(greedy.score, abs=1e-9)


def test_gaussian_bic_dp_equals_brute_force():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 6))
    X[:, 1] += 0.8 * X[:, 0]
    y = rng.integers(0, 2, 300)
    score = BIC(GaussianCMI()).fit(X, y)
    for k in (1, 2):
        assert backbone_dp(score, range(6), k).score == pytest.approx(
            brute_force_ktree(score, k, backbone=range(6)).score, abs=1e-9)


@pytest.mark.parametrize("name", sorted(SCORES))
def test_spanning_tree_with_negative_weights_is_the_brute_force_optimum(name):
    X, y = mixed_cardinality_data(n=200, seed=7)
    score = SCORES[name]().fit(X, y)
    assert (score.edge_matrix() < -1e-9).sum() >= 2
    mst = maximum_spanning_tree(score)
    assert len(mst.edges) == 5  # still a spanning tree
    assert mst.weight == pytest.approx(brute_force_spanning_tree(score.edge_matrix()).score)


def test_bic_refuses_a_score_without_parameter_counts():
    X, y = mixed_cardinality_data(n=50)
    with pytest.raises(TypeError, match="extra_parameters.*KDECopulaCMI"):
        BIC(KDECopulaCMI()).fit(X.astype(float), y)


def test_bdeu_refuses_nonpositive_ess():
    X, y = mixed_cardinality_data(n=50)
    with pytest.raises(ValueError, match="'ess' parameter"):
        DiscreteBDeu(ess=0.0).fit(X, y)


def test_scores_of_empty_parent_sets_are_zero():
    X, y = mixed_cardinality_data(n=80)
    assert BIC().fit(X, y)("x1", []) == 0.0
    assert DiscreteBDeu().fit(X, y)("x1", []) == 0.0
