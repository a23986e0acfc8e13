"""``kgraph compare`` (issue 46): the outputs on tables it has never seen, checked against
independent computations (``kgraph learn``'s metrics, scikit-learn's cross-validation,
pandas' means, scipy's Wilcoxon test), resuming after an interruption, parallel and Dask
cells, and every bad input."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from cli_tables import markdown_rows
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.naive_bayes import GaussianNB

from estimators.datasets import load_dataset
from viz.cli import main
from viz.compare import cells, run_comparison
from viz.compare.stats import holm

MODELS = "tan,kdb,tan --parameters discriminative"
TIMES = ["fit_time", "predict_time"]


@pytest.fixture(scope="module")
def csv_tables(tmp_path_factory):
    """Three small CSV tables (subsets of built-in data sets, the class column 'class')."""
    folder = tmp_path_factory.mktemp("tables")
    paths = []
    for name, rows in (("car", 150), ("votes", 120), ("balance_scale", 120)):
        X, y = load_dataset(name)
        frame = X.assign(**{"class": y.to_numpy()}).sample(rows, random_state=1)
        path = folder / f"{name}_part.csv"
        frame.to_csv(path, index=False)
        paths.append(path)
    return paths


@pytest.fixture(scope="module")
def compared(csv_tables, tmp_path_factory):
    out = tmp_path_factory.mktemp("compare") / "out"
    argv = ["compare", *(f"{p}:class" for p in csv_tables), "--models", MODELS, "--cv", "3",
            "--out", str(out), "--no-baselines", "--quiet"]
    assert main(argv) == 0
    return out


def test_writes_every_output_with_the_fold_scores(compared, csv_tables):
    folds = pd.read_csv(compared / "folds.csv")
    assert len(folds) == 3 * 3 * 3  # tables x models x folds
    assert set(folds["model"]) == {"tan", "kdb", "tan --parameters discriminative"}
    assert list(folds["table"].unique()) == [p.stem for p in csv_tables]
    for column in ["accuracy", "balanced_accuracy", "log_loss", "brier", *TIMES]:
        assert folds[column].notna().all()
    for name in ["cd_accuracy.pdf", "cd_log_loss.pdf"]:
        assert (compared / name).read_bytes().startswith(b"%PDF")
    board = (compared / "leaderboard.md").read_text()
    assert "fewer than 5" in board  # 3 tables: a warning, not silence
    # every per-table mean ± sd is pandas' over the folds, and the best of each row is bold
    means = folds.groupby(["table", "model"], sort=False)["accuracy"].agg(["mean", "std"])
    section = board.split("## accuracy")[1].split("##")[0]
    for table in folds["table"].unique():
        cells_ = next(row for row in markdown_rows(section) if row[0] == table)[1:]
        best = means.loc[table]["mean"].max()
        for model, cell in zip(folds["model"].unique(), cells_, strict=True):
            mean, sd = means.loc[(table, model)]
            assert cell.strip().strip("*") == f"{mean:.4f} ± {sd:.4f}"
            assert cell.strip().startswith("**") == (mean == best)


def test_latex_table_is_booktabs_with_one_cell_per_model(compared):
    tex = (compared / "table.tex").read_text()
    assert tex.count(r"\begin{table}") == tex.count(r"\end{table}") == 2
    for rule in (r"\toprule", r"\midrule", r"\bottomrule"):
        assert rule in tex
    assert tex.count("{") == tex.count("}")
    body = tex.split(r"\begin{tabular}")[1].split(r"\end{tabular}")[0]
    rows = [line for line in body.splitlines() if line.endswith(r"\\")]
    assert len(rows) == 1 + 3 + 2  # head, tables, mean rank and Wilcoxon
    assert all(row.count("&") == 3 for row in rows)  # three models
    assert all(r"\mathbf" in row for row in rows[1:4])  # a best in every table's row
    # two hyphens, not LaTeX's en dash
    assert "--parameters" not in tex and "tan -{}-parameters discriminative" in tex
    # three data sets: the Wilcoxon row cannot reach 0.05, and the caption says so
    assert "its smallest possible $p$ is 0.25, so it cannot show a difference" in tex
    assert "corrected resampled $t$-test" in tex


def _toy_folds(repeats: int, k: int = 5, gap: float = 0.02) -> pd.DataFrame:
    """Fold scores of three models on one table: "b" better than "a" by about ``gap`` on
    every fold of every repeat, "c" equal to "a" on average."""
    rng = np.random.default_rng(0)
    rows = []
    for r in range(repeats):
        for f in range(k):
            base = 0.8 + rng.normal(0, 0.01)
            for model, shift in (("a", 0.0), ("b", gap + rng.normal(0, 0.003)),
                                 ("c", rng.normal(0, 0.01))):
                rows.append({"table": "toy", "model": model, "repeat": r, "fold": f,
                             "accuracy": base + shift})
    return pd.DataFrame(rows)


def test_the_per_table_test_rejects_when_one_model_is_better_on_every_repeat():
    """Nadeau and Bengio's corrected resampled t-test over 10 x 5 folds marks "b" better
    than the reference "a" and leaves "c" unmarked; Wilcoxon over the 5 folds of one split
    could not (smallest two-sided p 0.0625); the statistic by hand equals the test's."""
    from scipy.stats import t as student

    from viz.compare.report import latex_table
    from viz.compare.stats import corrected_t_p, smallest_wilcoxon_p

    folds = _toy_folds(10)
    tex = latex_table(folds, "accuracy", "a")
    row = next(line for line in tex.splitlines() if line.startswith("toy &"))
    cells = row.removesuffix(r" \\").split(" & ")
    assert "^{+}" in cells[2] and "^{" not in cells[3]
    a = folds[folds.model == "a"].accuracy.to_numpy()
    b = folds[folds.model == "b"].accuracy.to_numpy()
    d = b - a
    stat = d.mean() / np.sqrt((1 / 50 + 1 / 4) * d.var(ddof=1))
    assert corrected_t_p(b, a, 1 / 4) == pytest.approx(2 * student.sf(stat, 49), rel=1e-12)
    assert smallest_wilcoxon_p(5) == 0.0625


