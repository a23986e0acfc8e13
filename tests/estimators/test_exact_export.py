"""Every export of a fitted model to a Bayesian network is exact on complete rows, or
refused in one line (issue 45; :mod:`estimators.network.export.exact_export`, MATH.md §10.1).

Checked against independent computations: brute force over every row of small tables
(the product of the exported pgmpy CPDs), pgmpy's variable elimination on the files read
back by pgmpy's readers, pyAgrum's ``LazyPropagation`` on the XMLBIF, BIF and NET files,
and the
UAI competition's format read by a reader written from its specification here.
"""

from __future__ import annotations

import itertools
import warnings

import joblib
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from network_posterior import all_rows, brute_posterior
from scipy.special import logsumexp
from slow_cases import representative

from estimators.bnc import AODEClassifier, BANClassifier, KDBClassifier
from estimators.discriminative import Discriminative
from estimators.ktan import KTANClassifier, NaiveBayesClassifier, TANClassifier
from estimators.network.equivalent import NetworkTables, equivalent_network
from estimators.network.export.exact_export import (
    exact_network,
    posterior_table_network,
    read_network,
    write_network,
)
from estimators.network.export.network_formats import FORMATS
from viz.cli import main
from viz.cli.learn import MODELS

pytestmark = pytest.mark.filterwarnings("ignore")

#: fixed penalties: no inner cross-validation (seconds per fit), every form and centre
SPECS = [
    "generative",
    Discriminative(l2=1.0, scale=None),
    Discriminative(l2=0.3, scale=0.5),
    Discriminative(form="weights", l2=1.0),
    Discriminative(l2=1.0, scale=1.0, centre="generative"),
]
MODELS_BY_NAME = {"tan": (TANClassifier, {}), "ktan": (KTANClassifier, {"k": 2}),
                  "kdb": (KDBClassifier, {"max_parents": 2}), "ban": (BANClassifier, {})}


