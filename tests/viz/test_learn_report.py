"""``report.md`` says what a methods section needs, checked against the fitted model and an
independent computation: the model selection of ``k="auto"`` (chosen k, inner-CV table), the
score actually used, each feature's parents with its family score, the backbone and its
method, a majority-class baseline on the same folds (with warnings), and the class node
named after the target column in the files and the figure."""

from __future__ import annotations

import re
from pathlib import Path

import joblib
import numpy as np
import pandas as pd
import pytest
from cli_tables import markdown_rows
from sklearn.model_selection import StratifiedKFold

from estimators.datasets import load_dataset
from kgraph import GraphDB
from viz.cli import main

#: the GPL-licensed oj table, kept in the repository (benchmarks/data/README.md)
OJ = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "oj.csv"


def run(tmp_path, *args) -> tuple[str, object, str]:
    out = tmp_path / "out"
    assert main(["learn", *args, "--out", str(out), "--quiet"]) == 0
    return (out / "report.md").read_text(), joblib.load(out / "model.joblib"), str(out)


def section(report: str, title: str) -> str:
    start = report.index(f"## {title}")
    end = report.find("\n## ", start + 3)
    return report[start:end if end >= 0 else None]


def table_rows(text: str) -> list[list[str]]:
    rows = [line.strip("|").split("|") for line in text.splitlines() if line.startswith("|")]
    return [[c.strip() for c in r] for r in rows[2:]]  # header and rule dropped


def majority_baseline(y: pd.Series, folds: int, seed: int) -> tuple[float, float]:
    """Accuracy and log-loss of predicting the training folds' majority class with their
    class frequencies, computed by hand on the same shuffled stratified folds."""
    classes = np.unique(y)
    acc, loss = [], []
    for train, test in StratifiedKFold(folds, shuffle=True, random_state=seed).split(y, y):
        freq = y.iloc[train].value_counts(normalize=True).reindex(classes, fill_value=0.0)
        truth = y.iloc[test].to_numpy()
        acc.append(np.mean(truth == freq.idxmax()))
        p = np.clip(freq.loc[truth].to_numpy(), 1e-15, 1)
        loss.append(-np.mean(np.log(p)))
    return float(np.mean(acc)), float(np.mean(loss))


@pytest.fixture(scope="module")
def auto_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("auto")
    # a list of k (every k tried): the final k is 2 or 3, so the report has a backbone;
    # --k auto stops at k = 1 on penguins (k = 2 does not improve on it)
    return run(tmp, "penguins", "--model", "ktan", "--k", "2,3", "--cv", "2",
               "--figure-width", "column")


def test_auto_run_reports_the_chosen_k_and_its_inner_cv_table(auto_run):
    report, model, _ = auto_run
    text = section(report, "Model selection (inner cross-validation)")
    assert f"k = {model.k_}" in text
    rows = table_rows(text)
    table = model.cv_results_
    assert [int(r[0]) for r in rows] == [int(k) for k in table["k"]]
    assert [float(r[3]) for r in rows] == pytest.approx(table["mean_log_loss"], abs=5e-5)
    chosen = [r for r in rows if r[-1] == "✓"]
    assert len(chosen) == 1 and int(chosen[0][0]) == model.k_


def test_auto_run_reports_score_parents_backbone_and_baseline(auto_run):
    report, model, _ = auto_run
    assert "`cmi`: `ConditionalGaussianScore`, the score of the mixed feature family" in report
    rows = {r[0]: r for r in table_rows(section(report, "Parents (besides the class `species`)"))}
    assert set(rows) == set(model.structure_.order)
    for v in model.structure_.order:
        assert set(filter(None, rows[v][1].replace("(none)", "").split(", "))) == {
            str(p) for p in model.structure_.parents(v)}
        assert float(rows[v][2]) == pytest.approx(model.hyperedge_scores_[v], abs=5e-5)
    backbone = section(report, "Search and backbone")
    assert "- searcher: `backbone-dp`" in backbone
    assert "- backbone method: mst-dfs (the default)" in backbone
    assert " - ".join(map(str, model.backbone_)) in backbone
    X, y = load_dataset("penguins")
    acc, loss = majority_baseline(y, 2, 0)
    found = re.search(r"always the majority class \(`Adelie`\).*accuracy ([\d.]+), log-loss "
                      r"([\d.]+)", report)
    assert float(found[1]) == pytest.approx(acc, abs=5e-5)
    assert float(found[2]) == pytest.approx(loss, abs=5e-5)
    assert "**warning" not in report  # a k-TAN beats the majority on penguins


def test_the_class_node_is_named_after_the_target_column(auto_run):
    report, _, out = auto_run
    for reader, name in ((GraphDB.read_graphml, "structure.graphml"),
                         (GraphDB.read_json, "structure.json")):
        graph = reader(f"{out}/{name}")
        assert graph.nodes(kind="class") == ["species"] and graph.attrs["target"] == "species"
    assert "Figure: the labelled structure (column width)." in report


