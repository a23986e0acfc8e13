"""Which independent engines read each network file kgraph writes, measured (no imports:
``kgraph export --help`` prints it without loading the estimators)."""

__all__ = ["ENGINES"]

#: which independent engines read each format right (``predict_proba`` to 1e-9, or 1e-6 where
#: the reader holds float32) and which misread it, and why: measured with pgmpy 1.1.2 and
#: pyAgrum 3.3.1 (:mod:`estimators.network.export.exact_export` says how)
ENGINES = {
    "bif": "pgmpy exactly; pyAgrum in float32 (1e-8)",
    "xmlbif": "pgmpy exactly; pyAgrum exactly from a .bifxml file (it refuses .xml)",
    "uai": "kgraph's read_uai with the key file NAME.uai.key.csv (variable names, state "
           "codes); misread by pgmpy 1.1.2 (child taken as the slowest, parents in arbitrary "
           "order) and by pyAgrum 3.3.1 where a node has two or more parents (first parent "
           "taken as the fastest, against the UAI specification)",
    "xdsl": "pgmpy exactly; misread by pyAgrum 3.3.1 where a node has two or more parents "
            "(first parent taken as the fastest, against pgmpy and SMILE's order)",
    "net": "pgmpy exactly; pyAgrum in float32 (1e-8)",
    "pgmpy": "pgmpy (a joblib pickle of the DiscreteBayesianNetwork)",
}
