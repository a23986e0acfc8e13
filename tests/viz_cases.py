"""Small inputs of every viz figure and the four baseline figure families (GNB structures,
k-trees, curves, latent), shared by tests/viz and tests/viz/make_baselines.py."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import multivariate_normal

from kgraph import AcyclicKTree, GNBJunctionTree
from kgraph.pbkt import PBKT
from kgraph.plate import LatentCNBPlate
from viz.critical_difference import plot_critical_difference
from viz.curves import plot_reduction_curve, plot_relative_f1
from viz.diagnostics import PairData, plot_pair_diagnostics
from viz.gallery import BACKBONE, FOREST_EDGES, KTREE, PAPER1_EDGES
from viz.gnb import plot_gnb_forest, plot_gnb_graph, plot_junction_tree
from viz.ktree import plot_ktree, plot_pbkt, plot_tree_representation
from viz.latent import plot_elbo, plot_perplexity
from viz.plate import plot_plate
from viz.style import Style

#: Fixed size and resolution of the baseline figures.
BASELINE_STYLE = Style(dpi=60)
BASELINE_SIZE = (12.0, 4.0)
TOLERANCE = 2.0  # RMS of 0-255 grey levels accepted by compare_images


def gnb() -> GNBJunctionTree:
    return GNBJunctionTree.from_tree(PAPER1_EDGES, target=0)


def forest():
    return GNBJunctionTree.from_tree(FOREST_EDGES, target=0).prefix(3)


def ktree() -> AcyclicKTree:
    return KTREE


def ktree_25() -> AcyclicKTree:
    """A 2-tree over 25 features with long names (seeded): each new feature joins a random
    existing edge."""
    rng = np.random.default_rng(3)
    names = [f"feature_{i:02d}_{'abcdefgh'[i % 8] * (i % 5)}" for i in range(25)]
    parents, edges = {names[1]: [names[0]]}, [(names[0], names[1])]
    for v in names[2:]:
        a, b = edges[int(rng.integers(len(edges)))]
        parents[v] = [a, b]
        edges += [(a, v), (b, v)]
    return AcyclicKTree(2, names, parents)


LONG_NAMES = ["sepal length (cm)", "petal width in centimetres", "a",
              "alcalinity_of_ash", "od280/od315_of_diluted_wines"]


def pbkt() -> PBKT:
    return PBKT.from_ktree(KTREE, BACKBONE)


def reduction_scores() -> np.ndarray:
    rng = np.random.default_rng(7)
    base = 0.7 + 0.05 * np.log1p(np.arange(6))
    return np.clip(base + rng.normal(0.0, 0.03, (5, 6)), 0.0, 1.0)


def f1_table() -> pd.DataFrame:
    return pd.DataFrame([[0.52, 0.55, 0.54, 0.53], [0.80, 0.84, 0.86, 0.85],
                         [0.95, 0.96, 0.94, 0.97]], index=["abalone", "bodyfat", "iris"],
                        columns=["GaussNB", "LR", "GNB Gauss", "GNB KDE*"])


def pair() -> PairData:
    rng = np.random.default_rng(3)
    x = np.vstack([rng.normal(0.0, 1.0, (25, 2)), rng.normal(2.0, 1.0, (25, 2))])
    y = np.repeat(["a", "b"], 25)
    means = {"a": [0.0, 0.0], "b": [2.0, 2.0]}
    dens = {c: multivariate_normal(m).logpdf for c, m in means.items()}
    pred = np.where(x.sum(axis=1) > 2.0, "b", "a")
    return PairData(x, y, pred, dens, ("length", "width"))


def elbo_runs() -> list[list[float]]:
    return [[-3.0, -2.1, -1.7, -1.6, -1.58], [-3.5, -2.6, -2.2, -2.15]]


def perplexity_results() -> dict:
    return {"iris": {"dirichlet": [3.1, 3.4, 3.2], "beta-liouville": [2.9, 3.0, 3.3]},
            "wine": {"dirichlet": [5.5, 5.9, 5.7], "beta-liouville": [5.1, 5.4, 5.0]}}


#: Every plot function on a small input (name -> callable(ax=None, style=None) -> Figure).
CASES = {
    "gnb_graph": lambda **kw: plot_gnb_graph(gnb(), **kw),
    "junction_tree": lambda **kw: plot_junction_tree(gnb(), "tree", **kw),
    "junction_tree_compact": lambda **kw: plot_junction_tree(gnb(), "compact", **kw),
    "gnb_forest": lambda **kw: plot_gnb_forest(forest(), **kw),
    "ktree": lambda **kw: plot_ktree(ktree(), **kw),
    "ktan": lambda **kw: plot_ktree(ktree(), target="Y", **kw),
    "tree_representation": lambda **kw: plot_tree_representation(ktree(), **kw),
    "pbkt": lambda **kw: plot_pbkt(pbkt(), **kw),
    "reduction_curve": lambda **kw: plot_reduction_curve(reduction_scores(), **kw),
    "relative_f1": lambda **kw: plot_relative_f1(f1_table(), highlight=["GNB Gauss"], **kw),
    "pair_diagnostics": lambda **kw: plot_pair_diagnostics(pair(), **kw),
    "elbo": lambda **kw: plot_elbo(elbo_runs(), labels=["dirichlet", "beta-liouville"], **kw),
    "perplexity": lambda **kw: plot_perplexity(perplexity_results(), **kw),
    "ktan_25": lambda **kw: plot_ktree(ktree_25(), target="class", **kw),
    "plate_long_names": lambda **kw: plot_plate(LatentCNBPlate(LONG_NAMES, 3), **kw),
    "critical_difference": lambda **kw: plot_critical_difference(f1_table(), **kw),
}

#: Figures with their own size (wide layouts), each compared with its own baseline PNG.
STANDALONE = ["ktan_25", "plate_long_names"]

#: The image-comparison families: each a row of panels drawn into one fixed-size figure.
FAMILIES = {
    "gnb": ["gnb_graph", "junction_tree_compact", "gnb_forest"],
    "ktree": ["ktan", "tree_representation", "pbkt"],
    "curves": ["reduction_curve", "relative_f1", "pair_diagnostics"],
    "latent": ["elbo", "perplexity"],
}


def family_figure(name: str):
    """The baseline figure of a family: its panels side by side, fixed size and dpi."""
    from matplotlib.figure import Figure

    from viz.style import style_context

    panels = FAMILIES[name]
    with style_context(BASELINE_STYLE):
        fig = Figure(figsize=BASELINE_SIZE, dpi=BASELINE_STYLE.dpi, layout="constrained")
        axes = fig.subplots(1, len(panels))
    for ax, panel in zip(axes, panels, strict=True):
        CASES[panel](ax=ax, style=BASELINE_STYLE)
    return fig
