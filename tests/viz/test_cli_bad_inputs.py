"""``kgraph learn`` on the bad inputs a new user gives it: every one exits 2 at once with one
line on stderr that says what is wrong in the user's words (labels as written, never a numpy
repr), and a model too large for the table is refused before any fit instead of running for
hours; a CSV saved by a spreadsheet in cp1252 is read, with a warning naming the encoding."""

from __future__ import annotations

import signal
from contextlib import contextmanager

import joblib
import numpy as np
import pandas as pd
import pytest

from viz.cli import main

#: a case that runs longer than this hangs (they take about a second each): the guard turns
#: a hang into a failure instead of a stuck suite; it is no timing assertion
HANG_SECONDS = 120


@contextmanager
def _hang_guard(seconds: int = HANG_SECONDS):
    def stop(signum, frame):
        raise TimeoutError(f"kgraph learn ran over {seconds} s on a bad input")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _run(argv: list[str]) -> int:
    with _hang_guard():
        try:
            return main(argv)
        except SystemExit as exc:  # argparse's errors
            return int(exc.code)


def _binary_table(rows: int = 120, features: int = 22) -> pd.DataFrame:
    """A 0/1 table shaped like SPECT (22 binary features, a 0/1 class)."""
    rng = np.random.default_rng(3)
    frame = pd.DataFrame(rng.integers(0, 2, (rows, features)),
                         columns=[f"f{i}" for i in range(1, features + 1)])
    frame["class"] = rng.integers(0, 2, rows)
    return frame


def _many_valued_table() -> pd.DataFrame:
    """25 categorical features of 25 values each: A2DE's SPODE tables hold 2.2e8 cells."""
    rng = np.random.default_rng(4)
    frame = pd.DataFrame({f"c{j}": [f"v{v}" for v in rng.integers(0, 25, 200)]
                          for j in range(25)})
    frame["class"] = rng.choice(["yes", "no"], 200)
    return frame


def _small() -> pd.DataFrame:
    return pd.DataFrame({"a": np.arange(12.0), "b": np.arange(12) % 3,
                         "class": ["x", "y"] * 6})


