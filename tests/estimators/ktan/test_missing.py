"""Missing cells in TAN / k-TAN (issue 12, MATH.md §8): available-case learning and exact
marginalisation at prediction, checked against pgmpy's variable elimination, the closed-form
Gaussian marginal and brute-force numerical integration."""

import numpy as np
import pandas as pd
import pytest
from pgmpy.inference import VariableElimination
from scipy.special import logsumexp
from scipy.stats import multivariate_normal
from slow_cases import representative

from estimators.ktan import KTANClassifier, TANClassifier
from estimators.network.fitting import fit_cg_factor
from estimators.network.model import var_floor
from estimators.scores import ConditionalGaussianScore
from estimators.search import brute_force_ktree

DISCRETE = {
    "TAN": lambda: TANClassifier(),
    "k=1": lambda: KTANClassifier(k=1),
    "k=2": lambda: KTANClassifier(k=2),
    "k=3": lambda: KTANClassifier(k=3, backbone="greedy-path"),
}


def _holes(X: pd.DataFrame, rate: float, seed: int) -> pd.DataFrame:
    """X with a share ``rate`` of its cells set missing completely at random (every row
    keeps one observed cell)."""
    rng = np.random.default_rng(seed)
    mask = rng.random(X.shape) < rate
    mask[np.arange(len(X)), rng.integers(0, X.shape[1], len(X))] = False
    return X.mask(mask)


@pytest.mark.parametrize("name", DISCRETE)
def test_discrete_marginal_equals_pgmpy_variable_elimination(tic_tac_toe, name):
    X, y = tic_tac_toe
    train = _holes(X, 0.1, 1)  # available-case learning too
    clf = DISCRETE[name]().fit(train, y)
    test = _holes(X.iloc[::25], 0.4, 2)  # > 16 patterns: the per-row evidence engine
    test.iloc[0, 4] = "never-seen"  # an unseen category is marginalised like a missing cell
    proba = clf.predict_proba(test)
    infer = VariableElimination(clf.to_pgmpy())
    target = clf.class_node_
    for i, (_, row) in enumerate(test.iterrows()):
        evidence = {c: v for c, v in row.items() if pd.notna(v) and v != "never-seen"}
        post = infer.query([target], evidence=evidence, show_progress=False)
        np.testing.assert_allclose(post.values, proba[i], rtol=0, atol=1e-9)
    assert test.isna().to_numpy().sum() > 20


def _joint_gaussian(net, cols):
    """Mean and covariance of a pgmpy linear-Gaussian network from its CPDs:
    x = a + B x + e, so x ~ N((I - B)^-1 a, (I - B)^-1 diag(std^2) (I - B)^-T)."""
    d = len(cols)
    index = {v: j for j, v in enumerate(cols)}
    B, a, s2 = np.zeros((d, d)), np.zeros(d), np.zeros(d)
    for cpd in net.get_cpds():
        v = index[cpd.variable]
        a[v], s2[v] = cpd.beta[0], cpd.std ** 2
        for p, b in zip(cpd.evidence, cpd.beta[1:], strict=True):
            B[v, index[p]] = b
    L = np.linalg.inv(np.eye(d) - B)
    return L @ a, L @ np.diag(s2) @ L.T


def test_gaussian_tan_equals_the_closed_form_marginal(gaussian_data):
    X, y = gaussian_data
    clf = TANClassifier().fit(X, y)
    test = _holes(X.iloc[:40], 0.4, 3)
    nets = clf.to_pgmpy()
    log_joint = np.empty((len(test), clf.classes_.size))
    for c, label in enumerate(clf.classes_):
        mean, cov = _joint_gaussian(nets[label], list(X.columns))
        for i, row in enumerate(test.to_numpy()):  # drop the missing rows and columns
            o = ~np.isnan(row)
            log_joint[i, c] = clf.class_log_prior_[c] + multivariate_normal(
                mean[o], cov[np.ix_(o, o)]).logpdf(row[o])
    expected = np.exp(log_joint - logsumexp(log_joint, axis=1, keepdims=True))
    np.testing.assert_allclose(clf.predict_proba(test), expected, rtol=0, atol=1e-9)


