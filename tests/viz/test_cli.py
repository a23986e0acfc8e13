"""The ``kgraph`` command: version and help."""

import subprocess
import sys

import pytest

import kgraph
from viz.cli import main


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"kgraph {kgraph.__version__}"


def test_help_runs_as_a_module():
    out = subprocess.run([sys.executable, "-m", "viz.cli", "--help"], capture_output=True,
                         text=True, check=True).stdout
    assert "usage: kgraph" in out
