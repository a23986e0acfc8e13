"""``kgraph learn``: every output file, and one-line errors with status 2."""

import json

import joblib
import pandas as pd
import pytest
from cli_tables import markdown_rows

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
        # --k auto's inner CV on car (the slowest case; the default run has --k auto on
        # penguins in test_learn_report.py and --structure-score in the plug-in tests)
        pytest.param("car", ["--model", "ktan", "--k", "auto", "--structure-score", "bic",
                             "--ess", "4"], marks=pytest.mark.slow),
        ("wine", ["--model", "latent-cnb", "--n-components", "2"]),
        ("iris", ["--model", "latent-cnb", "--n-components", "auto"]),
        ("penguins", ["--model", "ban", "--max-parents", "1"]),
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
    assert report.startswith("# ") and ["accuracy"] in [r[:1] for r in markdown_rows(report)]


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
        (["car", "--model", "kdb", "--k", "auto"],
         "--k does not apply to --model kdb (its model options: --max-parents, --features, "
         "--alpha, --ess, --parameters, --continuous, --max-cells, --hdp-iterations, "
         "--hdp-burn-in, --hdp-tying, --discretize); the models that take --k: ktan"),
        (["car", "--model", "kdb", "--max-parents", "auto"],
         "argument --max-parents: expected an int, got 'auto'"),
        (["car", "--model", "latent-cnb", "--n-components", "x"],
         "expected an int or 'auto', got 'x'"),
        (["DATA.csv", "--model", "tan", "--feature-types", "b=categorical"],
         "--feature-types names column 'b', which is not a feature; the features are ['a']"),
        (["DATA.csv", "--model", "tan", "--feature-types", "a=ordinal"],
         "column 'a': type 'ordinal' is not one of continuous, categorical"),
        (["DATA.csv", "--model", "tan", "--feature-types", "a"], "expected COLUMN=TYPE, got 'a'"),
        (["penguins", "--model", "tan", "--target", "sex"],
         "the class of the built-in data set penguins is 'species', not 'sex'"),
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


def _learn_parser():
    import argparse

    from viz.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    parser = sub.choices["learn"]
    parser.format_help()  # the model options are added when the parser is first used
    return parser


def test_every_choices_list_is_its_registry():
    from estimators.columns import DISCRETIZERS
    from estimators.columns.feature_families import FEATURE_FAMILIES
    from estimators.discriminative import PARAMETERS
    from estimators.gnb import DEPENDENCES
    from estimators.latent import FAMILIES, PRIORS
    from estimators.scores import score_names
    from estimators.search import searcher_names
    from estimators.semiparametric import KINDS
    from viz.cli.engine import ENGINES
    from viz.cli.learn import MODELS

    expected = {"model": sorted(MODELS), "dependence": list(DEPENDENCES),
                "search": searcher_names(), "features": list(FEATURE_FAMILIES),
                "prior": list(PRIORS), "family": list(FAMILIES),
                "structure_score": [*score_names(), "auto"], "engine": list(ENGINES),
                "parameters": [*PARAMETERS, "hdp"], "continuous": list(KINDS),
                "discretize": list(DISCRETIZERS)}
    found = {a.dest: list(a.choices) for a in _learn_parser()._actions if a.choices}
    assert found == expected


def test_a_searcher_registered_once_is_offered_by_the_cli():
    from estimators.search import SEARCHERS, register_searcher

    register_searcher("demo", SEARCHERS["greedy"])
    try:
        search = next(a for a in _learn_parser()._actions if a.dest == "search")
        assert "demo" in search.choices
    finally:
        del SEARCHERS["demo"]


def test_backbone_names_come_from_the_registry(tmp_path, capsys):
    from estimators.search import BACKBONE_METHODS

    with pytest.raises(SystemExit) as info:
        main(["learn", "iris", "--model", "kgnb", "--backbone", "zigzag", "--out", str(tmp_path)])
    assert info.value.code == 2
    assert f"expected one of {', '.join(BACKBONE_METHODS)}" in capsys.readouterr().err


