"""estimators: scores, searchers, densities and classifiers built on :mod:`kgraph`."""

__all__: list[str] = []
