"""The recipe "How to add an export format" (docs/user_guide/architecture.md), followed by a toy
format, gzip-compressed BIF: one registration, and ``write_network``, ``read_network``,
``write_exact`` (with BIF's state-name check) and ``kgraph export --to`` (its choices,
default suffix, help and notes) take it with no other edit."""

import gzip
import warnings

import joblib
import numpy as np
import pytest

from estimators.datasets import load_dataset
from estimators.ktan import TANClassifier
from estimators.network.export.exact_export import (
    exact_network,
    read_network,
    write_exact,
    write_network,
)
from estimators.network.export.network_formats import FORMATS, NetworkFormat, register_format
from viz.cli import main


def write_bif_gz(network, path):
    from pgmpy.readwrite import BIFWriter

    path.write_bytes(gzip.compress(str(BIFWriter(network)).encode()))


def read_bif_gz(path, like=None):
    from pgmpy.readwrite import BIFReader

    return BIFReader(string=gzip.decompress(path.read_bytes()).decode()).get_model()


@pytest.fixture(scope="module")
def bif_gz():
    form = register_format(NetworkFormat(
        "bif-gz", ".bif.gz", "pgmpy after gunzip (a toy format of a test)", write_bif_gz,
        read_bif_gz, bif_states=True,
        notes=lambda network, path: [f"gunzip {path.name} for a BIF reader"]))
    yield form
    del FORMATS["bif-gz"]


@pytest.fixture(scope="module")
def car():
    X, y = load_dataset("car")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TANClassifier().fit(X, y), X.iloc[::97]


def posterior(network, rows, classes):
    from pgmpy.inference import VariableElimination

    ve = VariableElimination(network)
    out = []
    for row in rows.astype(str).to_dict("records"):
        q = ve.query(["class"], evidence=row, show_progress=False)
        out.append([q.values[q.state_names["class"].index(str(c))] for c in classes])
    return np.array(out)


def test_the_toy_format_writes_and_reads_the_exact_network(bif_gz, car, tmp_path):
    clf, rows = car
    path = write_network(clf, "bif-gz", tmp_path / "car.bif.gz")
    assert gzip.decompress(path.read_bytes()).startswith(b"network")
    np.testing.assert_allclose(posterior(read_network(path, "bif-gz"), rows, clf.classes_),
                               clf.predict_proba(rows), rtol=0, atol=1e-9)


def test_the_toy_format_keeps_the_bif_state_check(bif_gz, car, tmp_path):
    from pgmpy.factors.discrete import TabularCPD

    clf, _ = car
    bn = exact_network(clf)
    cpd = bn.get_cpds("buying")
    bn.remove_cpds(cpd)
    states = {**cpd.state_names, "buying": ["a, b", *cpd.state_names["buying"][1:]]}
    bn.add_cpds(TabularCPD("buying", cpd.variable_card, cpd.get_values(),
                           evidence=cpd.variables[1:] or None,
                           evidence_card=list(cpd.cardinality[1:]) or None, state_names=states))
    with pytest.raises(ValueError, match="'a, b', which BIF cannot hold"):
        write_exact(bn, "bif-gz", tmp_path / "bad.bif.gz")


def test_kgraph_export_takes_the_toy_format(bif_gz, car, tmp_path, capsys):
    clf, rows = car
    joblib.dump(clf, tmp_path / "model.joblib")
    assert main(["export", str(tmp_path / "model.joblib"), "--to", "bif-gz"]) == 0
    out = capsys.readouterr().out
    assert f"{tmp_path / 'model.bif.gz'}" in out and "note: gunzip model.bif.gz" in out
    got = posterior(read_network(tmp_path / "model.bif.gz", "bif-gz"), rows, clf.classes_)
    np.testing.assert_allclose(got, clf.predict_proba(rows), rtol=0, atol=1e-9)
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    assert "bif-gz: pgmpy after gunzip" in " ".join(capsys.readouterr().out.split())
