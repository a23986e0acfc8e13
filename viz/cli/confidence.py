"""``kgraph learn --bootstrap B``: edge confidence on the saved structure and its figure.

:func:`add_options` adds ``--bootstrap``, ``--store`` and ``--threshold`` to ``learn``;
:func:`bootstrap` refits the model on B stratified bootstrap resamples; :func:`saved_graph`
is what ``learn`` writes to GraphML and JSON (the structure, with ``confidence`` on its
edges after a bootstrap) and :func:`figure` what it draws.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from viz._markdown import markdown_table
from viz.cli.commands import CommandError


def _resamples(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(
            f"must be a positive number of resamples; got {text!r}")
    return value


def _unit(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be a number in [0, 1]; got {text!r}")
    return value


def add_options(p: argparse.ArgumentParser) -> None:
    """The confidence and store options of ``kgraph learn``."""
    g = p.add_argument_group("confidence and run store")
    g.add_argument("--bootstrap", type=_resamples, metavar="B",
                   help="refit on B stratified bootstrap resamples and write each edge's "
                        "frequency as 'confidence' (GraphML, JSON, figure, report)")
    g.add_argument("--threshold", type=_unit, default=0.0,
                   help="with --bootstrap: draw only edges of at least this confidence (0)")
    g.add_argument("--store", type=Path, metavar="RUNS.db",
                   help="record the run and its structures in this sqlite structure store "
                        "('kgraph runs' reads it)")


def bootstrap(args: argparse.Namespace, model, X, y):
    """The fitted ``StructureConfidence`` of ``--bootstrap B`` (None without it)."""
    if args.bootstrap is None:
        return None
    from estimators.learning.structure_confidence import StructureConfidence

    print(f"  bootstrap: refitting on {args.bootstrap} resamples", file=sys.stderr)
    try:
        return StructureConfidence(model, n_resamples=args.bootstrap,
                                   random_state=args.random_state).fit(X, y)
    except (ValueError, TypeError) as exc:
        raise CommandError(f"bootstrap failed: {str(exc).splitlines()[0]}") from exc


def saved_graph(structure, conf) -> Any:
    """What ``learn`` writes as structure.graphml / .json: the structure itself, or its
    graph with ``confidence`` on every edge between variables."""
    return structure if conf is None else conf.annotate(structure)


def figure(structure, conf, threshold: float):
    """The structure figure, or the confidence figure after a bootstrap."""
    if conf is None:
        from viz.structure import plot_structure

        return plot_structure(structure)
    from viz.confidence import plot_confidence

    return plot_confidence(conf.annotate(structure), threshold=threshold,
                           title=f"edge confidence, {len(conf.structures_)} bootstrap resamples")


def report_lines(conf) -> list[str]:
    """A markdown table of the edge confidences for report.md (nothing without a bootstrap)."""
    if conf is None:
        return []
    rows = sorted(conf.edge_frequencies_.items(), key=lambda item: -item[1])
    return ["", f"## Edge confidence ({len(conf.structures_)} bootstrap resamples)", "",
            *markdown_table(["edge", "confidence"], [
                (" - ".join(sorted(map(str, e))), f"{c:.3f}") for e, c in rows], "lr"), ""]
