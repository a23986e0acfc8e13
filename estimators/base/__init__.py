"""The base floor (issue 47; DESIGN.md "estimators, floor by floor"): what every floor may
use -- the input checks (``validation``: typed values, degenerate columns, the errors and
warnings scores and searchers raise), the user-facing warnings of a fit
(``user_warnings``) and the parameter declarations (``parameters``: each estimator
parameter declared once, from which its constraint, docstring line and CLI option
come). Nothing here imports a floor above the columns.
"""
