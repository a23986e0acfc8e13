"""What ``kgraph compare`` writes: ``folds.csv`` (one row per cell), ``leaderboard.md``,
``table.tex`` and the critical-difference diagrams ``cd_accuracy.pdf``/``.png`` and
``cd_log_loss.pdf``/``.png``.

Every per-table number is the mean ± standard deviation (ddof 1) over the folds of all
repeats; mean ranks rank the models on each table by that mean (1 = best, ties share the
mean rank) and average over the tables (Demšar 2006; :func:`viz.friedman_nemenyi`).
"""

from __future__ import annotations

import re
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from viz._markdown import markdown_table
from viz.critical_difference import FEW_DATASETS

__all__ = ["METRICS", "per_table", "write_outputs"]

#: metric -> (title, higher is better)
METRICS = {"accuracy": ("accuracy", True), "balanced_accuracy": ("balanced accuracy", True),
           "log_loss": ("log-loss", False), "brier": ("Brier score", False)}
#: the metrics with a critical-difference diagram and a LaTeX table
MAIN = ("accuracy", "log_loss")
TIMES = ("fit_time", "predict_time")


def per_table(folds: pd.DataFrame, metric: str, how: str = "mean") -> pd.DataFrame:
    """Rows tables, columns models (in the order of the folds): ``how`` over the folds;
    NaN where a fold of the model failed on the table (its cell holds an ``error``)."""
    grouped = folds.groupby(["table", "model"], sort=False)[metric]
    frame = getattr(grouped, how)(skipna=False) if how == "mean" else grouped.agg(how)
    failed = folds[metric].isna().groupby([folds["table"], folds["model"]], sort=False).any()
    frame = frame.mask(failed).unstack("model")
    return frame.loc[list(dict.fromkeys(folds["table"])), list(dict.fromkeys(folds["model"]))]


def _number(value, spec: str) -> str:
    """``value`` formatted, or ``---`` where it is missing (no table where all models ran)."""
    return "---" if value is None or pd.isna(value) else format(value, spec)


def _cell(mean: float, sd: float, best: bool) -> str:
    if pd.isna(mean):
        return "error"
    text = f"{mean:.4f} ± {sd:.4f}"
    return f"**{text}**" if best else text


def _best(row: pd.Series, higher: bool) -> pd.Series:
    return row == (row.max() if higher else row.min())


def _ranks(means: pd.DataFrame, higher: bool) -> pd.Series:
    """Mean ranks over the tables where every model ran (a failure leaves a table out)."""
    return means.dropna().rank(axis=1, ascending=not higher).mean().sort_values()


def _few(n: int) -> str:
    return (f"**Warning: {n} data set{'s' if n != 1 else ''} — fewer than {FEW_DATASETS}. The "
            "Friedman test and the Nemenyi critical difference need more tables to say "
            "anything; read the ranks as descriptive only.**")


