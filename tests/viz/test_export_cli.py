"""``kgraph export``: a fitted model to BIF / XMLBIF / pgmpy with its CPDs (posteriors equal
to the model's through pgmpy's readers), never over its input, one-line errors."""

import warnings

import joblib
import numpy as np
import pytest
from pgmpy.inference import VariableElimination
from pgmpy.readwrite import BIFReader, XMLBIFReader

from estimators.datasets import load_dataset
from estimators.gnb import GNBClassifier
from estimators.ktan import KTANClassifier
from kgraph import AcyclicKTree, read_structure
from viz.cli import main


@pytest.fixture(scope="module")
def car_model(tmp_path_factory):
    X, y = load_dataset("car")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = KTANClassifier(k=2).fit(X, y)
    path = tmp_path_factory.mktemp("run") / "model.joblib"
    joblib.dump(clf, path)
    return clf, X, path


def posteriors(network, clf, X):
    ve = VariableElimination(network)
    out = []
    for _, row in X.iterrows():
        q = ve.query(["class"], evidence={c: str(v) for c, v in row.items()},
                     show_progress=False)
        states = q.state_names["class"]
        out.append([q.values[states.index(str(c))] for c in clf.classes_])
    return np.array(out)


@pytest.mark.parametrize(("to", "reader"), [("bif", BIFReader), ("xmlbif", XMLBIFReader)])
def test_bif_and_xmlbif_round_trips_give_the_posteriors(tmp_path, car_model, capsys, to, reader):
    clf, X, path = car_model
    out = tmp_path / f"car.{to}"
    assert main(["export", str(path), "--to", to, "--out", str(out)]) == 0
    rows = X.sample(25, random_state=0)
    network = reader(str(out)).get_model()
    assert set(network.get_parents("class")) == set()
    assert np.abs(posteriors(network, clf, rows) - clf.predict_proba(rows)).max() < 1e-9


def test_pgmpy_export_of_a_model_has_its_cpds(tmp_path, car_model, capsys):
    clf, X, path = car_model
    out = tmp_path / "car.pgmpy.joblib"
    assert main(["export", str(path), "--to", "pgmpy", "--out", str(out)]) == 0
    network = joblib.load(out)
    assert len(network.get_cpds()) == X.shape[1] + 1
    rows = X.head(5)
    expected = clf.predict_proba(rows)
    ve = VariableElimination(network)
    q = ve.query(["class"], evidence=dict(rows.iloc[0]), show_progress=False)
    states = q.state_names["class"]
    got = np.array([q.values[states.index(c)] for c in clf.classes_.tolist()])
    assert np.abs(got - expected[0]).max() < 1e-9


def test_model_to_structure_graph_and_structure_to_pgmpy_keep_the_class(tmp_path, car_model,
                                                                         capsys):
    clf, _, path = car_model
    assert main(["export", str(path), "--to", "json", "--out", str(tmp_path / "s.json")]) == 0
    assert read_structure(tmp_path / "s.json") == clf.structure_
    out = tmp_path / "s.pgmpy.joblib"
    assert main(["export", str(tmp_path / "s.json"), "--to", "pgmpy", "--out", str(out)]) == 0
    dag = joblib.load(out)
    assert set(dag.get_children("class")) == set(clf.feature_names())


def test_export_refuses_to_overwrite_its_input(tmp_path, capsys):
    src = tmp_path / "s.graphml"
    AcyclicKTree(1, ["a", "b"], {"b": ["a"]}).write_graphml(src)
    before = src.read_bytes()
    assert main(["export", str(src), "--to", "graphml"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is the input file" in err
    assert src.read_bytes() == before


def test_export_errors_are_one_line(tmp_path, capsys):
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    gnb = tmp_path / "gnb.joblib"
    joblib.dump(GNBClassifier().fit(X, y), gnb)
    assert main(["export", str(gnb), "--to", "bif"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "GNBClassifier has 4 continuous feature(s) (x0, x1" in err
    src = tmp_path / "s.json"
    AcyclicKTree(1, ["a", "b"], {"b": ["a"]}).write_json(src)
    assert main(["export", str(src), "--to", "xmlbif"]) == 2
    assert "needs a fitted model" in capsys.readouterr().err
    bad = tmp_path / "bad.joblib"
    bad.write_bytes(b"not a pickle")
    assert main(["export", str(bad), "--to", "bif"]) == 2
    assert "cannot load a model" in capsys.readouterr().err


def test_export_help_warns_about_pickles(capsys):
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    assert "trusted source" in capsys.readouterr().out


def test_plot_of_a_saved_ktan_draws_its_class(tmp_path, car_model, capsys):
    _, _, path = car_model
    structure = tmp_path / "s.graphml"
    assert main(["export", str(path), "--to", "graphml", "--out", str(structure)]) == 0
    assert main(["plot", str(structure), "--out", str(tmp_path / "s.svg")]) == 0
    assert 'id="node:class:class"' in (tmp_path / "s.svg").read_text()
