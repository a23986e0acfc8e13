"""Every export of a fitted classifier, in one place (issue 47): the network floor's
readers of a fitted model.

Modules: ``pgmpy_network`` (a network classifier as pgmpy models, and the parameters of its
factors), ``exact_export`` (any classifier as a discrete Bayesian network file, exactly or
not at all: :func:`~estimators.network.export.exact_export.exact_network`) and
``structure_graph`` (any classifier's whole structure as one property graph, GraphML/JSON:
:func:`~estimators.network.export.structure_graph.structure_graph`).
"""
