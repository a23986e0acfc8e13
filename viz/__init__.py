"""viz: matplotlib figures of kgraph structures and results, and the ``kgraph`` command.

Every plot function takes a structure or a fitted model (or plain arrays), draws into an
optional ``ax=``, returns the matplotlib ``Figure`` and never calls ``plt.show()``. Importing
:mod:`viz` does not import matplotlib; the functions do, when called.
"""

from kgraph._lazy import lazy_exports

__all__ = [
    "OKABE_ITO",
    "PALETTE",
    "PAPER_WIDTHS",
    "PairData",
    "Style",
    "apply_style",
    "check_figure",
    "figure_key",
    "friedman_nemenyi",
    "key_caption",
    "perplexity_summary",
    "plot_confidence",
    "plot_consensus",
    "plot_critical_difference",
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

_EXPORTS = {
    "OKABE_ITO": "viz.style",
    "PALETTE": "viz.style",
    "PAPER_WIDTHS": "viz.style",
    "PairData": "viz.diagnostics",
    "Style": "viz.style",
    "apply_style": "viz.style",
    "check_figure": "viz.check",
    "figure_key": "viz.key",
    "friedman_nemenyi": "viz.critical_difference",
    "key_caption": "viz.key",
    "perplexity_summary": "viz.latent",
    "plot_confidence": "viz.confidence",
    "plot_consensus": "viz.consensus",
    "plot_critical_difference": "viz.critical_difference",
    "plot_elbo": "viz.latent",
    "plot_gnb_forest": "viz.gnb",
    "plot_gnb_graph": "viz.gnb",
    "plot_junction_tree": "viz.gnb",
    "plot_ktree": "viz.ktree",
    "plot_pair_diagnostics": "viz.diagnostics",
    "plot_pbkt": "viz.ktree",
    "plot_perplexity": "viz.latent",
    "plot_plate": "viz.plate",
    "plot_reduction_curve": "viz.curves",
    "plot_relative_f1": "viz.curves",
    "plot_structure": "viz.structure",
    "plot_tree_representation": "viz.ktree",
    "relative_f1": "viz.curves",
    "save_figure": "viz.style",
    "style_context": "viz.style",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