#: name -> (file contents: a DataFrame or bytes, extra arguments, words the one line has)
CASES = {
    "missing target": (_small().rename(columns={"class": "label"}), [],
                       ["has no target column 'class'", "['a', 'b', 'label']"]),
    "one class": (_small().assign(**{"class": "x"}), [], ["one class (x: 12)"]),
    "binary file": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", [],
                    ["cannot read", "as CSV: it is not a text file (it holds NUL bytes)"]),
    "empty file": (b"", [], ["cannot read", "No columns to parse"]),
    "header only": (b"a,b,class\n", [], ["has no data rows (a header only)"]),
    "one row": (b"a,b,class\n1,2,x\n", [], ["has 1 row and one class (x: 1)"]),
    "three rows": (b"a,b,class\n1,2,0\n2,3,1\n3,4,1\n", [],
                   ["class 0 of", "has 1 row (0: 1, 1: 2)", "add rows of 0"]),
    "unknown model": (_small(), ["--model", "tree"], ["invalid choice: 'tree'"]),
    "negative k for k-TAN": (_small(), ["--model", "ktan", "--k", "-1"],
                             ["'k' parameter of KTANClassifier", "Got -1"]),
    "negative max_parents for kDB": (_small(), ["--model", "kdb", "--max-parents", "-1"],
                                     ["'max_parents' parameter of KDBClassifier", "Got -1"]),
    "k for kDB": (_small(), ["--model", "kdb", "--k", "2"],
                  ["--k does not apply to --model kdb", "--max-parents", "the models that take --k: ktan"]),
    "k-TAN k over the features": (
        _binary_table(), ["--model", "ktan", "--k", "50"],
        ["KTANClassifier: k = 50 exceeds the 21 other features; k <= 5 keeps every table "
         "under 10^6 cells and the search under 10^8 here", "max_cells"]),
    "k-TAN k over the table limit": (
        _binary_table(), ["--model", "ktan", "--k", "21"],
        ["KTANClassifier: k = 21 builds a table of 8.39e+06 cells, over 10^6; k <= 5"]),
    "k-TAN under a lowered --max-cells": (
        _binary_table(), ["--model", "ktan", "--k", "2", "--max-cells", "10"],
        ["k = 2 builds a table of 16 cells, over 10; no k keeps every table under 10 cells "
         "and the search under 10^3 here; leave out features with many values or raise the "
         "limit (max_cells, --max-cells)"]),
    "k-GNB order over the features": (
        _binary_table(), ["--model", "kgnb", "--order", "50"],
        ["KGNBClassifier: order = 50 exceeds the 23 that 22 features allow (order <= d + 1); "
         "order <= 7 keeps"]),
    "kDB max_parents over the table limit": (
        _binary_table(), ["--model", "kdb", "--max-parents", "50"],
        ["KDBClassifier: max_parents = 50 builds a table of 8.39e+06 cells, over 10^6; "
         "max_parents <= 17 keeps every table under 10^6 cells here"]),
    "A2DE over the search limit": (
        _many_valued_table(), ["--model", "a2de"],
        ["A2DEClassifier: n = 2 scores tables of 2.", "cells in all, over 10^8; "
         "AnDEClassifier(n=1) keeps"]),
    "duplicate column names": (b"f1,f1,class\n" + b"".join(
        f"{i % 3},{i % 2},{'ab'[i % 2]}\n".encode() for i in range(30)), [],
        ["names the column 'f1' twice (columns 1 and 2)", "rename them"]),
    "unknown encoding": (_small(), ["--encoding", "klingon"],
                         ["cannot read", "unknown encoding: klingon"]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_input_exits_2_with_one_line_in_the_users_words(tmp_path, capsys, case):
    contents, extra, words = CASES[case]
    path = tmp_path / "table.csv"
    if isinstance(contents, bytes):
        path.write_bytes(contents)
    else:
        contents.to_csv(path, index=False)
    if "--model" not in extra:
        extra = ["--model", "tan", *extra]
    code = _run(["learn", str(path), "--out", str(tmp_path / "out"), "--quiet", *extra])
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, err
    assert len(lines) == 1 and lines[0].startswith("kgraph learn: error: "), err
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert "np." not in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()  # refused before anything was written


def test_a_cp1252_csv_with_accented_categories_learns_with_one_warning(tmp_path, capsys):
    rng = np.random.default_rng(5)
    colour = rng.choice(["rouge", "vert", "bleu clair", "été"], 90)
    frame = pd.DataFrame({"couleur": colour, "x": rng.normal(size=90).round(2),
                          "class": np.where(colour == "été", "oui", rng.choice(["oui", "non"], 90))})
    path = tmp_path / "latin1.csv"
    data = frame.to_csv(index=False).encode("cp1252")
    path.write_bytes(data)
    out = tmp_path / "out"
    code = _run(["learn", str(path), "--model", "tan", "--out", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert code == 0, err
    warned = [line for line in err.splitlines() if "UTF-8" in line]
    first = data.index("é".encode("cp1252"))
    assert warned == [f"warning: {path} is not UTF-8 (byte 0xe9 at position {first}); read as "
                      "cp1252 (Windows Western European); give --encoding to choose another"]
    model = joblib.load(out / "model.joblib")
    assert sorted(model.encoder_.categories_["couleur"]) == ["bleu clair", "rouge", "vert", "été"]
    assert "- encoding cp1252 (the file is not UTF-8)" in (out / "report.md").read_text()
    # the same file with the encoding given: no warning, the same categories
    code = _run(["learn", str(path), "--model", "tan", "--out", str(tmp_path / "given"),
                 "--quiet", "--encoding", "latin-1"])
    err = capsys.readouterr().err
    assert code == 0 and "UTF-8" not in err
    again = joblib.load(tmp_path / "given" / "model.joblib")
    assert list(again.encoder_.categories_["couleur"]) == list(model.encoder_.categories_["couleur"])


def test_a_byte_order_mark_is_not_part_of_the_first_name(tmp_path, capsys):
    path = tmp_path / "bom.csv"
    path.write_bytes("\ufeff".encode() + _small().to_csv(index=False).encode())
    code = _run(["learn", str(path), "--model", "tan", "--out", str(tmp_path / "out"),
                 "--quiet", "--cv", "2"])
    assert code == 0, capsys.readouterr().err
    assert '"a"' in (tmp_path / "out" / "structure.json").read_text()
