"""A small gallery of kgraph's figures for the README, drawn from built-in small structures.

Run ``python -m viz.gallery OUTDIR`` (or call :func:`make_gallery`) to (re)write the PNG
files; the same code always writes the same images. Every figure is drawn one journal
column wide (3.5 in, 7 pt text) and must pass :func:`viz.check.check_figure` before it is
written.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING

from kgraph.gnb import GNBJunctionTree
from kgraph.graphdb import GraphDB
from kgraph.ktree import AcyclicKTree
from kgraph.pbkt import PBKT
from kgraph.plate import LatentCNBPlate
from viz.check import check_figure
from viz.confidence import plot_confidence
from viz.gnb import plot_gnb_forest, plot_gnb_graph, plot_junction_tree
from viz.ktree import plot_ktree, plot_pbkt, plot_tree_representation
from viz.plate import plot_plate
from viz.style import Style, save_figure

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

__all__ = ["gallery_figures", "make_gallery", "main"]

#: Paper 1's running example (§2.1): features 1..5, class 0.
PAPER1_EDGES = [(1, 2), (2, 3), (1, 4), (1, 5)]
#: A spanning tree whose first three clusters form a forest of two trees.
FOREST_EDGES = [(1, 2), (4, 5), (2, 3), (5, 6), (3, 4)]
#: A 2-tree on six vertices and a backbone (Hamiltonian path) it contains.
KTREE = AcyclicKTree(2, [3, 4, 5, 2, 6, 1], {5: [3, 4], 2: [3, 4], 6: [4, 5], 1: [2, 3]})
BACKBONE = [1, 2, 3, 4, 5, 6]
#: Bootstrap confidences of the paper 1 example's edges (illustrative values).
CONFIDENCE = {(1, 2): 1.0, (2, 3): 0.55, (1, 4): 0.85, (1, 5): 0.3}
#: The penguins columns, for the plate of latent CNB.
PENGUINS = ["island", "bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g",
            "sex", "year"]


#: The 30 feature columns of an HR attrition table (the issue's 30-feature example).
HR_FEATURES = [
    "Age", "BusinessTravel", "DailyRate", "Department", "DistanceFromHome", "Education",
    "EducationField", "EnvironmentSatisfaction", "Gender", "HourlyRate", "JobInvolvement",
    "JobLevel", "JobRole", "JobSatisfaction", "MaritalStatus", "MonthlyIncome", "MonthlyRate",
    "NumCompaniesWorked", "OverTime", "PercentSalaryHike", "PerformanceRating",
    "RelationshipSatisfaction", "StockOptionLevel", "TotalWorkingYears",
    "TrainingTimesLastYear", "WorkLifeBalance", "YearsAtCompany", "YearsInCurrentRole",
    "YearsSinceLastPromotion", "YearsWithCurrManager"]

#: The directed structures :func:`generated_structure` makes.
STRUCTURE_KINDS = ("tan", "ktan", "kdb", "ban")


def feature_names(n: int) -> list[str]:
    """``n`` feature names: the HR columns, then the same with a suffix ``_2``, ``_3``...

    Examples
    --------
    >>> feature_names(31)[-2:]
    ['YearsWithCurrManager', 'Age_2']
    """
    return [name if i < len(HR_FEATURES) else f"{name}_{1 + i // len(HR_FEATURES)}"
            for i, name in zip(range(n), HR_FEATURES * (1 + n // len(HR_FEATURES)),
                               strict=False)]


def generated_structure(kind: str, n: int, seed: int = 0, names: list | None = None,
                        target: str = "Attrition"):
    """A random structure of a kind over ``n`` features (seeded): ``"tan"`` (a 1-tree),
    ``"ktan"`` (a 2-tree), ``"kdb"`` (each feature up to 2 parents among the earlier ones)
    or ``"ban"`` (up to 3); the k-trees are drawn with class vertex ``target``.

    Examples
    --------
    >>> g = generated_structure("kdb", 5)
    >>> sorted(g.order) == feature_names(5), max(len(g.parents(v)) for v in g.order) <= 2
    (True, True)
    """
    import numpy as np

    from kgraph.dag import ParentSetDAG

    rng = np.random.default_rng(seed)
    names = list(names) if names is not None else feature_names(n)
    order = [names[i] for i in rng.permutation(n)]
    if kind in ("tan", "ktan"):
        k = 1 if kind == "tan" else 2
        parents: dict = {}
        cliques = [order[:k + 1]] if k == 2 else []
        if k == 2:
            parents[order[1]] = [order[0]]
            parents[order[2]] = order[:2]
        for i, v in enumerate(order[k + 1 if k == 2 else 1:], start=k + 1 if k == 2 else 1):
            if k == 1:
                parents[v] = [order[int(rng.integers(i))]]
            else:
                clique = cliques[int(rng.integers(len(cliques)))]
                pair = [clique[j] for j in sorted(rng.choice(3, 2, replace=False))]
                parents[v] = pair
                cliques.append([*pair, v])
        return AcyclicKTree(k, order, parents)
    if kind in ("kdb", "ban"):
        most = 2 if kind == "kdb" else 3
        parents = {}
        for i, v in enumerate(order):
            m = min(i, int(rng.integers(0, most + 1)) if kind == "ban" else most)
            parents[v] = [order[j] for j in sorted(rng.choice(i, m, replace=False))] if m else []
        return ParentSetDAG(parents, target=target)
    raise ValueError(f"Unknown structure kind {kind!r}; use one of {STRUCTURE_KINDS}.")


def _confidence_graph() -> GraphDB:
    graph = GNBJunctionTree.from_tree(PAPER1_EDGES, target=0).to_graph()
    for (u, v), c in CONFIDENCE.items():
        graph.set_edge_attrs(u, v, confidence=c)
    return graph


def gallery_figures(style: Style | None = None) -> dict[str, Callable[[], Figure]]:
    """File stem -> a function drawing that gallery figure (one column wide unless
    ``style`` says otherwise)."""
    style = style or Style(width="column")
    gnb = GNBJunctionTree.from_tree(PAPER1_EDGES, target=0)
    forest = GNBJunctionTree.from_tree(FOREST_EDGES, target=0).prefix(3)
    pbkt = PBKT.from_ktree(KTREE, BACKBONE)
    return {
        "gnb_graph": lambda: plot_gnb_graph(gnb, style=style, title="GNB graph"),
        "junction_tree": lambda: plot_junction_tree(gnb, "tree", style=style,
                                                    title="GNB junction tree"),
        "junction_tree_compact": lambda: plot_junction_tree(gnb, "compact", style=style,
                                                            title="compact form"),
        "gnb_forest": lambda: plot_gnb_forest(forest, style=style),
        "ktree": lambda: plot_ktree(KTREE, style=style, title="acyclic 2-tree"),
        "ktan": lambda: plot_ktree(KTREE, target="Y", style=style, title="2-TAN"),
        "tree_representation": lambda: plot_tree_representation(
            KTREE, style=style, title="tree-representation"),
        "pbkt": lambda: plot_pbkt(pbkt, style=style, title="backbone 2-tree (pbkt)"),
        "plate": lambda: plot_plate(LatentCNBPlate(PENGUINS, 3), style=style),
        "confidence": lambda: plot_confidence(_confidence_graph(), style=style,
                                              title="edge confidence (bootstrap)"),
    }


def make_gallery(outdir: str | PathLike, style: Style | None = None) -> list[Path]:
    """Write every gallery figure as ``OUTDIR/<name>.png`` after checking it with
    :func:`~viz.check.check_figure` (a ``FigureProblems`` error names what fails); return
    the paths written."""
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, draw in gallery_figures(style).items():
        fig = draw()
        check_figure(fig, strict=True)
        paths.append(save_figure(fig, outdir / f"{name}.png", style))
    return paths


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m viz.gallery OUTDIR``: write the gallery PNGs into OUTDIR."""
    parser = argparse.ArgumentParser(prog="python -m viz.gallery",
                                     description="Write the README gallery of kgraph figures "
                                                 "(PNG) into OUTDIR.")
    parser.add_argument("outdir", help="directory for the PNG files (created if missing)")
    args = parser.parse_args(argv)
    for path in make_gallery(args.outdir):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
