"""Paired tests of a comparison: per table, Nadeau and Bengio's corrected resampled t-test
of each model against a reference over the (repeated) cross-validation folds; over tables,
Wilcoxon's signed-rank test; the p-values adjusted by Holm's step-down method over the
models compared.

Nadeau & Bengio (2003, Machine Learning 52:239-281): the J = r k differences d_j of r
repeats of k-fold cross-validation share training rows, so their variance understates the
mean's; the corrected statistic is ``t = mean(d) / sqrt((1/J + n_test/n_train) var(d))``
with J - 1 degrees of freedom (``n_test/n_train = 1/(k-1)`` for k folds). Wilcoxon's test on
n pairs has the smallest two-sided p-value ``2 / 2**n`` (0.0625 for 5): it cannot reject at
0.05 with fewer than 6, which :func:`smallest_wilcoxon_p` tells.

Holm (1979): sort the m p-values ascending, ``p_(1) <= ... <= p_(m)``; the adjusted value of
``p_(i)`` is ``max_{j <= i} min(1, (m - j + 1) p_(j))``. A model differs from the reference
at level alpha when its adjusted p-value is below alpha; the family-wise error rate over the
m tests is at most alpha.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

__all__ = ["corrected_t_against", "corrected_t_p", "holm", "smallest_wilcoxon_p",
           "wilcoxon_against"]


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


def smallest_wilcoxon_p(n: int) -> float:
    """The smallest two-sided p-value Wilcoxon's signed-rank test can give on ``n`` pairs
    (every difference of one sign: ``2 / 2**n``).

    Examples
    --------
    >>> smallest_wilcoxon_p(5), smallest_wilcoxon_p(6)
    (0.0625, 0.03125)
    """
    return min(1.0, 2.0 / 2.0**n)


def corrected_t_p(a: Sequence[float], b: Sequence[float], test_train_ratio: float) -> float:
    """The two-sided p-value of Nadeau and Bengio's corrected resampled t-test of the
    paired cross-validation scores ``(a_j, b_j)`` (module docstring; NaN pairs dropped):
    1 when every difference is zero, 0 when every difference is the same nonzero value, NaN
    with fewer than two pairs.

    Examples
    --------
    >>> round(corrected_t_p([0.9, 0.8, 0.85, 0.9, 0.8], [0.8, 0.75, 0.8, 0.82, 0.7], 0.25), 4)
    0.0107
    """
    from scipy.stats import t as student

    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    d = d[~np.isnan(d)]
    if d.size < 2:
        return float("nan")
    mean, var = d.mean(), d.var(ddof=1)
    if var == 0:
        return 1.0 if mean == 0 else 0.0
    stat = mean / np.sqrt((1.0 / d.size + test_train_ratio) * var)
    return float(2 * student.sf(abs(stat), d.size - 1))


def corrected_t_against(scores: Mapping[str, Sequence[float]], reference: str,
                        test_train_ratio: float) -> dict[str, float]:
    """Holm-adjusted p-values of :func:`corrected_t_p` of each model against ``reference``
    (the same folds, in the same order, for every model).

    Examples
    --------
    >>> better = [0.9, 0.85, 0.88, 0.9, 0.86, 0.91, 0.84, 0.9, 0.87, 0.9]
    >>> base = [0.8, 0.8, 0.79, 0.82, 0.8, 0.81, 0.8, 0.78, 0.8, 0.81]
    >>> p = corrected_t_against({"a": base, "b": better, "c": base}, "a", 0.25)
    >>> p["b"] < 0.05, p["c"]
    (True, 1.0)
    """
    if reference not in scores:
        raise ValueError(f"the reference {reference!r} is not one of the models "
                         f"({', '.join(scores)})")
    others = [m for m in scores if m != reference]
    raw = [corrected_t_p(scores[m], scores[reference], test_train_ratio) for m in others]
    return dict(zip(others, holm(raw).tolist(), strict=True))
