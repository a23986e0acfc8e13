"""kDB: the parent rule against an independent computation of the informations, predict_proba
against brute-force enumeration/integration with empty cells, exports, estimator checks."""

import itertools

import numpy as np
import pandas as pd
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks
from slow_cases import representative

from estimators.bnc import KDBClassifier
from estimators.bnc.kdb import kdb_parents
from estimators.columns import EncodedColumns
from estimators.network.export.exact_export import write_network
from estimators.network.export.structure_graph import structure_graph
from kgraph import ParentSetDAG, read_structure


@parametrize_with_checks([KDBClassifier(), KDBClassifier(max_parents=1, features="gaussian"),
                          KDBClassifier(max_parents=0)])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def plug_in_mi(a, b):
    """I(A; B) of two code vectors from their contingency table (nats)."""
    n = a.size
    out = 0.0
    for u in np.unique(a):
        for v in np.unique(b):
            nuv = np.sum((a == u) & (b == v))
            if nuv:
                out += nuv / n * np.log(nuv * n / (np.sum(a == u) * np.sum(b == v)))
    return out


def plug_in_cmi(a, b, c):
    """I(A; B | C) = sum_c p(c) I(A; B | C = c)."""
    return sum(np.mean(c == k) * plug_in_mi(a[c == k], b[c == k]) for k in np.unique(c))


def by_hand(info, pair, k):
    """Sahami's rule written out: order by I(X_i; C) descending, then each feature's k
    earlier features with the largest I(X_i; X_j | C)."""
    d = len(info)
    order = sorted(range(d), key=lambda i: (-info[i], i))
    parents = {}
    for pos, i in enumerate(order):
        ranked = sorted(order[:pos], key=lambda j: (-pair[i][j], j))
        parents[i] = set(ranked[:k])
    return order, parents


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", [1, 2, 3])
def test_discrete_parents_follow_the_rule_on_plug_in_informations(seed, k):
    rng = np.random.default_rng(seed)
    n, d = 300, 5
    y = rng.integers(0, 3, n)
    X = np.empty((n, d), dtype=int)
    X[:, 0] = (y + (rng.random(n) < 0.3)) % 3
    for j in range(1, d):
        src = X[:, rng.integers(0, j)]
        X[:, j] = np.where(rng.random(n) < 0.5 + 0.1 * j, src, rng.integers(0, 3, n))
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(d)]).astype(str)
    clf = KDBClassifier(max_parents=k).fit(frame, y)
    info = [plug_in_mi(X[:, i], y) for i in range(d)]
    pair = [[plug_in_cmi(X[:, i], X[:, j], y) for j in range(d)] for i in range(d)]
    order, parents = by_hand(info, pair, k)
    assert clf.order_ == [f"f{i}" for i in order]
    assert {v: set(ps) for v, ps in clf.structure_.parent_map.items()} == {
        f"f{i}": {f"f{j}" for j in ps} for i, ps in parents.items()}
    np.testing.assert_allclose(clf.edge_scores_, np.array(pair).T * (1 - np.eye(d)), atol=1e-10)


def gaussian_mi_class(x, y):
    """I(X; C) of a Gaussian per class against one Gaussian (ML variances)."""
    return 0.5 * np.log(x.var()) - sum(np.mean(y == c) * 0.5 * np.log(x[y == c].var())
                                       for c in np.unique(y))


def gaussian_cmi(a, b, y):
    """I(A; B | C) = -1/2 sum_c p(c) ln(1 - r_c^2), r_c the within-class correlation."""
    return sum(-0.5 * np.mean(y == c) * np.log(1 - np.corrcoef(a[y == c], b[y == c])[0, 1] ** 2)
               for c in np.unique(y))


@pytest.mark.parametrize("seed", range(3))
def test_gaussian_parents_follow_the_rule_on_closed_form_informations(seed):
    rng = np.random.default_rng(seed)
    n, d = 400, 5
    y = rng.integers(0, 2, n)
    X = np.empty((n, d))
    X[:, 0] = rng.normal(1.5 * y, 1.0)
    for j in range(1, d):
        X[:, j] = rng.uniform(0.2, 1.0) * X[:, rng.integers(0, j)] + rng.normal(0.3 * j * y, 1.0)
    clf = KDBClassifier(max_parents=2, features="gaussian").fit(X, y)
    info = [gaussian_mi_class(X[:, i], y) for i in range(d)]
    pair = [[gaussian_cmi(X[:, i], X[:, j], y) if i != j else 0.0 for j in range(d)]
            for i in range(d)]
    np.testing.assert_allclose(clf.class_information_, info, rtol=1e-7)
    order, parents = by_hand(info, pair, 2)
    assert clf.order_ == [f"x{i}" for i in order]
    assert {v: set(ps) for v, ps in clf.structure_.parent_map.items()} == {
        f"x{i}": {f"x{j}" for j in ps} for i, ps in parents.items()}


def test_rule_helper_ties_and_ineligible_pairs():
    W = np.array([[-np.inf, 0.2, 0.2], [0.2, -np.inf, np.nan], [0.2, 0.2, -np.inf]])
    order, parents = kdb_parents([0.5, 0.5, 0.1], W, k=2)
    assert order == [0, 1, 2]  # tie in I(X; C): column order
    assert parents == [[], [0], [0]]  # (1 -> 2) not scoreable: only one parent


