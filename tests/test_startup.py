"""Start-up: importing estimators or the kgraph command does not import pgmpy or matplotlib
(checked in a fresh interpreter); the lazy package attributes still resolve."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def fresh(code: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                          text=True, check=False)


@pytest.mark.parametrize("module", ["estimators", "kgraph", "viz", "viz.cli"])
def test_import_does_not_import_pgmpy_or_matplotlib(module):
    out = fresh(f"import {module}, sys; "
                "assert 'pgmpy' not in sys.modules and 'matplotlib' not in sys.modules, "
                "sorted(m for m in ('pgmpy', 'matplotlib') if m in sys.modules)")
    assert out.returncode == 0, out.stderr


def test_lazy_attributes_resolve_and_unknown_ones_raise():
    import estimators
    import viz

    assert estimators.GNBClassifier.__name__ == "GNBClassifier"
    assert set(estimators.__all__) <= set(dir(estimators))
    assert all(callable(getattr(viz, name)) or name in ("OKABE_ITO", "PALETTE", "PAPER_WIDTHS")
               for name in viz.__all__)
    with pytest.raises(AttributeError, match="module 'estimators' has no attribute 'nothing'"):
        estimators.nothing  # noqa: B018


def test_kgraph_help_imports_no_estimator_scikit_learn_or_pandas():
    """``kgraph --help`` builds every sub-command's parser; the registry choices of
    ``kgraph learn`` are read only when used, so nothing heavy is imported."""
    out = fresh("import contextlib, io, sys, viz.cli\n"
                "with contextlib.redirect_stdout(io.StringIO()) as text:\n"
                "    viz.cli.build_parser().print_help()\n"
                "assert 'learn' in text.getvalue()\n"
                "heavy = [m for m in ('estimators.gnb', 'sklearn', 'scipy', 'pandas', 'pgmpy')\n"
                "         if m in sys.modules]\n"
                "assert not heavy, heavy")
    assert out.returncode == 0, out.stderr


def test_learn_help_lists_the_registries_read_lazily(capsys, monkeypatch):
    from estimators.search import BACKBONE_METHODS, searcher_names
    from viz.cli import main

    monkeypatch.setenv("COLUMNS", "400")  # no line breaks inside the lists
    with pytest.raises(SystemExit):
        main(["learn", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "{" + ",".join(searcher_names()) + "}" in text
    assert " | ".join(BACKBONE_METHODS) + " | a,b,c,..." in text
