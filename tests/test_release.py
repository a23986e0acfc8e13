"""What a release carries besides the code, checked against the code: one version
everywhere, the citation metadata and BibTeX, the changelog, the licence metadata, and the
task pages of the documentation (their worked example rerun, their quoted numbers read
from the benchmark file)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import kgraph

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _bibtex(path: Path) -> str:
    (block,) = re.findall(r"```bibtex\n(.*?)```", path.read_text(), re.S)
    return block


def test_pyproject_names_the_distribution_and_reads_the_one_version():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    meta = project["project"]
    assert meta["name"] == "kgraph-bnc"
    assert meta["dynamic"] == ["version"] and "version" not in meta
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "kgraph.__version__"}
    assert meta["license"] == "BSD-3-Clause" and meta["license-files"] == ["LICENSE"]
    assert not any(c.startswith("License ::") for c in meta["classifiers"])
    assert (ROOT / "LICENSE").read_text().startswith("BSD 3-Clause License")
    assert meta["urls"]


def test_version_command_prints_the_version():
    out = subprocess.run([sys.executable, "-m", "viz.cli", "--version"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert out.strip() == f"kgraph {kgraph.__version__}"


def test_changelog_and_citation_carry_the_version():
    changelog = (ROOT / "CHANGELOG.md").read_text()
    headings = re.findall(r"^## (\S+)", changelog, re.M)
    if headings[0] == "Unreleased":  # the changes since the last release come first
        headings.pop(0)
    assert headings[0] == kgraph.__version__
    cff = (ROOT / "CITATION.cff").read_text()
    assert re.search(r"^cff-version: 1\.2\.0$", cff, re.M)
    assert re.search(rf"^version: {re.escape(kgraph.__version__)}$", cff, re.M)
    assert "doi: 10.5220/0012524000003690" in cff


def test_readme_and_docs_give_the_same_bibtex_with_every_author():
    bib = _bibtex(ROOT / "README.md")
    assert bib == _bibtex(DOCS / "user_guide" / "data.md")
    assert f"version = {{{kgraph.__version__}}}" in bib
    assert len(re.findall(r"^@\w+\{", bib, re.M)) == 4  # the software and three papers
    for author in ("Papp", "Szil{\\'a}gyi", "Kov{\\'a}cs", "Salmanzade Yazdi", "Najar",
                   "Bouguila"):
        assert author in bib, author
    assert "ICEIS 2024" in bib and "163--171" in bib and "year = {2024}" in bib


def test_the_landing_page_leads_to_the_task_pages():
    index = (DOCS / "index.md").read_text()
    for page in ("compare", "which_model", "troubleshooting"):
        assert (DOCS / f"{page}.md").is_file()
        assert f"{{doc}}`{page}`" in index.split("## Install")[0], page
        assert f"\n{page}\n" in index  # in a toctree
    for part in ("## Install", "pip install .", "](_landing/votes_2tan.png)",
                 "_landing/output.txt", "## How to cite"):
        assert part in index, part


def test_the_landing_page_example_is_ten_lines_and_saves_its_figure(tmp_path, monkeypatch):
    code = re.search(r"```python\n(.*?)```", (DOCS / "index.md").read_text(), re.S).group(1)
    assert len(code.strip().splitlines()) <= 10
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    exec(compile(code, "index.md", "exec"), namespace)
    assert (tmp_path / "votes_2tan.png").stat().st_size > 0
    assert namespace["network"].get_cpds()  # the pgmpy export


def test_compare_page_worked_example_writes_what_the_page_shows(tmp_path, monkeypatch):
    """The page's Python block, then its command, in an empty folder: the files it lists
    are written and the accuracy table it quotes is the one in leaderboard.md."""
    page = (DOCS / "compare.md").read_text()
    setup = re.search(r"```python\n(.*?)```", page, re.S).group(1)
    (command,) = re.findall(r"```bash\n(kgraph compare .*?)\n```", page)
    quoted = re.search(r"```text\n(.*?)```", page, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    exec(compile(setup, "compare.md", "exec"), {})
    from viz.cli import main

    assert main([*shlex.split(command)[1:], "--quiet"]) == 0  # as the shell splits it
    out = tmp_path / "cmp"
    for name in ("leaderboard.md", "table.tex", "cd_accuracy.pdf", "cd_log_loss.pdf",
                 "folds.csv", "runs.db"):
        assert (out / name).is_file(), name
    assert quoted in (out / "leaderboard.md").read_text()
    assert "**Warning: 2 data sets" in (out / "leaderboard.md").read_text()


def _ranks(section: str) -> dict[str, str]:
    text = (ROOT / "benchmarks" / "results" / "leaderboard.md").read_text()
    part = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    return dict(re.findall(r"^\| ([^|]+?) \| (\d+\.\d+) \| \d+ \|", part, re.M))


def test_which_model_page_quotes_the_leaderboard():
    page = (DOCS / "which_model.md").read_text()
    rows = re.findall(r"^\| ([^|]+?) \| (\d+\.\d+) \| (\d+\.\d+) \|$", page, re.M)
    assert len(rows) >= 8
    accuracy, log_loss = _ranks("accuracy"), _ranks("log-loss")
    for model, acc, loss in rows:
        assert (accuracy[model], log_loss[model]) == (acc, loss), model
    text = (ROOT / "benchmarks" / "results" / "leaderboard.md").read_text()
    (cd,) = set(re.findall(r"Nemenyi critical difference at alpha = 0\.05: (\d+\.\d+)", text))
    assert f"**{cd} mean ranks**" in page
    # the claims the page makes from these numbers
    disc = ("ktan (discriminative)", "tan (discriminative)")
    for ranks in (accuracy, log_loss):
        assert all(abs(float(ranks[a]) - float(ranks[b])) < float(cd)
                   for a in (*disc, "LR") for b in ("LR", "HGB", *disc))
        assert all(float(ranks[b]) - float(ranks[a]) > float(cd)
                   for a in disc for b in ("tan", "gnb", "NaiveBayesClassifier"))


@pytest.mark.parametrize("page", ["compare", "which_model", "troubleshooting"])
def test_task_pages_name_no_machine_paths(page):
    text = (DOCS / f"{page}.md").read_text()
    assert "/work/" not in text and "/tmp/" not in text and "issue" not in text.lower()
