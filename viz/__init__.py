"""viz: matplotlib figures of kgraph structures and results, and the ``kgraph`` command.

Every plot function takes a structure or a fitted model (or plain arrays), draws into an
optional ``ax=``, returns the matplotlib ``Figure`` and never calls ``plt.show()``. Importing
:mod:`viz` does not import matplotlib; the functions do, when called.
"""

from viz.confidence import plot_confidence
from viz.curves import plot_reduction_curve, plot_relative_f1, relative_f1
from viz.diagnostics import PairData, plot_pair_diagnostics
from viz.gnb import plot_gnb_forest, plot_gnb_graph, plot_junction_tree
from viz.ktree import plot_ktree, plot_pbkt, plot_tree_representation
from viz.latent import perplexity_summary, plot_elbo, plot_perplexity
from viz.plate import plot_plate
from viz.structure import plot_structure
from viz.style import OKABE_ITO, PALETTE, Style, apply_style, save_figure, style_context

__all__ = [
    "OKABE_ITO",
    "PALETTE",
    "PairData",
    "Style",
    "apply_style",
    "perplexity_summary",
    "plot_confidence",
    "plot_elbo",
    "plot_gnb_forest",
    "plot_gnb_graph",
    "plot_junction_tree",
    "plot_ktree",
    "plot_pair_diagnostics",
    "plot_pbkt",
    "plot_plate",
    "plot_perplexity",
    "plot_reduction_curve",
    "plot_relative_f1",
    "plot_structure",
    "plot_tree_representation",
    "relative_f1",
    "save_figure",
    "style_context",
]