def test_accuracy_equals_kgraph_learns_with_the_same_seed(compared, csv_tables, tmp_path):
    folds = pd.read_csv(compared / "folds.csv")
    path = csv_tables[0]
    assert main(["learn", str(path), "--model", "tan", "--cv", "3", "--out",
                 str(tmp_path / "learn"), "--quiet"]) == 0
    learned = json.loads((tmp_path / "learn" / "metrics.json").read_text())["metrics"]
    mine = folds[(folds["table"] == path.stem) & (folds["model"] == "tan")]
    assert mine["accuracy"].mean() == pytest.approx(learned["accuracy"]["mean"], abs=1e-12)
    assert mine["log_loss"].mean() == pytest.approx(learned["log_loss"]["mean"], abs=1e-12)


def test_an_importable_classifier_scores_as_scikit_learns_cross_validation():
    from sklearn.model_selection import StratifiedKFold, cross_validate
    from sklearn.naive_bayes import GaussianNB

    result = run_comparison(["iris", "wine"], ["sklearn.naive_bayes:GaussianNB var_smoothing=1e-6",
                                               "sklearn.dummy:DummyClassifier"],
                            cv=4, repeats=2, random_state=3, baselines=False, verbose=False)
    for name in ["iris", "wine"]:
        X, y = load_dataset(name)
        expected = np.concatenate([cross_validate(
            GaussianNB(var_smoothing=1e-6), X, y, scoring="accuracy",
            cv=StratifiedKFold(4, shuffle=True, random_state=seed))["test_score"]
            for seed in (3, 4)])
        got = result.folds[(result.folds["table"] == name)
                           & (result.folds["model"] == "sklearn.naive_bayes:GaussianNB "
                                                       "var_smoothing=1e-6")]
        np.testing.assert_allclose(got["accuracy"].to_numpy(), expected, atol=1e-12)
        assert got["repeat"].tolist() == [0] * 4 + [1] * 4


