"""``kgraph learn --bootstrap/--store`` and ``kgraph runs list|show|edges``."""

import json

import networkx as nx
import pytest

from estimators import GNBClassifier
from estimators.datasets import load_dataset
from estimators.learning.structure_confidence import StructureConfidence
from kgraph import GraphDB, read_structure
from kgraph.store import StructureStore, data_hash
from viz.cli import main


def learn(tmp_path, out, *extra):
    return main(["learn", "iris", "--model", "gnb", "--cv", "2", "--out", str(tmp_path / out),
                 *extra])


@pytest.fixture(scope="module")
def learned(tmp_path_factory):
    """Two iris runs in one store, the first with 6 bootstrap resamples."""
    tmp = tmp_path_factory.mktemp("runs")
    db = str(tmp / "runs.db")
    assert learn(tmp, "a", "--bootstrap", "6", "--store", db) == 0
    assert learn(tmp, "b", "--random-state", "1", "--store", db) == 0
    return tmp, db


def test_bootstrap_writes_confidence_to_graphml_json_report_and_figure(learned):
    tmp, _ = learned
    X, y = load_dataset("iris")
    expected = StructureConfidence(GNBClassifier(), n_resamples=6, random_state=0).fit(X, y)
    plain = nx.read_graphml(tmp / "a" / "structure.graphml")
    tree = [(u, v, d) for u, v, d in plain.edges(data=True) if d["kind"] == "tree"]
    assert len(tree) == 3
    for u, v, d in tree:
        assert d["confidence"] == pytest.approx(expected.confidence(u, v))
    back = GraphDB.read_json(tmp / "a" / "structure.json")
    assert back == GraphDB.read_graphml(tmp / "a" / "structure.graphml")
    assert read_structure(tmp / "a" / "structure.json") == read_structure(
        tmp / "b" / "structure.json")  # the same tree, with or without confidence
    report = (tmp / "a" / "report.md").read_text()
    assert "## Edge confidence (6 bootstrap resamples)" in report
    assert (tmp / "a" / "structure.png").read_bytes()[:4] == b"\x89PNG"
    assert "confidence" not in (tmp / "b" / "structure.graphml").read_text()


def test_store_records_each_learn_run(learned):
    tmp, db = learned
    X, y = load_dataset("iris")
    with StructureStore(db) as store:
        runs = store.runs()
        assert [(r.model, r.seed, r.label, r.n_structures) for r in runs] == \
            [("gnb", 0, "iris", 7), ("gnb", 1, "iris", 1)]
        assert runs[0].data_hash == data_hash(X, y)
        metrics = json.loads((tmp / "a" / "metrics.json").read_text())["metrics"]
        assert runs[0].metrics["f1_weighted"] == metrics["f1_weighted"] and runs[0].metrics["cv_folds"] == 2
        assert store.structures(1, role="fitted") == [read_structure(tmp / "a" / "structure.json")]
        assert len(store.structures(1, role="bootstrap")) == 6


def test_runs_list_show_edges(learned, capsys):
    _, db = learned
    assert main(["runs", "list", db, "--model", "gnb"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 and lines[1].split()[:1] == ["1"] and "iris" in lines[2]
    assert main(["runs", "show", db, "2"]) == 0
    out = capsys.readouterr().out
    assert "model: gnb" in out and "GNBJunctionTree" in out and out.count("\n  ") == 3
    assert main(["runs", "edges", db]) == 0
    rows = capsys.readouterr().out.splitlines()[1:]
    assert len(rows) == 3 and all(r.split()[-3:] == ["2", "2", "1.000"] for r in rows)
    assert main(["runs", "edges", db, "--role", "bootstrap"]) == 0
    counts = [int(r.split()[-3]) for r in capsys.readouterr().out.splitlines()[1:]]
    assert sum(counts) == 6 * 3  # three tree edges in each of six resampled structures
    assert main(["runs", "edges", db, "--edge", "petal width (cm)", "petal length (cm)"]) == 0
    assert capsys.readouterr().out.split() == ["1", "2"]


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["runs", "list", "MISSING.db"], "cannot read MISSING.db: no such file"),
        (["runs", "show", "JUNK.db", "1"], "Cannot open 'JUNK.db' as a kgraph structure store"),
        (["learn", "iris", "--model", "gnb", "--out", "o", "--bootstrap", "0"],
         "argument --bootstrap: must be a positive number of resamples; got '0'"),
        (["learn", "iris", "--model", "gnb", "--out", "o", "--bootstrap", "2",
          "--threshold", "2"], "argument --threshold: must be a number in [0, 1]; got '2'"),
        (["runs", "frobnicate", "x.db"], "invalid choice: 'frobnicate'"),
    ],
)
def test_errors_exit_2_with_one_line(tmp_path, monkeypatch, capsys, args, reason):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "JUNK.db").write_bytes(b"junk" * 300)
    try:
        code = main(args)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err.splitlines()
    assert code == 2 and len(err) == 1 and reason in err[0]


def test_unknown_run_exits_2(learned, capsys):
    assert main(["runs", "show", learned[1], "99"]) == 2
    assert "Run 99 is not in the store" in capsys.readouterr().err


def test_runs_list_tells_a_generative_and_a_discriminative_tan_apart(tmp_path, capsys):
    """Both are model "tan": the options that differ from the defaults and every metric
    the CLI computes tell them apart."""
    import json

    db = str(tmp_path / "runs.db")
    X, y = load_dataset("car")  # 300 of its rows: the listing, not the fit, is checked
    rows = X.sample(300, random_state=1).index
    X.loc[rows].assign(**{"class": y.loc[rows]}).to_csv(tmp_path / "car.csv", index=False)
    for name, extra in (("gen", []), ("disc", ["--parameters", "discriminative"])):
        assert main(["learn", str(tmp_path / "car.csv"), "--model", "tan", "--cv", "2",
                     "--quiet", "--out", str(tmp_path / name), "--store", db, *extra]) == 0
    capsys.readouterr()
    assert main(["runs", "list", db]) == 0
    header, gen, disc = capsys.readouterr().out.splitlines()
    assert header.endswith("logloss   brier     auc  options")
    assert gen.endswith("  -") and disc.endswith("  parameters=discriminative")
    for line, name in ((gen, "gen"), (disc, "disc")):
        metrics = json.loads((tmp_path / name / "metrics.json").read_text())["metrics"]
        shown = line.split()[-8:-1]
        assert shown == [f"{metrics[k]['mean']:.4f}" for k in
                         ("accuracy", "balanced_accuracy", "f1_macro", "f1_weighted",
                          "log_loss", "brier", "roc_auc_ovr")]
