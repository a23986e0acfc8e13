"""kgraph: graph structures of Naive-Bayes-family classifiers.

The lowest layer of the toolkit: the property-graph abstraction (:class:`GraphDB`) and the
structure objects learned by the searchers in :mod:`estimators`. It knows graphs, not
statistics, and imports neither :mod:`estimators` nor :mod:`viz`.
"""

from kgraph.consensus import EnsembleStructure
from kgraph.dag import ParentSetDAG, ParentSets
from kgraph.gnb import GNBForest, GNBJunctionTree
from kgraph.graphdb import GraphDB
from kgraph.junction import CherryJunctionTree
from kgraph.ktree import AcyclicKTree
from kgraph.pbkt import PBKT
from kgraph.plate import LatentCNBPlate
from kgraph.store import StructureStore
from kgraph.structure import Structure, read_structure
from kgraph.superparent import SuperParentEnsemble

__version__ = "0.1.0"

__all__ = [
    "AcyclicKTree",
    "CherryJunctionTree",
    "EnsembleStructure",
    "GNBForest",
    "GNBJunctionTree",
    "GraphDB",
    "LatentCNBPlate",
    "PBKT",
    "ParentSetDAG",
    "ParentSets",
    "Structure",
    "StructureStore",
    "SuperParentEnsemble",
    "read_structure",
    "__version__",
]
