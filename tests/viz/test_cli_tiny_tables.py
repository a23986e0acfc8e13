"""``kgraph learn`` on tables too small for what it was asked (issue 50, item 1): every
number written is finite or the run says why not, the figure is drawn, and a table that
cannot be cross-validated is refused naming its rows, classes and a ``--cv`` that works."""

import json
import math
import re

import numpy as np
import pandas as pd
import pytest
from cli_tables import markdown_rows

from viz.cli import main


def _numbers(value):
    """Every number in a JSON document as kgraph writes it (``{"__float__": "inf"}`` too)."""
    if isinstance(value, dict):
        if set(value) == {"__float__"}:
            yield float(value["__float__"])
            return
        for v in value.values():
            yield from _numbers(v)
    elif isinstance(value, list):
        for v in value:
            yield from _numbers(v)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        yield float(value)


def _learn(tmp_path, frame, *extra, name="tiny"):
    path = tmp_path / f"{name}.csv"
    frame.to_csv(path, index=False)
    out = tmp_path / "out"
    if "--model" not in extra:
        extra = ("--model", "tan", *extra)
    code = main(["learn", str(path), "--out", str(out), "--quiet", *extra])
    return code, out


def _written_numbers(out):
    found = list(_numbers(json.loads((out / "structure.json").read_text())))
    found += list(_numbers(json.loads((out / "metrics.json").read_text())))
    graphml = (out / "structure.graphml").read_text()
    return found, graphml


@pytest.mark.parametrize("model", ["tan", "gnb", "kgnb"])
def test_ten_rows_with_a_two_row_class_write_finite_numbers_and_draw(tmp_path, capsys, model):
    """Two rows of a class correlate perfectly: the Gaussian score of that class was +inf
    (weight=inf on every feature edge, and the PDF could not be written). TAN now scores
    that class as it fits it (pooled); GNB's fitted density is degenerate there, and the
    files say so instead of writing inf."""
    rng = np.random.default_rng(1)
    frame = pd.DataFrame(rng.normal(size=(10, 3)).round(3), columns=list("abc"))
    frame["class"] = ["x"] * 8 + ["y"] * 2
    code, out = _learn(tmp_path, frame, "--model", model)
    err = capsys.readouterr().err
    assert code == 0, err
    found, graphml = _written_numbers(out)
    assert found and all(math.isfinite(v) for v in found)
    assert ">inf<" not in graphml and ">-inf<" not in graphml and ">nan<" not in graphml
    assert (out / "structure.pdf").stat().st_size > 0 and (out / "structure.png").is_file()
    assert "was not drawn" not in err
    assert "A single label was found" not in err and "least populated" not in err
    assert "class 'y' has 2 rows, fewer than the 5 folds: 3 of the 5 test parts" in err
    report = (out / "report.md").read_text()
    warnings = report.split("## Warnings", 1)[1]
    assert "class 'y' has 2 rows, fewer than the 5 folds" in warnings
    # the ROC AUC of a one-class test part is undefined: said, and written as null
    metrics = json.loads((out / "metrics.json").read_text())["metrics"]
    assert metrics["roc_auc_ovr"]["n_folds"] == 2
    assert "roc_auc_ovr: over 2 of the 5 folds" in report
    assert not re.search(r"\|\s*-?(inf|nan)\s*\|", report)  # no table cell of inf/nan
    if model == "tan":  # scored as fitted: a finite weight on every feature edge
        graph = json.loads((out / "structure.json").read_text())
        assert all("weight" in e for e in graph["edges"] if e.get("kind") == "parent")
    elif model == "gnb":  # its density's pair information: infinite, and said so
        assert "infinite: the feature is a function of the other within a class" in report


def test_a_model_whose_inner_cv_loses_a_class_says_why(tmp_path, capsys):
    """k-TAN chooses k by an inner CV inside each outer training part, which keeps one row
    of a two-row class: said with the fix, not sklearn-level 'one class only' alone."""
    frame = pd.DataFrame({"a": np.arange(10) % 2, "b": np.arange(10) % 3, "c": np.arange(10) % 4,
                          "class": ["x"] * 8 + ["y"] * 2})
    code, _ = _learn(tmp_path, frame, "--model", "ktan")
    err = capsys.readouterr().err
    assert code == 2
    assert ("class 'y' has 2 rows, so a training part of the 5 outer folds keeps 1 of them, "
            "too few for the model's own inner cross-validation; give the options it chooses "
            "that way a value (e.g. --k 1)") in err
    code, out = _learn(tmp_path, frame, "--model", "ktan", "--k", "1")
    assert code == 0 and (out / "structure.pdf").is_file()


