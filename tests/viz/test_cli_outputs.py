"""``kgraph learn`` writes the model's whole structure: class node, weights, feature types;
its GraphML opens in plain networkx and igraph with numbers as numbers."""

import xml.etree.ElementTree as ET

import igraph
import joblib
import networkx as nx
import numpy as np
import pytest
from cli_tables import markdown_rows

from estimators.network.export.structure_graph import structure_graph
from kgraph import GraphDB, read_structure
from viz.cli import main


def learn(tmp_path, *args):
    out = tmp_path / "out"
    assert main(["learn", *args, "--out", str(out), "--cv", "2"]) == 0
    return out


def test_tan_graphml_has_the_class_and_numeric_weights(tmp_path):
    out = learn(tmp_path, "car", "--model", "tan")
    model = joblib.load(out / "model.joblib")
    path = out / "structure.graphml"
    values = [d.text or "" for d in ET.parse(path).getroot().iter(
        "{http://graphml.graphdrawing.org/xmlns}data")]
    assert not any(v.startswith(('"', '{"__')) for v in values)
    g = nx.read_graphml(path)
    assert g.nodes["class"]["kind"] == "class" and g.nodes["class"]["label"] == "class"
    assert all(g.has_edge("class", v) for v in model.feature_names())
    names = model.feature_names()
    for u, v, a in g.edges(data=True):
        if a["kind"] == "parent":
            assert isinstance(a["weight"], float)
            assert a["weight"] == pytest.approx(
                model.edge_scores_[names.index(u), names.index(v)], abs=1e-12)
    assert {g.nodes[v]["feature_type"] for v in names} == {"categorical"}
    ig = igraph.Graph.Read_GraphML(str(path))
    assert "class" in ig.vs["label"]
    parent = [e for e in ig.es if e["kind"] == "parent"]
    assert len(parent) == len(names) - 1
    assert all(isinstance(e["weight"], float) and e["weight"] >= 0 for e in parent)
    back = read_structure(path)
    assert back == model.structure_ == read_structure(out / "structure.json")


def test_reduced_gnb_marks_the_clusters_in_use(tmp_path):
    out = learn(tmp_path, "wine", "--model", "gnb", "--n-clusters", "3")
    model = joblib.load(out / "model.joblib")
    g = GraphDB.read_json(out / "structure.json")
    tree = g.edges(kind="tree", data=True)
    assert sorted(a["order"] for _, _, a in tree if a["in_use"]) == [0, 1, 2]
    assert len(tree) == 12 and g.attrs["n_clusters"] == 3
    weights = sorted((a["order"], a["weight"]) for _, _, a in tree)
    assert np.allclose([w for _, w in weights], model.edge_weights_)
    assert read_structure(out / "structure.graphml") == model.structure_


@pytest.mark.parametrize(("data", "options", "kind"), [
    ("wine", ["--model", "kgnb", "--order", "4"], "AcyclicKTree"),
    ("wine", ["--model", "latent-cnb", "--n-components", "2"], "LatentCNBPlate"),
])
def test_every_family_writes_its_class_node(tmp_path, data, options, kind):
    out = learn(tmp_path, data, *options)
    model = joblib.load(out / "model.joblib")
    g = GraphDB.read_graphml(out / "structure.graphml")
    assert g == structure_graph(model) and g.attrs["structure"] == kind
    (target,) = g.nodes(kind="class")
    assert g.attrs["target"] == target and len(g.successors(target)) > 0
    assert {a["feature_type"] for _, a in g.nodes(kind="variable", data=True)} <= {
        "continuous", "gaussian", "categorical"}


def test_unknown_model_is_refused():
    with pytest.raises(TypeError, match="No structure graph for a str"):
        structure_graph("not a model")


