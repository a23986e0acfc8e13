"""kgraph: graph structures of Naive-Bayes-family classifiers.

The lowest layer of the toolkit: the property-graph abstraction (:class:`GraphDB`) and the
structure objects learned by the searchers in :mod:`estimators`. It knows graphs, not
statistics, and imports neither :mod:`estimators` nor :mod:`viz`.
"""

from kgraph.graphdb import GraphDB

__version__ = "0.1.0"

__all__ = ["GraphDB", "__version__"]
