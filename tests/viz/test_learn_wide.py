"""``kgraph learn`` on wide tables: results first, the labelled structure at any size (an
overview only with ``--overview``), and a drawing failure that loses nothing."""

import numpy as np
import pandas as pd
import pytest

from kgraph import read_structure
from viz.cli import main
from viz.overview import LEGIBLE_VERTICES, overview_parts, plot_overview

RESULTS = {"structure.graphml", "structure.json", "model.joblib", "metrics.json", "metrics.csv",
           "report.md"}
FIGURES = {"structure.pdf", "structure.png"}


@pytest.fixture(scope="module")
def wide_csv(tmp_path_factory):
    rng = np.random.default_rng(0)
    d = LEGIBLE_VERTICES + 10
    X = rng.normal(size=(120, d)).cumsum(axis=1)
    frame = pd.DataFrame(X, columns=[f"g{i}" for i in range(d)])
    frame["class"] = np.where(X[:, 0] > 0, "a", "b")
    path = tmp_path_factory.mktemp("wide") / "wide.csv"
    frame.to_csv(path, index=False)
    return path, d


@pytest.mark.parametrize("model", ["gnb", "tan"])
def test_wide_table_gets_an_overview_only_when_asked(tmp_path, wide_csv, model, capsys):
    path, d = wide_csv
    out = tmp_path / "out"
    assert main(["learn", str(path), "--model", model, "--out", str(out), "--cv", "2",
                 "--overview"]) == 0
    assert {p.name for p in out.iterdir()} == RESULTS | FIGURES
    report = (out / "report.md").read_text()
    assert "Figure: an overview: the whole structure without labels (page width, --overview)" \
        in report
    assert len(read_structure(out / "structure.graphml").edges) == d - 1
    assert "warning" not in capsys.readouterr().err


def test_drawing_failure_keeps_results_warns_and_exits_0(tmp_path, wide_csv, monkeypatch,
                                                         capsys):
    import viz.cli.outputs

    def broken(*args, **kwargs):
        raise MemoryError("no room for the figure")

    monkeypatch.setattr(viz.cli.outputs, "structure_figure", broken)
    out = tmp_path / "out"
    path, _ = wide_csv
    assert main(["learn", str(path), "--model", "gnb", "--out", str(out), "--cv", "2"]) == 0
    assert {p.name for p in out.iterdir()} == RESULTS
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == ("warning: the figure was not drawn (MemoryError: no room for the "
                       "figure); every other file is written")
    assert "Figure: not drawn (MemoryError: no room for the figure)." in (
        out / "report.md").read_text()


def test_overview_draws_every_edge_without_labels():
    from kgraph import AcyclicKTree

    n = 300
    kt = AcyclicKTree(2, list(range(n)), {v: [v - 2, v - 1] for v in range(2, n)})
    nodes, edges = overview_parts(kt)
    assert nodes == list(range(n)) and len(edges) == 2 * n - 3
    fig = plot_overview(kt)
    ax = fig.axes[0]
    assert len(ax.collections[0].get_segments()) == 2 * n - 3
    assert len(ax.collections[1].get_offsets()) == n
    assert len(ax.texts) == 0