def leaderboard(folds: pd.DataFrame, protocol: str, models: Sequence, tables: Sequence,
                reference: str, log=None) -> list[str]:
    """The lines of ``leaderboard.md``."""
    from viz.critical_difference import friedman_nemenyi

    n = folds["table"].nunique()
    lines = ["# Model comparison", "", protocol, ""]
    if n < FEW_DATASETS:
        lines += [_few(n), ""]
    lines += ["## Models", "", *markdown_table(
        ["model", "kind", "estimator"], [(m.label, m.kind, f"`{m.description}`") for m in models])]
    lines += ["", "## Tables", "", *markdown_table(
        ["table", "rows", "features", "classes", "data hash"],
        [(t.name, len(t.y), t.X.shape[1], pd.Series(t.y).nunique(), f"`{t.data_hash}`")
         for t in tables], "lrrrl")]
    for metric, (title, higher) in METRICS.items():
        means, sds = per_table(folds, metric), per_table(folds, metric, "std")
        ranks = _ranks(means, higher)
        complete = means.dropna()
        lines += ["", f"## {title} ({'higher' if higher else 'lower'} is better)", ""]
        if len(complete) < len(means):
            lines += [f"Ranks and means over the {len(complete)} tables where every model ran "
                      "(left out, a model failed: "
                      + ", ".join(means.index[means.isna().any(axis=1)]) + ").", ""]
        lines += markdown_table(["model", "mean rank", "mean over tables"], [
            (m, f"{r:.2f}", f"{complete[m].mean():.4f}") for m, r in ranks.items()], "lrr")
        if len(complete) >= 2 and metric in MAIN:
            test = friedman_nemenyi(means, higher_is_better=higher)
            lines += ["", f"Friedman chi-square {test.friedman_chi2:.2f} (p = "
                      f"{test.friedman_p:.2g}); Iman-Davenport F {test.iman_davenport_f:.2f} "
                      f"(p = {test.iman_davenport_p:.2g}); Nemenyi critical difference "
                      f"{test.critical_difference:.2f} at alpha = {test.alpha} "
                      f"(N = {test.n_datasets}). Diagram: `cd_{metric}.pdf`."]
        lines += ["", "Per table, mean ± sd over the folds; **bold**: the best of the row.", ""]
        rows = []
        for name, row in means.iterrows():
            best = _best(row, higher)
            rows.append([name, *(_cell(v, sds.loc[name, m], best[m]) for m, v in row.items())])
        lines += markdown_table(["table", *means.columns], rows, "l" + "r" * means.shape[1])
    times = folds.groupby("model", sort=False)[list(TIMES)].mean()
    lines += ["", "## Time (seconds per fold, mean over the folds and tables)", "",
              *markdown_table(["model", "fit", "predict"], [
                  (m, f"{r.fit_time:.3f}", f"{r.predict_time:.3f}") for m, r in times.iterrows()],
                  "lrr")]
    lines += ["", f"Reference of the tests in `table.tex`: {reference}.", ""]
    if "error" in folds:
        failed = folds.dropna(subset=["error"]).groupby(["table", "model"], sort=False)
        lines += ["## Failures", "", *markdown_table(["table", "model", "folds", "error"], [
            (t, m, len(g), g["error"].iloc[0]) for (t, m), g in failed], "llrl")]
        lines += [""]
    if log is not None:
        lines += log.report_lines("by table and model, over its folds", capitalize=False)
    return lines


_LATEX = str.maketrans({c: "\\" + c for c in "&%$#_{}"} | {"~": r"\textasciitilde{}",
                                                          "^": r"\textasciicircum{}",
                                                          "\\": r"\textbackslash{}"})


def latex_escape(text: str) -> str:
    r"""``text`` with LaTeX's special characters escaped, and ``--`` kept two hyphens (not
    an en dash).

    Examples
    --------
    >>> latex_escape("tan --k 1,2 & 50%_x")
    'tan -{}-k 1,2 \\& 50\\%\\_x'
    """
    return re.sub(r"-(?=-)", "-{}", str(text).translate(_LATEX))


#: TeX points per inch
_PT = 72.27
#: the average width of a character of \footnotesize (8 pt Computer Modern: digits 4 pt,
#: lower-case letters about 4.2 pt) and the space between two columns (2 x \tabcolsep)
_CHAR_PT, _COLUMN_SEP_PT = 4.3, 8.0


def _stacked(lines: list[str]) -> str:
    r"""Cell lines one above the other (``\shortstack``, no package needed)."""
    return lines[0] if len(lines) == 1 else r"\shortstack{" + r" \\ ".join(lines) + "}"


def _header_lines(label: str, chars: int) -> list[str]:
    """A model label wrapped at spaces into lines of at most ``chars`` characters (a longer
    word keeps its own line)."""
    return textwrap.wrap(label, chars, break_long_words=False, break_on_hyphens=False) or [label]


def _layout_width(columns: list[list[str]]) -> float:
    """The estimated natural width in points of a tabular whose columns hold these lines of
    visible text."""
    return sum(_CHAR_PT * max(len(line) for line in col) + _COLUMN_SEP_PT for col in columns)


def _visible(tex: str) -> str:
    """The characters a cell prints (LaTeX commands, braces and math shifts dropped)."""
    text = re.sub(r"\\(mathbf|shortstack)", "", tex)
    text = re.sub(r"\\pm", "+", text)
    return re.sub(r"[{}$^\\]", "", text)


