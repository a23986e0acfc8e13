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


def test_datasets_lists_builtin_sets(capsys):
    assert main(["datasets"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("abalone")
    assert "iris" in out and "car" in out


def test_export_round_trip(tmp_path, capsys):
    import joblib

    from kgraph import GNBJunctionTree, read_structure

    gnb = GNBJunctionTree.from_tree([(1, 2), (2, 3)], target=0)
    src = tmp_path / "s.graphml"
    gnb.write_graphml(src)
    assert main(["export", str(src), "--to", "json"]) == 0
    assert read_structure(tmp_path / "s.json") == gnb
    assert main(["export", str(src), "--to", "pgmpy", "--out", str(tmp_path / "m.joblib")]) == 0
    model = joblib.load(tmp_path / "m.joblib")
    assert set(model.edges()) == {(0, 1), (0, 2), (0, 3), (1, 2), (2, 3)}


def test_export_bad_file_exits_2(tmp_path, capsys):
    assert main(["export", str(tmp_path / "none.graphml"), "--to", "json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file" in err
    bad = tmp_path / "bad.graphml"
    bad.write_text("<not graphml")
    assert main(["export", str(bad), "--to", "json"]) == 2
    assert "cannot read a kgraph structure" in capsys.readouterr().err


def test_plot_saved_structures(tmp_path, capsys):
    from kgraph import AcyclicKTree, GNBJunctionTree

    for i, s in enumerate([GNBJunctionTree.from_tree([(1, 2), (2, 3)], target=0),
                           AcyclicKTree(2, "abcd", {"c": "ab", "d": "bc"})]):
        src = tmp_path / f"s{i}.json"
        s.write_json(src)
        out = tmp_path / f"fig{i}.pdf"
        assert main(["plot", str(src), "--out", str(out)]) == 0
        assert out.read_bytes().startswith(b"%PDF")
    assert main(["plot", str(src), "--out", str(tmp_path / "fig.jpg")]) == 2
    assert "--out must end in .pdf, .svg or .png" in capsys.readouterr().err


@pytest.mark.parametrize("paper", ["paper3"])
def test_bench_quick_writes_its_table(tmp_path, monkeypatch, paper):
    monkeypatch.setenv("KGRAPH_BENCH_RESULTS", str(tmp_path))
    assert main(["bench", paper, "--quick"]) == 0
    text = (tmp_path / f"{paper}_quick.md").read_text()
    assert text.startswith("# Paper 3") and "| Wine | 3 |" in text


def test_bench_unknown_paper_exits_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["bench", "paper9"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'paper9'" in capsys.readouterr().err