def test_nested_best_scores_as_the_model_it_chose():
    from estimators.learning.best_of import BestOfClassifier
    from viz.compare.models import BEST

    specs = ["sklearn.naive_bayes:GaussianNB", "sklearn.dummy:DummyClassifier"]
    result = run_comparison(["iris"], specs, cv=3, best=True, baselines=False, verbose=False)
    folds = result.folds.set_index(["model", "fold"])
    X, y = load_dataset("iris")
    for f, (train, _) in enumerate(cells.splits(result.tables[0], 3, 1, 0)):
        chooser = BestOfClassifier([(s, m.estimator) for s, m in
                                    zip(specs, result.models, strict=False)], 0)
        chosen = chooser.fit(X.iloc[train], y.iloc[train]).best_name_
        assert chosen == specs[0]
        assert folds.loc[(BEST, f), "log_loss"] == folds.loc[(chosen, f), "log_loss"]


def _scores(folds: pd.DataFrame) -> pd.DataFrame:
    return folds.drop(columns=TIMES).reset_index(drop=True)


def test_an_interrupted_run_resumes_with_the_same_numbers(tmp_path, monkeypatch):
    specs = ["gnb", "sklearn.naive_bayes:GaussianNB"]
    whole = run_comparison(["iris"], specs, tmp_path / "whole", cv=3,
                           baselines=False, verbose=False)
    real, calls = cells.score_cell, []

    def interrupted(*args):
        if len(calls) == 3:
            raise KeyboardInterrupt
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(cells, "score_cell", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_comparison(["iris"], specs, tmp_path / "again", cv=3, baselines=False,
                       verbose=False)
    from kgraph.store import StructureStore

    with StructureStore(tmp_path / "again" / "runs.db") as store:
        assert len(store.runs()) == 3  # the cells finished before Ctrl-C are kept
    calls.clear()
    monkeypatch.setattr(cells, "score_cell", lambda *a: (calls.append(1), real(*a))[1])
    resumed = run_comparison(["iris"], specs, tmp_path / "again", cv=3,
                             baselines=False, verbose=False)
    assert len(calls) == 6 - 3  # only the missing cells ran
    pd.testing.assert_frame_equal(_scores(resumed.folds), _scores(whole.folds))
    with StructureStore(tmp_path / "again" / "runs.db") as store:
        runs = store.runs(model="gnb", label="iris")
        assert sorted(r.fold for r in runs) == [0, 1, 2]
        assert runs[0].params["cv"] == 3 and runs[0].seed == 0
        # each fold's learned structure is the run's: the one a fit on its training rows gives
        from sklearn.base import clone

        X, y = load_dataset("iris")
        folds = cells.splits(resumed.tables[0], 3, 1, 0)
        for run in runs:
            train = folds[run.fold][0]
            fitted = clone(resumed.models[0].estimator).fit(X.iloc[train], y.iloc[train])
            assert store.structures(run.run_id) == [fitted.structure_]
        assert store.runs(model=specs[1], label="iris")[0].n_structures == 0


def test_a_changed_model_or_protocol_is_not_read_from_the_store(tmp_path, monkeypatch):
    store = tmp_path / "runs.db"
    run_comparison(["iris"], ["sklearn.naive_bayes:GaussianNB"], None, cv=3, store=store,
                   baselines=False, verbose=False)
    real, calls = cells.score_cell, []
    monkeypatch.setattr(cells, "score_cell", lambda *a: (calls.append(1), real(*a))[1])
    run_comparison(["iris"], ["sklearn.naive_bayes:GaussianNB"], None, cv=3, store=store,
                   baselines=False, verbose=False)
    assert calls == []
    run_comparison(["iris"], ["sklearn.naive_bayes:GaussianNB var_smoothing=0.1"], None, cv=3,
                   store=store, baselines=False, verbose=False)
    run_comparison(["iris"], ["sklearn.naive_bayes:GaussianNB"], None, cv=4, store=store,
                   baselines=False, verbose=False)
    assert len(calls) == 3 + 4


def test_parallel_and_dask_cells_give_the_same_numbers(tmp_path):
    from dask.distributed import LocalCluster

    specs = ["sklearn.naive_bayes:GaussianNB", "sklearn.dummy:DummyClassifier"]
    one = run_comparison(["iris"], specs, cv=3, baselines=False, verbose=False)
    two = run_comparison(["iris"], specs, cv=3, baselines=False, verbose=False, n_jobs=2)
    pd.testing.assert_frame_equal(_scores(two.folds), _scores(one.folds))
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                      dashboard_address=":0") as cluster:
        on_dask = run_comparison(["iris"], specs, cv=3, baselines=False, verbose=False,
                                 engine="dask", scheduler=cluster.scheduler_address)
    pd.testing.assert_frame_equal(_scores(on_dask.folds), _scores(one.folds))


