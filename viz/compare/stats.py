"""Paired tests of a comparison: Wilcoxon's signed-rank test of each model against a
reference, the p-values adjusted by Holm's step-down method over the models compared.

Holm (1979): sort the m p-values ascending, ``p_(1) <= ... <= p_(m)``; the adjusted value of
``p_(i)`` is ``max_{j <= i} min(1, (m - j + 1) p_(j))``. A model differs from the reference
at level alpha when its adjusted p-value is below alpha; the family-wise error rate over the
m tests is at most alpha.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

__all__ = ["holm", "wilcoxon_against"]


def holm(pvalues: Sequence[float]) -> np.ndarray:
    """Holm's adjusted p-values, in the order given (NaN stays NaN and is not counted).

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03]).round(3).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    known = np.flatnonzero(~np.isnan(p))
    m = known.size
    order = known[np.argsort(p[known], kind="stable")]
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


def wilcoxon_p(a: Sequence[float], b: Sequence[float]) -> float:
    """The two-sided p-value of Wilcoxon's signed-rank test of the pairs ``(a_i, b_i)``
    (pairs with a zero difference dropped; 1 when every difference is zero; NaN with fewer
    than one pair)."""
    from scipy.stats import wilcoxon

    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    d = d[~np.isnan(d)]
    if d.size == 0:
        return float("nan")
    if not np.any(d != 0):
        return 1.0
    return float(wilcoxon(d[d != 0]).pvalue)


def wilcoxon_against(scores: Mapping[str, Sequence[float]], reference: str) -> dict[str, float]:
    """Holm-adjusted p-values of Wilcoxon's test of each model against ``reference``.

    Parameters
    ----------
    scores : mapping of model to paired values
        The same pairs (folds, or tables) for every model.
    reference : str
        The model every other is tested against.

    Returns
    -------
    dict
        Model -> adjusted p-value (the reference left out).

    Examples
    --------
    >>> p = wilcoxon_against({"a": [1, 2, 3, 4, 5, 6], "b": [2, 3, 4, 5, 6, 7],
    ...                       "c": [1, 2, 3, 4, 5, 6]}, "a")
    >>> round(p["b"], 4), p["c"]
    (0.0625, 1.0)
    """
    if reference not in scores:
        raise ValueError(f"the reference {reference!r} is not one of the models "
                         f"({', '.join(scores)})")
    others = [m for m in scores if m != reference]
    raw = [wilcoxon_p(scores[m], scores[reference]) for m in others]
    return dict(zip(others, holm(raw).tolist(), strict=True))