def _table(seed: int, n: int = 150, cards=(3, 2, 3, 2)) -> tuple[pd.DataFrame, np.ndarray]:
    """A small categorical table with dependences among the features and on the class."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    cols = {}
    prev = np.zeros(n, int)
    for j, r in enumerate(cards):
        x = (y + prev + rng.integers(0, 2, n)) % r
        cols[f"f{j}"] = np.array([f"v{c}" for c in x], dtype=object)
        prev = x
    return pd.DataFrame(cols), np.array(["a", "b", "c"], dtype=object)[y]


@pytest.mark.parametrize("name", sorted(MODELS_BY_NAME))
@pytest.mark.parametrize("spec", SPECS, ids=str)
def test_exported_network_posterior_is_predict_proba_on_every_row(name, spec):
    cls, kw = MODELS_BY_NAME[name]
    X, y = _table(1)
    clf = cls(parameters=spec, **kw).fit(X, y)
    bn = exact_network(clf)
    rows = all_rows(X)  # includes parent cells never seen in training
    got = brute_posterior(bn, clf.class_node_, rows)
    np.testing.assert_allclose(got, clf.predict_proba(rows), rtol=0, atol=1e-12)
    if name in ("tan", "ktan"):  # acyclic k-trees: the learned structure, unchanged
        assert bn.graph["closing_edges"] == []
        assert set(bn.edges()) == set(clf.network_.to_graph(
            clf.feature_names(), clf.class_node_).to_pgmpy().edges())
    learned = {(p, v) for v in clf.feature_names() for p in clf.structure_.parents(v)}
    assert learned <= set(bn.edges())
    assert set(bn.edges()) - learned - {(clf.class_node_, v) for v in X.columns} == set(
        map(tuple, bn.graph["closing_edges"]))


def test_kdb_gets_closing_edges_and_stays_exact():
    """kDB with k = 2 on car, whose parent sets are not closed (measured: lug_boot's
    parents persons and safety): the edge goes from the earlier parent to the latest, and
    the posterior over all 1728 rows is unchanged."""
    from estimators.datasets import load_dataset

    X, y = load_dataset("car")
    clf = KDBClassifier(max_parents=2, parameters=Discriminative(l2=0.5, scale=None)).fit(X, y)
    bn = exact_network(clf)
    assert bn.graph["closing_edges"], "this table's kDB has an unclosed parent set"
    order = list(clf.network_.to_graph(clf.feature_names(), clf.class_node_).order)
    for q, p in bn.graph["closing_edges"]:
        assert order.index(q) < order.index(p)
    rows = all_rows(X)
    np.testing.assert_allclose(brute_posterior(bn, clf.class_node_, rows),
                               clf.predict_proba(rows), rtol=0, atol=1e-12)
    from viz.cli.methods import export_lines  # the learn report states the count

    n = len(bn.graph["closing_edges"])
    assert f"- closing edges added to the learned structure: {n} (" in "\n".join(
        export_lines(clf))


@st.composite
def _log_linear(draw):
    """A random DAG over 2-5 features (any parent sets), cardinalities and weights."""
    n = draw(st.integers(2, 5))
    cards = draw(st.lists(st.integers(2, 3), min_size=n, max_size=n))
    m = draw(st.integers(2, 3))
    names = [f"x{i}" for i in range(n)]
    parents = {v: [names[j] for j in range(i) if draw(st.booleans())]
               for i, v in enumerate(names)}
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    size = {v: cards[i] for i, v in enumerate(names)}
    tables = {v: rng.normal(0, 2, (m, *(size[p] for p in parents[v]), size[v]))
              for v in names}
    return rng.normal(0, 1, m), parents, tables, size


@settings(max_examples=40, deadline=None)
@given(_log_linear())
def test_equivalent_network_keeps_the_posterior(model):
    a, parents, tables, size = model
    net = equivalent_network(a, parents, tables)
    rows = list(itertools.product(*(range(size[v]) for v in parents)))
    codes = {v: np.array([r[i] for r in rows]) for i, v in enumerate(parents)}
    before = NetworkTables(np.asarray(a), parents, tables).log_joint(codes)
    after = net.log_joint(codes)
    np.testing.assert_allclose(after - logsumexp(after, axis=1, keepdims=True),
                               before - logsumexp(before, axis=1, keepdims=True), atol=1e-12)
    for v, t in net.tables.items():  # proper CPTs, and every parent set closed
        np.testing.assert_allclose(logsumexp(t, axis=-1), 0.0, atol=1e-12)
        if net.parents[v]:
            latest = max(net.parents[v], key=list(parents).index)
            assert set(net.parents[v]) - {latest} <= set(net.parents[latest])
    # a table over the original parents: (q, p) added only where q was not p's parent
    for q, p in net.closing_edges:
        assert q not in parents[p] and list(parents).index(q) < list(parents).index(p)


def _pgmpy_posterior(path, fmt, bn, target, rows):
    """The class posterior of the file read back by pgmpy, by variable elimination."""
    from pgmpy.inference import VariableElimination

    model = read_network(path, fmt, bn)
    ve = VariableElimination(model)
    return np.array([ve.query([target], evidence={k: str(v) for k, v in row.items()},
                              show_progress=False).values for _, row in rows.iterrows()])


def _agrum_posterior(path, target, rows):
    """The class posterior of the file read by pyAgrum (``LazyPropagation``)."""
    gum = pytest.importorskip("pyagrum")
    ie = gum.LazyPropagation(gum.loadBN(str(path)))
    out = []
    for _, row in rows.iterrows():
        ie.setEvidence({k: str(v) for k, v in row.items()})
        ie.makeInference()
        out.append(ie.posterior(str(target)).toarray())
    return np.array(out)


@pytest.mark.parametrize("spec", ["generative", Discriminative(l2=0.5, scale=1.0)], ids=str)
def test_every_format_reads_back_to_predict_proba(tmp_path, spec):
    """A generative and a discriminative TAN on car: every file read back by pgmpy, and
    XMLBIF, BIF and NET by pyAgrum, give predict_proba on 20 held-out rows (1e-9; pyAgrum's
    BIF/NET: the float32-rounded network's posterior, see below)."""
    from estimators.datasets import load_dataset

    X, y = load_dataset("car")
    rng = np.random.default_rng(0)
    test = rng.choice(len(X), 20, replace=False)
    train = np.setdiff1d(np.arange(len(X)), test)
    clf = TANClassifier(parameters=spec).fit(X.iloc[train], y[train])
    rows = X.iloc[test]
    want = clf.predict_proba(rows)
    bn = exact_network(clf)
    rounded = bn.copy()
    for cpd in rounded.get_cpds():
        cpd.values = cpd.values.astype(np.float32).astype(float)
    float32_bn = brute_posterior(rounded, clf.class_node_, rows)
    for fmt in FORMATS:
        path = write_network(clf, fmt, tmp_path / f"m.{fmt}")
        got = _pgmpy_posterior(path, fmt, bn, clf.class_node_, rows)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-9, err_msg=fmt)
        if fmt in ("xmlbif", "bif", "net"):
            # pyAgrum's BIF and NET grammars hold every number as a C++ float (aGrUM's
            # SyntaxBIF.atg: std::vector<float>, coco_atof), so those files give the
            # posterior of the network with every CPT entry rounded to float32 -- to 1e-12,
            # LazyPropagation or getPosterior alike -- and predict_proba to ~1e-8 only
            # (measured 1.2e-8 discriminative, car); its XMLBIF reader (suffix .bifxml)
            # keeps the doubles: predict_proba to 1e-9
            agrum = path.with_suffix(".bifxml") if fmt == "xmlbif" else path
            if fmt == "xmlbif":
                agrum.write_bytes(path.read_bytes())
            got = _agrum_posterior(agrum, clf.class_node_, rows)
            np.testing.assert_allclose(got, want if fmt == "xmlbif" else float32_bn,
                                       rtol=0, atol=1e-12 if fmt != "xmlbif" else 1e-9,
                                       err_msg=f"pyAgrum {fmt}")
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-6, err_msg=f"pyAgrum {fmt}")


