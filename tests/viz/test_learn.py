"""``kgraph learn``: every output file, and one-line errors with status 2."""

import json

import joblib
import pandas as pd
import pytest

from kgraph import read_structure
from viz.cli import main

FILES = {"structure.graphml", "structure.json", "model.joblib", "metrics.json", "metrics.csv",
         "structure.pdf", "structure.png", "report.md"}


def run_learn(tmp_path, *args):
    out = tmp_path / "out"
    code = main(["learn", *args, "--out", str(out), "--cv", "3"])
    return code, out


@pytest.mark.parametrize(
    ("data", "options"),
    [
        ("iris", ["--model", "gnb"]),
        ("iris", ["--model", "gnb", "--dependence", "gaussian-copula", "--n-clusters", "auto"]),
        ("wine", ["--model", "kgnb", "--order", "4"]),
        ("car", ["--model", "tan"]),
        ("car", ["--model", "ktan", "--k", "2", "--backbone", "greedy-path"]),
        ("car", ["--model", "ktan", "--k", "auto", "--structure-score", "bic", "--ess", "4"]),
        ("wine", ["--model", "latent-cnb", "--n-components", "2"]),
    ],
)
def test_learn_writes_every_file(tmp_path, data, options):
    code, out = run_learn(tmp_path, data, *options)
    assert code == 0
    assert {p.name for p in out.iterdir()} == FILES
    model = joblib.load(out / "model.joblib")
    structure = read_structure(out / "structure.graphml")
    assert read_structure(out / "structure.json") == structure
    metrics = json.loads((out / "metrics.json").read_text())
    folds = pd.read_csv(out / "metrics.csv")
    assert len(folds) == 3
    assert metrics["metrics"]["accuracy"]["mean"] == pytest.approx(folds["accuracy"].mean())
    assert 0.5 < metrics["metrics"]["accuracy"]["mean"] <= 1.0
    assert hasattr(model, "classes_")
    report = (out / "report.md").read_text()
    assert report.startswith("# ") and "| accuracy |" in report


def test_learn_from_csv_with_target(tmp_path):
    from estimators.datasets import load_dataset

    X, y = load_dataset("car")
    X.assign(label=y).to_csv(tmp_path / "cars.csv", index=False)
    code, out = run_learn(tmp_path, str(tmp_path / "cars.csv"), "--target", "label",
                          "--model", "tan")
    assert code == 0 and (out / "structure.graphml").exists()


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["MISSING.csv", "--model", "tan"], "cannot read MISSING.csv: no such file"),
        (["DATA.csv", "--model", "tan", "--target", "nope"], "has no target column 'nope'"),
        (["car", "--model", "forest"], "invalid choice: 'forest'"),
        (["BAD.csv", "--model", "tan"], "cannot read"),
        (["unknown_set", "--model", "tan"], "neither a CSV file nor a built-in data set"),
        (["car", "--model", "ktan", "--k", "two"], "expected an int or 'auto', got 'two'"),
    ],
)
def test_learn_errors_exit_2_with_one_line(tmp_path, monkeypatch, capsys, args, reason):
    monkeypatch.chdir(tmp_path)
    pd.DataFrame({"a": [1, 2], "class": [0, 1]}).to_csv("DATA.csv", index=False)
    (tmp_path / "BAD.csv").write_bytes(b"\xff\xfe\x00garbage\n\x00\x01")
    try:
        code = main(["learn", *args, "--out", "out"])
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and reason in err
