"""The base floor (issue 47; DESIGN.md "estimators, floor by floor"): what every floor may
use -- the input checks (``validation``: typed values, degenerate columns, the errors and
warnings scores and searchers raise) and the user-facing warnings of a fit
(``user_warnings``). Nothing here imports a floor above the columns.
"""
