"""What ``kgraph learn`` writes about the fitted model: its whole structure and its figure.

:func:`write_structure` writes ``structure.graphml`` and ``structure.json`` from
:func:`estimators.network.export.structure_graph.structure_graph` (class node, parents, edge weights,
feature types; ``confidence`` on the edges after ``--bootstrap``); :func:`structure_figure`
draws the structure with its class, and a reduced GNB as the forest it predicts with;
:func:`save_figures` writes it as PDF and PNG at ``--dpi``.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path

from kgraph import AcyclicKTree, GNBJunctionTree, GraphDB, ParentSetDAG, SuperParentEnsemble
from viz.cli.warning_log import WarningLog

FILES = ("structure.graphml", "structure.json")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer; got {text!r}")
    return value


def _jobs(text: str) -> int:
    if text == "-1":
        return -1
    return _positive(text)


def add_options(p: argparse.ArgumentParser) -> None:
    """``--dpi``, ``--n-jobs`` and ``--quiet`` of ``kgraph learn``."""
    p.add_argument("--dpi", type=_positive, default=200,
                   help="resolution of structure.png in dots per inch (200)")
    p.add_argument("--n-jobs", type=_jobs, default=None,
                   help="cross-validation folds fitted in parallel (-1: all cores)")
    p.add_argument("--quiet", action="store_true", help="no progress bars")


@contextlib.contextmanager
def run_context(quiet: bool, replaced: tuple[str, ...] = ()) -> Iterator[WarningLog]:
    """Progress bars (unless ``quiet``) and a :class:`~viz.cli.warning_log.WarningLog` for
    the run's warnings: the block records the folds, the final fit and the bootstrap in it
    by source; any other warning is recorded as ``other`` (but those matching a pattern of
    ``replaced``: the run says them in its own words). At the end, after the bars, at most
    one line per kind of warning goes to stderr, then the run's own."""
    from estimators.base.progress import show_progress

    log = WarningLog(replaced)
    with show_progress(not quiet):
        try:
            with log.recording("other"):
                yield log
        finally:
            for line in log.terminal_lines():
                print(line, file=sys.stderr)


def model_graph(model, conf=None) -> GraphDB:
    """The fitted model's structure graph, with edge ``confidence`` after a bootstrap."""
    from estimators.network.export.structure_graph import structure_graph

    graph = structure_graph(model)
    return graph if conf is None else conf.annotate(graph)


def write_structure(model, conf, out: Path, target=None) -> GraphDB:
    """Write ``structure.graphml`` and ``structure.json`` to ``out``, the class node named
    ``target`` (the target column) when given; returns the graph."""
    graph = model_graph(model, conf)
    if target is not None:
        from viz.cli.methods import rename_class

        graph = rename_class(graph, target)
    graph.write_graphml(out / FILES[0])
    graph.write_json(out / FILES[1])
    return graph


def structure_figure(model, structure, conf, threshold: float, graph: GraphDB | None = None,
                     width: str | float | None = "page"):
    """The structure figure with the class node (the confidence figure after a bootstrap),
    ``width`` wide; ``graph`` (what :func:`write_structure` wrote) names the class node and
    gives edge weights and feature types."""
    from kgraph.structure import structure_from_graph
    from viz._model import graph_extras, unused_class_edges
    from viz.structure import plot_structure

    graph = graph if graph is not None else model_graph(model, conf)
    if conf is not None:
        from viz.confidence import plot_confidence

        return plot_confidence(graph, threshold=threshold, width=width,
                               title=f"edge confidence, {len(conf.structures_)} bootstrap "
                                     "resamples")
    weights, types = graph_extras(graph)
    target = graph.attrs.get("target")
    if isinstance(structure, AcyclicKTree | ParentSetDAG):
        return plot_structure(structure, target=target, width=width, weights=weights,
                              feature_types=types, class_free=unused_class_edges(graph))
    if isinstance(structure, SuperParentEnsemble):  # the class node named as in the files
        if target is not None and target not in structure.features:
            structure = SuperParentEnsemble(structure.features, structure.super_parents,
                                            structure.n, target=target)
        return plot_structure(structure, width=width, feature_types=types)
    if isinstance(structure, GNBJunctionTree):
        named = structure_from_graph(graph)
        if model.n_clusters_ < len(structure.edges):
            from viz.gnb import plot_gnb_forest

            return plot_gnb_forest(named.prefix(model.n_clusters_), width=width,
                                   weights=weights, feature_types=types, title=(
                f"reduced GNB: {model.n_clusters_} of {len(structure.edges)} clusters in use"))
        return plot_structure(named, width=width, weights=weights, feature_types=types)
    return plot_structure(structure, width=width)


def save_figures(fig, out: Path, dpi: int) -> list[str]:
    """``structure.pdf`` and ``structure.png`` (at ``dpi``); returns the file names."""
    from viz.style import Style, save_figure

    style = Style(dpi=dpi)
    names = ["structure.pdf", "structure.png"]
    for name in names:
        save_figure(fig, out / name, style=style)
    return names