def latex_table(folds: pd.DataFrame, metric: str, reference: str, alpha: float = 0.05,
                width: str | float = "page") -> str:
    """One booktabs table of ``metric``: per-table mean ± sd, the best of each row in bold,
    a model that differs from ``reference`` on a table marked (Nadeau and Bengio's corrected
    resampled t-test over the repeats' folds, Holm-adjusted over the models, at ``alpha``),
    the mean rank and the Wilcoxon test over the tables' means (the caption says when there
    are too few tables for it to reach ``alpha``).

    The table fits ``width`` (``"page"``, 7 in; ``"column"``, 3.5 in; or inches): in
    ``\footnotesize``, each cell on one line where that fits, else the sd under the mean and
    the model names wrapped into lines; where even that is wider (many models in a column),
    the tabular is scaled to the line width (``\resizebox``, package graphicx) and a comment
    says so."""
    from viz.compare.stats import corrected_t_against, smallest_wilcoxon_p, wilcoxon_against

    title, higher = METRICS[metric]
    means, sds = per_table(folds, metric), per_table(folds, metric, "std")
    models = list(means.columns)
    from viz.style import paper_width

    target = paper_width(width) * _PT
    grid = []  # per data set: the cells as lists of lines (one line: mean, sd and mark)
    k = int(folds["fold"].nunique())
    for name, row in means.iterrows():
        part = folds[folds["table"] == name]
        paired = {m: part[part["model"] == m].sort_values(["repeat", "fold"])[metric].to_numpy()
                  for m in models}
        p = corrected_t_against(paired, reference, 1.0 / max(k - 1, 1))
        best = _best(row, higher)
        cells = []
        for m, v in row.items():
            if pd.isna(v):
                cells.append(("failed", ""))
                continue
            mean = f"\\mathbf{{{v:.3f}}}" if best[m] else f"{v:.3f}"
            mark = ""
            if m != reference and p[m] < alpha:
                worse = v < row[reference] if higher else v > row[reference]
                mark = "^{-}" if worse else "^{+}"
            cells.append((f"${mean}{mark}$", f"$\\pm {sds.loc[name, m]:.3f}$"))
        grid.append((latex_escape(name), cells))
    ranks = _ranks(means, higher)
    over = wilcoxon_against({m: means[m].to_numpy() for m in models}, reference)
    foot = [" & ".join(["Mean rank", *(_number(ranks.get(m), ".2f") for m in models)])
            + r" \\",
            " & ".join(["Wilcoxon $p$ (Holm)",
                        *("ref." if m == reference else _number(over[m], ".2g")
                          for m in models)])
            + r" \\"]
    n_folds = int(folds.groupby(["table", "model"]).size().max())
    repeats = int(folds["repeat"].nunique())
    smallest = smallest_wilcoxon_p(len(means.dropna()))
    over_tables = (f"Last row: Wilcoxon's signed-rank test over the {len(means)} data sets' "
                   f"means, Holm-adjusted")
    if smallest * (len(models) - 1) >= alpha:
        over_tables += (f"; with {len(means)} data sets its smallest possible $p$ is "
                        f"{smallest:.3g}, so it cannot show a difference at $\\alpha = {alpha}$")
    caption = (f"{title.capitalize()} ({'higher' if higher else 'lower'} is better): mean "
               f"$\\pm$ sd over {n_folds} folds"
               + (f" ({repeats} repeats of {k}-fold cross-validation)" if repeats > 1 else "")
               + f"; bold: best per data set. "
               f"$^{{+}}$/$^{{-}}$: better/worse than {latex_escape(reference)} on that data "
               f"set (Nadeau and Bengio's corrected resampled $t$-test over the folds, "
               f"Holm-adjusted over the {len(models) - 1} models, $\\alpha = {alpha}$). "
               f"{over_tables}.")
    head, rows, scaled = _fit(grid, models, target)
    tabular = [r"\begin{tabular}{l" + "c" * len(models) + "}", r"\toprule",
               " & ".join(head) + r" \\", r"\midrule", *rows, r"\midrule", *foot,
               r"\bottomrule", r"\end{tabular}"]
    if scaled:
        tabular = [f"% scaled to the line width: {len(models)} models are wider than "
                   f"{target / _PT:.2f} in even with the sd under the mean",
                   r"\resizebox{\linewidth}{!}{%", *tabular, "}"]
    return "\n".join([
        r"\begin{table}[t]", r"\centering", r"\footnotesize",
        r"\setlength{\tabcolsep}{4pt}",
        f"\\caption{{{caption}}}", f"\\label{{tab:compare-{metric.replace('_', '-')}}}",
        *tabular, r"\end{table}", ""])


