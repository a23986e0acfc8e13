"""User trial of ``kgraph learn`` (issues 11 and 31): every real table and every shipped table
with each model of the command line -- the five older ones and the Bayesian-network-classifier
family (kdb, aode, a2de, ban) -- as a user runs it; exit status and every output file
checked.

Data: the built-in names (``kgraph datasets``) and the four real tables as CSV files with
``--target`` (from a folder given by ``--csv-dir``, default ``estimators/datasets/data``, or
``benchmarks/data`` for the GPL tables the package does not ship).
A run passes when it exits 0 and writes structure.graphml, structure.json, model.joblib,
metrics.json, metrics.csv, structure.pdf, structure.png and report.md.

Run: ``PYTHONPATH=$PWD python benchmarks/cli_trial.py`` (writes results/cli_trial.md);
``--models`` and ``--data`` restrict the grid; ``--from-logs`` writes the report from the
progress lines (stderr) of earlier runs, e.g. the older models and the family run apart.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import write  # noqa: E402

from estimators.datasets import dataset_target, list_datasets  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MODELS = ["gnb", "kgnb", "tan", "ktan", "latent-cnb", "kdb", "aode", "a2de", "ban"]
REAL = ["penguins", "oj", "arrests", "helpmiss"]
FILES = ["structure.graphml", "structure.json", "model.joblib", "metrics.json", "metrics.csv",
         "structure.pdf", "structure.png", "report.md"]


def blas_threads(jobs: int) -> dict:
    """Environment giving each of ``jobs`` concurrent runs its share of the cores: with more
    BLAS threads than cores, OpenBLAS's spinning workers slowed two concurrent k-GNB runs
    on 2 cores 20-fold (kr_vs_kp: 1766 s against 72 s alone)."""
    if jobs <= 1:
        return {}
    n = str(max(1, (os.cpu_count() or 1) // jobs))
    return {"OPENBLAS_NUM_THREADS": n, "OMP_NUM_THREADS": n, "MKL_NUM_THREADS": n}


def run(data: str, model: str, extra: list[str], timeout: float, threads: dict) -> dict:
    with tempfile.TemporaryDirectory() as out:
        command = [sys.executable, "-m", "viz.cli", "learn", data, "--model", model,
                   "--out", out, *extra]
        env = {**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg", **threads}
        start = time.perf_counter()
        try:
            proc = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                                  timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            return {"status": f"timeout after {timeout:.0f} s", "seconds": timeout}
        seconds = time.perf_counter() - start
        missing = [f for f in FILES if not (Path(out) / f).is_file()]
        lines = [line for line in proc.stderr.splitlines() if line.strip()
                 and "cross-validation fold" not in line]
        if proc.returncode == 0 and not missing:
            status = "pass"
        else:
            status = (f"exit {proc.returncode}: " + (lines[-1][:160] if lines else "")
                      + (f"; missing {missing}" if proc.returncode == 0 else ""))
        return {"status": status, "seconds": seconds}


def read_logs(paths: list[Path]) -> dict:
    """``{(data label, model): result}`` from the progress lines of earlier runs."""
    import ast

    out = {}
    for path in paths:
        for line in path.read_text().splitlines():
            head, sep, tail = line.partition(": {")
            if sep:
                label, model = head.rsplit(" ", 1)
                out[label, model] = ast.literal_eval("{" + tail)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--data", default=None, help="comma-separated names (default: all)")
    parser.add_argument("--csv-dir", type=Path, default=ROOT / "estimators/datasets/data")
    parser.add_argument("--timeout", type=float, default=1200.0)
    parser.add_argument("--jobs", type=int, default=1, help="runs at the same time")
    parser.add_argument("--from-logs", nargs="+", type=Path, default=None,
                        help="write the report from the stderr logs of earlier runs")
    parser.add_argument("--no-csv", action="store_true",
                        help="built-in names only (no CSV runs of the real tables)")
    parser.add_argument("--quick", action="store_true",
                        help="iris and penguins (built-in and CSV), the gnb model")
    args = parser.parse_args()
    if args.quick:
        args.data, args.models = args.data or "iris,penguins", "gnb"
    names = args.data.split(",") if args.data else REAL + [
        n for n in list_datasets() if n not in REAL]
    grid = []
    for name in names:
        grid.append((name, name, []))
        if name in REAL and not args.no_csv:
            folder = next(f for f in (args.csv_dir, ROOT / "benchmarks" / "data")
                          if (f / f"{name}.csv").is_file())
            grid.append((f"{name}.csv --target {dataset_target(name)}",
                         str(folder / f"{name}.csv"), ["--target", dataset_target(name)]))
    models = args.models.split(",")

    def one(task):
        (label, data, extra), model = task
        result = run(data, model, extra, args.timeout, blas_threads(args.jobs))
        print(f"{label} {model}: {result}", file=sys.stderr, flush=True)
        return result

    tasks = [(entry, model) for entry in grid for model in models]
    if args.from_logs:
        results = read_logs(args.from_logs)
    else:
        with ThreadPoolExecutor(args.jobs) as pool:
            results = dict(zip([(e[0], m) for e, m in tasks], pool.map(one, tasks),
                               strict=True))
    table, failures = [], []
    n_run = 0
    for label, data, extra in grid:
        row = [label]
        for model in models:
            result = results.get((label, model))
            if result is None:
                row.append("not run")
                continue
            n_run += 1
            row.append(f"pass ({result['seconds']:.0f} s)" if result["status"] == "pass"
                       else "FAIL")
            if result["status"] != "pass":
                failures.append(f"- `kgraph learn {data} {' '.join(extra)} --model {model}`:"
                                f" {result['status']}")
        table.append("| " + " | ".join(row) + " |")
    repository = str(ROOT / "benchmarks" / "data")
    gpl_note = (" and `benchmarks/data` (the GPL tables)"
                if any(data.startswith(repository) for (_, data, _) in grid) else "")
    n_pass = sum(cell.startswith("pass") for line in table for cell in line.split(" | "))
    lines = [f"Each run is "
             f"`python -m viz.cli learn DATA --model M --out DIR` (5-fold CV, defaults). "
             f"CSV files from `{args.csv_dir.relative_to(ROOT) if args.csv_dir.is_relative_to(ROOT) else args.csv_dir}`"
             f"{gpl_note}.",
             "", f"{n_pass} of {n_run} runs pass ({len(grid) * len(models) - n_run} of the "
             f"{len(grid) * len(models)} not run).", "",
             "| data | " + " | ".join(models) + " |", "|---|" + "---|" * len(models),
             *table, ""]
    if failures:
        lines += ["Failures (command, exit status and the last line of stderr):", "",
                  *failures, ""]
    write("cli_trial", "User trial: kgraph learn on every table with every model", lines)


if __name__ == "__main__":
    main()