def test_bootstrap_run_reports_baseline_parents_and_confidence(tmp_path, capsys):
    report, model, out = run(tmp_path, str(OJ), "--target", "Purchase",
                             "--model", "tan", "--cv", "3", "--bootstrap", "3")
    data = pd.read_csv(OJ)
    acc, loss = majority_baseline(data["Purchase"], 3, 0)
    metrics = dict((r[0], float(r[1])) for r in table_rows(section(
        report, "Cross-validated metrics (stratified 3-fold)")))
    assert f"accuracy {acc:.4f}, log-loss {loss:.4f}" in report
    assert metrics["log_loss"] > loss  # the TAN's log-loss is worse than the majority's here
    warning = (f"the model's log-loss ({metrics['log_loss']:.4f}) is above the "
               f"majority-class baseline's ({loss:.4f})")
    assert f"- **warning: {warning}**" in report
    assert f"warning: {warning}" in capsys.readouterr().err
    parents = table_rows(section(report, "Parents (besides the class `Purchase`)"))
    assert len(parents) == len(model.structure_.order)
    assert "## Edge confidence (3 bootstrap resamples)" in report
    graph = GraphDB.read_json(f"{out}/structure.json")
    assert graph.nodes(kind="class") == ["Purchase"]
    assert any("confidence" in a for _, _, a in graph.edges(data=True))


def test_figure_width_option_and_plot_width(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["learn", "iris", "--model", "gnb", "--out", str(tmp_path), "--figure-width",
              "A4"])
    assert exc.value.code == 2
    assert "Unknown figure width 'A4'" in capsys.readouterr().err
    _, _, out = run(tmp_path, "iris", "--model", "tan", "--cv", "2", "--figure-width", "5")
    pdf = (tmp_path / "out" / "structure.pdf").read_bytes()
    assert re.search(rb"/MediaBox \[\s*0 0 360", pdf)  # 5 in = 360 pt
    target = tmp_path / "column.pdf"
    assert main(["plot", f"{out}/structure.json", "--out", str(target), "--width", "column"]) == 0
    assert re.search(rb"/MediaBox \[\s*0 0 252", target.read_bytes())  # 3.5 in = 252 pt


def test_semiparametric_run_reports_each_factor_kind(tmp_path):
    """continuous="auto": the parents table gains a factor column, each feature's kind as
    the fitted model's ``factor_kinds_`` says (a near copy and a noise column here go
    class-free)."""
    rng = np.random.default_rng(2)  # the table of tests/estimators/semiparametric/test_selection
    y = rng.integers(0, 2, 200)
    a = rng.gamma(2.0 + 2 * y, size=200)
    data = pd.DataFrame({"a": a, "b": a + rng.normal(scale=0.05, size=200),
                         "e": rng.standard_t(3, size=200),
                         "d": np.where(a + rng.normal(scale=0.2, size=200) > 3.0, "u", "v"),
                         "class": y})
    data.to_csv(tmp_path / "noise.csv", index=False)
    report, model, _ = run(tmp_path, str(tmp_path / "noise.csv"), "--model", "tan",
                           "--continuous", "auto", "--cv", "2")
    text = section(report, "Parents (besides the class `class`)")
    assert ["feature", "parents", "family score", "factor"] in markdown_rows(text)
    assert "class-free: p(feature | parents) the same in every class" in text
    rows = {r[0]: r[3] for r in table_rows(text)}
    assert rows == {str(v): k for v, k in model.factor_kinds_.items()}
    assert "class-free" in rows.values()


def test_class_free_features_have_dashed_class_edges_in_the_figure():
    """The figure of a continuous="auto" TAN draws the outlines and class edges of its
    class-free features dashed (the fitted model does not use those edges), with a legend
    entry; the others solid."""
    from estimators import TANClassifier
    from viz.ktree import plot_ktree

    rng = np.random.default_rng(2)  # the table of tests/estimators/semiparametric/test_selection
    y = rng.integers(0, 2, 200)
    a = rng.gamma(2.0 + 2 * y, size=200)
    X = pd.DataFrame({"a": a, "b": a + rng.normal(scale=0.05, size=200),
                      "e": rng.standard_t(3, size=200),
                      "d": np.where(a + rng.normal(scale=0.2, size=200) > 3.0, "u", "v")})
    clf = TANClassifier(continuous="auto").fit(X, y)
    free = {v for v, kind in clf.factor_kinds_.items() if kind == "class-free"}
    assert free
    ax = plot_ktree(clf, target="class").axes[0]
    dashed = {p.get_gid().split("->")[1]: p.get_linestyle() not in ("-", "solid")
              for p in ax.patches if (p.get_gid() or "").startswith("edge:class:class->")}
    assert set(dashed) == set(X.columns)
    assert {v for v, is_dashed in dashed.items() if is_dashed} == free
    outlined = {p.get_gid().split(":")[-1]: p.get_linestyle() not in ("-", "solid")
                for p in ax.patches if (p.get_gid() or "").startswith("node:variable:")}
    assert {v for v, is_dashed in outlined.items() if is_dashed} == free
    assert any(p.get_gid() == "legend:dashed: class-free factor (the class is not its parent)"
               for p in ax.patches)


def test_ktan_without_k_chooses_k_by_inner_cv(tmp_path):
    # the default of --k is the class's, k="auto": the report carries the selection table
    report, model, _ = run(tmp_path, "penguins", "--model", "ktan", "--cv", "2")
    assert model.k == "auto" and model.cv_results_ is not None
    text = section(report, "Model selection (inner cross-validation)")
    assert f"k = {model.k_}" in text
