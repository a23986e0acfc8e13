"""``python -m benchmarks``: every results-writing script is a step (or excluded with a
reason), and each step's ``--quick`` mode writes the files it claims, each .md with the
provenance header, with the same numbers as the committed ``benchmarks/results/*_quick*``
files except those the step declares varying (``Step.varying``: times, speeds, load;
:mod:`benchmarks._quick_numbers`). The quick runs take minutes: they are marked ``benchmarks`` (deselected by
default; ``.ci/run`` runs them in a step of their own with ``-m benchmarks``)."""

import sys
from pathlib import Path

import pytest

from benchmarks.__main__ import NOT_STEPS, STEPS, main
from benchmarks._currency import moved_numbers, run_quick, unwritten

ROOT = Path(__file__).resolve().parents[2]


def test_every_script_is_a_step_or_excluded_with_a_reason():
    scripts = {p.stem for p in (ROOT / "benchmarks").glob("*.py")
               if not p.stem.startswith("_")}
    assert scripts == {s.script for s in STEPS} | set(NOT_STEPS)
    assert len({s.name for s in STEPS}) == len(STEPS)


def test_list_and_unknown_steps(capsys):
    assert main(["list", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "real_tables: python benchmarks/real_tables.py --quick -> real_tables_quick.md" in out
    with pytest.raises(SystemExit):
        main(["no_such_step"])
    assert "unknown steps ['no_such_step']" in capsys.readouterr().err


def test_arguments_after_a_double_dash_reach_every_step(capsys):
    assert main(["list", "--", "--repeats", "2"]) == 0
    out = capsys.readouterr().out
    assert ("real_tables: python benchmarks/real_tables.py --repeats 1 --n-jobs 2 "
            "--repeats 2 -> real_tables.md") in out
    assert "startup: python benchmarks/startup.py --repeats 2 -> startup.md" in out


def test_write_puts_the_provenance_header_on_top(tmp_path, monkeypatch):
    import benchmarks._common as _common

    monkeypatch.setattr(_common, "RESULTS", tmp_path)
    monkeypatch.setattr(_common, "QUICK", False)
    monkeypatch.setattr(sys, "argv", [str(ROOT / "benchmarks" / "x.py"), "--max-rows", "9"])
    path = _common.write("x", "Title", ["body"], quiet=True)
    text = path.read_text().splitlines()
    assert text[0] == "# Title" and text[-1] == "body"
    assert "`PYTHONPATH=$PWD python benchmarks/x.py --max-rows 9`" in text[2]
    assert " at commit " in text[2] and "Load average" in text[2] and " UTC" in text[2]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """One folder for all quick runs (the leaderboard reads real_tables' cache)."""
    return tmp_path_factory.mktemp("quick_results")


@pytest.mark.benchmarks
@pytest.mark.parametrize("step", STEPS, ids=[s.name for s in STEPS])
def test_quick_mode_writes_the_files_it_claims(step, results):
    """The check of ``python -m benchmarks stale`` (:mod:`benchmarks._currency`), with the
    machine's own arithmetic: choices tie within estimators.base.tie_tolerance's tolerance, so the
    committed numbers hold on CPUs with and without AVX-512 (no pin of numpy's SIMD dispatch
    or OpenBLAS's core type; tests/estimators/test_cross_machine.py checks every model)."""
    done = run_quick(step, results)
    assert done.returncode == 0, done.stderr[-3000:]
    assert not unwritten(step, results)
    problems = moved_numbers(step, results)
    assert not problems, "\n".join(problems[:40])