def test_baselines_are_on_by_default():
    from viz.compare.models import parse_models

    labels = [m.label for m in parse_models(["tan"])]
    assert labels == ["tan", "LR", "HGB", "mixed NB"]
    assert [m.label for m in parse_models(["tan"], baselines=False)] == ["tan"]
    lr = parse_models(["tan"])[1].estimator[-1]
    assert type(lr).__name__ == "LogisticRegressionCV" and lr.scoring == "neg_log_loss"


def test_the_wilcoxon_marks_are_scipys_with_holms_correction(tmp_path):
    from scipy.stats import wilcoxon

    specs = ["sklearn.dummy:DummyClassifier", "sklearn.naive_bayes:GaussianNB",
             "sklearn.tree:DecisionTreeClassifier random_state=0"]
    result = run_comparison(["iris"], specs, tmp_path, cv=8, baselines=False, verbose=False)
    folds = result.folds
    tex = (tmp_path / "table.tex").read_text()
    for table in ["iris"]:
        row = next(line for line in tex.splitlines() if line.startswith(f"{table} &"))
        part = folds[folds.table == table]
        ref = part[part.model == specs[0]]["accuracy"].to_numpy()
        raw = [wilcoxon(part[part.model == m]["accuracy"].to_numpy() - ref).pvalue
               for m in specs[1:]]
        marks = ["^{+}" in cell for cell in row.split("&")[2:]]
        assert marks == [p < 0.05 for p in holm(raw)]
        assert all(marks)  # 8 folds each won: p = 2 / 2**8, times 2 models


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(1e-6, 1.0), min_size=1, max_size=8), st.floats(0.001, 0.2))
def test_holm_rejects_as_its_step_down_procedure(pvalues, alpha):
    # Holm (1979): reject H_(1), H_(2), ... while p_(i) <= alpha / (m - i + 1)
    order = np.argsort(pvalues, kind="stable")
    rejected = set()
    for i, j in enumerate(order):
        if pvalues[j] > alpha / (len(pvalues) - i):
            break
        rejected.add(int(j))
    assert {i for i, p in enumerate(holm(pvalues)) if p <= alpha} == rejected


@pytest.mark.parametrize("argv, message", [
    (["iris", "--models", "nosuch"], "neither a kgraph model"),
    (["iris", "--models", "tan --cv 3"], "--cv is not a model option"),
    (["iris", "--models", "tan --k 2"], "--k does not apply to --model tan"),
    (["iris", "--models", "tan --parameters nosuch"], "invalid choice"),
    (["iris", "--models", "nosuch.module:Thing"], "cannot import 'Thing'"),
    (["iris", "--models", "sklearn.preprocessing:StandardScaler"], "no predict_proba method"),
    (["iris", "--models", "sklearn.naive_bayes:GaussianNB 3"], "expected name=value"),
    (["iris", "--models", "tan,tan"], "'tan' is given twice"),
    (["iris", "--models", "tan", "--reference", "kdb"], "the reference 'kdb' is not one"),
    (["iris", "--models", "tan", "--cv", "1"], "cv must be at least 2"),
    (["nosuch", "--models", "tan"], "neither a CSV file, a folder"),
    (["iris", "iris", "--models", "tan"], "two tables are named 'iris'"),
    (["iris", "--models", "tan", "--scheduler", "x:1"], "--scheduler needs --engine dask"),
])
def test_bad_inputs_exit_2_with_a_reason(argv, message, tmp_path, capsys):
    assert main(["compare", *argv, "--out", str(tmp_path / "o"), "--no-baselines"]) == 2
    assert message in capsys.readouterr().err


