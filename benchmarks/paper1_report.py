"""Markdown and CSV report of benchmarks/paper1.py (kept apart from the run itself)."""

from __future__ import annotations

import platform
from pathlib import Path

import numpy as np
import pandas as pd
import sklearn
from _common import header
from paper1 import (
    BASELINES,
    DATASETS,
    EXTRA,
    GNB_METHODS,
    KDE_BANDWIDTHS,
    READING_OF,
    paper_metrics,
    relative_f1,
)
from paper1_checks import PRODUCT, checks_text, kde_section, reduced_section
from paper1_reference import PAPER, PAPER_M

METRICS = ["accuracy", "precision", "recall", "f1"]

#: Conclusions for GNB cells more than 0.03 from the paper, by (data set, method) or (data
#: set, None), written from the checks' numbers (paper1_checks) shown beside them.
SONAR = (
    "Not a GNB-specific gap, and not resolvable to 0.02 from the paper's description. "
    "Sonar's test parts have 32 rows, so each cell's ten-split mean has a standard error of "
    "0.02-0.03 (column 'checks'); the paper-protocol baselines miss by as much as the GNB "
    "cells (LR and SVM with C = 1000 by 0.05-0.06, section 1), all below the paper. The "
    "paper's always-'M' cell (SVM(C=0.01), accuracy 0.5313 = 17/32) pins stratified 32-row "
    "test parts (unstratified protocols give 0.49-0.58, paper1_sonar.md), and on the other "
    "data sets train_test_split with seeds 42-51 reproduces many baselines to 0.0005 "
    "(iris, wine, WBCD, wine quality), so the protocol is ours; but on sonar the draw of the stratified splits moves the cells "
    "by more than 0.02: StratifiedShuffleSplit(10, 0.15, random_state=42), one other draw, "
    "puts 5/8 baselines (7/8 on 207 rows) and both GNB-Gauss and GNB G-cop within 0.02 of the "
    "paper (paper1_sonar.md; not used for any row). Dropping the first data row (the "
    "hypothesis) gives 6/8 baselines with seeds 42-51 but 2/8 with seeds 0-9. So the paper's "
    "sonar rows or their order likely differ from the UCI file's; neither F1 variant, the KDE "
    "kernel nor the rule for m closes the gap."
)
NOTES: dict[tuple[str, str | None], str] = {
    ("sonar", None): SONAR,
    ("sonar_row1", None): SONAR,
}
BINARY = ["precision_binary", "recall_binary", "f1_binary"]


def _fmt(x: float) -> str:
    return "" if pd.isna(x) else f"{x:.4f}"


def _table(df: pd.DataFrame) -> str:
    head = "| " + " | ".join(map(str, df.columns)) + " |"
    sep = "|" + "---|" * len(df.columns)
    body = ["| " + " | ".join(map(str, r)) + " |" for r in df.itertuples(index=False)]
    return "\n".join([head, sep, *body])


def _m_summary(values: pd.Series) -> str:
    v = values.dropna().astype(int)
    return "" if v.empty else f"{v.mean():.1f} [{v.min()}-{v.max()}]"


def _within(cell, names, methods, tol=0.02) -> tuple[int, int]:
    d = [abs(cell(n, m).ours_f1 - cell(n, m).paper_f1) for n in names for m in methods]
    return int(sum(x <= tol for x in d)), len(d)


