"""(k-)TAN classifiers against pgmpy, brute force and each other."""

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pgmpy.estimators import TreeSearch
from pgmpy.inference import VariableElimination
from pgmpy.models import DiscreteBayesianNetwork
from pgmpy.parameter_estimator import DiscreteBayesianEstimator

from estimators.ktan import KTANClassifier, TANClassifier
from estimators.scores import DiscreteCMI
from estimators.search import brute_force_ktree

DISCRETE_MODELS = {
    "TAN": TANClassifier(),
    "2-TAN dp": KTANClassifier(k=2),
    "3-TAN dp": KTANClassifier(k=3, backbone="greedy-path"),
    "2-TAN greedy": KTANClassifier(k=2, search="greedy"),
    "3-TAN greedy": KTANClassifier(k=3, search="greedy"),
}


def _split(X, y, n_test, seed=0):
    idx = np.random.default_rng(seed).permutation(len(X))
    te, tr = idx[:n_test], idx[n_test:]
    return X.iloc[tr], y[tr], X.iloc[te], y[te]


@pytest.mark.parametrize("name", DISCRETE_MODELS)
def test_pgmpy_variable_elimination_equals_predict_proba(tic_tac_toe, name):
    X, y = tic_tac_toe
    Xtr, ytr, Xte, _ = _split(X, y, 20)
    clf = DISCRETE_MODELS[name].fit(Xtr, ytr)
    model = clf.to_pgmpy()
    assert isinstance(model, DiscreteBayesianNetwork) and model.check_model()
    target = clf.class_node_
    assert set(model.get_children(target)) == set(X.columns)
    infer = VariableElimination(model)
    proba = clf.predict_proba(Xte)
    for i, (_, row) in enumerate(Xte.iterrows()):
        post = infer.query([target], evidence=row.to_dict(), show_progress=False)
        assert post.state_names[target] == clf.classes_.tolist()
        np.testing.assert_allclose(post.values, proba[i], rtol=0, atol=1e-9)


def test_exported_cpds_equal_pgmpy_dirichlet_estimates(car):
    X, y = car
    clf = KTANClassifier(k=2, alpha=0.5).fit(X, y)
    model = clf.to_pgmpy()
    data = X.assign(**{clf.class_node_: y})
    states = {c: sorted(X[c].unique()) for c in X.columns} | {clf.class_node_: sorted(set(y))}
    refit = DiscreteBayesianNetwork(model.edges()).fit(
        data, estimator=DiscreteBayesianEstimator(prior_type="dirichlet", pseudo_counts=0.5, state_names=states)
    )
    for v in X.columns:
        ours, theirs = model.get_cpds(v), refit.get_cpds(v)
        theirs = theirs.copy()
        if ours.variables[1:] != theirs.variables[1:]:
            theirs.reorder_parents(ours.variables[1:])
        np.testing.assert_allclose(ours.get_values(), theirs.get_values(), rtol=1e-12)


def _undirected(edges):
    return {frozenset(e) for e in edges}


@pytest.mark.parametrize("dataset", ["car", "tic_tac_toe"])
def test_tan_tree_equals_pgmpy_treesearch(dataset, request):
    X, y = request.getfixturevalue(dataset)
    clf = TANClassifier().fit(X, y)
    data = X.assign(**{clf.class_node_: y})
    dag = TreeSearch(data, root_node=X.columns[0], n_jobs=1).estimate(
        estimator_type="tan", class_node=clf.class_node_, show_progress=False
    )
    theirs = _undirected(e for e in dag.edges() if clf.class_node_ not in e)
    ours = _undirected(clf.structure_.edges)
    if ours != theirs:  # ties: the two trees must have the same weight
        W = pd.DataFrame(clf.edge_scores_, index=X.columns, columns=X.columns)
        weight = lambda es: sum(W.loc[tuple(e)[0], tuple(e)[1]] for e in es)  # noqa: E731
        assert weight(ours) == pytest.approx(weight(theirs), abs=1e-12)
    else:
        assert ours == theirs