def test_metrics_per_fold_and_parallel_folds(tmp_path, capsys):
    import json

    import pandas as pd

    a = learn(tmp_path / "a", "iris", "--model", "gnb")
    assert "cross-validation folds" in capsys.readouterr().err  # counts the folds scored
    b = learn(tmp_path / "b", "iris", "--model", "gnb", "--n-jobs", "2", "--dpi", "50")
    assert "cross-validation folds" not in capsys.readouterr().err  # none to count here
    folds = pd.read_csv(a / "metrics.csv", index_col="fold")
    assert list(folds.columns) == ["accuracy", "balanced_accuracy", "f1_macro", "f1_weighted",
                                   "log_loss", "brier", "roc_auc_ovr"]
    assert np.allclose(folds.to_numpy(), pd.read_csv(b / "metrics.csv", index_col="fold"))
    summary = json.loads((a / "metrics.json").read_text())["metrics"]
    assert summary["brier"]["mean"] == pytest.approx(folds["brier"].mean())
    assert ["roc_auc_ovr"] in [r[:1] for r in markdown_rows((a / "report.md").read_text())]
    from PIL import Image

    width_200, width_50 = (Image.open(p / "structure.png").size[0] for p in (a, b))
    assert abs(width_200 - 4 * width_50) <= 4  # 200 dpi by default, 50 with --dpi 50


def test_bad_dpi_and_n_jobs_exit_2(tmp_path, capsys):
    for option in (["--dpi", "0"], ["--n-jobs", "zero"]):
        with pytest.raises(SystemExit) as exc:
            main(["learn", "iris", "--model", "gnb", "--out", str(tmp_path), *option])
        assert exc.value.code == 2
        assert "must be a positive integer" in capsys.readouterr().err


def test_each_warning_once_after_the_bars(tmp_path, capsys):
    learn(tmp_path, "car", "--model", "tan")
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("warning: ")]
    assert lines and len(lines) == len(set(lines))
    assert any(line.startswith("warning: DegenerateFeatureWarning (")
               and "3 times: folds 1, 2, final fit)" in line for line in lines)
    kinds = [line.split(":", 2)[1] for line in lines]  # one line per kind: ' Category (count'
    assert len(kinds) == len(set(kinds))


def test_per_feature_types_of_mixed_models_are_used():
    from sklearn.datasets import load_iris

    from estimators.gnb import GNBClassifier

    X, y = load_iris(return_X_y=True, as_frame=True)
    clf = GNBClassifier().fit(X, y)
    assert {a["feature_type"] for _, a in structure_graph(clf).nodes(kind="variable", data=True)
            } == {"continuous"}
    clf.feature_types_ = dict(zip(X.columns, ["gaussian", "gaussian", "discrete", "gaussian"],
                                  strict=True))
    g = structure_graph(clf)
    assert g.node_attrs("petal length (cm)")["feature_type"] == "discrete"


@pytest.mark.parametrize("k", [1, 2])
def test_structure_graph_of_a_ktan_with_a_constant_column(k):
    """Constant columns leave the model; the graph's edge weights come from the modelled
    columns' score matrix (mushroom's veil_type made this an IndexError)."""
    import warnings

    import numpy as np
    import pandas as pd

    from estimators.ktan import KTANClassifier
    from estimators.network.export.structure_graph import structure_graph

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    X = pd.DataFrame({"const": ["k"] * 300, "a": np.where(y == 1, "u", "v"),
                      "b": rng.choice(["p", "q"], 300), "c": rng.choice(["r", "s", "t"], 300)})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = KTANClassifier(k=k).fit(X, y)
    g = structure_graph(clf)
    kept = ["a", "b", "c"]
    arcs = [(p_, v) for v in kept for p_ in clf.structure_.parents(v)]
    assert arcs
    for p_, v in arcs:
        assert g.edge_attrs(p_, v)["weight"] == pytest.approx(
            clf.edge_scores_[kept.index(p_), kept.index(v)])
    assert clf.constant_features_ == ["const"]


def test_quiet_builds_the_model_with_verbose_off_and_draws_no_bars(tmp_path, capsys):
    import json

    # k given: the bars are the same as under the inner CV over k, which only repeats the fits
    loud = learn(tmp_path / "loud", "car", "--model", "ktan", "--k", "2")
    err = capsys.readouterr().err
    assert "cross-validation folds" in err and "backbone DP levels" in err  # inside fit
    quiet = learn(tmp_path / "quiet", "car", "--model", "ktan", "--k", "2", "--quiet")
    err = capsys.readouterr().err
    assert "cross-validation folds" not in err and "levels" not in err  # no bar
    params = [json.loads((out / "metrics.json").read_text())["params"] for out in (loud, quiet)]
    assert params[0]["verbose"] is True and params[1]["verbose"] is False
    assert joblib.load(quiet / "model.joblib").verbose is False
