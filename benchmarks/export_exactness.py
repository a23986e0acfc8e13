"""Issue 45's acceptance check: every CLI model on the shared discrete tables, generative and
discriminative, through ``kgraph export --to bif|xmlbif|pgmpy|uai|xdsl|net``.

For each table the last 100 rows of a seeded shuffle are held out; the model is fitted on
the rest (the CLI's own estimator and options), saved with joblib, and exported by
``kgraph export`` (in-process). An exit status 0 must come with a file whose class posterior
-- pgmpy's variable elimination on the file read back (UAI: by the competition's
specification, :func:`estimators.network.export.exact_export.read_uai`) -- equals ``predict_proba`` on the
100 held-out rows within 1e-9 (rows with a category unseen in training are left out: they
are not complete rows); an exit status 2 must come with one line on stderr. Writes
``benchmarks/results/export_exactness.md`` (``export_exactness_TABLE[_TABLE].md`` for
``--tables``; ``--quick``: balance_scale only, ``export_exactness_quick.md``).

Run: ``PYTHONPATH=. python benchmarks/export_exactness.py [--tables car ...] [--quick]``
(a minute or two per table on a 2-core machine).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
import warnings
from pathlib import Path

import joblib
import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._common import write  # noqa: E402
from estimators.network.export.exact_export import class_node, exact_network, read_network  # noqa: E402
from estimators.network.export.network_formats import FORMATS  # noqa: E402
from viz.cli import main  # noqa: E402
from viz.cli.learn import MODELS  # noqa: E402

TABLES = ("car", "tic_tac_toe", "votes", "balance_scale")
DATA = ROOT / "estimators" / "datasets" / "data"  # the built-in copies of the tables
HELD_OUT = 100


def _estimator(name: str, parameters: str):
    spec = MODELS[name]
    kwargs = {"parameters": parameters} if "parameters" in spec.options else {}
    return spec.estimator_class()(**kwargs)


def _posterior(model, target, rows: pd.DataFrame, text: bool = True) -> np.ndarray:
    """pgmpy's variable elimination, every feature of the row as evidence: its text (a
    file's state names), or the value itself (``text=False``: the pickled network)."""
    from pgmpy.inference import VariableElimination

    ve = VariableElimination(model)
    records = rows.astype(object).to_dict("records")
    return np.array([ve.query([target], evidence={k: str(v) if text else v for k, v in r.items()},
                              show_progress=False).values for r in records])


def check(table: str, name: str, parameters: str, tmp: Path) -> list[dict]:
    frame = pd.read_csv(DATA / f"{table}.csv")
    X, y = frame.drop(columns="class"), frame["class"].to_numpy()
    order = np.random.default_rng(0).permutation(len(X))
    test, train = order[:HELD_OUT], order[HELD_OUT:]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = _estimator(name, parameters).fit(X.iloc[train], y[train])
    rows = X.iloc[test]
    seen = np.all([rows[c].isin(X.iloc[train][c].unique()) for c in X.columns], axis=0)
    rows = rows[seen]
    model = tmp / "model.joblib"
    joblib.dump(clf, model)
    out = []
    bn = None
    for fmt in FORMATS:
        path = tmp / f"m.{fmt}"
        err, std = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(std):
            code = main(["export", str(model), "--to", fmt, "--out", str(path)])
        row = {"table": table, "model": name, "parameters": parameters, "format": fmt,
               "exit": code, "rows": int(seen.sum())}
        if code == 0:
            bn = exact_network(clf) if bn is None else bn
            target = class_node(clf)
            got = _posterior(read_network(path, fmt, bn), target, rows, text=fmt != "pgmpy")
            row["max abs diff"] = float(np.abs(got - clf.predict_proba(rows)).max())
            row["closing edges"] = len(bn.graph["closing_edges"])
            row["network"] = bn.graph["parameters"]
            row["largest CPT"] = max(cpd.values.size for cpd in bn.get_cpds())
        else:
            lines = err.getvalue().strip().splitlines()
            row["message"] = lines[0] if len(lines) == 1 else f"{len(lines)} lines!"
        out.append(row)
    return out


def _markdown(res: pd.DataFrame) -> list[str]:
    """The results as a Markdown table (no tabulate dependency)."""
    def cell(value) -> str:
        if isinstance(value, float):
            return "" if np.isnan(value) else f"{value:.2g}"
        return str(value)

    cols = list(res.columns)
    return (["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
            + ["| " + " | ".join(cell(v) for v in row) + " |"
               for row in res.itertuples(index=False)])


def _write(rows: list[dict], name: str, progress: str = "") -> None:
    """The results file: a summary and one row per table, model, parameters and format."""
    res = pd.DataFrame(rows)
    exact = res[res["exit"] == 0]
    refused = res[res["exit"] != 0]
    largest = exact["max abs diff"].max() if len(exact) else float("nan")
    one_line = bool((~refused["message"].str.endswith("lines!")).all()) if len(refused) else True
    lines = [f"{HELD_OUT} held-out rows per table (those with a category unseen in training "
             "left out), `kgraph export` then pgmpy variable elimination on each file read "
             "back, against `predict_proba`.", "",
             f"- exports written: {len(exact)}; largest |difference| {largest:.3g}; over "
             f"1e-9: {int((exact['max abs diff'] > 1e-9).sum()) if len(exact) else 0}",
             f"- refusals (exit 2): {len(refused)}, each one line: {one_line}",
             f"- combinations (table, model, parameters) checked: {progress}", "",
             *_markdown(res)]
    write(name, "Exports: exact or refused (issue 45)", lines, quiet=True)


def main_(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", nargs="*", default=list(TABLES))
    parser.add_argument("--quick", action="store_true", help="balance_scale only")
    args = parser.parse_args(argv)
    if args.quick:
        args.tables = ["balance_scale"]
    output = ("export_exactness" if args.quick or args.tables == list(TABLES)
              else "export_exactness_" + "_".join(args.tables))
    rows = []
    combos = [(t, n, p) for t in args.tables for n in MODELS for p in ("generative", "discriminative")
              if p == "generative" or "parameters" in MODELS[n].options]
    done = 0
    # the network classifiers first (the subject), then the others
    names = sorted(MODELS, key=lambda n: n not in ("tan", "ktan", "kdb", "ban"))
    with tempfile.TemporaryDirectory() as d:
        for table in args.tables:
            for name in names:
                for parameters in ("generative", "discriminative"):
                    if parameters == "discriminative" and "parameters" not in MODELS[name].options:
                        continue
                    new = check(table, name, parameters, Path(d))
                    rows += new
                    for row in new:
                        print(row, flush=True)
                    done += 1  # after every model: a partial run keeps its rows
                    _write(rows, output, f"{done} of {len(combos)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main_())