def test_a_family_with_too_few_rows_observed_says_so_instead_of_minus_inf(tmp_path, capsys):
    """A column observed in 4 of 10 rows has no pair with 5 complete rows: its score is the
    -inf of an ineligible family, which the files and the report name instead."""
    rng = np.random.default_rng(2)
    frame = pd.DataFrame({c: rng.integers(0, 2, 10) for c in "abcd"}).astype("Int64")
    frame.loc[4:, "d"] = pd.NA
    frame["class"] = ["x", "y"] * 5
    code, out = _learn(tmp_path, frame, "--cv", "2")
    err = capsys.readouterr().err
    assert code == 0, err
    found, graphml = _written_numbers(out)
    assert all(math.isfinite(v) for v in found)
    assert ">-inf<" not in graphml
    graph = json.loads((out / "structure.json").read_text())
    notes = [n for n in graph["nodes"] if "clique_score_note" in n]
    assert [n["id"] for n in notes] == ["d"]
    assert "too few rows observed together" in notes[0]["clique_score_note"]
    report = (out / "report.md").read_text()
    assert ["d"] in [r[:1] for r in markdown_rows(report)]
    assert "undefined: too few rows observed together" in report
    assert (out / "structure.pdf").is_file()


@pytest.mark.parametrize("rows, message", [
    (slice(0, 1), "has 1 row and one class (x: 1): a classifier needs at least 2 classes"),
    (slice(0, 0), "has no data rows (a header only)"),
])
def test_a_table_without_two_classes_is_refused_in_kgraph_words(tmp_path, capsys, rows,
                                                                 message):
    frame = pd.DataFrame({"a": np.arange(10.0), "b": np.arange(10) % 3,
                          "class": ["x"] * 8 + ["y"] * 2}).iloc[rows]
    code, _ = _learn(tmp_path, frame)
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and "n_splits" not in err and "0 sample(s)" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_class_of_one_row_is_refused_before_any_fold(tmp_path, capsys):
    """Classes 9 + 1: the fold testing the single row trains on one class only; said once,
    without scikit-learn's warnings before it."""
    frame = pd.DataFrame({"a": np.arange(10.0), "b": np.arange(10) % 3,
                          "class": ["x"] * 9 + ["y"]})
    code, _ = _learn(tmp_path, frame)
    err = capsys.readouterr().err
    assert code == 2
    assert err.strip().splitlines() == [
        f"kgraph learn: error: class 'y' of {tmp_path / 'tiny.csv'} has 1 row (x: 9, y: 1): "
        "the fold that tests it would train without it, on one class only; stratified "
        "cross-validation needs at least 2 rows of every class (add rows of 'y' or leave "
        "them out)"]


def test_a_class_of_one_row_beside_two_others_is_scored_and_said(tmp_path, capsys):
    """Classes 10 + 10 + 1 (as helpmiss's 'missing'): every training part keeps two classes,
    so the run goes on; the single row is always misclassified, and the terminal says so."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.normal(size=21), "b": np.arange(21) % 3,
                          "class": ["x"] * 10 + ["y"] * 10 + ["z"]})
    code, out = _learn(tmp_path, frame, "--cv", "2")
    err = capsys.readouterr().err
    assert code == 0 and (out / "report.md").exists()
    assert "class 'z' has 1 row: the fold that tests it trains without it" in err
    assert "least populated class" not in err


def test_fewer_rows_than_folds_names_the_cv_that_works(tmp_path, capsys):
    frame = pd.DataFrame({"a": np.arange(6.0), "b": np.arange(6) % 2,
                          "class": ["x", "y"] * 3})
    code, _ = _learn(tmp_path, frame, "--cv", "10")
    err = capsys.readouterr().err
    assert code == 2
    assert "has 6 rows (x: 3, y: 3): --cv 10 needs at least 10 rows; use --cv between 2 and 6" in err
    assert "(--cv 3 puts every class in every test part)" in err
