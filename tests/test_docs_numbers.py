"""Every benchmark number the README and the documentation pages quote is read from its
results file here (issue 46: "README numbers from files only"), so a regeneration that
changes a number fails this test until the sentence is updated; a count or a ratio added to
the text without an entry in :data:`QUOTED` fails too.

The pages under ``docs/benchmarks/`` are the results files themselves (copied by
``docs/conf.py``), so they are not scanned.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
TEXTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
         *sorted((ROOT / "docs" / "user_guide").glob("*.md"))]
#: what looks like a measured count or ratio: "N of M", "1.5x", "1.5×", "3 times", "12 %"
#: (a number's start: not inside a word, a decimal or an exponent such as 2e-9)
NUMBER = re.compile(r"(?<![\w.\-])(?:\d+ of \d+\b|\d+(?:\.\d+)?\s?(?:x|×)(?=[\s.,;:)]|$)"
                    r"|\d+(?:\.\d+)? times\b|\d+(?:\.\d+)?\s?%)")


def _flat(path: Path) -> str:
    return " ".join(path.read_text().split())


def _read(name: str, pattern: str) -> tuple[str, ...]:
    """The groups of ``pattern`` in ``benchmarks/results/NAME`` (the first match)."""
    found = re.search(pattern, _flat(RESULTS / name))
    assert found, f"{name} no longer says {pattern!r}"
    return found.groups()


def _against_lr_and_hgb(model: str) -> tuple[str, ...]:
    """real_tables.md's counts of ``model`` against the LR pipeline and HGB: accuracy vs LR,
    accuracy vs HGB, then log-loss vs LR and vs HGB, each as (count, tables)."""
    lr_acc, lr_loss, total, hgb_acc, hgb_loss = _read("real_tables.md", (
        rf"\| {re.escape(model)} \| [^|]+ \| [^|]+ \| (\d+) \(\d+\) / (\d+) of (\d+) \| "
        r"(\d+) \(\d+\) / (\d+) of \d+ \|"))
    return lr_acc, total, hgb_acc, total, lr_loss, total, hgb_loss, total


#: (text, the phrase it quotes) -> the phrase rebuilt from the results file
QUOTED = {
    ("docs/benchmarks.md", "differs from trying every k on 2 of 18"): lambda: (
        "differs from trying every k on {} of {}".format(*_read(
            "ktan_auto_rule.md", r"The chosen k differs on (\d+) of (\d+) tables"))),
    ("README.md", "accuracy on 14 of 18 tables and HGB's on 10 of 18, with log-loss at or below "
                  "on 12 of 18 and 10 of 18"): lambda: (
        "accuracy on {} of {} tables and HGB's on {} of {}, with log-loss at or below on {} of {} "
        "and {} of {}".format(*_against_lr_and_hgb("tan (discriminative)"))),
    ("README.md", "is at or above LR on 7 of 18 and HGB on 6 of 18"): lambda: (
        "is at or above LR on {} of {} and HGB on {} of {}".format(
            *_against_lr_and_hgb("best kgraph (nested CV)")[:4])),
}
#: numbers that are not measurements, and why
NOT_MEASURED = {
    ("docs/user_guide/dask.md", "80%"): "the --holdout default of kgraph learn --engine dask",
    ("docs/user_guide/dask.md", "20%"): "the --holdout default of kgraph learn --engine dask",
    ("docs/user_guide/figures.md", "at most 1.3 × its width tall"):
        "a layout limit, viz.style's max_aspect (checked below)",
    ("docs/user_guide/command_line.md", "score at most 100 times as many in all"):
        "a size limit, estimators.base.model_size.SEARCH_FACTOR (checked below)",
}


def test_every_count_or_ratio_in_the_texts_is_read_from_a_file():
    found = set()
    for path in TEXTS:
        text = _flat(path)
        name = str(path.relative_to(ROOT))
        for match in NUMBER.finditer(text):
            known = [phrase for (where, phrase) in [*QUOTED, *NOT_MEASURED]
                     if where == name and match.group() in phrase and phrase in text]
            assert known, (f"{name} quotes {match.group()!r} ('...{text[max(0, match.start() - 80):match.end() + 40]}...'): "
                           "read it from its results file in QUOTED, or list it in NOT_MEASURED")
            found.update((name, phrase) for phrase in known)
    assert found == set(QUOTED) | set(NOT_MEASURED), "an entry no text quotes any more"


@pytest.mark.parametrize("where, phrase", list(QUOTED))
def test_a_quoted_number_equals_its_results_file(where, phrase):
    assert QUOTED[(where, phrase)]() == phrase
    assert phrase in _flat(ROOT / where)


def test_the_constants_quoted_as_such_are_the_codes():
    import argparse

    from viz.cli.engine import add_options
    from viz.style import Style

    parser = argparse.ArgumentParser()
    add_options(parser)
    holdout = parser.get_default("holdout")
    text = _flat(ROOT / "docs" / "user_guide" / "dask.md")
    assert f"held-out {holdout:.0%} (`--holdout`)" in text
    assert f"fits on {1 - holdout:.0%} of the rows" in text
    assert f"at most {Style().max_aspect} × its width tall" in _flat(
        ROOT / "docs" / "user_guide" / "figures.md")
    from estimators.base.model_size import MAX_CELLS, SEARCH_FACTOR

    cli = _flat(ROOT / "docs" / "user_guide" / "command_line.md")
    assert f"score at most {SEARCH_FACTOR} times as many in all" in cli
    assert MAX_CELLS == 10**6 and "(10⁶ by default, the exports' limit)" in cli


def test_the_design_choice_statement_names_the_tables_of_the_files():
    """docs/benchmarks.md's account of which defaults were chosen on which tables."""
    text = _flat(ROOT / "docs" / "benchmarks.md")

    def listed(names: list[str]) -> str:
        return ", ".join(names[:-1]) + " and " + names[-1]

    choosing, checking = (s.split(", ") for s in _read(
        "defaults_check_choosing.md", r"Tables for choosing: ([\w, ]+); for checking: ([\w, ]+)\."))
    for name in ("defaults_check_ktan.md", "defaults_check_latent.md"):
        assert _read(name, r"Tables for choosing: ([\w, ]+); for checking: ([\w, ]+)\.") == (
            ", ".join(choosing), ", ".join(checking))
    assert f"chosen on {listed(choosing)} and checked on {listed(checking)}" in text
    # the choosing tables that the table benchmarks report
    reported = [n for n in choosing if f"- {n}: " in _flat(RESULTS / "real_tables.md")]
    assert f"{listed(reported)} are also reported tables of `real_tables`" in text
    # the typing threshold and the number of tables of ktan_auto_rule
    (levels,) = _read("typing_rule.md", r"``MAX_NUMERIC_LEVELS`` = (\d+) distinct")
    assert f"at most {levels} distinct values is categorical" in text
    (done, total) = _read("ktan_auto_rule.md", r"Tables done: (\d+) of (\d+)\.")
    assert done == total and f"on the {total} tables of `real_tables`" in text
