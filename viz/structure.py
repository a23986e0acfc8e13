"""``plot_structure``: the figure that fits any kgraph structure."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kgraph import (
    PBKT,
    AcyclicKTree,
    CherryJunctionTree,
    GNBForest,
    GNBJunctionTree,
    ParentSetDAG,
)
from kgraph.consensus import EnsembleStructure
from kgraph.plate import LatentCNBPlate
from kgraph.superparent import SuperParentEnsemble
from viz.consensus import plot_consensus
from viz.gnb import plot_gnb_forest, plot_gnb_graph, plot_junction_tree
from viz.ktree import plot_ktree, plot_pbkt
from viz.plate import plot_plate
from viz.superparent import plot_superparent

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

__all__ = ["plot_structure"]

_PLOTTERS = {
    GNBJunctionTree: plot_gnb_graph,
    GNBForest: plot_gnb_forest,
    CherryJunctionTree: plot_junction_tree,
    AcyclicKTree: plot_ktree,
    ParentSetDAG: plot_ktree,
    PBKT: plot_pbkt,
    LatentCNBPlate: plot_plate,
    SuperParentEnsemble: plot_superparent,
    EnsembleStructure: plot_consensus,
}


def plot_structure(structure: Any, **kwargs: Any) -> Figure:
    """Draw a structure with the figure made for its kind (keyword arguments pass through).

    Examples
    --------
    >>> from kgraph import AcyclicKTree
    >>> from viz.structure import plot_structure
    >>> fig = plot_structure(AcyclicKTree(1, [1, 2, 3], {2: [1], 3: [2]}))
    >>> type(fig).__name__
    'Figure'
    """
    for kind, plotter in _PLOTTERS.items():
        if type(structure) is kind:
            return plotter(structure, **kwargs)
    if hasattr(structure, "estimators_") and hasattr(structure, "weights_"):  # an ensemble
        return plot_consensus(structure, **kwargs)
    registered = getattr(structure, "plot", None)
    if callable(registered):
        return registered(**kwargs)
    learned = _learned(structure)
    if learned is not None:  # a fitted model: its structure, drawn with its weights
        plotter = _PLOTTERS.get(type(learned))
        if plotter is not None:
            return plotter(structure if plotter in _TAKE_MODELS else learned, **kwargs)
    kinds = ", ".join(k.__name__ for k in _PLOTTERS)
    raise TypeError(f"No figure for a {type(structure).__name__}; drawable structures: {kinds} "
                    "(or a fitted model with one).")


#: plotters that read a fitted model's edge weights and feature types themselves
_TAKE_MODELS = (plot_gnb_graph, plot_ktree, plot_plate)


def _learned(model: Any) -> Any:
    """The structure a fitted model learned (``structure_``, ``plate_graph()``), or None."""
    found = getattr(model, "structure_", None)
    if found is None and hasattr(model, "classes_") and callable(getattr(model, "plate_graph", None)):
        found = model.plate_graph()
    return found
