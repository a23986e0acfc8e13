"""``kgraph export``: a saved structure to JSON / GraphML / pgmpy, or a run's fitted model
to BIF / XMLBIF / pgmpy (the discrete network with its CPDs) or to its structure graph."""

from __future__ import annotations

import argparse
from pathlib import Path

from viz.cli.commands import CommandError, read_structure_or_fail, saved_target

MODEL_FORMATS = ("bif", "xmlbif", "pgmpy")
SUFFIX = {"pgmpy": ".pgmpy.joblib", "json": ".json", "graphml": ".graphml", "bif": ".bif",
          "xmlbif": ".xml"}


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``export`` sub-command."""
    p = sub.add_parser(
        "export", help="convert a saved structure or a fitted model to another format",
        description="Convert a structure saved by kgraph (.graphml or .json) to JSON, GraphML "
                    "or a pgmpy structure (joblib), or a run's fitted model (RUN/model.joblib) "
                    "to BIF, XMLBIF or pgmpy (the discrete network with its CPDs; (k-)TAN on "
                    "discrete features) or to its whole structure graph (--to json|graphml). "
                    "Warning: a .joblib model is a pickle, which runs code when loaded: load "
                    "one only from a trusted source.")
    p.add_argument("file", type=Path,
                   help="a .graphml/.json structure or a model.joblib (trusted source only)")
    p.add_argument("--to", required=True, choices=sorted(SUFFIX), help="the output format")
    p.add_argument("--out", type=Path, help="output path (default: FILE with a new suffix); "
                                            "never the input file")
    p.set_defaults(run=run_export)


def _load_model(path: Path):
    import joblib

    if not path.is_file():
        raise CommandError(f"cannot read {path}: no such file")
    try:
        return joblib.load(path)
    except Exception as exc:  # a pickle can fail in any way; report it in one line
        raise CommandError(f"cannot load a model from {path}: {exc}") from exc


def _export_model(path: Path, to: str, out: Path) -> None:
    from estimators.network_export import write_network

    model = _load_model(path)
    try:
        if to in MODEL_FORMATS:
            write_network(model, to, out)
        else:
            from estimators.structure_graph import structure_graph

            graph = structure_graph(model)
            (graph.write_json if to == "json" else graph.write_graphml)(out)
    except (ValueError, TypeError) as exc:
        raise CommandError(str(exc).splitlines()[0]) from exc


def _export_structure(path: Path, to: str, out: Path) -> None:
    if to in ("bif", "xmlbif"):
        raise CommandError(f"--to {to} needs a fitted model (RUN/model.joblib): a structure "
                           "file has no CPDs")
    structure = read_structure_or_fail(path)
    if to == "json":
        structure.write_json(out)
    elif to == "graphml":
        structure.write_graphml(out)
    else:
        if not hasattr(structure, "to_pgmpy"):
            raise CommandError(f"a {type(structure).__name__} has no pgmpy form")
        import joblib

        target = saved_target(path)
        try:
            network = structure.to_pgmpy(target) if target is not None else structure.to_pgmpy()
        except TypeError:  # a structure whose pgmpy form has its class built in
            network = structure.to_pgmpy()
        joblib.dump(network, out)


def run_export(args: argparse.Namespace) -> int:
    path: Path = args.file
    out = args.out or path.with_suffix(SUFFIX[args.to])
    if out.resolve() == path.resolve():
        raise CommandError(f"--out {out} is the input file; choose another path")
    if path.suffix.lower() == ".joblib":
        _export_model(path, args.to, out)
    else:
        _export_structure(path, args.to, out)
    print(out)
    return 0
