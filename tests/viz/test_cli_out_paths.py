"""Output paths are checked before any work: ``kgraph learn``, ``compare`` and ``plot`` refuse
an ``--out`` they could not write in one line (exit 2) before they fit anything, so a long
fit is never lost to a bad path; and the report gives CPU seconds and the load beside the
wall time."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from viz.cli import main

#: a folder no one can create files in, root included (sysfs)
READ_ONLY = Path("/sys")


@pytest.fixture
def no_fit(monkeypatch):
    """Fail the test if a fit starts."""
    from estimators.learning import evaluation

    def refuse(*args, **kwargs):
        raise AssertionError("a fit started before --out was checked")

    monkeypatch.setattr(evaluation, "fold_metrics", refuse)


def _refused(capsys, argv: list[str], words: list[str]) -> None:
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"kgraph {argv[0]}: error: cannot write "
                                                   "to --out "), err
    for word in words:
        assert word in lines[0], (word, lines[0])


def test_learn_refuses_an_out_that_is_a_file_before_fitting(tmp_path, capsys, no_fit):
    (tmp_path / "taken").write_text("a file")
    _refused(capsys, ["learn", "iris", "--model", "tan", "--out", str(tmp_path / "taken")],
             ["taken: it is a file, not a folder"])


def test_learn_refuses_an_out_below_a_file_before_fitting(tmp_path, capsys, no_fit):
    (tmp_path / "taken").write_text("a file")
    out = tmp_path / "taken" / "run"
    _refused(capsys, ["learn", "iris", "--model", "tan", "--out", str(out)],
             [f"{tmp_path / 'taken'} is a file, not a folder"])


@pytest.mark.skipif(not READ_ONLY.is_dir() or os.access(READ_ONLY, os.W_OK)
                    and os.geteuid() != 0, reason="needs a read-only folder")
def test_learn_refuses_a_read_only_folder_before_fitting(tmp_path, capsys, no_fit):
    _refused(capsys, ["learn", "iris", "--model", "tan", "--out", str(READ_ONLY / "run")],
             ["/sys/run: ", "(/sys)"])


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a folder of mode 0o555")
def test_learn_refuses_a_folder_without_write_permission(tmp_path, capsys, no_fit):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        _refused(capsys, ["learn", "iris", "--model", "tan", "--out", str(locked / "run")],
                 ["Permission denied"])
    finally:
        locked.chmod(0o755)


def test_compare_refuses_a_bad_out_before_any_cell(tmp_path, capsys, monkeypatch):
    import viz.compare

    def refuse(*args, **kwargs):
        raise AssertionError("the comparison started before --out was checked")

    monkeypatch.setattr(viz.compare, "run_comparison", refuse)
    (tmp_path / "taken").write_text("a file")
    _refused(capsys, ["compare", "iris", "--models", "tan", "--out", str(tmp_path / "taken")],
             ["it is a file, not a folder"])


@pytest.mark.parametrize(("command", "source", "name"), [
    (["plot"], "structure.json", "figure.pdf"),
    (["export"], "model.joblib", "model.graphml"),
])
def test_plot_and_export_refuse_an_out_that_is_a_folder(tmp_path, capsys, command, source,
                                                         name):
    assert main(["learn", "iris", "--model", "tan", "--out", str(tmp_path / "run"),
                 "--quiet"]) == 0
    capsys.readouterr()
    folder = tmp_path / name
    folder.mkdir()
    extra = ["--to", "graphml"] if command == ["export"] else []
    _refused(capsys, [*command, str(tmp_path / "run" / source), *extra, "--out", str(folder)],
             [f"{name}: it is a folder, not a file"])


def test_the_report_gives_cpu_seconds_and_the_load(tmp_path, capsys):
    assert main(["learn", "iris", "--model", "tan", "--out", str(tmp_path / "run"),
                 "--quiet"]) == 0
    report = (tmp_path / "run" / "report.md").read_text()
    line = next(x for x in report.splitlines() if "cross-validation took" in x)
    assert " s wall, " in line and " s CPU; load average " in line and " at the end" in line