@pytest.mark.parametrize("backbone", ["mst-dfs", "local-search"])
def test_kgnb_with_a_named_backbone(tmp_path, backbone):
    code, out = run_learn(tmp_path, "iris", "--model", "kgnb", "--backbone", backbone)
    assert code == 0
    model = joblib.load(out / "model.joblib")
    from estimators.gnb import KGNBClassifier
    from estimators.search import backbone_order, canonical_order

    assert model.backbone == backbone and model.search == "backbone-dp"
    assert model.structure_.k == 2
    if backbone == "mst-dfs":  # the DP kept the mst-dfs order of the CMI edge matrix
        X, y = load_iris_frame()
        names = canonical_order(X.columns)  # the classifiers search in the names' order
        perm = [list(X.columns).index(v) for v in names]
        W = _edge_matrix(X, y)[perm][:, perm]
        ref = KGNBClassifier(search="backbone-dp", backbone=list(backbone_order(
            W, "mst-dfs", variables=names))).fit(X, y)
        assert model.structure_ == ref.structure_


def load_iris_frame():
    from estimators.datasets import load_dataset

    return load_dataset("iris")


def _edge_matrix(X, y):
    import numpy as np

    from estimators.scores import GaussianCMI

    return GaussianCMI().fit(X.to_numpy(float), np.unique(y, return_inverse=True)[1]).edge_matrix()


def test_learn_mixed_csv_reports_types_missing_cells_and_marginalisation(tmp_path):
    csv = tmp_path / "mixed.csv"
    csv.write_text("colour,size,flag,site,NA_text,label\n"
                   + "".join(f"{c},{s},{f},7,NA,{lab}\n" for c, s, f, lab in [
                       ("red", 1.5, 1, "a"), ("blue", 2.25, 0, "b"), ("", 1.75, 1, "a"),
                       ("red", "", 0, "b"), ("blue", 3.5, 1, "a"), ("red", 2.5, 0, "b")] * 3))
    code, out = run_learn(tmp_path, str(csv), "--target", "label", "--model", "latent-cnb",
                          "--feature-types", "size=continuous,flag=categorical")
    assert code == 0 and {p.name for p in out.iterdir()} == FILES
    model = joblib.load(out / "model.joblib")
    # empty cells are missing; the text "NA" stays a string (here a constant column)
    assert model.feature_types_ == {"colour": "categorical", "size": "continuous",
                                    "flag": "categorical", "site": "constant",
                                    "NA_text": "constant"}
    report = (out / "report.md").read_text()
    rows = markdown_rows(report)
    assert ["colour", "categorical (2 categories)", "3"] in rows
    assert ["size", "continuous", "3"] in rows
    assert ["site", "constant: left out", "0"] in rows
    assert "constant columns left out of the model: site, NA_text" in report
    assert "missing cells: 6 in 2 column(s), 6 row(s) with at least one" in report
    assert "prediction marginalises missing cells" in report


def test_builtin_mixed_table_accepts_its_own_target(tmp_path):
    code, out = run_learn(tmp_path, "penguins", "--target", "species", "--model", "latent-cnb",
                          "--n-components", "2")
    assert code == 0
    assert joblib.load(out / "model.joblib").classes_.tolist() == ["Adelie", "Chinstrap",
                                                                   "Gentoo"]


def test_a_model_option_the_model_does_not_take_is_refused(tmp_path, capsys):
    """--parameters with --model aode (which has no discriminative mode) was silently
    ignored: the run fitted the generative AODE. Now it exits 2 and names what the model
    takes, and the parser says so (before the table is read)."""
    with pytest.raises(SystemExit) as exc:
        main(["learn", "iris", "--model", "aode", "--parameters", "discriminative",
              "--k", "2", "--out", str(tmp_path / "run")])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--parameters, --k do not apply to --model aode" in err
    assert "its model options: --alpha, --max-cells, --smoothing, --hdp-iterations, " \
           "--hdp-burn-in, --hdp-tying, --discretize); the models that take --parameters: " \
           "gnb, tan, ktan, kdb, ban; --k: ktan" in err
    assert not (tmp_path / "run").exists()
