"""Which independent engines read each network file kgraph writes, measured against
``predict_proba`` (the claims of each format's ``readers`` in
:data:`estimators.network.export.network_formats.FORMATS` and of
``kgraph export --help``): the UAI key file, pyAgrum's parent order in UAI and XDSL, pgmpy's
UAI reader, and the class node named after the class column."""

from __future__ import annotations

import warnings

import joblib
import numpy as np
import pytest

from estimators.datasets import load_dataset
from estimators.discriminative import Discriminative
from estimators.ktan import TANClassifier
from estimators.network.export.exact_export import (
    exact_network,
    read_network,
    with_class_name,
    write_exact,
    write_network,
)
from estimators.network.export.network_formats import FORMATS
from estimators.network.export.uai import read_uai_key, uai_key_path, uai_names
from viz.cli import main

pytestmark = pytest.mark.filterwarnings("ignore")


@pytest.fixture(scope="module")
def car():
    """A discriminative TAN on car (two-parent CPTs) and 20 held-out rows."""
    X, y = load_dataset("car")
    test = np.random.default_rng(0).choice(len(X), 20, replace=False)
    train = np.setdiff1d(np.arange(len(X)), test)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = TANClassifier(parameters=Discriminative(l2=0.5, scale=1.0)).fit(
            X.iloc[train], y[train])
    return clf, X.iloc[test]


def _pgmpy(model, target, rows, classes):
    from pgmpy.inference import VariableElimination

    ve = VariableElimination(model)
    out = []
    for r in rows.astype(str).to_dict("records"):
        q = ve.query([target], evidence=r, show_progress=False)
        out.append([q.values[q.state_names[target].index(str(c))] for c in classes])
    return np.array(out)


def _agrum(path, target, rows, names=None, states=None):
    """pyAgrum's posterior of the file; UAI evidence by the key (variable numbers, codes)."""
    gum = pytest.importorskip("pyagrum")
    ie = gum.LazyPropagation(gum.loadBN(str(path)))
    out = []
    for r in rows.astype(str).to_dict("records"):
        if names is None:
            ie.setEvidence(r)
        else:
            ie.setEvidence({str(names.index(k)): states[k].index(v) for k, v in r.items()})
        ie.makeInference()
        out.append(ie.posterior(str(names.index(target)) if names else target).toarray())
    return np.array(out)


def test_uai_key_names_every_variable_and_state_and_reads_back(tmp_path, car):
    clf, rows = car
    path = write_network(clf, "uai", tmp_path / "m.uai")
    names, states = read_uai_key(uai_key_path(path))
    bn = exact_network(clf)
    assert names == [str(v) for v in uai_names(bn)] and names[0] == "class"
    assert states == {c.variable: [str(s) for s in c.state_names[c.variable]]
                      for c in bn.get_cpds()}
    got = _pgmpy(read_network(path, "uai"), "class", rows, clf.classes_)  # the key alone
    np.testing.assert_allclose(got, clf.predict_proba(rows), rtol=0, atol=1e-9)


def test_pyagrum_misreads_uai_and_xdsl_with_two_parents_as_the_help_says(tmp_path, car):
    """pyAgrum 3.3.1 takes the first parent fastest: far from predict_proba on car's TAN
    (two-parent CPTs), exact (float32 for UAI) on naive Bayes (one parent each)."""
    clf, rows = car
    want = clf.predict_proba(rows)
    bn = exact_network(clf)
    states = {c.variable: [str(s) for s in c.state_names[c.variable]] for c in bn.get_cpds()}
    uai, xdsl = write_exact(bn, "uai", tmp_path / "m.uai"), write_exact(bn, "xdsl",
                                                                        tmp_path / "m.xdsl")
    assert np.abs(_agrum(uai, "class", rows, uai_names(bn), states) - want).max() > 0.1
    assert np.abs(_agrum(xdsl, "class", rows) - want).max() > 0.1
    assert "by pyAgrum 3.3.1 where a node has two or more parents" in FORMATS["uai"].readers
    assert "misread by pyAgrum 3.3.1 where a node has two or more parents" in FORMATS["xdsl"].readers
    one = exact_network(clf)
    for cpd in one.get_cpds():  # one parent each: drop the feature parent of every CPT
        if len(cpd.variables) > 2:
            cpd.marginalize(cpd.variables[2:])
    one.remove_edges_from([(u, v) for u, v in list(one.edges()) if u != "class"])
    from network_posterior import brute_posterior

    want = brute_posterior(one, "class", rows)
    assert np.abs(_agrum(write_exact(one, "uai", tmp_path / "nb.uai"), "class", rows,
                         uai_names(one), states) - want).max() < 1e-6
    np.testing.assert_allclose(_agrum(write_exact(one, "xdsl", tmp_path / "nb.xdsl"),
                                      "class", rows), want, rtol=0, atol=1e-9)


