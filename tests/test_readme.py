"""The README's quick start: exactly two commands, the second being what CI runs."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def quick_start_commands():
    text = (ROOT / "README.md").read_text()
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```bash\n(.*?)```", section, re.S)]


def test_quick_start_has_two_commands_and_ci_runs_the_second():
    commands = quick_start_commands()
    assert len(commands) == 2
    assert all("\n" not in c for c in commands)
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert commands[1] in ci


def test_readme_is_short_and_its_python_example_runs(tmp_path, monkeypatch):
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 150
    (example,) = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(example.strip().splitlines()) <= 10
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    exec(compile(example, "README.md", "exec"), namespace)
    assert (tmp_path / "car.pdf").stat().st_size > 0
    assert namespace["proba"].shape == (5, len(namespace["model"].classes_))


def test_readme_links_resolve():
    text = (ROOT / "README.md").read_text()
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        assert (ROOT / target).exists(), target
