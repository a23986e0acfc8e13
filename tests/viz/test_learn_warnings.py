"""``kgraph learn`` on a table whose folds all warn (issue 25): one terminal line per kind
of warning, every message per fold in report.md; ``fit`` in Python still raises each
distinct warning once."""

import re
import warnings
from collections import Counter

import pytest
from sklearn.model_selection import StratifiedKFold

from estimators.base.validation import DegenerateFeatureWarning
from estimators.datasets import load_dataset
from estimators.ktan import TANClassifier
from viz.cli import main


def _fold_messages(X, y, folds: int) -> list[set[str]]:
    """The warnings TAN raises on each training part of the CLI's folds, fitted here."""
    out = []
    for train, _ in StratifiedKFold(folds, shuffle=True, random_state=0).split(X, y):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            TANClassifier(verbose=False).fit(X.iloc[train], y.iloc[train])
        out.append({str(w.message) for w in caught})
    return out


def _section(report: str, title: str) -> list[str]:
    """The ``- `Category`: message`` items under ``### title`` of the report."""
    body = report.split(f"### {title}\n", 1)[1].split("\n### ", 1)[0].split("\n## ", 1)[0]
    return [line for line in body.splitlines() if line.startswith("- `")]


def test_learn_prints_one_line_per_kind_and_reports_every_fold(tmp_path, capsys):
    X, y = load_dataset("yeast")  # erl/pox constant within most classes; 'ERL' has 5 rows
    out = tmp_path / "run"
    assert main(["learn", "yeast", "--model", "tan", "--cv", "3", "--quiet",
                 "--out", str(out)]) == 0
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("warning:")]
    expected = _fold_messages(X, y, 3)
    assert all(len(fold) >= 2 for fold in expected)  # every fold warns, two kinds
    assert len({m for fold in expected for m in fold}) > 2  # the class lists differ by fold
    assert len(lines) == 2, err
    within = next(line for line in lines if "constant within a class" in line)
    assert within.startswith("warning: DegenerateFeatureWarning (4 times: folds 1-3, final fit)")
    assert "'erl', 'pox'" in within and "every one in report.md" in within
    assert all(len(line) < 300 for line in lines)
    report = (out / "report.md").read_text()
    for k, messages in enumerate(expected, start=1):
        items = _section(report, f"Fold {k}")
        got = {re.sub(r"^- `DegenerateFeatureWarning`: ", "", item) for item in items}
        assert got == messages
    assert _section(report, "Final fit")


def test_fit_still_raises_each_distinct_warning_once():
    X, y = load_dataset("yeast")
    with pytest.warns(DegenerateFeatureWarning) as record:
        TANClassifier().fit(X, y)
    counts = Counter((w.category, str(w.message)) for w in record)
    assert counts and set(counts.values()) == {1}
    assert any("constant within a class" in m for _, m in counts)