def _fit(grid: list, models: list[str], target: float) -> tuple[list[str], list[str], bool]:
    """``(head, rows, scaled)``: the table's head and rows on one line per cell when that
    fits ``target`` points, else with the sd under the mean and the model names wrapped
    (at the widest wrap that fits); ``scaled`` when even the narrowest is wider."""
    first = [_visible(name) for name, _ in grid] + ["Data set", "Wilcoxon p (Holm)"]
    shown = [[(_visible(mean), _visible(sd)) for mean, sd in cells] for _, cells in grid]

    def width(stack: bool, chars: int) -> float:
        cols = [first]
        for j, m in enumerate(models):
            lines = _header_lines(latex_escape(m), chars) if stack else [latex_escape(m)]
            head = [_visible(line) for line in lines]
            cells = [line for row in shown
                     for line in (row[j] if stack else ["".join(row[j])])]
            cols.append(head + cells)
        return _layout_width(cols)

    plans = [(False, 0), (True, 14), (True, 10), (True, 7)]
    widths = [width(*plan) for plan in plans]
    chosen = next((i for i, w in enumerate(widths) if w <= target), len(plans) - 1)
    (stack, chars), scaled = plans[chosen], widths[chosen] > target
    head = ["Data set", *(_stacked(_header_lines(latex_escape(m), chars)) if stack
                          else latex_escape(m) for m in models)]
    rows = []
    for name, cells in grid:
        texts = [(_stacked([mean, sd]) if stack and sd else
                  (mean[:-1] + " " + sd[1:] if sd else mean)) for mean, sd in cells]
        rows.append(" & ".join([name, *texts]) + r" \\")
    return head, rows, scaled


def cd_figures(folds: pd.DataFrame, out: Path) -> list[Path]:
    """``cd_METRIC.pdf`` and ``.png`` of the main metrics (none with fewer than 2 tables)."""
    from viz.critical_difference import friedman_nemenyi, plot_critical_difference

    written = []
    for metric in MAIN:
        title, higher = METRICS[metric]
        means = per_table(folds, metric)
        if len(means.dropna()) < 2 or means.shape[1] < 2:
            continue
        test = friedman_nemenyi(means, higher_is_better=higher)
        fig = plot_critical_difference(test, title=f"{title}: mean rank over "
                                       f"{test.n_datasets} data sets (1 = best)")
        for suffix in (".pdf", ".png"):
            path = out / f"cd_{metric}{suffix}"
            fig.savefig(path, dpi=200, metadata=({"CreationDate": None} if suffix == ".pdf"
                                                 else {"Software": None}))
            written.append(path)
        import matplotlib.pyplot as plt

        plt.close(fig)
    return written


def write_outputs(folds: pd.DataFrame, out: Path, *, protocol: str, models: Sequence,
                  tables: Sequence, reference: str, log=None,
                  width: str | float = "page") -> list[Path]:
    """Write every output file into ``out``; return their paths."""
    import warnings

    out.mkdir(parents=True, exist_ok=True)
    folds.to_csv(out / "folds.csv", index=False)
    n = folds["table"].nunique()
    if n < FEW_DATASETS:
        print(f"warning: {n} data set{'s' if n != 1 else ''}: the Friedman test and the "
              f"Nemenyi critical difference need at least {FEW_DATASETS} to say anything",
              file=sys.stderr)
    with warnings.catch_warnings():  # said once above
        warnings.filterwarnings("ignore", "Only .* data sets", UserWarning)
        (out / "leaderboard.md").write_text(
            "\n".join(leaderboard(folds, protocol, models, tables, reference, log)))
        (out / "table.tex").write_text("% requires \\usepackage{booktabs}\n" + "\n".join(
            latex_table(folds, metric, reference, width=width) for metric in MAIN))
        figures = cd_figures(folds, out)
    if not figures:
        print("note: no critical-difference diagram: it needs at least 2 data sets and 2 "
              "models", file=sys.stderr)
    return [out / "folds.csv", out / "leaderboard.md", out / "table.tex", *figures]


def fold_frame(results: dict, order: Sequence[str], tables: Sequence[str]) -> pd.DataFrame:
    """The per-cell results as rows (table, model, repeat, fold, metrics...), tables and
    models in the order given."""
    rows = [{"table": c.table, "model": c.model, "repeat": c.repeat, "fold": c.fold,
             **{k: v for k, v in s.items() if k != "warnings"}} for c, s in results.items()]
    frame = pd.DataFrame(rows)
    keys = ["table", "model", "repeat", "fold"]
    columns = keys + [m for m in (*METRICS, *TIMES)] + sorted(
        set(frame.columns) - set(keys) - set(METRICS) - set(TIMES))
    frame["table"] = pd.Categorical(frame["table"], categories=list(tables), ordered=True)
    frame["model"] = pd.Categorical(frame["model"], categories=list(order), ordered=True)
    frame = frame.sort_values(keys).reset_index(drop=True).reindex(columns=columns)
    frame["table"] = frame["table"].astype(str)
    frame["model"] = frame["model"].astype(str)
    return frame.replace({np.inf: np.nan})
