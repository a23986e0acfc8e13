"""The base floor (issue 47; DESIGN.md "estimators, floor by floor"): what every floor may
use -- the input checks (``validation``: typed values, degenerate columns, the errors and
warnings scores and searchers raise), the user-facing warnings of a fit
(``user_warnings``), progress bars (``progress``), the compiled-kernel decorator
(``numba_cache``), one BLAS thread for small linear algebra (``blas_threads``) and the
reading of plug-in entry points into the registries (``entry_points``). Nothing here imports
a floor above the columns.
"""