def test_pgmpy_uai_reader_refuses_the_specification_order(tmp_path, car):
    """pgmpy 1.1.2's UAIReader takes the child as the slowest variable: its model of a
    kgraph UAI file fails check_model, as the help says."""
    from pgmpy.readwrite import UAIReader

    clf, _ = car
    path = write_network(clf, "uai", tmp_path / "m.uai")
    with pytest.raises(ValueError, match="not equal to 1"):
        UAIReader(str(path)).get_model().check_model()
    assert "misread by pgmpy 1.1.2" in FORMATS["uai"].readers


def test_every_format_has_a_reader_line_in_the_help(capsys):
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    for fmt in FORMATS:
        assert " ".join(FORMATS[fmt].readers.split()) in help_text or fmt == "pgmpy"


def test_class_node_takes_the_class_column_name_unless_a_feature_has_it(tmp_path, car):
    clf, rows = car
    bn = exact_network(clf)
    renamed, note = with_class_name(bn, "class", "acceptability")
    assert note is None and "class" not in renamed and set(renamed.get_children(
        "acceptability")) == set(rows.columns)
    for fmt in ("bif", "xmlbif", "xdsl", "net", "uai"):
        path = write_exact(renamed, fmt, tmp_path / f"m.{fmt}")
        got = _pgmpy(read_network(path, fmt), "acceptability", rows, clf.classes_)
        np.testing.assert_allclose(got, clf.predict_proba(rows), rtol=0, atol=1e-9,
                                   err_msg=fmt)
    same, note = with_class_name(bn, "class", "safety")
    assert same is bn and "'safety' is a feature's" in note
    same, note = with_class_name(bn, "class", "car value")
    assert same is bn and "spacing or punctuation" in note


def test_cli_export_names_the_class_after_the_run_target(tmp_path, car, capsys):
    """The run's structure.json names the class column; --target overrides it; a clash
    keeps 'class' and says so; XMLBIF's default suffix is pyAgrum's .bifxml."""
    from kgraph import GraphDB

    clf, rows = car
    run = tmp_path / "run"
    run.mkdir()
    joblib.dump(clf, run / "model.joblib")
    g = GraphDB(directed=True, attrs={"target": "acceptability"})
    g.write_json(run / "structure.json")
    assert main(["export", str(run / "model.joblib"), "--to", "xmlbif"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == str(run / "model.bifxml")
    want = clf.predict_proba(rows)
    np.testing.assert_allclose(_agrum(run / "model.bifxml", "acceptability", rows), want,
                               rtol=0, atol=1e-9)
    assert main(["export", str(run / "model.joblib"), "--to", "bif", "--target", "safety"]) == 0
    assert "class node is named 'class': the class column's name 'safety'" in (
        capsys.readouterr().out)
    assert "class" in read_network(run / "model.bif", "bif")
    assert main(["export", str(run / "model.joblib"), "--to", "uai"]) == 0
    out = capsys.readouterr().out
    assert f"UAI key (variable names and state codes): {run / 'model.uai.key.csv'}" in out
    assert "UAI variable 0 = acceptability: 0=acc, 1=good, 2=unacc, 3=vgood" in out
    got = _pgmpy(read_network(run / "model.uai", "uai"), "acceptability", rows, clf.classes_)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)
