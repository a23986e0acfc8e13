"""``kgraph export``: a saved structure to JSON / GraphML / pgmpy, or a run's fitted model
to a discrete Bayesian network (pgmpy, BIF, XMLBIF, UAI, XDSL, NET: exactly its posterior,
or refused in one line, :mod:`estimators.network.export.exact_export`) or to its structure graph."""

from __future__ import annotations

import argparse
from pathlib import Path

from estimators.network.export.network_formats import FORMATS
from viz.cli.commands import CommandError, read_structure_or_fail, saved_target

#: the structure graph's formats (any saved structure or fitted model); the network formats
#: are those of :data:`~estimators.network.export.network_formats.FORMATS`
GRAPH_SUFFIX = {"json": ".json", "graphml": ".graphml"}


def _suffix(to: str) -> str:
    return GRAPH_SUFFIX[to] if to in GRAPH_SUFFIX else FORMATS[to].suffix


def _network_files() -> list[str]:
    """The formats that hold a fitted model's CPDs (a structure file has none)."""
    return [name for name, form in FORMATS.items() if form.network_file]


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``export`` sub-command."""
    p = sub.add_parser(
        "export", help="convert a saved structure or a fitted model to another format",
        description="Convert a structure saved by kgraph (.graphml or .json) to JSON, GraphML "
                    "or a pgmpy structure (joblib), or a run's fitted model (RUN/model.joblib) "
                    f"to a discrete Bayesian network (--to {'|'.join(FORMATS)}) or to "
                    "its whole structure graph (--to json|graphml). A network file's class "
                    "posterior is exactly the model's predict_proba on complete rows: tan, "
                    "ktan, kdb and ban on categorical features, generative or discriminative "
                    "(the equivalent Bayesian network; kdb and ban may gain edges closing a "
                    "parent set, listed on stdout); gnb (generative or discriminative) and kgnb "
                    "as their own networks; aode and a2de as a mixture of their SPODEs over "
                    "two latent nodes, spode and spode_value (leave them out of the evidence; "
                    "a2de is refused when a complete row could get its naive Bayes fallback); "
                    "latent-cnb with one component as naive Bayes, with more as the class's "
                    "CPT over every combination of categories (refused past 1,000,000 "
                    "probabilities). The class node takes the class column's name (--target, "
                    "default: the one in structure.json beside the model) unless a feature "
                    "has it (then 'class', said on stdout). Readers, measured: "
                    + "; ".join(f"{f}: {FORMATS[f].readers}" for f in _network_files()) + ". "
                    "Models with continuous "
                    "features are refused with exit status 2 and one line naming them; their "
                    "structure and parameters export with --to json|graphml. "
                    "Warning: a .joblib model is a pickle, which runs code when loaded: load "
                    "one only from a trusted source.")
    p.add_argument("file", type=Path,
                   help="a .graphml/.json structure or a model.joblib (trusted source only)")
    p.add_argument("--to", required=True, choices=sorted([*GRAPH_SUFFIX, *FORMATS]),
                   help="the output format (which engines read each: see above)")
    p.add_argument("--target", help="the class node's name in a network file (default: the "
                                    "target in the run's structure.json beside the model, "
                                    "else 'class')")
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


def _run_target(path: Path):
    """The class column's name a run recorded beside its model (``structure.json``'s or
    ``structure.graphml``'s ``target``), or None."""
    for name in ("structure.json", "structure.graphml"):
        if (path.parent / name).is_file():
            try:
                return saved_target(path.parent / name)
            except Exception:  # an unreadable file beside the model: no name from it
                return None
    return None


def _export_model(path: Path, to: str, out: Path, target=None) -> list[str]:
    """Write the model; the notes :func:`estimators.network.export.exact_export.export_notes`
    gives, the class node's name when it is not ``target``, and a UAI file's key."""
    from estimators.network.export.exact_export import (
        class_node,
        exact_network,
        export_notes,
        with_class_name,
        write_exact,
    )

    model = _load_model(path)
    try:
        if to in FORMATS:
            network = exact_network(model)
            target = target if target is not None else _run_target(path)
            renamed = None
            if target is not None:
                network, renamed = with_class_name(network, class_node(model), target)
            write_exact(network, to, out)
            notes = FORMATS[to].notes
            return [*export_notes(network), *([renamed] if renamed else []),
                    *(notes(network, out) if notes else [])]
        else:
            from estimators.network.export.structure_graph import structure_graph

            graph = structure_graph(model)
            (graph.write_json if to == "json" else graph.write_graphml)(out)
            return []
    except (ValueError, TypeError) as exc:
        raise CommandError(str(exc).splitlines()[0]) from exc


def _export_structure(path: Path, to: str, out: Path) -> None:
    if to in _network_files():
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
    out = args.out or path.with_suffix(_suffix(args.to))
    if out.resolve() == path.resolve():
        raise CommandError(f"--out {out} is the input file; choose another path")
    from viz.cli.paths import check_output_file

    check_output_file(out)  # before loading and converting the model
    notes = []
    if path.suffix.lower() == ".joblib":
        notes = _export_model(path, args.to, out, args.target)
    else:
        _export_structure(path, args.to, out)
    print(out)
    for note in notes:
        print(f"note: {note}")
    return 0
