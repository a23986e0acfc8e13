"""The numbers the table benchmarks write are reproduced by independent computations (issue
46: "a test reruns the quick modes and compares their numbers, not only their headers").

``real_tables.py`` and then ``leaderboard.py`` (the same code, ``main()``, through ``kgraph
compare``'s cells and run store) are run on two small tables (wine; penguins, mixed columns
with missing cells) with the model registry cut to two kgraph models and the baselines'
inner search cut short (for time), and every number they write is checked against a recomputation that shares none of their code path:

- every row (``tan``, ``gnb`` and the baselines) equals a clone of the same estimator fitted
  on each training part of scikit-learn's ``StratifiedKFold(5, shuffle=True,
  random_state=0)`` and scored by ``accuracy_score`` and ``log_loss``;
- the ``tan`` row equals ``kgraph learn --model tan --random-state 0 --cv 5`` on the same
  table (its own cross-validation, ``metrics.csv``), as issue 46's acceptance asks;
- the counts against the baselines and the leaderboard's mean ranks are recounted from those
  independent numbers (ranks by ``scipy.stats.rankdata``).
"""

from __future__ import annotations

import re
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata
from sklearn.base import clone
from sklearn.metrics import accuracy_score, log_loss
from sklearn.model_selection import StratifiedKFold

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import _common  # noqa: E402
import leaderboard  # noqa: E402
import real_tables  # noqa: E402
from _baselines import BASELINES, BOOSTING, GAUSSIAN_NB, LOGISTIC  # noqa: E402
from _models import kgraph_classifiers  # noqa: E402

from estimators.datasets import load_dataset  # noqa: E402
from viz.cli import main as kgraph  # noqa: E402

TABLES = ["wine", "penguins"]
KGRAPH = ["tan", "gnb"]  # two rows of the registry (the command line's models)
MEAN_SD = re.compile(r"(\d+\.\d{4}) ± (\d+\.\d{4})")


def _row(text: str, section: str, label: str) -> list[str]:
    """The cells of the markdown row ``| label | ...`` under the heading ``section``."""
    body = text.split(f"\n## {section}\n")[1].split("\n## ")[0]
    line = next(line for line in body.splitlines() if line.startswith(f"| {label} |"))
    return [c.strip() for c in line.strip().strip("|").split("|")[1:]]


def _cheap_baselines() -> dict:
    """The benchmarks' baselines, LR's inner search and HGB's boosting cut short (3 values of
    C by 3-fold CV; 10 iterations) so that the test takes seconds; the same estimators for
    the benchmark run and the recomputation."""
    out = {label: clone(model) for label, model in BASELINES.items()}
    out[LOGISTIC].set_params(logisticregressioncv__Cs=3, logisticregressioncv__cv=3)
    out[BOOSTING].set_params(histgradientboostingclassifier__max_iter=10)
    return out


@pytest.fixture(scope="module")
def models():
    """The rows: two kgraph models of the registry, then the (cheap) baselines."""
    subset = {k: m for k, m in kgraph_classifiers().items() if k in KGRAPH}
    assert sorted(subset) == sorted(KGRAPH)
    return subset, _cheap_baselines()


@pytest.fixture(scope="module")
def written(models, tmp_path_factory):
    """real_tables.md and then leaderboard.md of the two tables (one run store)."""
    ours, baselines = models
    folder = tmp_path_factory.mktemp("results")
    patch = pytest.MonkeyPatch()
    patch.setattr(_common, "RESULTS", folder)
    patch.setattr(_common, "QUICK", False)
    for script in (real_tables, leaderboard):
        patch.setattr(script, "kgraph_classifiers", lambda: dict(ours))
        patch.setattr(script, "BASELINES", baselines)
    patch.setattr(real_tables, "default_classifiers", lambda: dict(ours))
    patch.setattr(leaderboard, "RESULTS", folder)
    patch.setattr(sys, "argv", ["x.py", "--tables", ",".join(TABLES), "--repeats", "1",
                                "--cache", str(folder / "cache")])
    try:
        with warnings.catch_warnings():  # 2 tables: the Friedman test's warning
            warnings.simplefilter("ignore", UserWarning)
            real_tables.main()
            leaderboard.main()
    finally:
        patch.undo()
    return {name: (folder / f"{name}.md").read_text() for name in ("real_tables", "leaderboard")}


@pytest.fixture(scope="module")
def independent(models):
    """(accuracy of each fold, log-loss of each fold) by table and row: a clone of each model
    fitted on each training part of scikit-learn's ``StratifiedKFold(5, shuffle=True,
    random_state=0)`` and scored by ``accuracy_score`` and ``log_loss`` (no benchmark code)."""
    ours, baselines = models
    out = {}
    for name in TABLES:
        X, y = load_dataset(name)
        folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
        out[name] = {}
        for label, model in {**ours, **baselines}.items():
            acc, loss = [], []
            for train, test in folds:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    fitted = clone(model).fit(X.iloc[train], y.iloc[train])
                    predicted = fitted.predict(X.iloc[test])
                    proba = fitted.predict_proba(X.iloc[test])
                acc.append(accuracy_score(y.iloc[test], predicted))
                loss.append(log_loss(y.iloc[test], proba, labels=fitted.classes_))
            out[name][label] = (np.array(acc), np.array(loss))
    return out


