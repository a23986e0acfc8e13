"""The statistics floor (issue 47; DESIGN.md "estimators, floor by floor"): additive
sufficient statistics of the columns, computed once per fit and shared by every score,
factor and density that needs them.

Modules: ``cell_statistics`` (class counts, contingency tables, per-cell counts, means and
centred cross-products), ``moments`` (grouped moments and their pooling),
``mixed_statistics`` (per-level moments of mixed tables) and ``partitions`` (the statistics
of many partitions merged by the same code: in memory is one partition, a Dask DataFrame
many); ``class_information`` (I(X_j; C) of each column, the class edges' weights),
``gaussian`` (the conditional Gaussian cells from their moments: regressions, Gaussians,
log-likelihoods, and the one ``LOG_2PI``) and ``dask_collections`` (whether an input is a
Dask collection, without importing dask).
Nothing here imports a floor above it.
"""
