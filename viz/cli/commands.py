"""Sub-commands of ``kgraph``: each registers its parser and a ``run(args)`` function."""

from __future__ import annotations

import argparse
from pathlib import Path

import kgraph


class CommandError(Exception):
    """A user error: ``kgraph`` prints it as one line and exits with status 2."""


def _datasets(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("datasets", help="list the built-in data sets",
                       description="List the built-in data sets that 'kgraph learn' accepts "
                                   "by name.")
    p.set_defaults(run=run_datasets)


def run_datasets(args: argparse.Namespace) -> int:
    from estimators.datasets import dataset_info, list_datasets

    for name in list_datasets():
        kind, text = dataset_info(name)
        print(f"{name:<18} {kind:<11} {text}")
    return 0


def _plugins(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("plugins", help="list the registered scores and searchers",
                       description="List the structure scores and searchers that 'kgraph learn' "
                                   "accepts (--structure-score, --search), kgraph's own and "
                                   "those of installed plug-ins (entry points kgraph.scores and "
                                   "kgraph.searchers), with where each comes from; plug-ins "
                                   "that could not be loaded are listed last.")
    p.set_defaults(run=run_plugins)


def run_plugins(args: argparse.Namespace) -> int:
    from estimators.learning.plugin_registry import registered

    rows = registered()
    width = max(len(r.name) for r in rows)
    for kind, title in (("score", "scores"), ("searcher", "searchers")):
        print(f"{title}:")
        for r in rows:
            if r.kind == kind and r.loaded:
                families = f"{', '.join(r.families):<26} " if kind == "score" else ""
                print(f"  {r.name:<{width}}  {families}{r.origin}")
    broken = [r for r in rows if not r.loaded]
    if broken:
        print("plug-ins that could not be loaded (skipped):")
        for r in broken:
            print(f"  {r.kind} {r.name:<{width}}  {r.origin}")
    return 0


def read_structure_or_fail(path: Path) -> kgraph.Structure:
    """Read a saved structure, turning every reading problem into a one-line CommandError."""
    if not path.is_file():
        raise CommandError(f"cannot read {path}: no such file")
    try:
        return kgraph.read_structure(path)
    except (ValueError, KeyError, TypeError, OSError, SyntaxError) as exc:  # XML errors are SyntaxErrors
        raise CommandError(f"cannot read a kgraph structure from {path}: {exc}") from exc


def _plot(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("plot", help="draw a saved structure to PDF, SVG or PNG",
                       description="Draw a structure saved by kgraph (GraphML or JSON) with the "
                                   "figure made for its kind; the suffix of --out picks the format.")
    p.add_argument("file", type=Path, help="a .graphml or .json file written by kgraph")
    p.add_argument("--out", type=Path, required=True, help="FIG.pdf, FIG.svg or FIG.png")
    p.add_argument("--width", type=_width, default="page", metavar="WIDTH",
                   help="figure width: 'column' (3.5 in), 'page' (7.0 in, the default) or "
                        "inches; text is 7 pt at that size")
    p.add_argument("--to", choices=("tikz", "dot"), default=None,
                   help="write a standalone TikZ picture (FIG.tex) or a Graphviz file "
                        "(FIG.dot) with the figure's positions, labels and arrows instead")
    p.add_argument("--overview", action="store_true",
                   help="draw an unlabelled overview (dots and lines) instead of the "
                        "labelled structure")
    p.set_defaults(run=run_plot)


def _width(text: str):
    from viz.cli.methods import figure_width

    return figure_width(text)


def saved_target(path: Path):
    """The class node a saved structure file names (graph attribute ``target``), or None."""
    reader = (kgraph.GraphDB.read_graphml if path.suffix.lower() == ".graphml"
              else kgraph.GraphDB.read_json)
    return reader(path).attrs.get("target")


def run_plot(args: argparse.Namespace) -> int:
    from viz._model import graph_extras, unused_class_edges
    from viz.overview import plot_overview
    from viz.structure import plot_structure
    from viz.style import save_figure

    writers = {"tikz": ".tex", "dot": ".dot"}
    if args.to is not None and args.out.suffix.lower() != writers[args.to]:
        raise CommandError(f"--to {args.to} writes a {writers[args.to]} file; got --out "
                           f"{args.out}")
    if args.to is None and args.out.suffix.lower() not in (".pdf", ".svg", ".png"):
        raise CommandError(f"--out must end in .pdf, .svg or .png; got {args.out}")
    from viz.cli.paths import check_output_file

    check_output_file(args.out)
    structure = read_structure_or_fail(args.file)
    reader = (kgraph.GraphDB.read_graphml if args.file.suffix.lower() == ".graphml"
              else kgraph.GraphDB.read_json)
    graph = reader(args.file)
    weights, types = graph_extras(graph)
    extra = {}
    if isinstance(structure, kgraph.AcyclicKTree | kgraph.GNBJunctionTree):
        extra = {"weights": weights or None, "feature_types": types or None}
    target = graph.attrs.get("target") if isinstance(structure, kgraph.AcyclicKTree) else None
    if target is not None:  # the class edges the saved model does not use are dashed
        extra.update(target=target, class_free=unused_class_edges(graph))
    try:
        fig = (plot_overview(structure, width=args.width) if args.overview
               else plot_structure(structure, width=args.width, **extra))
    except TypeError as exc:
        raise CommandError(str(exc)) from exc
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if args.to is not None:
        from viz.export import to_dot, to_tikz

        try:
            text = (to_tikz if args.to == "tikz" else to_dot)(fig)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        args.out.write_text(text)
        print(args.out)
    else:
        print(save_figure(fig, args.out))
    note = write_key(fig, args.out.with_name(f"{args.out.stem}_key.txt"))
    if note:
        print(note)
    return 0


def write_key(fig, path: Path) -> str | None:
    """Write the key of a figure whose key is not drawn in it to ``path``; the line that
    tells the user where the key is (None when the figure needs none)."""
    from viz.key import figure_key, key_in_figure, key_text

    key = figure_key(fig)
    if not key:
        return None
    if key_in_figure(fig):
        return f"{len(key)} nodes show short keys; the key is drawn in the figure"
    path.write_text(key_text(fig))
    return (f"{len(key)} nodes show short keys; the key does not fit the figure: it is in "
            f"{path} (put it in the caption)")


PAPERS = {"paper1": "GNB with continuous features (tables 2-5, figure 6)",
          "paper2": "k-tree augmented Naive Bayes on discrete data",
          "paper2_recurrence": "paper 2's §5.3 recursion read literally vs the exact DP",
          "paper3": "latent conditional Naive Bayes (tables 1-2, categorical data)"}


def _bench(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "bench", help="reproduce a paper's tables (the scripts in benchmarks/)",
        description="Run benchmarks/PAPER.py of a source checkout: "
                    + "; ".join(f"{k}: {v}" for k, v in PAPERS.items())
                    + ". Results go to benchmarks/results/ (or $KGRAPH_BENCH_RESULTS).")
    p.add_argument("paper", choices=sorted(PAPERS), help="which paper")
    p.add_argument("--quick", action="store_true", help="a small version (minutes, for CI)")
    p.set_defaults(run=run_bench)


def benchmarks_folder() -> Path:
    """The ``benchmarks/`` folder of the source checkout kgraph runs from (or the current one)."""
    for root in (Path(__file__).resolve().parents[2], Path.cwd()):
        if (root / "benchmarks" / "paper1.py").is_file():
            return root / "benchmarks"
    raise CommandError("kgraph bench runs the scripts in benchmarks/ of a source checkout; "
                       "run it from the repository root")


def run_bench(args: argparse.Namespace) -> int:
    import os
    import subprocess
    import sys

    folder = benchmarks_folder()
    command = [sys.executable, str(folder / f"{args.paper}.py"), *(["--quick"] * args.quick)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(folder.parent), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    print(f"kgraph bench: {' '.join(command)}", file=sys.stderr)
    return subprocess.run(command, cwd=folder.parent, env=env, check=False).returncode


def _export(sub: argparse._SubParsersAction) -> None:
    from viz.cli.export import register

    register(sub)


REGISTER = [_datasets, _export, _plot, _bench, _plugins]