def _mean_sd(folds) -> tuple[float, float]:
    """Mean and std (ddof 1) of fold scores."""
    return float(np.mean(folds)), float(np.std(folds, ddof=1))


def test_every_row_of_real_tables_equals_an_independent_cross_validation(written, independent):
    text = written["real_tables"]
    for name, rows in independent.items():
        for label, (acc, loss) in rows.items():
            cells = _row(text, name, label)
            for cell, value in zip(cells[:2], (acc, loss), strict=True):
                mean, sd = (float(v) for v in MEAN_SD.fullmatch(cell).groups())
                want_mean, want_sd = _mean_sd(value)
                assert mean == pytest.approx(want_mean, abs=5.1e-5), (name, label, cell)
                assert sd == pytest.approx(want_sd, abs=5.1e-5), (name, label, cell)


def test_the_tan_row_equals_kgraph_learn_with_the_same_seed(written, tmp_path):
    assert kgraph(["learn", TABLES[0], "--model", "tan", "--random-state", "0", "--cv", "5",
                   "--out", str(tmp_path), "--quiet"]) == 0
    folds = pd.read_csv(tmp_path / "metrics.csv")  # one row per fold
    cells = _row(written["real_tables"], TABLES[0], "tan")
    for cell, metric in zip(cells[:2], ("accuracy", "log_loss"), strict=True):
        mean, sd = (float(v) for v in MEAN_SD.fullmatch(cell).groups())
        assert mean == pytest.approx(folds[metric].mean(), abs=5.1e-5), cell
        assert sd == pytest.approx(folds[metric].std(ddof=1), abs=5.1e-5), cell


def test_counts_against_the_baselines_are_recounted_from_the_independent_numbers(
        models, written, independent):
    means = {n: {label: (np.mean(a), np.mean(b)) for label, (a, b) in rows.items()}
             for n, rows in independent.items()}
    text = written["real_tables"]
    body = text.split("## Each model against each baseline")[1]
    line = next(line for line in body.splitlines() if line.startswith("| tan |"))
    cells = [c.strip() for c in line.strip().strip("|").split("|")[1:]]
    baselines = list(models[1])
    assert len(cells) == len(baselines) + 1
    for cell, baseline in zip(cells, baselines, strict=False):
        above = sum(means[n]["tan"][0] >= means[n][baseline][0] for n in TABLES)
        below = sum(means[n]["tan"][1] <= means[n][baseline][1] for n in TABLES)
        # one repeat: "in every repeat" (in brackets) is the same count
        assert cell == f"{above} ({above}) / {below} of {len(TABLES)}", baseline
    near = sum(means[n]["tan"][0] - means[n][LOGISTIC][0] >= -0.02 for n in TABLES)
    assert cells[-1] == f"{near} of {len(TABLES)}"
    goal = re.search(r"\btan (\d+) of (\d+)", text.split("Goal of issue 11")[1]).groups()
    above = sum(means[n]["tan"][0] >= means[n][GAUSSIAN_NB][0] for n in TABLES)
    assert goal == (str(above), str(len(TABLES)))


def test_leaderboard_means_and_ranks_equal_the_independent_numbers(written, independent):
    text = written["leaderboard"]
    for title, which, higher in (("accuracy", 0, True), ("log-loss", 1, False)):
        section = text.split(f"\n## {title}\n")[1].split("\n## ")[0]
        head = next(line for line in section.splitlines() if line.startswith("| table |"))
        order = [c.strip() for c in head.strip().strip("|").split("|")[1:]]
        board = {}
        for name in TABLES:
            line = next(line for line in section.splitlines() if line.startswith(f"| {name} |"))
            values = [float(c.strip().strip("*")) for c in line.strip().strip("|").split("|")[1:]]
            board[name] = dict(zip(order, values, strict=True))
            assert set(order) == set(independent[name])
            for label in order:
                want = _mean_sd(independent[name][label][which])[0]
                assert board[name][label] == pytest.approx(want, abs=5.1e-5), (title, name, label)
        # mean ranks: scipy's average ranks of the independent means, table by table
        ranks = np.mean([rankdata([(-1 if higher else 1) * np.mean(independent[n][m][which])
                                   for m in order]) for n in TABLES], axis=0)
        for label, rank in zip(order, ranks, strict=True):
            row = next(line for line in section.splitlines() if line.startswith(f"| {label} |"))
            assert float(row.split("|")[2]) == pytest.approx(rank, abs=0.005), (title, label)
