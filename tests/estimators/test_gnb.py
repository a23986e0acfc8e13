"""GNBClassifier: tree recovery and exact posterior on a known Gaussian tree model, the
full-model density integrates to 1, the reduced model follows eq. 42, "auto", bad input."""

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import logsumexp
from scipy.stats import multivariate_normal
from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis

from estimators.densities import ClassGaussian
from estimators.gnb import GNBClassifier, pair_diagnostics
from estimators.gnb.reduction import best_n_clusters
from kgraph import GNBJunctionTree

TREE = [(0, 1), (1, 2), (1, 3), (3, 4)]  # class-conditional dependence tree, d = 5


def _tree_gaussian(coef, means, sd=1.0):
    """Covariance of the Gauss-Markov tree x_child = coef * x_parent + noise (root 0)."""
    d = 5
    B = np.zeros((d, d))
    for (p, c), a in zip(TREE, coef, strict=True):
        B[c, p] = a
    A = np.linalg.inv(np.eye(d) - B)
    return np.asarray(means, float), sd**2 * A @ A.T


MODEL = [
    (0.4, _tree_gaussian([0.9, -0.8, 0.7, 0.85], [0, 0, 0, 0, 0])),
    (0.6, _tree_gaussian([0.7, 0.9, -0.6, 0.8], [0.5, -0.3, 0.4, 0.2, -0.5])),
]


def _sample(n, seed):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < MODEL[1][0]).astype(int)
    X = np.empty((n, 5))
    for c, (_, (mu, cov)) in enumerate(MODEL):
        X[y == c] = rng.multivariate_normal(mu, cov, size=(y == c).sum())
    return X, y


def _exact_posterior(X):
    logs = np.column_stack(
        [np.log(p) + multivariate_normal(mu, cov).logpdf(X) for p, (mu, cov) in MODEL]
    )
    return np.exp(logs - logsumexp(logs, axis=1, keepdims=True))


def test_recovers_the_tree_and_the_exact_posterior():
    X, y = _sample(5000, seed=0)
    clf = GNBClassifier(dependence="gaussian").fit(X, y)
    assert set(map(frozenset, clf.cluster_order_.tolist())) == set(map(frozenset, TREE))
    Xt, _ = _sample(2000, seed=1)
    err = np.abs(clf.predict_proba(Xt) - _exact_posterior(Xt))[:, 1]
    # Mean absolute error: the maximum over 2000 points is dominated by estimation noise of
    # the moments at n = 5000 (0.05-0.2 here), as for a full-covariance QDA fitted on the
    # same data, which the tree model (fewer parameters, right structure) must not lose to.
    assert err.mean() < 0.02
    qda = QuadraticDiscriminantAnalysis().fit(X, y).predict_proba(Xt)[:, 1]
    assert err.mean() <= np.abs(qda - _exact_posterior(Xt)[:, 1]).mean()


@pytest.mark.parametrize("dependence", ["gaussian", "gaussian-copula", "kde"])
def test_full_model_density_integrates_to_one_per_class(dependence):
    rng = np.random.default_rng(2)
    cov = [[1.0, 0.8, 0.3], [0.8, 1.0, 0.5], [0.3, 0.5, 1.0]]
    X = np.vstack([rng.multivariate_normal([0, 0, 0], cov, 300), rng.normal(1, 0.7, (300, 3))])
    y = np.repeat([0, 1], 300)
    clf = GNBClassifier(dependence=dependence).fit(X, y)
    # Riemann sum on a grid covering every class's support (for Gaussian-kernel-smooth
    # integrands it converges exponentially fast in the spacing)
    axes = [np.linspace(X[:, j].min() - 3, X[:, j].max() + 3, 40) for j in range(3)]
    cell = np.prod([a[1] - a[0] for a in axes])
    grid = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)
    edges = [tuple(e) for e in clf.cluster_order_]
    dens = np.exp(clf.density_.log_density(grid, edges))
    tol = 2e-3 if dependence == "gaussian" else 2e-2  # kernel models: binning error
    assert dens.sum(axis=0) * cell == pytest.approx([1.0, 1.0], abs=tol)


