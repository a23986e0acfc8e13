"""``kgraph learn`` on CSV files as researchers have them (issue 25): unlabelled rows,
``;`` separators with decimal commas, ``--k``/``--order`` lists, a target-only file,
identifier columns."""

import json

import joblib
import numpy as np
import pandas as pd
import pytest

from estimators.ktan import TANClassifier
from estimators.learning.evaluation import fold_metrics
from viz.cli import main
from viz.cli.table import detect_format


@pytest.fixture(scope="module")
def passengers() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    n = 60
    y = rng.choice(["yes", "no"], n)
    return pd.DataFrame({"survived": y, "sex": rng.choice(["m", "f"], n),
                         "age": np.round(rng.normal(30, 10, n) + 8 * (y == "yes"), 2),
                         "passengerClass": rng.choice(["1st", "2nd", "3rd"], n)})


def learn(tmp_path, csv, *options):
    out = tmp_path / "out"
    code = main(["learn", str(csv), "--target", "survived", "--model", "tan", "--cv", "3",
                 "--quiet", "--out", str(out), *options])
    return code, out


@pytest.mark.parametrize("numeric", [False, True])
def test_unlabelled_rows_are_dropped_counted_and_kept_out_of_the_folds(
        tmp_path, capsys, passengers, numeric):
    table = passengers.copy()
    if numeric:
        table["survived"] = (table["survived"] == "yes").astype(float)
    table.loc[[3, 10, 17], "survived"] = np.nan
    table.to_csv(tmp_path / "t.csv", index=False)
    code, out = learn(tmp_path, tmp_path / "t.csv")
    assert code == 0
    err = capsys.readouterr().err
    assert err.count("dropped 3 of 60 rows: no value in the target column 'survived'") == 1
    report = (out / "report.md").read_text()
    assert "57 rows" in report
    assert "rows without a value in the target column 'survived': 3" in report
    labelled = pd.read_csv(tmp_path / "t.csv").dropna(subset=["survived"])
    X, y = labelled.drop(columns="survived"), labelled["survived"]
    folds = fold_metrics(TANClassifier(verbose=False), X, y, n_splits=3, random_state=0)
    got = json.loads((out / "metrics.json").read_text())["metrics"]
    assert got["accuracy"]["mean"] == pytest.approx(folds["accuracy"].mean())
    assert got["log_loss"]["mean"] == pytest.approx(folds["log_loss"].mean())


def test_semicolon_and_decimal_comma_detected_or_given(tmp_path, passengers):
    passengers.to_csv(tmp_path / "comma.csv", index=False)
    passengers.to_csv(tmp_path / "semi.csv", sep=";", decimal=",", index=False)
    assert "25,64" in (tmp_path / "semi.csv").read_text()  # decimal commas in the file
    runs = {}
    for name, options in [("comma", ()), ("semi", ()), ("semi", ("--sep", ";")),
                          ("semi", ("--sep", ";", "--decimal", ","))]:
        code, out = learn(tmp_path, tmp_path / f"{name}.csv", *options)
        assert code == 0
        model = joblib.load(out / "model.joblib")
        assert model.feature_types_["age"] == "continuous"  # 25,64 read as 25.64
        runs[name, options] = (json.loads((out / "metrics.json").read_text())["metrics"],
                               (out / "report.md").read_text())
    reference = runs["comma", ()][0]
    assert all(metrics == reference for metrics, _ in runs.values())
    assert "separator ',' (detected), decimal mark '.' (default)" in runs["comma", ()][1]
    assert "separator ';' (detected), decimal mark ',' (detected)" in runs["semi", ()][1]
    assert "separator ';' (given with --sep), decimal mark ',' (detected)" in \
        runs["semi", ("--sep", ";")][1]
    assert "decimal mark ',' (given with --decimal)" in \
        runs["semi", ("--sep", ";", "--decimal", ",")][1]