def _mixed(n=120, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = pd.DataFrame({"colour": np.array(["red", "blue"], dtype=object)[(y + rng.integers(0, 2, n)) % 2],
                      "height": rng.normal(y, 1.0), "weight": rng.normal(-y, 1.0)})
    return X, y


def _estimator(name: str, **options):
    spec = MODELS[name]
    kwargs = {k: v for k, v in options.items() if k in spec.options}
    return spec.estimator_class()(**kwargs)


#: k-TAN (inner CV per fit, ~12 s) exports through TAN's and kDB's network code: under ``slow``
@pytest.mark.parametrize("name", representative(
    sorted(MODELS), keep=[m for m in sorted(MODELS) if m != "ktan"]))
def test_the_registry_exports_exactly_or_refuses_in_one_line(name):
    """Every CLI model on a categorical table, generative and discriminative: an exact
    network (its own for the network classifiers, GNB, k-GNB and the one-component latent
    CNB, a SPODE mixture over latent nodes for AODE/A2DE, the posterior table for a latent
    CNB with more components, refused in one line past its size limit); on a table with
    continuous columns, every ``continuous`` option: refused, naming them."""
    X, y = _table(5, n=120)
    rows = X.iloc[:10]
    for parameters in ("generative", Discriminative(l2=1.0, scale=1.0)):
        clf = _estimator(name, parameters=parameters).fit(X, y)
        bn = exact_network(clf)
        fitted = "generative" if getattr(clf, "discriminative_", None) is None else (
            "discriminative")
        kind = {"aode": "spode mixture", "a2de": "spode mixture", "latent-cnb": (
            "generative" if clf.n_components_ == 1 else "posterior table")
                if name == "latent-cnb" else None}.get(name, fitted)
        assert bn.graph["parameters"] == kind
        got = brute_posterior(bn, "class", rows)  # AnDE: summed over its latent nodes
        np.testing.assert_allclose(got, clf.predict_proba(rows), rtol=0, atol=1e-12)
        if name not in MODELS_BY_NAME:
            with pytest.raises(ValueError, match="would need 108 probabilities") as err:
                posterior_table_network(clf, limit=100)
            assert "\n" not in str(err.value)
    Xm, ym = _mixed(n=60)
    # the semiparametric factors have no discriminative cells; their fits are the slow ones:
    # on TAN only
    kinds = ("gaussian", "copula", "ckde") if name == "tan" else ("gaussian",)
    for continuous in kinds:
        for parameters in ("generative", Discriminative(l2=1.0, scale=1.0)):
            if continuous != "gaussian" and parameters != "generative":
                continue
            clf = _estimator(name, parameters=parameters, continuous=continuous).fit(Xm, ym)
            match = "2 continuous feature.*height, weight"
            with pytest.raises(ValueError, match=match):
                exact_network(clf)
            with pytest.raises(ValueError, match=match):
                write_network(clf, "bif", "never-written.bif")


def test_cli_export_writes_every_format_and_refuses_continuous(tmp_path, capsys):
    X, y = _table(2)
    model = tmp_path / "kdb.joblib"
    clf = KDBClassifier(max_parents=2, parameters=Discriminative(l2=1.0, scale=None)).fit(X, y)
    joblib.dump(clf, model)
    n_edges = len(exact_network(clf).graph["closing_edges"])
    for fmt in FORMATS:
        assert main(["export", str(model), "--to", fmt, "--out", str(tmp_path / f"m.{fmt}")]) == 0
        out = capsys.readouterr().out
        assert f"closing edges added: {n_edges}" in out
        assert "exact on complete rows" in out
    Xm, ym = _mixed()
    gauss = tmp_path / "tan.joblib"
    joblib.dump(TANClassifier().fit(Xm, ym), gauss)
    for fmt in ("bif", "pgmpy", "uai"):
        assert main(["export", str(gauss), "--to", fmt, "--out", str(tmp_path / "x")]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "continuous feature(s) (height, weight)" in err
        assert not (tmp_path / "x").exists()


def test_discriminative_to_pgmpy_is_the_exact_network():
    X, y = _table(4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = TANClassifier(parameters=Discriminative(l2=1.0, scale=1.0)).fit(X, y)
    rows = all_rows(X)
    np.testing.assert_allclose(brute_posterior(clf.to_pgmpy(), clf.class_node_, rows),
                               clf.predict_proba(rows), rtol=0, atol=1e-12)


def test_structure_graph_rebuilds_a_discriminative_model(tmp_path):
    """The JSON structure graph of a discriminative TAN holds its log-linear tables:
    softmax_y(class_term_y + Σ_v log_table_v[y, x_pa, x_v]) is predict_proba."""
    from estimators.network.export.structure_graph import structure_graph
    from kgraph import GraphDB, read_structure

    X, y = _table(6)
    clf = TANClassifier(parameters=Discriminative(l2=0.5, scale=1.0)).fit(X, y)
    structure_graph(clf).write_json(tmp_path / "g.json")
    assert read_structure(tmp_path / "g.json") == clf.structure_
    g = GraphDB.read_json(tmp_path / "g.json")
    weights = g.attrs["discriminative"]
    states = {v: a["states"] for v, a in g.nodes(data=True) if "states" in a}
    rows = all_rows(X)
    s = np.tile(weights["class_term"], (len(rows), 1))
    for v, t in weights["tables"].items():
        table = np.asarray(t["log_table"])
        for i, row in enumerate(rows.itertuples(index=False)):
            x = dict(zip(rows.columns, row, strict=True))
            idx = tuple(states[u].index(x[u]) for u in (*t["parents"], v))
            s[i] += table[(slice(None), *idx)]
    np.testing.assert_allclose(np.exp(s - logsumexp(s, axis=1, keepdims=True)),
                               clf.predict_proba(rows), rtol=0, atol=1e-12)


def test_structure_graph_rebuilds_a_gaussian_model(tmp_path):
    """The JSON structure graph of a Gaussian TAN (refused by every BN format) holds its
    class prior and every regression: ln p(y) + Σ_v ln N(x_v; a + bᵀ x_C, s²) gives
    predict_proba."""
    from estimators.network.export.structure_graph import structure_graph
    from kgraph import GraphDB

    X, y = _mixed()
    X = X.drop(columns="colour").assign(depth=lambda d: d.height * 0.5 + np.cos(d.weight))
    clf = TANClassifier().fit(X, y)
    with pytest.raises(ValueError, match="3 continuous feature"):
        write_network(clf, "xmlbif", tmp_path / "never.xml")
    structure_graph(clf).write_json(tmp_path / "g.json")
    g = GraphDB.read_json(tmp_path / "g.json")
    s = np.tile(g.attrs["class_log_prior"], (len(X), 1))
    for v, a in g.nodes(data=True):
        if a.get("kind") == "class":
            continue
        f = a["parameters"]
        assert f["kind"] == "LinearGaussianFactor" and f["configs"] == [0]
        xc = X[f["continuous_parents"]].to_numpy()
        mu = np.asarray(f["intercept"])[0] + xc @ np.asarray(f["coef"])[0].T
        var = np.asarray(f["var"])[0]
        s += -0.5 * (np.log(2 * np.pi * var) + (X[[v]].to_numpy() - mu) ** 2 / var)
    np.testing.assert_allclose(np.exp(s - logsumexp(s, axis=1, keepdims=True)),
                               clf.predict_proba(X), rtol=0, atol=1e-9)


def test_structure_graph_rebuilds_a_discriminative_gaussian_model(tmp_path):
    """A discriminative TAN on continuous features (refused by every BN format): its JSON
    structure graph's design weights and standardisation rebuild predict_proba on complete
    rows by the formulas of :mod:`estimators.discriminative._design` alone -- per family
    (nodes by ``position``) the cell block (1, z_v, z_v², z_v z_C, z_C, z_c z_c') times its
    scale, then the main effect z_v; scores ``class_log_prior + intercept + design @ coef``
    (the zero centre: every family active)."""
    from estimators.network.export.structure_graph import structure_graph
    from kgraph import GraphDB

    X, y = _mixed(n=200)
    X = X.drop(columns="colour").assign(depth=lambda d: d.height * 0.5 + np.cos(d.weight))
    clf = TANClassifier(parameters=Discriminative(l2=1.0, scale=0.5)).fit(X, y)
    with pytest.raises(ValueError, match="3 continuous feature"):
        write_network(clf, "bif", tmp_path / "never.bif")
    structure_graph(clf).write_json(tmp_path / "g.json")
    g = GraphDB.read_json(tmp_path / "g.json")
    w = g.attrs["discriminative"]
    assert (w["kind"], w["form"], w["centre"]) == ("design", "cells", "zero")
    z = pd.DataFrame((X.to_numpy() - np.asarray(w["mean"])) / np.asarray(w["sd"]),
                     columns=X.columns)
    coef, offsets, main = np.asarray(w["coef"]), w["offsets"], w["main"]
    s = np.tile(np.add(w["class_log_prior"], w["intercept"]), (len(X), 1))
    families = sorted((a["position"], v, a["parameters"]["continuous_parents"])
                      for v, a in g.nodes(data=True) if a.get("kind") != "class")
    for j, (_, v, parents) in enumerate(families):
        zv, zc = z[[v]].to_numpy(), z[parents].to_numpy()
        pairs = [zc[:, [a]] * zc[:, [b]] for a in range(len(parents))
                 for b in range(a, len(parents))]
        block = np.hstack([np.ones_like(zv), zv, zv * zv, zv * zc, zc, *pairs])
        s += w["scales"][j] * block @ coef[offsets[j]:offsets[j + 1]]
        s += zv @ coef[offsets[-1] + main[j]:offsets[-1] + main[j + 1]]
    np.testing.assert_allclose(np.exp(s - logsumexp(s, axis=1, keepdims=True)),
                               clf.predict_proba(X), rtol=0, atol=1e-9)


@pytest.mark.parametrize(("cls", "kw"), [(KDBClassifier, {"max_parents": 2}),
                                         (AODEClassifier, {}), (NaiveBayesClassifier, {})],
                         ids=["kdb", "aode", "nb"])
def test_discretised_columns_export_as_their_intervals(tmp_path, cls, kw):
    """``discretize="mdl"`` on iris: each continuous column is a discrete node whose states
    are its interval names; every file read back by pgmpy (and XMLBIF by pyAgrum) gives
    predict_proba on 30 held-out rows, given as their intervals
    (``encoder_.states``), to 1e-9."""
    from estimators.datasets import load_dataset

    X, y = load_dataset("iris")
    X.columns = ["sepal_length", "sepal_width", "petal_length", "petal_width"]
    rng = np.random.default_rng(0)
    test = rng.choice(len(X), 30, replace=False)
    train = np.setdiff1d(np.arange(len(X)), test)
    clf = cls(discretize="mdl", **kw).fit(X.iloc[train], y[train])
    bn = exact_network(clf)
    cpd = bn.get_cpds("petal_length")
    cuts = clf.cut_points_["petal_length"].tolist()
    assert cuts == [2.45, 4.85]  # on these 120 rows (4.75 on all of iris)
    assert cpd.state_names["petal_length"] == ["-inf..2.45", "2.45..4.85", "4.85..inf"]
    rows = clf.encoder_.states(X.iloc[test])
    assert rows["petal_length"].iloc[0] in cpd.state_names["petal_length"]
    want = clf.predict_proba(X.iloc[test])
    for fmt in FORMATS:
        path = write_network(clf, fmt, tmp_path / f"m.{fmt}")
        got = _pgmpy_posterior(path, fmt, bn, clf.class_node_, rows)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-9, err_msg=fmt)
    agrum = write_network(clf, "xmlbif", tmp_path / "m.bifxml")
    np.testing.assert_allclose(_agrum_posterior(agrum, clf.class_node_, rows), want,
                               rtol=0, atol=1e-9)