def test_tan_tree_equals_pgmpy_on_random_data():
    rng = np.random.default_rng(5)
    n, d = 3000, 8
    y = rng.integers(0, 3, n)
    X = np.empty((n, d), dtype=int)
    X[:, 0] = (rng.random(n) < 0.3 + 0.2 * y) + rng.integers(0, 2, n)
    for j in range(1, d):  # each feature copies a random earlier one with noise
        src = X[:, rng.integers(0, j)]
        X[:, j] = np.where(rng.random(n) < 0.6, src, rng.integers(0, 3, n))
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(d)])
    clf = TANClassifier().fit(frame, y)
    dag = TreeSearch(frame.assign(cls=y), root_node="f0", n_jobs=1).estimate(
        estimator_type="tan", class_node="cls", show_progress=False
    )
    assert _undirected(clf.structure_.edges) == _undirected(e for e in dag.edges() if "cls" not in e)


@pytest.mark.parametrize("family", ["discrete", "gaussian"])
def test_tan_is_ktan_with_k1(family, car, gaussian_data):
    X, y = car if family == "discrete" else gaussian_data
    tan = TANClassifier().fit(X, y)
    ktan = KTANClassifier(k=1).fit(X, y)
    assert tan.family_ == ktan.family_ == family
    assert tan.structure_ == ktan.structure_
    assert tan.score_ == ktan.score_
    np.testing.assert_array_equal(tan.predict_proba(X), ktan.predict_proba(X))


@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("backbone", ["given", "mst-dfs", "reversed"])
def test_backbone_dp_score_equals_brute_force(tic_tac_toe, k, backbone):
    X, y = tic_tac_toe
    X = X.iloc[:, :7]
    order = list(X.columns)[::-1] if backbone == "reversed" else backbone
    clf = KTANClassifier(k=k, backbone=order).fit(X, y)
    codes = X.apply(lambda c: pd.factorize(c, sort=True)[0])
    f = DiscreteCMI().fit(codes, y)
    best = brute_force_ktree(f, k, backbone=list(clf.backbone_))
    assert clf.score_ == pytest.approx(best.score, abs=1e-10)
    assert clf.structure_.score(f) == pytest.approx(clf.score_, abs=1e-10)
    if backbone == "given":
        assert clf.backbone_ == tuple(X.columns)


def test_local_search_backbone_never_below_its_start(tic_tac_toe):
    X, y = tic_tac_toe
    start = KTANClassifier(k=2, backbone="greedy-path").fit(X, y)
    improved = KTANClassifier(k=2, backbone="local-search").fit(X, y)
    assert improved.score_ >= start.score_ - 1e-12
    assert sorted(improved.backbone_) == sorted(X.columns)


def test_greedy_score_is_its_structure_score(car):
    X, y = car
    clf = KTANClassifier(k=2, search="greedy").fit(X, y)
    assert clf.backbone_ is None
    assert clf.score_ == pytest.approx(sum(clf.hyperedge_scores_.values()), abs=1e-12)


def test_unseen_category_is_marginalised_not_a_crash(car):
    X, y = car
    clf = KTANClassifier(k=2).fit(X, y)
    test = X.iloc[:3].copy()
    test.iloc[0, 0] = "never-seen"
    test.iloc[1, 5] = "also-new"
    proba = clf.predict_proba(test)
    assert np.all(np.isfinite(proba)) and np.allclose(proba.sum(axis=1), 1.0)
    assert clf._check_X(test).codes[0, 0] == -1  # coded as missing
    jll = clf._joint_log_likelihood(clf._check_X(test))
    jll_ref = clf._joint_log_likelihood(clf._check_X(X.iloc[:3]))
    assert not np.allclose(jll[0], jll_ref[0])
    np.testing.assert_allclose(jll[2], jll_ref[2])


