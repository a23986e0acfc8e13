"""A CSV's own values come back from ``kgraph learn`` / ``kgraph export`` (issue 25, item 1):
integer columns stay integers (also with empty cells), and pgmpy answers a query on the
exported BIF whose evidence is the file's text, with the model's posterior."""

from __future__ import annotations

import logging

import joblib
import numpy as np
import pandas as pd
import pytest
from pgmpy.inference import VariableElimination
from pgmpy.readwrite import BIFReader

from viz.cli import main
from viz.cli.report import read_table


def spect_like(path) -> None:
    """0/1 columns (one with empty cells), a 1-3 code, a yes/no class."""
    rng = np.random.default_rng(5)
    n = 80
    y = rng.integers(0, 2, n)
    frame = pd.DataFrame({"f1": (rng.random(n) < 0.3 + 0.4 * y).astype(int).astype(object),
                          "f2": (rng.random(n) < 0.5 + 0.3 * y).astype(int),
                          "f3": rng.integers(1, 4, n), "class": np.where(y, "yes", "no")})
    frame.loc[[3, 10, 11], "f1"] = ""
    frame.to_csv(path, index=False)


def test_read_table_keeps_whole_number_columns_with_empty_cells_as_integers(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("a,b,c\n1,1.0,x\n,,y\n0,2.0,z\n")
    frame = read_table(path)
    assert str(frame["a"].dtype) == "Int64" and frame["a"].tolist()[::2] == [1, 0]
    assert frame["b"].dtype == np.float64  # written with a decimal point: stays a float
    assert frame["c"].tolist() == ["x", "y", "z"]


def test_exported_bif_answers_queries_in_the_files_own_values(tmp_path):
    logging.getLogger("pgmpy").setLevel(logging.ERROR)
    csv = tmp_path / "spect.csv"
    spect_like(csv)
    run = tmp_path / "run"
    assert main(["learn", str(csv), "--target", "class", "--model", "tan", "--out", str(run),
                 "--cv", "2", "--quiet"]) == 0
    assert main(["export", str(run / "model.joblib"), "--to", "bif", "--out",
                 str(tmp_path / "m.bif")]) == 0
    text = (tmp_path / "m.bif").read_text()
    assert "0.0" not in text.split("probability")[0]  # the variable blocks: 0, 1
    bn = BIFReader(str(tmp_path / "m.bif")).get_model()
    assert bn.get_cpds("f1").state_names["f1"] == ["0", "1"]
    model = joblib.load(run / "model.joblib")
    raw = pd.read_csv(csv, dtype=str, keep_default_na=False)  # the file's text
    infer = VariableElimination(bn)
    X = read_table(csv).drop(columns="class")
    expected = model.predict_proba(X.iloc[:12])
    order = [bn.get_cpds("class").state_names["class"].index(c) for c in model.classes_]
    for i in range(12):
        evidence = {c: raw.loc[i, c] for c in ("f1", "f2", "f3") if raw.loc[i, c] != ""}
        got = infer.query(["class"], evidence=evidence, show_progress=False).values
        assert got[order] == pytest.approx(expected[i], abs=1e-12)