def test_csv_targets_and_folders(tmp_path, capsys):
    X, y = load_dataset("iris")
    folder = tmp_path / "tables"
    folder.mkdir()
    X.assign(species=y).to_csv(folder / "a.csv", index=False)
    X.assign(species=y).iloc[::-1].to_csv(folder / "b.csv", index=False)
    out = str(tmp_path / "o")
    assert main(["compare", str(folder), "--models", "gnb", "--out", out]) == 2
    assert "needs --target" in capsys.readouterr().err
    assert main(["compare", str(folder / "a.csv"), "--models", "gnb", "--out", out]) == 2
    assert re.search(r"a\.csv:COLUMN or give --target", capsys.readouterr().err)
    assert main(["compare", f"{folder / 'a.csv'}:nosuch", "--models", "gnb", "--out", out]) == 2
    assert "nosuch" in capsys.readouterr().err
    result = run_comparison([str(folder)], ["gnb"], cv=3, target="species", baselines=False,
                            verbose=False)
    assert [t.name for t in result.tables] == ["a", "b"]
    assert result.tables[0].data_hash != result.tables[1].data_hash  # rows in another order


def test_warnings_are_one_line_per_kind_and_listed_in_the_leaderboard(tmp_path, capsys):
    spec = "sklearn.linear_model:LogisticRegression max_iter=1"
    for _ in range(2):  # the second run reads the cells, and their warnings, from the store
        result = run_comparison(["iris"], [spec, "sklearn.dummy:DummyClassifier"], tmp_path,
                                cv=3, baselines=False, verbose=False)
        err = capsys.readouterr().err
        lines = [line for line in err.splitlines() if "ConvergenceWarning" in line]
        assert len(lines) == 1 and "(3 times: iris / " + spec in lines[0]
    assert "warnings" not in result.folds.columns
    board = (tmp_path / "leaderboard.md").read_text()
    section = board.split("## Warnings")[1]
    assert f"### iris / {spec}" in section and "`ConvergenceWarning`" in section
    assert "DummyClassifier" not in section


class FailsOnWine(ClassifierMixin, BaseEstimator):
    """GaussianNB, except on tables of 13 features (wine), where the fit raises."""

    def fit(self, X, y):
        if np.shape(X)[1] == 13:
            raise ValueError("no wine here\nsecond line")
        self.model_ = GaussianNB().fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict_proba(self, X):
        return self.model_.predict_proba(X)


def test_a_failing_model_is_reported_and_the_others_are_scored(tmp_path):
    from sklearn.model_selection import StratifiedKFold, cross_val_score

    result = run_comparison(["iris", "wine", "breast_cancer"],
                            {"nb": GaussianNB(), "sometimes": FailsOnWine()}, tmp_path,
                            cv=3, baselines=False, verbose=False)
    folds = pd.read_csv(tmp_path / "folds.csv")
    failed = folds[folds["error"].notna()]
    assert set(zip(failed["table"], failed["model"], strict=True)) == {("wine", "sometimes")}
    assert (failed["error"] == "ValueError: no wine here").all()
    assert failed["accuracy"].isna().all()
    # the model that ran is scored exactly as scikit-learn scores it on the same folds
    X, y = load_dataset("wine")
    expected = cross_val_score(GaussianNB(), X, y,
                               cv=StratifiedKFold(3, shuffle=True, random_state=0))
    got = folds[(folds["table"] == "wine") & (folds["model"] == "nb")]["accuracy"]
    np.testing.assert_allclose(got.to_numpy(), expected, atol=1e-12)
    board = (tmp_path / "leaderboard.md").read_text()
    assert ["wine", "sometimes", "3", "ValueError: no wine here"] in markdown_rows(board)
    assert "Ranks and means over the 2 tables where every model ran (left out, a model " \
           "failed: wine)" in board
    assert any(r[0] == "wine" and re.fullmatch(r"\*\*[0-9.]+ ± [0-9.]+\*\*", r[1])
               and r[2] == "error" for r in markdown_rows(board))
    assert "& failed" in (tmp_path / "table.tex").read_text()
    assert len(result.files) == 7  # folds, leaderboard, table, 2 diagrams x pdf/png
