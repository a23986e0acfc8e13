"""One network core for every structured classifier: sufficient statistics, factors, the
parent-set network model and structure learning (issue 27).

Modules: ``statistics`` (additive sufficient statistics, one partition in memory, many from
a Dask DataFrame), ``factors``, ``model`` and ``learn``.
"""
