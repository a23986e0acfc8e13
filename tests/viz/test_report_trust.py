"""report.md agrees with itself and says how it was made (issue 50, items 2 and 7)."""

import hashlib
import json
import re
from itertools import count

import numpy as np
import pandas as pd
import pytest
from cli_tables import markdown_rows
from sklearn.model_selection import StratifiedKFold

import kgraph
from estimators.datasets import load_dataset
from viz.cli import main


def _run(tmp_path, frame, *args, name="table"):
    path = tmp_path / f"{name}.csv"
    frame.to_csv(path, index=False)
    out = tmp_path / "out"
    argv = ["learn", str(path), "--out", str(out), "--quiet", *args]
    assert main(argv) == 0
    return path, out, argv


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """TAN on 10 rows (classes 8 + 2): below the majority-class baseline, with warnings."""
    tmp_path = tmp_path_factory.mktemp("tiny")
    rng = np.random.default_rng(1)
    frame = pd.DataFrame(rng.normal(size=(10, 3)).round(3), columns=list("abc"))
    frame["class"] = ["x"] * 8 + ["y"] * 2
    return _run(tmp_path, frame, "--model", "tan")


def test_report_records_command_version_and_data_hash(tiny_run):
    path, out, argv = tiny_run
    report = (out / "report.md").read_text()
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    assert f"- command: `kgraph {' '.join(argv)}`" in report
    assert f"- kgraph version: {kgraph.__version__}" in report
    assert f"- data SHA-256 (the file {path.name}): `{sha}`" in report
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["command"] == f"kgraph {' '.join(argv)}"
    assert metrics["kgraph_version"] == kgraph.__version__ and metrics["data_sha256"] == sha
    assert report.startswith("# TAN classifier (tree-augmented Naive Bayes) on table\n")
    assert "paper" not in report.splitlines()[0]


def test_every_warning_the_report_shows_is_in_its_warnings_section(tiny_run):
    _, out, _ = tiny_run
    report = (out / "report.md").read_text()
    body, warnings = report.split("\n## Warnings\n", 1)
    shown = re.findall(r"\*\*warning: (.+?)\*\*", body)
    assert len(shown) == 2  # accuracy and log-loss below the baseline
    assert "None were raised" not in warnings
    for text in shown:
        assert f"- {text}" in warnings


def test_one_std_convention_stated_and_used(tiny_run):
    _, out, _ = tiny_run
    report = (out / "report.md").read_text()
    folds = pd.read_csv(out / "metrics.csv", index_col="fold")
    assert "sample standard deviation over the folds (ddof = 1)" in report
    row = next(r for r in markdown_rows(report) if r[0] == "accuracy")
    assert float(row[2]) == pytest.approx(folds["accuracy"].std(ddof=1), abs=5e-5)
    assert json.loads((out / "metrics.json").read_text())["std"].endswith("(ddof = 1)")


def test_inner_cv_std_has_the_outer_convention():
    from estimators.ktan import KTANClassifier

    X, y = load_dataset("car")
    rows = X.sample(300, random_state=0).index
    X, y = X.loc[rows], y.loc[rows]
    model = KTANClassifier(k=[1, 2], feature_selection=None, random_state=0,
                           verbose=False).fit(X, y)
    table = model.cv_results_
    np.testing.assert_allclose(table["std_log_loss"], np.std(table["fold_log_loss"], axis=1,
                                                             ddof=1))


def test_ban_report_names_the_target_and_the_bic_units(tmp_path):
    frame = pd.read_csv("/work/shared/datasets/heart_failure.csv").sample(120, random_state=0)
    frame = frame.rename(columns={"class": "Attrition"})
    _, out, _ = _run(tmp_path, frame, "--model", "ban", "--target", "Attrition", "--cv", "2")
    report = (out / "report.md").read_text()
    assert "- structure: `ParentSetDAG(target='Attrition'," in report
    assert "target='class'" not in report and "nats for CMI" not in report
    assert "log-likelihood gain of the parents less the BIC penalty" in report


def test_discriminative_report_gives_the_chosen_penalty(tmp_path):
    X, y = load_dataset("car")
    frame = X.assign(**{"class": y}).sample(400, random_state=0)
    _, out, _ = _run(tmp_path, frame, "--model", "tan", "--parameters", "discriminative",
                     "--cv", "2")
    model = __import__("joblib").load(out / "model.joblib")
    report = (out / "report.md").read_text()
    spec = model.discriminative_.spec
    assert f"penalty (λ/2)‖w‖²: λ = {spec.l2:.4f}" in report
    assert "by inner cross-validated log-loss" in report


def test_ktan_report_gives_the_k_each_outer_fold_chose(tmp_path):
    from estimators.ktan import KTANClassifier

    X, y = load_dataset("car")
    rows = X.sample(300, random_state=1).index
    X, y = X.loc[rows].reset_index(drop=True), y.loc[rows].reset_index(drop=True)
    _, out, _ = _run(tmp_path, X.assign(**{"class": y}), "--model", "ktan", "--k", "1,2",
                     "--cv", "2")
    expected = []
    for train, _ in StratifiedKFold(2, shuffle=True, random_state=0).split(X, y):
        fold = KTANClassifier(k=[1, 2], random_state=0, verbose=False)
        expected.append(fold.fit(X.iloc[train], y.iloc[train]).k_)
    report = (out / "report.md").read_text()
    assert (f"- k chosen in each outer fold: fold 1: {expected[0]}, fold 2: {expected[1]}"
            in report)


def test_a_bar_whose_loop_stops_at_once_draws_nothing_and_every_bar_closes(capsys):
    from tqdm.auto import tqdm

    from estimators.base.progress import progress, show_progress

    with show_progress():
        for _ in progress(count(), "hill-climbing moves"):
            break  # no move: the first item only
        for step in progress(count(), "moves"):
            if step == 3:
                break
        bar = iter(progress(iter(int, 1), "L-BFGS iterations"))
        next(bar)
        bar.close()
    err = capsys.readouterr().err
    assert "hill-climbing moves" not in err and "L-BFGS" not in err and "0it" not in err
    assert "moves" in err  # the loop of several items had its bar
    assert len(tqdm._instances) == 0  # and it was closed at the break


def test_a_merged_warning_line_keeps_each_class_with_its_columns():
    """Glass: classes are numbers, not quoted; the line named the columns without them."""
    from viz.cli.warning_log import WarningLog

    log = WarningLog()
    head = "TANClassifier: feature(s) constant within a class, which then contributes no "
    log.add("fold 1", [(UserWarning, head + "dependence for them: class 1: ['K'].")])
    log.add("fold 2", [(UserWarning, head + "dependence for them: class 2: ['Ba', 'Fe'].")])
    (line,) = log.terminal_lines()
    assert "class 1: ['K']; class 2: ['Ba', 'Fe'] (2 distinct messages" in line
    long = [(UserWarning, head + "dependence for them: " + "; ".join(
        f"class {c}: ['Ba', 'Fe', 'K']" for c in range(fold, 9)) + ".") for fold in (1, 2)]
    log = WarningLog()
    log.add("fold 1", long[:1])
    log.add("fold 2", long[1:])
    (line,) = log.terminal_lines()
    assert "class 1: ['Ba', 'Fe', 'K']; class 2:" in line and len(line) < 300
