"""The network floor (issue 47; DESIGN.md "estimators, floor by floor"): factors, their
fitting, the parent-set network model of every structured classifier and its export.

Modules: ``factors``, ``fitting``, ``stats_factors`` (factors from the statistics of
:mod:`estimators.stats`), ``cg_pairs``, ``model``, ``equivalent``, ``discriminative_tables``
and ``export``. Structure learning sits a floor above the scores, in
:mod:`estimators.learning`.
"""
