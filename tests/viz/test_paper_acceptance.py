"""Issue 29's acceptance: ``kgraph learn`` on penguins, oj, helpmiss and the 36-feature
kr_vs_kp, for every model, writes figures that pass ``viz.check_figure`` at page and column
width.

To keep CI short, every model is fitted once per table on a stratified sample of 200 rows
(the figure depends on the features, not on the number of rows) and drawn at both widths by
the function ``kgraph learn`` draws with (``learn._draw``, with the graph it writes); one
test runs the whole command line at both widths on kr_vs_kp, catching the figure on its way
to the file."""

from __future__ import annotations

import argparse
import warnings

import pytest
from sklearn.model_selection import train_test_split
from slow_cases import representative

import viz.cli.outputs as outputs
from estimators.datasets import dataset_target, load_dataset
from viz.check import check_figure
from viz.cli import learn, main

TABLES = ["penguins", "oj", "helpmiss", "kr_vs_kp"]
#: The default run draws every model on one table (each table twice or thrice, the wide
#: kr_vs_kp with the cheapest fits); the other 27 pairs carry the ``slow`` mark.
DEFAULT = [("penguins", "latent-cnb"), ("penguins", "ktan"), ("penguins", "aode"),
           ("oj", "a2de"), ("oj", "kgnb"), ("helpmiss", "tan"), ("helpmiss", "ban"),
           ("kr_vs_kp", "gnb"), ("kr_vs_kp", "kdb")]


def sample(name: str):
    X, y = load_dataset(name)
    common = y.map(y.value_counts()) >= 10  # helpmiss has a class of one row
    X, y = X[common.to_numpy()], y[common.to_numpy()]
    X, _, y, _ = train_test_split(X, y, train_size=200, stratify=y, random_state=0)
    return X, y


@pytest.fixture
def caught(monkeypatch):
    drawn = []
    save = outputs.save_figures
    monkeypatch.setattr(outputs, "save_figures",
                        lambda fig, out, dpi: drawn.append(fig) or save(fig, out, dpi))
    return drawn


@pytest.mark.parametrize(("table", "model"), representative(
    [(t, m) for t in TABLES for m in sorted(learn.MODELS)], keep=DEFAULT))
def test_every_model_on_every_table_draws_checked_figures(table, model, tmp_path, caught):
    X, y = sample(table)
    args = argparse.Namespace(quiet=True, random_state=0, feature_types=None,
                              n_components=1 if model == "latent-cnb" else None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fitted = learn.MODELS[model].build(args).fit(X, y)
    structure = learn.learned_structure(fitted)
    graph = outputs.write_structure(fitted, None, tmp_path, dataset_target(table))
    for width, inches in (("page", 7.0), ("column", 3.5)):
        assert learn._draw(fitted, structure, tmp_path, None, 0.0, 40, graph=graph, width=width,
                           overview=False) is None
        fig = caught[-1]
        assert check_figure(fig) == [], (width, check_figure(fig))
        assert fig.get_size_inches()[0] == pytest.approx(inches)
        labels = [t.get_text() for t in fig.axes[0].texts]
        if model != "latent-cnb":
            assert dataset_target(table) in labels  # the class node, named after the target


@pytest.mark.parametrize("width", representative(["page", "column"], keep=["column"]))
def test_the_command_line_writes_a_checked_figure_of_kr_vs_kp(width, tmp_path, caught):
    X, y = sample("kr_vs_kp")
    X.assign(**{"class": y.to_numpy()}).to_csv(tmp_path / "kr.csv", index=False)
    assert main(["learn", str(tmp_path / "kr.csv"), "--model", "tan", "--cv", "2",
                 "--out", str(tmp_path / "out"), "--quiet", "--figure-width", width]) == 0
    assert len(caught) == 1 and check_figure(caught[0]) == []
    report = (tmp_path / "out" / "report.md").read_text()
    assert f"Figure: the labelled structure ({width} width)" in report