def _sonar_readings(cell, names) -> list[str]:
    """Sonar as published against sonar without its first data row, every paper cell."""
    if not {"sonar", "sonar_row1"} <= set(names):
        return []
    rows = []
    for m in BASELINES + GNB_METHODS:
        a, b = cell("sonar", m), cell("sonar_row1", m)
        rows.append([m, _fmt(a.paper_f1), _fmt(a.ours_f1), f"{a.ours_f1 - a.paper_f1:+.4f}",
                     _fmt(b.ours_f1), f"{b.ours_f1 - b.paper_f1:+.4f}",
                     f"{b.ours_accuracy - b.paper_accuracy:+.4f}"])
    L = ["", "## Sonar: the first-row hypothesis, both readings", "",
         "`sonar` = the 208 rows as published; `sonar_row1` = without the first data row (207 "
         "rows), as a header-less CSV read with a header row would give. Same splits, same "
         "methods, both against the paper's sonar table (binary F1, M positive).", ""]
    L.append(_table(pd.DataFrame(rows, columns=[
        "method", "F1 (paper)", "F1 (208 rows)", "ΔF1", "F1 (207 rows)", "ΔF1",
        "Δacc (207 rows)"])))  # fmt: skip
    for label, group in (("baseline", BASELINES), ("GNB", GNB_METHODS)):
        a, t = _within(cell, ["sonar"], group)
        b, _ = _within(cell, ["sonar_row1"], group)
        L.append(f"\n{label} F1 cells within 0.02 of the paper: {a} of {t} with 208 rows, "
                 f"{b} of {t} with 207 rows.")
    return L


def _bandwidths(per_split, names) -> list[str]:
    """How often the inner CV of the extra row chose each KDE bandwidth factor."""
    L = ["", "## GNB KDE bandwidth: the default, and a factor chosen on the training split", "",
         "The paper's GNB KDE rows use the default bandwidth (\"we used the default parameters "
         "for kernel density estimation\", §5.1; \"Gaussian kernels without tuning their "
         "parameters\", §6.3), so `GNB KDE` / `GNB KDE*` use scipy's default Scott factor. The "
         "extra row `GNB KDE (inner-CV bw)` (product kernel) chooses the factor per split by a "
         "3-fold stratified CV of the full GNB KDE on the training part only (weighted F1) among "
         + ", ".join(map(str, KDE_BANDWIDTHS)) + ". Times each factor was chosen (its F1 is in the previous section):", ""]
    rows = []
    for n in names:
        here = per_split[(per_split.dataset == n) & (per_split.method == "GNB KDE (inner-CV bw)")]
        chosen = here.bandwidth.dropna().astype(str).value_counts()
        rows.append([n, ", ".join(f"{k}: {v}" for k, v in chosen.items()) or (
            "not run (an extra row: 9 KDE fits per split, and the machine was shared)")])
    L.append(_table(pd.DataFrame(rows, columns=["data set", "inner-CV factor chosen"])))
    return L


def _acceptance(cell, names) -> list[str]:
    """The issue-14 acceptance numbers."""
    L = ["", "## Summary against the paper", ""]
    if "winequality" in names:
        for m in ("GaussNB", "LR(C=1)"):
            c = cell("winequality", m)
            L.append(f"- wine quality (red + white), {m}: accuracy {c.ours_accuracy:.4f} vs "
                     f"{c.paper_accuracy:.4f}, F1 {c.ours_f1:.4f} vs {c.paper_f1:.4f} "
                     f"(ΔF1 {c.ours_f1 - c.paper_f1:+.4f}).")
    main = [n for n in names if n not in READING_OF]
    a, t = _within(cell, main, GNB_METHODS)
    L.append(f"- GNB F1 cells within 0.02 of the paper: {a} of {t} (sonar as published).")
    if "sonar_row1" in names:
        alt = [n for n in main if n != "sonar"] + ["sonar_row1"]
        b, t2 = _within(cell, alt, GNB_METHODS)
        L.append(f"- the same with sonar read without its first row: {b} of {t2}.")
    def kde_product(n, m):  # the product-kernel KDE rows, the paper's numbers kept
        c = cell(n, m)
        if m in PRODUCT:
            c = c.copy()
            c["ours_f1"] = cell(n, PRODUCT[m]).ours_f1
        return c

    a3, t3 = _within(kde_product, main, GNB_METHODS)
    far3 = [f"{n} {m}" for n in main for m in GNB_METHODS
            if not abs(kde_product(n, m).ours_f1 - kde_product(n, m).paper_f1) <= 0.03]
    L.append(f"- the same with the KDE rows on the library's default product kernel instead "
             f"of the paper's (scipy's) kernel: {a3} of {t3}; more than 0.03 off: {len(far3)} ("
             + (", ".join(far3) or "none") + ").")
    far = [(n, m) for n in main for m in GNB_METHODS
           if not abs(cell(n, m).ours_f1 - cell(n, m).paper_f1) <= 0.03]
    L.append(f"- GNB F1 cells more than 0.03 from the paper (sonar as published): {len(far)} "
             f"of {t}, each listed in section 3 with the checks run: "
             + (", ".join(f"{n} {m}" for n, m in far) or "none") + ".")
    b0, tb = _within(cell, main, BASELINES)
    L.append(f"- baseline F1 cells within 0.02: {b0} of {tb} (sonar as published).")
    missing = [f"{n} {m}" for n in names for m in BASELINES + GNB_METHODS
               if pd.isna(cell(n, m).ours_f1)]
    if missing:
        L.append("- not run in this file (the machine was shared; counted as misses above): "
                 + ", ".join(missing) + "." + (
                     " The linear SVC with C = 1000 on wine quality (libsvm, no iteration cap) "
                     "took 17.6 min for one split at a load average of ~30; the paper's cell is "
                     "the all-zero F1 of always predicting the majority class."
                     if "winequality SVM(C=1000)" in missing else ""))
    return L


