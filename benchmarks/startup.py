"""Start-up time: ``import kgraph``, ``import estimators`` and ``kgraph --help``.

Also ``import estimators.ktan`` followed by the first registry use, which reads the plug-in
entry points (``estimators.learning.plugin_registry.load_plugins``; a checkout without plug-ins only imports).

Each command runs in a fresh interpreter (best of 7 wall times), next to two peers measured
in the same run: an empty interpreter (``python -c pass``) and ``import pgmpy`` (which
``import estimators`` no longer pays: pgmpy is imported only when a model is exported).
Also listed: whether pgmpy, matplotlib and scikit-learn were imported by each command.
Optionally (``--before PATH``) the same commands on another checkout, e.g. main before
this change.

Run: ``PYTHONPATH=. python benchmarks/startup.py [--before /path/to/checkout]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import write  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PROBE = "\nimport sys; print(*(m in sys.modules for m in ('pgmpy', 'matplotlib', 'sklearn')))"
COMMANDS = {
    "python -c pass (peer)": "pass",
    "import pgmpy (peer)": "import pgmpy",
    "import kgraph": "import kgraph",
    "import estimators": "import estimators",
    "import estimators.ktan, then the registries": (
        "import estimators.ktan\n"
        "try:\n    from estimators.learning.plugin_registry import load_plugins\nexcept ImportError:\n"
        "    pass  # before plug-ins\nelse:\n    load_plugins()"),
    "kgraph --help": "import contextlib, io, viz.cli\n"
                     "with contextlib.redirect_stdout(io.StringIO()):\n"
                     "    viz.cli.build_parser().print_help()",
}


def once(code: str, root: Path) -> tuple[float, str]:
    """Wall time of one fresh interpreter running ``code``, and what it imported."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code + PROBE], env=env, cwd=root,
                         capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - t0
    probe = " / ".join("yes" if p == "True" else "no" for p in out.stdout.split()[-3:])
    return seconds, probe


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="another checkout to measure too")
    parser.add_argument("--repeat", type=int, default=7, help="rounds (best is kept)")
    parser.add_argument("--quick", action="store_true", help="two rounds")
    args = parser.parse_args()
    if args.quick:
        args.repeat = 2
    roots = {"this branch": ROOT, **({"before": args.before} if args.before else {})}
    cases = [(label, where, code, root) for label, code in COMMANDS.items()
             for where, root in roots.items() if "peer" not in label or where == "this branch"]
    best = {case[:2]: (float("inf"), "") for case in cases}
    for _ in range(args.repeat):  # round robin: a load change hits every command alike
        for label, where, code, root in cases:
            seconds, probe = once(code, root)
            best[label, where] = (min(best[label, where][0], seconds), probe)
    base = best["python -c pass (peer)", "this branch"][0]
    lines = [f"| command | checkout | best of {args.repeat} (s) | × empty interpreter | "
             "imports pgmpy / matplotlib / scikit-learn |", "|---|---|---:|---:|---|"]
    for (label, where), (seconds, probe) in best.items():
        lines.append(f"| `{label}` | {where} | {seconds:.3f} | {seconds / base:.1f} | {probe} |")
    lines += ["", "`kgraph --help` builds the full parser; `kgraph learn`'s choices come from "
              "the estimators' registries and are read only when used (a value is checked or "
              "`kgraph learn --help` is printed), so the top-level help imports no estimator, "
              "scikit-learn, SciPy or pandas.", "",
              "Regenerate: `python -m benchmarks startup`; `--before PATH` adds the same "
              "commands on another checkout (e.g. main before a change)."]
    write("startup", "Start-up time of kgraph, estimators and the kgraph command", lines)


if __name__ == "__main__":
    main()