def _mixed(n: int, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    """x0 continuous -> z1 categorical -> x2 continuous -> z3 categorical, all given y."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    x0 = rng.normal(1.5 * y, 1.0)
    z1 = (x0 + rng.normal(0, 0.8, n) > 0.5).astype(int) + (x0 > 2.0)
    x2 = rng.normal(z1 - y + 0.5 * x0, 0.7)
    z3 = (x2 + rng.normal(0, 0.5, n) > 0.3).astype(int)
    X = pd.DataFrame({"x0": x0, "z1": np.array(["a", "b", "c"])[z1], "x2": x2,
                      "z3": np.array(["lo", "hi"])[z3]})
    return X, np.where(y == 1, "pos", "neg")


@pytest.fixture(scope="module")
def mixed():
    return _mixed(400, 5)


def _brute_force_log_joint(clf, row: pd.Series, X: pd.DataFrame) -> np.ndarray:
    """ln p(y, x_O) of one row by summing the complete-row model over the missing
    categories and integrating it on a fine grid over the missing continuous values
    (trapezoid rule, 201 points per axis over the training range +- 4 sd)."""
    missing = [c for c in X.columns if pd.isna(row[c])]
    axes = []
    for c in missing:
        if clf.feature_types_[c] == "continuous":
            lo, hi, sd = X[c].min(), X[c].max(), X[c].std()
            axes.append((c, np.linspace(lo - 4 * sd, hi + 4 * sd, 201)))
        else:
            axes.append((c, np.asarray(clf.encoder_.categories_[c])))
    grids = np.meshgrid(*(g for _, g in axes), indexing="ij") if axes else []
    size = grids[0].size if axes else 1
    filled = pd.DataFrame({c: np.repeat(row[c], size) for c in X.columns})
    for (c, _), g in zip(axes, grids, strict=True):
        filled[c] = g.ravel()
    jll = clf._joint_log_likelihood(clf._check_X(filled))
    jll = jll.reshape(*(g.shape if axes else ()), -1) if axes else jll[0]
    for a in range(len(axes) - 1, -1, -1):  # integrate / sum the last grid axis first
        c, g = axes[a]
        if clf.feature_types_[c] == "continuous":
            w = np.full(g.size, g[1] - g[0])
            w[[0, -1]] /= 2
            jll = logsumexp(jll, axis=a, b=w.reshape((-1,) + (1,) * (jll.ndim - a - 1)))
        else:
            jll = logsumexp(jll, axis=a)
    return jll


@pytest.mark.parametrize("model", [TANClassifier, lambda: KTANClassifier(k=2)],
                         ids=["TAN", "2-TAN"])
def test_mixed_marginal_equals_brute_force_integration(mixed, model):
    X, y = mixed
    clf = model().fit(X, y)
    assert clf.family_ == "mixed"
    base = X.iloc[:2]
    rows = []  # every missing pattern with one or two missing cells, two rows each
    for i, a in enumerate(X.columns):
        for b in X.columns[i:]:
            holes = base.copy()
            holes[[a, b]] = np.nan
            rows.append(holes.astype(object).where(holes.notna(), None))
    test = pd.concat(rows, ignore_index=True).astype({"x0": float, "x2": float})
    got = clf._joint_log_likelihood(clf._check_X(test))
    expected = np.array([_brute_force_log_joint(clf, row, X) for _, row in test.iterrows()])
    # stated tolerance: Gauss-Hermite order 64 (error ~1e-7 in ln p) against a 201-point
    # trapezoid grid
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-6)
    proba = clf.predict_proba(test)
    assert np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1.0)


def test_mixed_density_is_normalised_per_class():
    X, y = _mixed(300, 7)
    X = X[["x0", "z1", "x2"]]
    clf = TANClassifier().fit(X, y)
    g0 = np.linspace(X.x0.min() - 6, X.x0.max() + 6, 241)
    g2 = np.linspace(X.x2.min() - 6, X.x2.max() + 6, 241)
    cats = clf.encoder_.categories_["z1"]
    a, b, c = np.meshgrid(g0, cats, g2, indexing="ij")
    grid = pd.DataFrame({"x0": a.ravel(), "z1": b.ravel(), "x2": c.ravel()})
    dens = np.exp(clf._joint_log_likelihood(clf._check_X(grid)) - clf.class_log_prior_)
    dens = dens.reshape(g0.size, cats.size, g2.size, -1).sum(axis=1)
    total = np.trapezoid(np.trapezoid(dens, g2, axis=1), g0, axis=0)
    np.testing.assert_allclose(total, 1.0, rtol=0, atol=1e-6)


@pytest.mark.parametrize(("k", "backbone"), representative(
    [(1, None), (2, "given"), (3, "given")], keep=[(1, None), (2, "given")]))
def test_ktan_cg_score_equals_brute_force_ktree_with_missing_cells(k, backbone):
    X, y = _mixed(300, 9)
    rng = np.random.default_rng(9)
    X = X.assign(w=rng.normal(X.x0, 1.0), v=np.where(rng.random(300) < 0.5, "s", "t"))
    X = _holes(X, 0.1, 4)
    clf = KTANClassifier(k=k, backbone=backbone).fit(X, y)
    score = ConditionalGaussianScore().fit(X, y)
    names = list(X.columns)
    oracle = brute_force_ktree(score, k, backbone=names if backbone else None,
                               variables=None if backbone else names)
    assert clf.score_ == pytest.approx(oracle.score, abs=1e-10)
    assert clf.score_ == pytest.approx(sum(score(v, clf.structure_.parents(v))
                                           for v in names), abs=1e-10)
    if k == 1:
        assert clf.search_ == "arborescence"


def test_available_cases_each_factor_from_its_complete_rows(mixed):
    X, y = mixed
    holes = _holes(X, 0.2, 6)
    clf = KTANClassifier(k=2).fit(holes, y)
    enc, codes = clf._check_X(holes), np.searchsorted(clf.classes_, y)
    floor = var_floor(enc, clf.network_.columns, clf.var_smoothing)
    test = clf._check_X(X.iloc[:30])
    net = clf.network_
    for v, parents, factor in zip(net.columns, net.parents, net.factors, strict=True):
        keep = enc.observed[:, [v, *parents]].all(axis=1)
        assert factor.n_rows == keep.sum() > enc.observed.all(axis=1).sum()
        ref = fit_cg_factor(enc.take(keep), codes[keep], 2, v, parents, alpha=1.0,
                            ridge=0.0, var_floor=floor, shrink=not keep.all())
        np.testing.assert_allclose(factor.log_prob(test), ref.log_prob(test), rtol=1e-12)


def test_one_row_class_and_constant_column_do_not_stop_a_fit(mixed):
    X, y = mixed
    X = X.assign(k=3.0)
    y = y.astype(object)
    y[0] = "rare"
    with pytest.warns(UserWarning, match=r"class\(es\) \['rare'\] have fewer than 5"):
        clf = KTANClassifier(k=2).fit(X, y)
    assert clf.constant_features_ == ["k"] and "k" not in clf.structure_.order
    proba = clf.predict_proba(_holes(X, 0.3, 8))
    assert np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1.0)


def test_mixed_model_export(mixed, tmp_path):
    import networkx as nx

    from kgraph import GraphDB

    X, y = mixed
    clf = TANClassifier().fit(X, y)
    with pytest.raises(ValueError, match="continuous feature"):
        clf.to_pgmpy()
    path = tmp_path / "mixed.graphml"
    clf.write_graphml(path)
    G = nx.read_graphml(path)
    exact = dict(GraphDB.read_graphml(path).nodes(data=True))  # kgraph's typed reading
    for v in X.columns:
        assert G.nodes[v]["feature_type"] == clf.feature_types_[v]
        assert G.nodes[v]["parents"] == ",".join(clf.structure_.parents(v))
        params = exact[v]["parameters"]
        assert G.nodes[v]["parameters"].startswith(f"kind: {params['kind']}")  # readable
        assert params["kind"] in {"CategoricalFactor", "LinearGaussianFactor",
                                  "BayesCategoricalFactor"}
    index = {v: j for j, v in enumerate(X.columns)}
    for v in X.columns:  # directed pair scores W[parent, child] = f(child, {parent})
        for p in clf.structure_.parents(v):
            assert G.edges[p, v]["weight"] == pytest.approx(clf.edge_scores_[index[p], index[v]])


def test_table_too_small_for_any_eligible_tree_still_fits_and_names_the_columns():
    X = pd.DataFrame({"x": [0.1, 0.5, 0.9, None, None, None, 1.2, 0.3],
                      "z": ["a", "b", "a", "b", "a", "b", "a", "b"],
                      "w": [None, None, None, 2.0, 1.5, 0.5, None, None]})
    y = np.array([0, 1, 0, 1, 0, 1, 0, 1])
    score = ConditionalGaussianScore().fit(X, y)
    assert score("w", {"x"}) == score("x", {"w"}) == -np.inf  # never observed together
    with pytest.warns(UserWarning, match=r"column\(s\) \[.*\] have fewer than 5 rows observed"):
        clf = TANClassifier().fit(X, y)
    assert clf.score_ == -np.inf
    proba = clf.predict_proba(X)
    assert np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1.0)