def _two_block_data(n=1500, seed=3):
    """Pairs (0, 1) and (2, 3) strongly dependent, weak links otherwise: the first two
    Kruskal edges form a forest of two trees."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    base = rng.normal(size=(n, 5))
    X = np.column_stack(
        [
            base[:, 0],
            0.95 * base[:, 0] + 0.3 * base[:, 1],
            base[:, 2] + y,
            0.9 * base[:, 2] + 0.4 * base[:, 3],
            0.3 * base[:, 1] + base[:, 4] - y,
        ]
    )
    return X, y


def test_reduced_model_is_eq_42_not_eq_44():
    X, y = _two_block_data()
    clf = GNBClassifier(n_clusters=2, var_smoothing=0.0).fit(X, y)
    forest = clf.forest_
    assert forest.n_trees == 2
    prior = np.bincount(y) / y.size
    names = clf.feature_names()
    col = {name: j for j, name in enumerate(names)}

    def log_p(c, feats):  # ln p(y=c, x_feats), directly from the class's sample moments
        idx = [col[f] for f in feats]
        Xc = X[y == c][:, idx]
        mvn = multivariate_normal(Xc.mean(0), np.atleast_2d(np.cov(Xc.T, bias=True)))
        return np.log(prior[c]) + mvn.logpdf(X[:, idx])

    eq42 = np.zeros((X.shape[0], 2))
    for c in (0, 1):
        for tree in forest.trees:
            g = nx.Graph(tree)
            eq42[:, c] += sum(log_p(c, e) for e in tree)
            eq42[:, c] -= sum((g.degree(s) - 1) * log_p(c, [s]) for s in g if g.degree(s) > 1)
        eq42[:, c] -= (forest.n_trees - 1) * np.log(prior[c])
    assert np.allclose(clf._joint_log_likelihood(clf._check_X(X)), eq42)
    eq44 = eq42 - np.log(prior)  # "- r ln p(y)": one ln p(y) more
    assert not np.allclose(clf._joint_log_likelihood(clf._check_X(X)), eq44)
    uncovered = next(f for f in names if f not in forest.features)
    X2 = X.copy()
    X2[:, col[uncovered]] += 100.0  # the reduced model ignores features outside the forest
    assert np.allclose(clf.predict_proba(X2), clf.predict_proba(X))


def test_auto_reduction_keeps_every_split_and_picks_the_best_mean():
    X, y = _two_block_data(600)
    clf = GNBClassifier(n_clusters="auto", n_splits=4, random_state=0).fit(X, y)
    assert clf.reduction_scores_.shape == (4, 4)
    assert clf.n_clusters_ == best_n_clusters(clf.reduction_scores_)
    again = GNBClassifier(n_clusters="auto", n_splits=4, random_state=0).fit(X, y)
    assert np.array_equal(again.reduction_scores_, clf.reduction_scores_)


def test_tie_goes_to_the_smaller_model():
    assert best_n_clusters(np.array([[0.9, 0.9, 0.8]])) == 1


def test_string_labels_and_pandas_names():
    X, y = _two_block_data(400)
    frame = pd.DataFrame(X, columns=list("abcde"))
    labels = np.array(["no", "yes"])[y]
    clf = GNBClassifier().fit(frame, labels)
    assert set(clf.predict(frame)) <= {"no", "yes"}
    assert list(clf.classes_) == ["no", "yes"]
    assert set(clf.structure_.features) == set("abcde")
    assert clf.structure_.target == "class"
    table = pair_diagnostics(clf, frame, labels)
    assert len(table) == 4 * 400
    assert table["correct"].mean() == pytest.approx(clf.score(frame, labels))


def test_one_class_is_rejected():
    X, _ = _two_block_data(50)
    with pytest.raises(ValueError, match="at least 2 classes in y; got one class only"):
        GNBClassifier().fit(X, np.zeros(50))


@pytest.mark.parametrize("dependence", ["gaussian", "gaussian-copula", "kde"])
def test_a_one_row_class_warns_naming_it_and_predicts_finite_posteriors(dependence):
    X, y = _two_block_data(50)
    labels = np.where(y == 1, "b", "a").astype(object)
    labels[0] = "lonely"
    with pytest.warns(UserWarning, match=r"class\(es\) \['lonely'\] have fewer than 2"):
        clf = GNBClassifier(dependence=dependence).fit(X, labels)
    proba = clf.predict_proba(X)
    assert np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1.0)


def test_infinity_names_the_column_and_nan_is_a_missing_cell():
    X, y = _two_block_data(50)
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d", "e"])
    frame.iloc[3, 2] = np.inf
    with pytest.raises(ValueError, match=r"inf.*'c'"):
        GNBClassifier().fit(frame, y)
    clf = GNBClassifier().fit(pd.DataFrame(X, columns=frame.columns), y)
    with pytest.raises(ValueError, match=r"inf.*'c'"):
        clf.predict(frame)
    frame.iloc[3, 2] = np.nan
    proba = GNBClassifier().fit(frame, y).predict_proba(frame)
    assert np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1.0)


def test_unknown_dependence_lists_the_valid_values():
    X, y = _two_block_data(50)
    with pytest.raises(ValueError, match=r"'dependence'.*gaussian-copula.*Got 'copula'"):
        GNBClassifier(dependence="copula").fit(X, y)


@pytest.mark.parametrize(
    "m, pattern", [(5, r"n_clusters=5 is out of range.*\[1, 4\]"), (0, "n_clusters")]
)
def test_n_clusters_out_of_range(m, pattern):
    X, y = _two_block_data(50)
    with pytest.raises(ValueError, match=pattern):
        GNBClassifier(n_clusters=m).fit(X, y)


def test_predict_with_the_wrong_number_of_features():
    X, y = _two_block_data(50)
    clf = GNBClassifier().fit(X, y)
    with pytest.raises(ValueError, match="X has 3 features, but GNBClassifier is expecting 5"):
        clf.predict(X[:, :3])


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), d=st.integers(3, 7), data=st.data())
def test_forest_log_density_matches_kgraph_degrees(seed, d, data):
    """Property: for any random tree order and prefix m, the fitted log-density equals
    sum_C ln p(x_C | y) - sum_s (deg_forest(s) - 1) ln p(x_s | y) with the degrees of
    kgraph's GNBForest (an independent account of the forest)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(60, d)) @ rng.normal(size=(d, d))
    y = np.repeat([0, 1], 30)
    perm = rng.permutation(d)
    edges = [(int(perm[k]), int(perm[rng.integers(0, k)])) for k in range(1, d)]
    edges = [edges[i] for i in rng.permutation(d - 1)]
    m = data.draw(st.integers(1, d - 1))
    dens = ClassGaussian().fit(X, y, 2)
    forest = GNBJunctionTree.from_tree(edges, target="class").prefix(m)
    direct = sum(dens.logpdf2(X, i, j) for i, j in forest.edges)
    direct = direct - sum((forest.degree(s) - 1) * dens.logpdf1(X, s) for s in forest.features)
    assert np.allclose(dens.log_density(X, edges[:m]), direct)
    assert np.allclose(sum(dens.edge_increments(X, edges[:m])), direct)