def write_report(per_split, curves, names, seeds, dropped, data, elapsed, outdir: Path, stem: str,
                 updated: bool = False) -> None:
    """Aggregate the per-split metrics and write ``stem.md`` and ``stem.csv`` into outdir."""
    per_split = per_split[~per_split.method.str.startswith("check:")]
    cols = [c for c in ["accuracy", "precision", "recall", "f1", *BINARY] if c in per_split]
    agg = per_split.groupby(["dataset", "method"], sort=False)[cols + ["seconds"]].mean()
    std = per_split.groupby(["dataset", "method"], sort=False)[cols].std(ddof=0)
    ncl = per_split.groupby(["dataset", "method"], sort=False)["n_clusters"]
    records = []
    for (name, method), row in agg.iterrows():
        ours = paper_metrics(row, name)
        ref = PAPER[READING_OF.get(name, name)].get(method, (np.nan,) * 4)
        rec = {"dataset": name, "method": method, "f1_variant": DATASETS[name][0]}
        rec.update({k: row[k] for k in cols})
        rec.update({f"{k}_std": std.loc[(name, method), k] for k in cols})
        rec.update({f"paper_{k}": v for k, v in zip(METRICS, ref, strict=True)})
        rec.update({f"ours_{k}": v for k, v in zip(METRICS, ours, strict=True)})
        rec["n_clusters_mean"] = ncl.get_group((name, method)).mean()
        rec["seconds"] = row["seconds"]
        records.append(rec)
    res = pd.DataFrame(records)
    outdir.mkdir(parents=True, exist_ok=True)
    res.to_csv(outdir / f"{stem}.csv", index=False, float_format="%.6f")

    def cell(name, method):
        hit = res[(res.dataset == name) & (res.method == method)]
        return hit.iloc[0] if len(hit) else pd.Series(np.nan, index=res.columns)

    L = header(f"Paper 1 benchmark ({'quick' if 'quick' in stem else 'full'} run)")
    L += [
        "Regenerate with one command: `python benchmarks/paper1.py"
        + (" --quick" if "quick" in stem else "") + "` (every data set and method; writes this "
        "file, the aggregate CSV and the per-split CSV). "
        + ("This file was assembled from several `--update` runs of the same script (the "
           "machine was shared; each run replaces the per-split rows of the data sets and "
           "methods it ran, see the per-split CSV)" if updated else
           f"Last run: {elapsed:.0f} s" if np.isfinite(elapsed) else
           "Report rebuilt with `--report-only` from the per-split CSVs (the full file's CSV was "
           "assembled from several `--update` runs of the same script on a shared machine; "
           "each replaced the rows of the data sets and methods it ran)")
        + f" (scikit-learn {sklearn.__version__}, Python "
        f"{platform.python_version()}); numbers are means over the splits "
        f"`train_test_split(test_size=0.15, random_state=s, stratify=y)`, s = {seeds[0]}..{seeds[-1]}.",
        "Min-max scaling on the whole X; the later column of any pair with |r| > 0.99 is dropped. "
        "The paper's SVM is `SVC(kernel='linear', C)`; `SVM-RBF` (default `SVC()`) is extra. "
        "GNB KDE is the paper's implementation with its default parameters (§5.1, §6.3): the "
        "paper's linked demo repository (github.com/AbrahamPapp/generalized-naive-bayes-demo) "
        "tunes `bw_method_single` / `bw_method_double`, scipy's `gaussian_kde` argument, "
        "separately for the 1-D and 2-D KDEs, so its KDEs are scipy's: the row is "
        "`GNBClassifier(dependence='kde', kernel='full')`, scipy's kernel with its default "
        "Scott factor (section 'GNB KDE: the kernel'); the library's default product kernel is "
        "the extra row `GNB KDE (product kernel)`. "
        "Reduced models (*) follow the paper's rule (§5.2, §6.3): each split's full GNB is "
        "learned on its training part, every reduced model (first m clusters) is scored by its F1 "
        "*on that training part* (binary F1 for two classes, weighted for three, as the paper's "
        "tables), the ten curves are averaged and the best m is used on all ten splits "
        "(section 'Reduced models'). No test row enters any choice.",
        "",
        "| data set | rows x features used | dropped columns | F1 in the paper's rows |",
        "|---|---|---|---|",
    ]
    for n in names:
        X, _ = data[n]
        variant = DATASETS[n][0] + (f" (positive: {DATASETS[n][1]!r})" if DATASETS[n][1] else "")
        L.append(f"| {n} | {X.shape[0]} x {X.shape[1]} | {', '.join(dropped[n]) or '-'} | {variant} |")

    # 1. baselines
    L += ["", "## 1. Baselines against the paper (protocol check)", ""]
    diffs = []
    for n in names:
        rows = []
        for m in BASELINES:
            c = cell(n, m)
            d = c.ours_f1 - c.paper_f1
            diffs.append(abs(d))
            rows.append([m, _fmt(c.ours_accuracy), _fmt(c.paper_accuracy), _fmt(c.ours_f1),
                         _fmt(c.paper_f1), f"{d:+.4f}"])  # fmt: skip
        L += [f"**{n}**", "", _table(pd.DataFrame(rows, columns=[
            "method", "acc (ours)", "acc (paper)", "F1 (ours)", "F1 (paper)", "ΔF1"]))]  # fmt: skip
        L.append("")
    diffs = np.array(diffs)
    L.append(
        f"Baseline F1 cells within 0.005 of the paper: {int((diffs <= 0.005).sum())} of "
        f"{diffs.size}; within 0.02: {int((diffs <= 0.02).sum())} of {diffs.size}."
    )

    # 2. GNB rows
    L += ["", "## 2. GNB models against the paper", ""]
    flagged = []
    f1_cols = {n: "f1_binary" if DATASETS[n][0] == "binary" else "f1" for n in names}
    for n in names:
        base_ok = sum(abs(cell(n, m).ours_f1 - cell(n, m).paper_f1) <= 0.02 for m in BASELINES)
        rows = []
        for m in GNB_METHODS:
            c = cell(n, m)
            d = c.ours_f1 - c.paper_f1
            ms = _m_summary(per_split[(per_split.dataset == n) & (per_split.method == m)].n_clusters)
            rows.append([m, _fmt(c.ours_accuracy), _fmt(c.paper_accuracy), _fmt(c.ours_f1),
                         _fmt(c.paper_f1), f"{d:+.4f}", ms, PAPER_M[READING_OF.get(n, n)].get(m, "")])  # fmt: skip
            if abs(d) > 0.03:
                other = c.f1 if DATASETS[n][0] == "binary" else c.get("f1_binary", np.nan)
                checks = checks_text(n, m, cell, curves, f1_cols[n], base_ok, READING_OF.get(n))
                note = NOTES.get((n, m), NOTES.get((n, None), ""))
                flagged.append((n, m, d, other, ms, PAPER_M[READING_OF.get(n, n)].get(m, ""),
                                checks, note))
        L += [f"**{n}**", "", _table(pd.DataFrame(rows, columns=[
            "method", "acc (ours)", "acc (paper)", "F1 (ours)", "F1 (paper)", "ΔF1",
            "m used (mean [min-max])", "m (paper)"]))]  # fmt: skip
        L.append("")

    L += ["## 3. GNB F1 more than 0.03 from the paper", ""]
    if not flagged:
        L.append("None.")
    else:
        L += [
            "For each: the difference, the checks that were run with their results (ΔF1 = ours -"
            " paper under each other reading of the protocol; the baselines of the same data set "
            "within 0.02 of the paper say whether the split protocol and the metric are the "
            "paper's), the other F1 variant (to rule out a weighted/binary mix-up), the numbers "
            "of clusters, and what the checks leave.",
            "",
            "| data set | method | ΔF1 (ours - paper) | checks run (results) | other F1 variant "
            "| m (ours) | m (paper) | conclusion |",
            "|---|---|---|---|---|---|---|---|",
        ]
        labels: dict[str, str] = {}
        for n, m, d, other, ms, pm, checks, note in flagged:
            tag = labels.setdefault(note, f"({chr(ord('a') + len(labels))})") if note else ""
            L.append(f"| {n} | {m} | {d:+.4f} | {checks} | {_fmt(other)} | {ms} | {pm} | {tag} |")
        L += [""] + [f"{tag} {note}" for note, tag in labels.items()]
        L += ["", "What else was checked (independently of these data, in `tests/estimators/`):"
              " the Gaussian GNB recovers a known class-conditional tree and the exact posterior;"
              " every model's full log-density integrates to 1 per class; the reduced model is"
              " eq. 42, checked against a direct evaluation; k-GNB of order 3 reproduces GNB."]

    L += _sonar_readings(cell, names)
    L += reduced_section(cell, curves, per_split, names, f1_cols,
                         lambda n, m: PAPER_M[READING_OF.get(n, n)].get(m, ""))
    L += kde_section(cell, names)
    L += _bandwidths(per_split, names)
    L += _acceptance(cell, names)

    # 4. figure 6
    L += ["", "## 4. Relative F1 (paper 1, figure 6)", "",
          "Per data set F1 / best F1 among the paper's 14 methods, averaged over the cells "
          "both sides have: the data sets run here, and a (method, data set) cell we did not "
          "run is left out of the paper's average too (issue 26; before, the paper's average "
          "of such a method included a data set ours did not)."]  # fmt: skip
    methods = BASELINES + GNB_METHODS
    main = [n for n in names if n not in READING_OF]
    ours = res.pivot(index="method", columns="dataset", values="ours_f1").loc[methods, main]
    paper = pd.DataFrame({n: [PAPER[n][m][3] for m in methods] for n in main}, index=methods)
    both = ours.notna() & paper.notna()
    missing = [f"{m} on {n}" for m in methods for n in main if not both.loc[m, n]]
    L += [("Cells left out of both averages: " + ", ".join(missing) + ".") if missing
          else "Every cell is on both sides.", ""]
    rel = pd.DataFrame({"ours": relative_f1(ours.where(both)),
                        "paper": relative_f1(paper.where(both))})
    rel = rel.sort_values("ours", ascending=False)
    L.append(_table(pd.DataFrame(
        [[m, _fmt(r.ours), _fmt(r.paper)] for m, r in rel.iterrows()],
        columns=["method", "mean relative F1 (ours)", "mean relative F1 (paper)"])))  # fmt: skip

    # 5. all metrics
    L += ["", "## 5. All metrics (ours)", "",
          "Weighted precision/recall/F1 and, for two classes, the binary ones (positive class "
          "as above); time = mean fit + predict seconds per split.", ""]  # fmt: skip
    for n in names:
        rows = []
        for m in BASELINES + EXTRA + GNB_METHODS:
            c = cell(n, m)
            rows.append([m] + [_fmt(c.get(k, np.nan)) for k in cols] + [_fmt(c.seconds)])
        L += [f"**{n}**", "", _table(pd.DataFrame(rows, columns=["method", *cols, "s"])), ""]
    (outdir / f"{stem}.md").write_text("\n".join(L) + "\n")
    print("\n".join(L[: L.index("## 2. GNB models against the paper")]))