def test_gaussian_export_log_likelihood_matches(gaussian_data):
    X, y = gaussian_data
    clf = KTANClassifier(k=2).fit(X, y)
    assert clf.family_ == "gaussian"
    nets = clf.to_pgmpy()
    assert set(nets) == set(clf.classes_.tolist())
    cond = clf._joint_log_likelihood(clf._check_X(X)) - clf.class_log_prior_
    for c, label in enumerate(clf.classes_):
        net = nets[label]
        assert net.check_model()
        assert _undirected(net.edges()) == _undirected(clf.structure_.edges)
        rows = X[y == label]
        assert net.log_likelihood(rows) == pytest.approx(cond[y == label, c].sum(), rel=1e-6)


def test_write_graphml_readable_by_networkx_and_igraph(tmp_path, tic_tac_toe):
    import igraph

    X, y = tic_tac_toe
    clf = KTANClassifier(k=2).fit(X, y)
    path = tmp_path / "ktan.graphml"
    clf.write_graphml(path)
    G = nx.read_graphml(path)
    assert G.is_directed() and set(G.nodes) == {*X.columns, clf.class_node_}
    index = {v: j for j, v in enumerate(X.columns)}
    for v in X.columns:
        for p in clf.structure_.parents(v):
            assert G.edges[p, v]["weight"] == pytest.approx(clf.edge_scores_[index[p], index[v]],
                                                         rel=1e-12)
    total = sum(G.nodes[v]["clique_score"] for v in X.columns)
    assert total == pytest.approx(clf.score_, abs=1e-10)
    g = igraph.Graph.Read_GraphML(str(path))
    assert g.vcount() == len(X.columns) + 1
    assert g.ecount() == len(X.columns) + len(clf.structure_.edges)
    assert "weight" in g.es.attributes() and "clique_score" in g.vs.attributes()
    assert G.nodes[clf.class_node_]["kind"] == "class"


def test_write_graphml_is_the_structure_graph_the_cli_writes(tmp_path, tic_tac_toe):
    """One path: the classifier's GraphML and kgraph learn's are the same graph."""
    from estimators.network.export.structure_graph import structure_graph
    from kgraph import GraphDB

    X, y = tic_tac_toe
    clf = KTANClassifier(k=2).fit(X, y)
    clf.write_graphml(tmp_path / "ktan.graphml")
    assert GraphDB.read_graphml(tmp_path / "ktan.graphml") == structure_graph(clf)


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    d=st.integers(3, 6),
    k=st.integers(1, 2),
    search=st.sampled_from(["backbone-dp", "greedy"]),
)
def test_structure_invariants(seed, d, k, search):
    rng = np.random.default_rng(seed)
    n = 80
    y = rng.integers(0, 2, n)
    X = (rng.random((n, d)) < 0.3 + 0.4 * y[:, None]).astype(int) + rng.integers(0, 2, (n, d))
    clf = KTANClassifier(k=k, search=search).fit(X, y)
    s = clf.structure_
    assert sorted(s.order) == sorted(f"x{j}" for j in range(d))
    assert all(len(s.parents(v)) == min(i, k) for i, v in enumerate(s.order))
    assert len(s.edges) == k * d - k * (k + 1) // 2
    assert clf.score_ == pytest.approx(sum(clf.hyperedge_scores_.values()), abs=1e-10)
    proba = clf.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(clf.predict(X), clf.classes_[proba.argmax(axis=1)])


def test_backbone_dp_certificate_spans_the_structure():
    from kgraph import PBKT

    rng = np.random.default_rng(4)
    X = pd.DataFrame(rng.integers(0, 3, size=(300, 5)), columns=list("abcde")).astype(str)
    y = rng.integers(0, 2, 300)
    model = KTANClassifier(k=2, search="backbone-dp", backbone="given").fit(X, y)
    assert isinstance(model.certificate_, PBKT)
    root_order = model.structure_.order[:3]
    assert model.certificate_.to_ktree(root_order=root_order) == model.structure_
    assert KTANClassifier(k=2, search="greedy").fit(X, y).certificate_ is None