def mixed_table(seed, n=140, missing=0.15):
    """Two categorical and two continuous columns with dependences; at most two empty
    cells per row."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    z = np.where(rng.random(n) < 0.3 + 0.4 * y, "a", "b")
    x = rng.normal(np.where(z == "a", 1.0, -1.0) + y, 1.0)
    w = np.where(rng.random(n) < 1 / (1 + np.exp(-x)), "p", np.where(rng.random(n) < 0.5, "q", "r"))
    u = rng.normal(0.7 * x - y, 0.8)
    frame = pd.DataFrame({"z": z, "x": x, "w": w, "u": u}).astype(object)
    for i in range(n):
        if rng.random() < 2 * missing:
            for j in rng.choice(4, size=rng.integers(1, 3), replace=False):
                frame.iat[i, j] = None
    return frame, y


def brute_force_proba(clf, enc):
    """p(y | x_O) by enumerating the missing categorical cells and integrating the missing
    continuous ones on a fine grid (trapezoid), with the network's factors on completed
    rows."""
    net, prior = clf.network_, clf.class_log_prior_
    cont = enc.continuous
    grids = {}
    for j in np.flatnonzero(cont):
        x = enc.values[:, j][np.isfinite(enc.values[:, j])]
        grids[j] = np.linspace(x.min() - 8 * x.std(), x.max() + 8 * x.std(), 1601)
    out = np.empty((enc.codes.shape[0], prior.size))
    for i in range(enc.codes.shape[0]):
        miss = [j for j in range(enc.codes.shape[1]) if not enc.observed[i, j]]
        axes = [grids[j] if cont[j] else np.arange(enc.n_levels[j]) for j in miss]
        mesh = list(itertools.product(*axes)) if axes else [()]
        values = np.repeat(enc.values[i:i + 1], len(mesh), axis=0)
        codes = np.repeat(enc.codes[i:i + 1], len(mesh), axis=0)
        for col, j in enumerate(miss):
            point = np.array([m[col] for m in mesh])
            if cont[j]:
                values[:, j] = point
                codes[:, j] = enc.codes[enc.observed[:, j], j][0]
            else:
                codes[:, j] = point.astype(int)
                values[:, j] = enc.values[enc.observed[:, j], j][0]
        full = EncodedColumns(values, codes, enc.types, enc.n_levels, enc.names, enc.n_unseen)
        joint = np.exp(net.log_likelihood(full) + prior)  # (mesh, classes)
        shape = [len(a) for a in axes] + [prior.size]
        joint = joint.reshape(shape)
        for col in reversed(range(len(miss))):
            j = miss[col]
            joint = np.trapezoid(joint, grids[j], axis=col) if cont[j] else joint.sum(axis=col)
        out[i] = joint / joint.sum()
    return out


@pytest.mark.parametrize(("k", "seed"), representative(
    [(k, seed) for k in (1, 2) for seed in range(3)], keep=[(2, 1)]))
def test_predict_proba_equals_brute_force_with_empty_cells(seed, k):
    frame, y = mixed_table(seed)
    types = {"z": "categorical", "x": "continuous", "w": "categorical", "u": "continuous"}
    clf = KDBClassifier(max_parents=k, feature_types=types).fit(frame, y)
    assert clf.family_ == "mixed"
    test, _ = mixed_table(seed + 100, n=40)
    enc = clf.encoder_.transform(test)
    assert (~enc.observed).any(axis=1).sum() > 5
    np.testing.assert_allclose(clf.predict_proba(test), brute_force_proba(clf, enc),
                               atol=2e-5)


def test_structure_graph_files_and_bif(tmp_path):
    from estimators.datasets import load_dataset

    X, y = load_dataset("car")
    clf = KDBClassifier(max_parents=2).fit(X, y)
    g = structure_graph(clf)
    g.write_graphml(tmp_path / "s.graphml")
    g.write_json(tmp_path / "s.json")
    for path in (tmp_path / "s.graphml", tmp_path / "s.json"):
        assert read_structure(path) == clf.structure_
    assert isinstance(clf.structure_, ParentSetDAG)
    # car is all categorical: every factor is a class-conditional table, not "gaussian"
    assert clf.factor_kinds_ == dict.fromkeys(X.columns, "categorical")
    assert g.attrs["model"] == "KDBClassifier"
    assert all(isinstance(a.get("weight"), float) for _, _, a in g.edges(data=True))
    assert g.nodes(kind="class") == ["class"]
    assert sorted(g.nodes(kind="class", data=True)[0][1]["states"]) == sorted(set(y))
    path = write_network(clf, "bif", tmp_path / "car.bif")
    from pgmpy.inference import VariableElimination
    from pgmpy.readwrite import BIFReader

    model = BIFReader(path).get_model()
    for v in clf.structure_.order:
        assert set(model.get_parents(v)) == set(clf.structure_.parents(v)) | {"class"}
    row = X.iloc[3]
    q = VariableElimination(model).query(["class"], evidence={c: str(row[c]) for c in X.columns},
                                         show_progress=False)
    want = clf.predict_proba(X.iloc[[3]])[0]
    got = [q.values[q.state_names["class"].index(str(c))] for c in clf.classes_]
    np.testing.assert_allclose(got, want, atol=1e-12)


def test_mixed_model_has_no_pgmpy_form_and_max_parents_is_checked():
    frame, y = mixed_table(0)
    clf = KDBClassifier(feature_types={"z": "categorical", "x": "continuous",
                                       "w": "categorical", "u": "continuous"}).fit(frame, y)
    with pytest.raises(ValueError, match=r"2 continuous feature\(s\) \(x, u\)"):
        clf.to_pgmpy()
    with pytest.raises(ValueError, match="'max_parents' parameter of KDBClassifier must be an int"):
        KDBClassifier(max_parents=-1).fit(frame, y)