@pytest.mark.parametrize(("text", "expected"), [
    ("a;b;class\n1,5;2;x\n2,25;3;y\n", (";", ",")),
    ("a;b;class\n1.5;2;x\n2;3;y\n", (";", ".")),
    ("a\tb\tclass\n1,5\t2\tx\n", ("\t", ",")),
    ('a,b,class\n"1,5",2,x\n', (",", ".")),  # a quoted comma is no separator
    ("a|b|class\n1|2|x\n", ("|", ".")),
    ("a;b;class\n1,5;2;x\n2,25;3;y\n1,5;2", (";", ",")),  # the sample cut inside a line
])
def test_detect_format(text, expected):
    assert detect_format(text) == expected


def test_k_and_order_take_comma_separated_lists(tmp_path, capsys, passengers):
    passengers.to_csv(tmp_path / "t.csv", index=False)
    code, out = learn(tmp_path, tmp_path / "t.csv", "--model", "ktan", "--k", "1,2")
    assert code == 0
    model = joblib.load(out / "model.joblib")
    assert model.k == [1, 2] and model.k_ in (1, 2)
    assert set(model.cv_results_["k"]) == {1, 2}
    out = tmp_path / "order"
    assert main(["learn", "iris", "--model", "kgnb", "--order", "3,4", "--cv", "2", "--quiet",
                 "--out", str(out)]) == 0
    model = joblib.load(out / "model.joblib")
    assert model.order == [3, 4] and model.order_ in (3, 4)
    assert set(model.cv_results_["order"]) == {3, 4}
    with pytest.raises(SystemExit) as exc:
        main(["learn", "car", "--model", "ktan", "--k", "1,two", "--out", str(out)])
    assert exc.value.code == 2
    assert "expected an int, 'auto' or a comma-separated list of ints, got '1,two'" in \
        capsys.readouterr().err


def test_target_only_csv_says_there_is_no_feature(tmp_path, capsys, passengers):
    passengers[["survived"]].to_csv(tmp_path / "t.csv", index=False)
    code, _ = learn(tmp_path, tmp_path / "t.csv")
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"kgraph learn: error: {tmp_path / 't.csv'} has no feature column besides "
                   "the target 'survived': a classifier needs at least one feature")


def test_identifier_column_left_out_with_one_warning_unless_typed(tmp_path, capsys,
                                                                  passengers):
    table = passengers.assign(name=[f"passenger {i}" for i in range(len(passengers))])
    table.to_csv(tmp_path / "t.csv", index=False)
    code, out = learn(tmp_path, tmp_path / "t.csv")
    assert code == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if "'name'" in line]
    assert lines == ["warning: left out 'name': a distinct string in every row is an "
                     "identifier, not a feature (keep it with --feature-types "
                     "name=categorical)"]
    model = joblib.load(out / "model.joblib")
    assert "name" not in model.feature_names_in_
    assert "identifier columns left out (a distinct string in every row; keep one with " \
           "--feature-types NAME=categorical): name" in (out / "report.md").read_text()
    code, out = learn(tmp_path, tmp_path / "t.csv", "--feature-types", "name=categorical")
    assert code == 0
    assert "'name'" not in capsys.readouterr().err
    model = joblib.load(out / "model.joblib")
    assert model.feature_types_["name"] == "categorical"
    assert "identifier columns left out: none" in (out / "report.md").read_text()


def test_tab_separator_given_by_name_and_bad_separator_refused(tmp_path, capsys, passengers):
    passengers.to_csv(tmp_path / "t.tsv.csv", sep="\t", index=False)
    code, out = learn(tmp_path, tmp_path / "t.tsv.csv", "--sep", "tab")
    assert code == 0
    assert "separator tab (given with --sep), decimal mark '.' (default)" in \
        (out / "report.md").read_text()
    with pytest.raises(SystemExit) as exc:
        learn(tmp_path, tmp_path / "t.tsv.csv", "--sep", ";;")
    assert exc.value.code == 2
    assert "expected one character (or tab) as the separator, got ';;'" in \
        capsys.readouterr().err
