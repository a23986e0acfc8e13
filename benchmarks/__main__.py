"""Regenerate the results files: ``python -m benchmarks all [--quick]``.

Every file in ``benchmarks/results`` is written whole by one script of :data:`STEPS`; this
command runs them one after the other, each in its own process, with the arguments that
produced the committed files (``--quick``: each script's small smoke mode, whose files are
named ``*_quick``), and checks that each step wrote the files it claims. Results go to
``benchmarks/results`` or ``$KGRAPH_BENCH_RESULTS``.

    python -m benchmarks list                  # the steps, their files and arguments
    python -m benchmarks all --quick           # every quick mode (under 15 min on 2 cores)
    python -m benchmarks all                   # every full run (hours on 2 cores)
    python -m benchmarks real_tables leaderboard --quick   # some steps
    python -m benchmarks real_tables leaderboard -- --repeats 1   # extra arguments, each step
    python -m benchmarks stale                 # which steps' quick numbers moved (minutes)
    python -m benchmarks stale real_tables     # some steps
    python -m benchmarks all --skip-current    # regenerate only the steps whose numbers moved

A step is current when its quick mode, rerun on the working tree, reproduces the committed
quick files number for number, the comparison CI runs (:mod:`benchmarks._currency`); a
change that moves a step's quick numbers regenerates that step, quick and full.

Arguments after ``--`` are appended to every chosen step's command (a deviation from the
committed protocol, which the results files then show in their command line).

Run from the repository root (the scripts import the working tree).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks._currency import Currency, currency
from benchmarks._quick_numbers import Varying

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Step:
    """One results-writing run: ``benchmarks/SCRIPT.py ARGS`` and the files it writes;
    ``varying``: the numbers of its files that measure the run (time, speed, load, memory)
    and so differ between two runs of the same code (every other number of a fresh
    ``--quick`` file must equal the committed one: ``tests/benchmarks/test_quick_runs.py``)."""

    name: str
    script: str
    outputs: tuple[str, ...]
    args: tuple[str, ...] = ()
    quick_args: tuple[str, ...] = ("--quick",)
    quick_outputs: tuple[str, ...] = ()
    varying: Varying = Varying()

    def command(self, quick: bool, extra: tuple[str, ...] = ()) -> list[str]:
        return [sys.executable, f"benchmarks/{self.script}.py",
                *(self.quick_args if quick else self.args), *extra]

    def files(self, quick: bool) -> list[str]:
        """The files written: ``outputs``, or under ``--quick`` ``quick_outputs`` (default:
        each output with ``_quick`` before its extension)."""
        if not quick:
            return list(self.outputs)
        return list(self.quick_outputs or (
            f"{Path(n).stem}_quick{Path(n).suffix}" for n in self.outputs))


#: shared declarations of what varies between two runs of the same code (Step.varying):
#: wall/CPU times and what is computed from them (speed-ups, ratios of times, goal marks on a
#: time, the load average, memory), each pattern a regular expression
#: (benchmarks/_quick_numbers.py says how columns, rows and text are matched)
TIMES = "wall and CPU times, ratios of times, load average"
TARGET_LINE = r"^(Targets?|Goals?)\b.*"   # a whole line of time goals and their marks
#: the hash of the package sources in a run store's code version (provenance, like the commit
#: in the header: it changes with any package edit, the numbers only with some)
CODE_VERSION = r"\b[0-9a-f]{12}-sk[\d.]+\d"

#: every step, in the order ``all`` runs them (real_tables before the leaderboard, which
#: reads its cached table results)
STEPS = [
    Step("startup", "startup", ("startup.md",),
         varying=Varying(columns=(r"\(s\)", "empty interpreter"), why=TIMES)),
    Step("first_run", "first_run", ("first_run.md",),
         varying=Varying(columns=(r"\(s\)", "first / second"),
                         text=(r"load average [\d.]+ before, [\d.]+ after",), why=TIMES)),
    Step("backbone_dp", "backbone_dp", ("backbone_dp.md",),
         varying=Varying(columns=("time", "memory", "slope"),
                         text=(r"^Target k = .*", r"^Load: .*"),
                         why=TIMES + ", peak memory, slopes of log time")),
    Step("tan_vs_pgmpy", "tan_vs_pgmpy", ("tan_vs_pgmpy.md",),
         varying=Varying(columns=(r"\(s\)", "speed-up"), text=(r"Total wall time of the run: \d+ s",),
                         why=TIMES)),
    Step("gaussian_edge_matrix", "gaussian_edge_matrix", ("gaussian_edge_matrix.md",),
         varying=Varying(columns=(r"\(s\)",), why=TIMES)),
    Step("kde_copula_scaling", "kde_copula_scaling", ("kde_copula_scaling.md",),
         varying=Varying(columns=(r"\(s\)",), text=(r"slope of time against n: \*\*[-\d.]+\*\*",),
                         why=TIMES + ", the slope of log time")),
    Step("marginal_patterns", "marginal_patterns", ("marginal_patterns.md",),
         varying=Varying(columns=(r"\(s\)", "^ratio$"), why=TIMES)),
    Step("confidence_gaussian_tree", "confidence_gaussian_tree",
         ("confidence_gaussian_tree.md",)),
    Step("copula_structure", "copula_structure", ("copula_structure.md",)),
    Step("latent_binary", "latent_binary", ("latent_binary.md",)),
    Step("latent_vs_lda", "latent_vs_lda", ("latent_vs_lda.md",),
         varying=Varying(columns=("iteration", ", E-step$", "LDA / ours"),
                         text=(r"1-minute load average [\d.]+ at the start and [\d.]+ at the end",),
                         why=TIMES)),
    Step("latent_active_set", "latent_vs_lda", ("latent_active_set.md",), ("--no-lda",),
         ("--quick", "--no-lda"),
         varying=Varying(columns=("iteration", ", E-step$", "LDA / ours"),
                         text=(r"1-minute load average [\d.]+ at the start and [\d.]+ at the end",),
                         why=TIMES)),
    Step("gnb_speed", "gnb_speed", ("gnb_speed.md",),
         varying=Varying(columns=(r"\(s\)", "ratio"), text=(TARGET_LINE,), why=TIMES)),
    Step("ande_speed", "ande_speed", ("ande_speed.md",),
         varying=Varying(columns=(r"\(s\)",), rows=(" / TAN fit$",), text=(TARGET_LINE,),
                         why=TIMES)),
    Step("wide", "wide", ("wide.md",),
         varying=Varying(columns=("^seconds$", "vs dense Prim", "CPU", r"\(s\)", "MB",
                                  r"d\^2 floats"),
                         text=(TARGET_LINE,), why=TIMES + ", peak memory")),
    Step("ktan_vs_pgmpy", "ktan_vs_pgmpy", ("ktan_vs_pgmpy.md",),
         varying=Varying(columns=(r"\(s\)", "per fold", "ratio"), text=(TARGET_LINE,),
                         why=TIMES)),
    Step("dask_scale", "dask_scale", ("dask_scale.md", "dask_scale.csv"), ("--rows", "1e7"),
         varying=Varying(columns=(r"\(s\)", "rows / s", "MB", "^seconds$", "rows_per_s", "seconds",
                                  "rss", "idle", "load", "^date", "^commit"),
                         why=TIMES + ", memory, the date and commit of the run")),
    Step("missing", "missing", ("missing.md",), ("--max-rows", "500")),
    Step("missing_discriminative", "missing", ("missing_discriminative.md",),
         ("--max-rows", "500", "--models", "discriminative"),
         ("--quick", "--models", "discriminative")),
    # the table benchmarks run through kgraph compare's cells at full table size (issue 46),
    # one repeat of 5-fold CV (the scripts' default is 3): the compute the shared 2-core
    # machine allows for every model on every table, two cells at a time; chosen before the
    # runs, not after
    Step("real_tables", "real_tables", ("real_tables.md",),
         ("--repeats", "1", "--n-jobs", "2"),
         varying=Varying(columns=("^seconds$",), text=(CODE_VERSION,),
                         why=TIMES + "; the code version hash")),
    Step("leaderboard", "leaderboard",
         ("leaderboard.md", "leaderboard_accuracy.png", "leaderboard_accuracy.pdf",
          "leaderboard_log_loss.png", "leaderboard_log_loss.pdf"),
         ("--repeats", "1", "--n-jobs", "2"),
         quick_outputs=("leaderboard_quick.md", "leaderboard_quick_accuracy.png",
                        "leaderboard_quick_log_loss.png"),
         varying=Varying(text=(CODE_VERSION,), why="the code version hash")),
    Step("ktan_speed", "ktan_speed", ("ktan_speed.md",),
         varying=Varying(columns=("row path / statistics", r"\bs$", "CPU s"), why=TIMES)),
    Step("core_fit_time", "core_fit_time", ("core_fit_time.md",),
         varying=Varying(columns=(r"\(s\)", "after / before"), why=TIMES)),
    Step("ktan_auto_rule", "ktan_auto_rule", ("ktan_auto_rule.md",),
         varying=Varying(columns=("CPU s",), text=(r"CPU s over all tables: auto \d+, all \d+",),
                         why=TIMES)),
    Step("defaults_check_choosing", "defaults_check", ("defaults_check_choosing.md",),
         ("--choosing", "--max-rows", "1000"), ("--quick", "--choosing")),
    Step("defaults_check_latent", "defaults_check", ("defaults_check_latent.md",),
         ("--models", "latent", "--output", "defaults_check_latent"),
         ("--quick", "--models", "latent", "--output", "defaults_check_latent")),
    Step("defaults_check_ktan", "defaults_check", ("defaults_check_ktan.md",),
         ("--models", "ktan", "--output", "defaults_check_ktan"),
         ("--quick", "--models", "ktan", "--output", "defaults_check_ktan")),
    # k-TAN's default on the tables with continuous columns (issue 50's second check)
    Step("defaults_check_ktan_continuous", "defaults_check",
         ("defaults_check_ktan_continuous.md",),
         ("--models", "ktan", "--tables",
          "wine,penguins,heart_failure,arrests,yeast,abalone,oj,winequality_red,breast_cancer",
          "--output", "defaults_check_ktan_continuous"),
         ("--quick", "--models", "ktan", "--output", "defaults_check_ktan_continuous")),
    Step("typing_rule", "typing_rule", ("typing_rule.md",),
         varying=Varying(text=(r"^Code: commit .*", r"Started .* UTC; load average [\d.]+"),
                         why="its own provenance line (commit, start time, load)")),
    Step("discriminative", "discriminative", ("discriminative.md",),
         varying=Varying(columns=("fit seconds", "fit / LR fit", "fit ratio", r"fit ≤ \d+x LR"),
                         text=(r"fit within \d+x of LR on \d+ of \d+(: goal (NOT )?met)?",),
                         why=TIMES + ", counts and goal marks of fit-time ratios")),
    # issue 45's acceptance check of every export, and issue 44's of the structure figures
    Step("export_exactness", "export_exactness", ("export_exactness.md",),
         varying=Varying(columns=("max abs diff",),
                         text=(r"largest \|difference\| [-+.\de]+",),
                         why="the last bits of pgmpy's elimination against predict_proba "
                             "(each under 1e-9 by the check), which differ between CPUs")),
    Step("member_mixture_rules", "member_mixture_rules", ("member_mixture_rules.md",)),
    Step("figure_layouts", "figure_layouts", ("figure_layouts.md",)),
    Step("paper1", "paper1", ("paper1.md", "paper1.csv", "paper1_splits.csv",
                              "paper1_curves.csv"),
         quick_outputs=("paper1_quick.md", "paper1_quick.csv", "paper1_quick_splits.csv",
                        "paper1_quick_curves.csv"),
         varying=Varying(columns=("seconds", "^s$"),
                         text=(r"Last run: \d+ s", r"scikit-learn [\w.]+, Python [\w.]+"),
                         why=TIMES + "; the versions of scikit-learn and Python (the machine's)")),
    Step("paper1_sonar", "paper1_sonar", ("paper1_sonar.md", "paper1_sonar.csv")),
    Step("paper2", "paper2", ("paper2.md",),
         varying=Varying(columns=(r"\(s\)", "µs/row", "ms/row", "^ratio$"),
                         text=(r"^The run took .*",), why=TIMES)),
    Step("paper2_recurrence", "paper2_recurrence",
         ("paper2_recurrence.md", "paper2_recurrence_unreachable.png",
          "paper2_recurrence_unreachable.pdf"),
         quick_outputs=("paper2_recurrence_quick.md",),
         varying=Varying(columns=("^s$", "^s literal$", "^s DP$"), text=(r"^Total time \d+ s",),
                         why=TIMES)),
    Step("paper3", "paper3", ("paper3.md",),
         varying=Varying(text=(r"^Total run time: \d+ s",), why=TIMES)),
    Step("bayes_optimal", "bayes_optimal",
         ("bayes_optimal.md", "bayes_optimal.csv", "bayes_optimal_curves.csv",
          "bayes_optimal_prior.csv", "bayes_optimal_run.json"), ("--jobs", "2"),
         quick_outputs=("bayes_optimal_quick.md", "bayes_optimal_quick.csv",
                        "bayes_optimal_quick_curves.csv", "bayes_optimal_quick_prior.csv",
                        "bayes_optimal_quick_run.json"),
         varying=Varying(columns=("seconds",), text=(r"Total [\d.]+ min", r'"minutes": [-+\d.e]+'),
                         sections=(r"^Fit \+ predict seconds",), why=TIMES)),
    Step("cli_trial", "cli_trial", ("cli_trial.md",),
         varying=Varying(text=(r"\(\d+ s\)",), why="each run's wall seconds")),
    Step("ban_optimality", "ban_optimality", ("ban_optimality.md",),
         varying=Varying(text=(r"total \d+ s\.",), why=TIMES)),
    Step("ban_digits", "ban_digits", ("ban_digits.md",),
         varying=Varying(columns=("seconds",), text=(r"total \d+ s\.",),
                         why=TIMES)),
    Step("semiparametric", "semiparametric", ("semiparametric.md",), ("--max-rows", "500"),
         varying=Varying(columns=(r"\bs$",), why=TIMES)),
    Step("semiparametric_speed", "semiparametric_speed", ("semiparametric_speed.md",),
         ("--exact",),
         varying=Varying(columns=(r"\bs$", "/ discriminative"), why=TIMES)),
    Step("bnc_family", "bnc_family",
         ("bnc_family.md", "bnc_family_accuracy.png", "bnc_family_accuracy.pdf",
          "bnc_family_log_loss.png", "bnc_family_log_loss.pdf"),
         ("--repeats", "1"),
         quick_outputs=("bnc_family_quick.md", "bnc_family_quick_accuracy.png",
                        "bnc_family_quick_log_loss.png"),
         varying=Varying(columns=("fit s", "speed-up"), text=(CODE_VERSION,),
                         why=TIMES + "; the code version hash")),
]

#: scripts of benchmarks/ that are not steps, and why
NOT_STEPS = {
    "engine_same_numbers": "compares every family's structures and probabilities at two code "
                           "versions (dump with each, then compare; see its docstring)",
    "ktan_same_numbers": "compares the structures of two code versions (dump with each, then "
                         "compare; see its docstring): not a regeneration of one version",
    "paper1_checks": "module of paper1_report",
    "paper1_reduction": "module of paper1",
    "paper1_reference": "the paper's published numbers",
    "paper1_report": "module of paper1 (paper1.py --report-only rewrites paper1.md)",
    "paper3_readings": "module of paper3",
}


def results_folder() -> Path:
    return Path(os.environ.get("KGRAPH_BENCH_RESULTS") or ROOT / "benchmarks" / "results")


def stale(steps: list[Step], committed: Path | None = None, run=None
          ) -> list[tuple[Step, Currency]]:
    """Each step's :class:`~benchmarks._currency.Currency`: its quick mode rerun, in the
    order of :data:`STEPS` (real_tables before the leaderboard, which reads its run store),
    into one scratch folder, and compared with the committed quick files; a line per step as
    it is known."""
    committed = committed or results_folder()
    options = {} if run is None else {"run": run}
    verdicts = []
    with tempfile.TemporaryDirectory(prefix="kgraph-stale-") as scratch:
        for step in steps:
            verdict = currency(step, Path(scratch), committed, **options)
            print(f"{step.name:<26} {'current' if verdict.current else 'STALE':<8} "
                  f"{verdict.reason}", flush=True)
            for line in verdict.moved[:5]:
                print(f"{'':<36}{line}")
            if len(verdict.moved) > 5:
                print(f"{'':<36}(+{len(verdict.moved) - 5} more)")
            verdicts.append((step, verdict))
    return verdicts


def run(step: Step, quick: bool, parent: str, extra: tuple[str, ...] = ()
        ) -> tuple[bool, float, list[str]]:
    """Run one step (``extra`` appended to its arguments); (every claimed file written during
    the run, seconds, missing files)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg",
           "KGRAPH_BENCH_PARENT": parent}
    start = time.time()
    done = subprocess.run(step.command(quick, extra), cwd=ROOT, env=env)
    seconds = time.time() - start
    folder = results_folder()
    missing = [f for f in step.files(quick)
               if not (folder / f).is_file() or (folder / f).stat().st_mtime < start - 1]
    return done.returncode == 0 and not missing, seconds, missing


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    extra = tuple(argv[argv.index("--") + 1:]) if "--" in argv else ()
    argv = argv[:argv.index("--")] if "--" in argv else argv
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0],
                                 usage="%(prog)s STEP [STEP ...] [--quick] [-- ARGS]")
    ap.add_argument("steps", nargs="+",
                    help="'all', 'list', 'stale [STEP ...]' or step names")
    ap.add_argument("--quick", action="store_true", help="each script's quick mode")
    ap.add_argument("--skip-current", action="store_true",
                    help="skip the steps whose quick numbers reproduce the committed ones "
                         "(python -m benchmarks stale)")
    args = ap.parse_args(argv)
    by_name = {s.name: s for s in STEPS}
    if args.steps[0] == "stale":
        unknown = [n for n in args.steps[1:] if n not in by_name]
        if unknown:
            ap.error(f"unknown steps {unknown}; valid ones: {', '.join(by_name)}")
        chosen = [s for s in STEPS if s.name in args.steps[1:]] or STEPS
        verdicts = stale(chosen)
        n_stale = sum(not v.current for _, v in verdicts)
        print(f"{n_stale} of {len(verdicts)} steps stale (their quick numbers moved: "
              "regenerate them, quick and full)")
        return 1 if n_stale else 0
    if args.steps == ["list"]:
        for s in STEPS:
            print(f"{s.name}: python {' '.join(s.command(args.quick, extra)[1:])} -> "
                  f"{', '.join(s.files(args.quick))}")
        for name, why in NOT_STEPS.items():
            print(f"(not a step) {name}: {why}")
        return 0
    unknown = [n for n in args.steps if n != "all" and n not in by_name]
    if unknown:
        ap.error(f"unknown steps {unknown}; valid ones: all, list, {', '.join(by_name)}")
    chosen = STEPS if "all" in args.steps else [by_name[n] for n in args.steps]
    parent = ("python -m benchmarks " + " ".join(args.steps) + (" --quick" if args.quick else "")
              + (" -- " + " ".join(extra) if extra else ""))
    report, failed, t0 = [], [], time.time()
    if args.skip_current:
        current = {step.name for step, verdict in stale(chosen) if verdict.current}
        report += [f"{name:<26} current (skipped)" for name in current]
        chosen = [step for step in chosen if step.name not in current]
    for step in chosen:
        print(f"== {step.name}: {' '.join(step.command(args.quick, extra)[1:])}", flush=True)
        ok, seconds, missing = run(step, args.quick, parent, extra)
        report.append(f"{step.name:<26} {'ok' if ok else 'FAILED':<7} {seconds:7.1f} s"
                      + (f"  not written: {', '.join(missing)}" if missing else ""))
        if not ok:
            failed.append(step.name)
    print("\n".join(["", *report, f"total {time.time() - t0:.0f} s; "
                     f"{len(chosen) - len(failed)} of {len(chosen)} steps ok"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
