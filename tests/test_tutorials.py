"""Every tutorial runs as a script; its own asserts check that its text is true."""

import runpy
from pathlib import Path

import pytest
from installed_plugins import require_js_cmi

TUTORIALS = sorted((Path(__file__).resolve().parents[1] / "tutorials").glob("*.py"))


@pytest.mark.parametrize("path", TUTORIALS, ids=lambda p: p.stem)
def test_tutorial_runs(path, tmp_path, monkeypatch):
    if path.stem == "e_plugin_score":
        require_js_cmi()
    monkeypatch.setenv("KGRAPH_TUTORIAL_OUT", str(tmp_path))
    monkeypatch.setenv("KGRAPH_TUTORIAL_QUICK", "1")
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(path), run_name="__main__")
    written = list(tmp_path.iterdir())
    assert written, "a tutorial writes at least one figure or file"
    assert all(p.stat().st_size > 0 for p in written)


@pytest.mark.parametrize("path", TUTORIALS, ids=lambda p: p.stem)
def test_tutorial_is_a_jupytext_notebook(path):
    import jupytext

    notebook = jupytext.reads(path.read_text(), fmt="py:percent")
    kinds = [cell.cell_type for cell in notebook.cells]
    assert kinds[0] == "markdown" and "code" in kinds
    assert notebook.cells[0].source.startswith("# Tutorial")
