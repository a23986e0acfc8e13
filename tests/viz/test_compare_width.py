"""``kgraph compare``'s outputs fit a paper: ``table.tex`` fits a page (7 in) or a column
(3.5 in), measured by pdflatex where TeX is installed; the critical-difference figure is
at most the page width, its long labels wrapped inside it."""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

from viz.compare.report import latex_table
from viz.critical_difference import plot_critical_difference

LONG = ["tan", "ktan", "kdb", "tan --parameters discriminative",
        "kdb --parameters discriminative", "LR", "HGB", "mixed NB"]
TABLES = ["car", "nursery", "kr_vs_kp", "tic_tac_toe", "balance_scale"]


def _folds(models, k: int = 5) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    return pd.DataFrame([dict(table=t, model=m, repeat=0, fold=f,
                              accuracy=0.8 + 0.1 * rng.random(),
                              log_loss=0.3 + 0.1 * rng.random())
                         for t in TABLES for m in models for f in range(k)])


def _tabular_inches(tex: str, text_width: str, tmp_path) -> float:
    """The width pdflatex gives the table's tabular (scaled where the table says so), in a
    document whose text block is ``text_width``."""
    body = tex[tex.index(r"\begin{tabular}") if r"\resizebox" not in tex
               else tex.index(r"\resizebox"):tex.rindex(r"\end{table}")].strip()
    body = body.replace(r"\resizebox{\linewidth}", r"\resizebox{\textwidth}")
    source = (r"\documentclass{article}\usepackage{booktabs,graphicx}"
              rf"\usepackage[textwidth={text_width}]{{geometry}}\newsavebox\tbl"
              r"\begin{document}\sbox\tbl{\footnotesize\setlength{\tabcolsep}{4pt}%" "\n"
              + body + r"}\typeout{WIDTH=\the\wd\tbl}\end{document}")
    (tmp_path / "t.tex").write_text(source)
    out = subprocess.run(["pdflatex", "-interaction=nonstopmode", "t.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120).stdout
    return float(re.search(r"WIDTH=([\d.]+)pt", out).group(1)) / 72.27


@pytest.mark.parametrize(("models", "width", "layout"), [
    (LONG[:3], "page", "one line"), (LONG, "page", "stacked"),
    (LONG[:3], "column", "stacked"), (LONG, "column", "scaled")])
def test_the_table_fits_its_width(tmp_path, models, width, layout):
    tex = latex_table(_folds(models), "accuracy", models[0], width=width)
    assert (r"\shortstack" in tex) == (layout != "one line")
    assert (r"\resizebox{\linewidth}{!}" in tex) == (layout == "scaled")
    assert tex.count("{") == tex.count("}")
    if shutil.which("pdflatex") is None:
        pytest.skip("no pdflatex to measure the table")
    inches = {"page": 7.0, "column": 3.5}[width]
    assert _tabular_inches(tex, f"{inches}in", tmp_path) <= inches + 1e-3


def test_the_cd_figure_is_within_the_page_and_its_labels_inside_it():
    names = [*LONG, "ktan --k 2 --parameters discriminative", "aode"]
    scores = pd.DataFrame(np.random.default_rng(1).random((12, len(names))), columns=names)
    fig = plot_critical_difference(scores, title="accuracy")
    assert fig.get_size_inches()[0] <= 7.0
    fig.canvas.draw()
    frame = fig.bbox
    for text in fig.axes[0].texts:
        box = text.get_window_extent()
        assert frame.x0 - 1 <= box.x0 and box.x1 <= frame.x1 + 1, text.get_text()
    assert any("\n" in t.get_text() for t in fig.axes[0].texts)  # the long names wrapped
