"""The checks behind paper1.md's GNB rows: the readings of the paper's protocol that were
run for every GNB cell (sonar's first row, the KDE kernel, the rule choosing m), as numbers.

``cell(name, method)`` is the report's accessor of the aggregated results (``ours_f1``,
``paper_f1``, ...). Everything here reads results computed by benchmarks/paper1.py; nothing
is chosen on test data.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from paper1_reduction import paper_rule_rows

HELD_OUT = " (held-out m)"
#: the two KDE rows (scipy's kernel, the paper's implementation) and their product-kernel rows
PRODUCT = {"GNB KDE": "GNB KDE (product kernel)", "GNB KDE*": "GNB KDE* (product kernel)"}


N_SPLITS = 10
#: sonar's cells under other split protocols (benchmarks/paper1_sonar.py), if run
SONAR_CSV = Path(__file__).resolve().parent / "results" / "paper1_sonar.csv"


def _protocols(name: str, method: str) -> list[str]:
    """ΔF1 range of a sonar cell over the other split protocols of paper1_sonar.md."""
    if not SONAR_CSV.is_file():
        return []
    df = pd.read_csv(SONAR_CSV)
    here = df[(df.reading == name) & ~df.protocol.str.startswith("paper1.md")]
    if f"d {method}" not in df or here.empty:
        return []
    d = here[f"d {method}"]
    return [f"{len(d)} other split protocols (paper1_sonar.md): ΔF1 {d.min():+.4f} to "
            f"{d.max():+.4f}, baselines within 0.02: {here.base_ok.min()}-"
            f"{here.base_ok.max()} of 8"]


def _d(c, paper_f1: float) -> str:
    return "not run" if pd.isna(c.ours_f1) else f"{c.ours_f1 - paper_f1:+.4f}"


def _weighted_rule(curves: pd.DataFrame, name: str, method: str, f1_col: str):
    """(m, mean test F1 in the paper's variant) when m is chosen by the weighted training F1."""
    g = curves[(curves.dataset == name) & (curves.method == method)]
    if g.empty:
        return None, np.nan
    rows = paper_rule_rows(g, "train_f1_weighted")
    return int(rows.n_clusters.iloc[0]), float(rows[f1_col].mean())


def checks_text(name: str, method: str, cell, curves: pd.DataFrame, f1_col: str,
                base_ok: int, reading_of: str | None) -> str:
    """The numbers of every check run for one GNB cell (ΔF1 = ours - paper)."""
    paper_f1 = cell(name, method).paper_f1
    se = cell(name, method).get(f"{f1_col}_std", np.nan) / np.sqrt(N_SPLITS)
    out = [f"{base_ok}/8 baselines of this set within 0.02",
           f"standard error of the {N_SPLITS}-split mean: {se:.3f}"]
    if name in ("sonar", "sonar_row1"):
        other = "sonar_row1" if name == "sonar" else "sonar"
        out.append(f"other sonar reading ({other}): ΔF1 {_d(cell(other, method), paper_f1)}")
        out += _protocols(name, method)
    if method in PRODUCT:
        out.append(f"product kernel: ΔF1 {_d(cell(name, PRODUCT[method]), paper_f1)}")
    if method == "GNB KDE":
        out.append("inner-CV bandwidth (product kernel): ΔF1 "
                   + _d(cell(name, "GNB KDE (inner-CV bw)"), paper_f1))
    if method.endswith("*"):
        m_w, f_w = _weighted_rule(curves, name, method, f1_col)
        if m_w is not None:
            out.append(f"m by weighted training F1: m={m_w}, ΔF1 {f_w - paper_f1:+.4f}")
        kind = " (product kernel)" if method == "GNB KDE*" else ""
        out.append(f"held-out rule{kind}: ΔF1 {_d(cell(name, method + HELD_OUT), paper_f1)}")
        f_all = cell(name, method.rstrip("*")).ours_f1
        out.append(f"with all clusters: F1 {f_all:.4f}, ΔF1 {f_all - paper_f1:+.4f}")
    return "; ".join(out)


def reduced_section(cell, curves: pd.DataFrame, per_split: pd.DataFrame, names, f1_cols,
                    paper_m) -> list[str]:
    """Table of the m each rule chooses and the F1 it gives, per data set and reduced row."""
    from paper1_report import _fmt, _table  # noqa: PLC0415

    L = ["", "## Reduced models: the m chosen, by rule", "",
         "m (paper's rule) = best mean *training* F1 (the table's variant) over the ten splits; "
         "m (weighted) = the same with weighted F1 (differs only on two-class sets); held-out = "
         "the library's `n_clusters='auto'` (held-out parts of each training split, one m per "
         "split, mean shown). F1 on the test splits, paper's variant.", ""]
    rows = []
    for n in names:
        for m in ["GNB-Gauss*", "GNB G-cop*", "GNB KDE*", "GNB KDE* (product kernel)"]:
            c = cell(n, m)
            if pd.isna(c.ours_f1):
                continue
            here = per_split[(per_split.dataset == n) & (per_split.method == m)]
            m_w, f_w = _weighted_rule(curves, n, m, f1_cols[n])
            ho = per_split[(per_split.dataset == n) & (per_split.method == m + HELD_OUT)]
            paper = cell(n, m.replace(" (product kernel)", ""))
            rows.append([n, m, paper_m(n, m.replace(" (product kernel)", "")),
                         int(here.n_clusters.iloc[0]), _fmt(c.ours_f1), m_w, _fmt(f_w),
                         f"{ho.n_clusters.mean():.1f}" if len(ho) else "",
                         _fmt(cell(n, m + HELD_OUT).ours_f1), _fmt(paper.paper_f1)])
    L.append(_table(pd.DataFrame(rows, columns=[
        "data set", "method", "m (paper)", "m (paper's rule)", "F1", "m (weighted)", "F1",
        "m (held-out, mean)", "F1", "F1 (paper)"])))  # fmt: skip
    return L


def kde_section(cell, names) -> list[str]:
    """The KDE rows under each reading of the paper's "default parameters"."""
    from paper1_report import _fmt, _table  # noqa: PLC0415

    L = ["", "## GNB KDE: the kernel", "",
         "`GNB KDE` = the paper's implementation with its default parameters: scipy's "
         "`gaussian_kde` kernel, `GNBClassifier(dependence='kde', kernel='full')` (Scott factor "
         "n^(-1/6) times the class covariance of the pair; single features with their own 1-D "
         "KDE, factor n^(-1/5); exact kernel sums, equal to scipy's log-densities to 1e-10 in "
         "`tests/estimators/test_kde_full.py`). `(product kernel)` = the library's default "
         "`kernel='product'` (Scott factor n_y^(-1/6) times each feature's class standard "
         "deviation, axis-aligned; the single-feature densities are the pair KDEs' marginals). "
         "Both on the same structure (the KDE-copula CMI tree). `(inner-CV bw)` = product "
         "kernel with the factor chosen on the training split (extra row, not the paper's "
         "protocol). F1, paper's variant.", ""]
    rows = []
    for n in names:
        rows.append([n, *(_fmt(cell(n, m).ours_f1) for m in (
            "GNB KDE", "GNB KDE (product kernel)", "GNB KDE (inner-CV bw)")),
            _fmt(cell(n, "GNB KDE").paper_f1),
            *(_fmt(cell(n, m).ours_f1) for m in ("GNB KDE*", "GNB KDE* (product kernel)")),
            _fmt(cell(n, "GNB KDE*").paper_f1)])  # fmt: skip
    L.append(_table(pd.DataFrame(rows, columns=[
        "data set", "GNB KDE", "(product kernel)", "(inner-CV bw)", "paper", "GNB KDE*",
        "(product kernel)",
        "paper"])))  # fmt: skip
    return L
