"""Comparing several classifiers over several data sets (Demšar, JMLR 7:1-30, 2006): the
Friedman test on the per-data-set ranks, the Nemenyi critical difference of the mean ranks,
and the critical-difference diagram.

For N data sets and k methods, each data set ranks the methods (1 = best, ties share the
mean rank); ``R_j`` is method j's mean rank. The Friedman statistic (with the tie correction
scipy's ``friedmanchisquare`` applies; without ties it is Demšar's eq.)

    chi2_F = [12 N / (k (k + 1)) sum_j R_j^2 - 3 N (k + 1)] / C,
    C = 1 - sum_{data sets} sum_{tie groups} (t^3 - t) / (N k (k^2 - 1)),

is chi-square with k - 1 degrees of freedom under the null hypothesis that all methods are
equivalent; Iman and Davenport's ``F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F)`` is F with
(k - 1, (k - 1)(N - 1)) degrees of freedom. Two methods differ (Nemenyi test) when their
mean ranks differ by at least the critical difference

    CD = q_alpha sqrt(k (k + 1) / (6 N)),

``q_alpha`` the studentized range quantile for k groups and infinite degrees of freedom,
divided by sqrt(2) (Demšar's table 5: 1.960, 2.343, 2.569, ... at alpha = 0.05).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from viz._draw import new_axes
from viz.style import Style, paper_width, style_context

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["FEW_DATASETS", "RankTest", "friedman_nemenyi", "plot_critical_difference"]

#: below this many data sets :func:`friedman_nemenyi` warns that its tests say little
#: (Demšar: the Friedman chi-square needs N > 10 and k > 5 to be accurate; with N = 4 and
#: k = 3 the critical difference already spans most of the rank axis)
FEW_DATASETS = 5


@dataclass(frozen=True)
class RankTest:
    """The result of :func:`friedman_nemenyi`.

    Attributes
    ----------
    mean_ranks : pandas.Series
        Mean rank of each method (1 = best), best first.
    n_datasets : int
        Data sets used (those with a score for every method).
    dropped : tuple
        Data sets left out because a method has no score (NaN) there.
    friedman_chi2, friedman_p : float
        The Friedman statistic and its chi-square p-value.
    iman_davenport_f, iman_davenport_p : float
        Iman and Davenport's F statistic and its p-value.
    alpha, q_alpha, critical_difference : float
        The level, the Nemenyi quantile and the critical difference of mean ranks.
    cliques : tuple of tuple of str
        Maximal groups of methods (consecutive in rank) whose mean ranks differ by less than
        the critical difference: the thick bars of the diagram.
    """

    mean_ranks: pd.Series
    n_datasets: int
    dropped: tuple
    friedman_chi2: float
    friedman_p: float
    iman_davenport_f: float
    iman_davenport_p: float
    alpha: float
    q_alpha: float
    critical_difference: float
    cliques: tuple[tuple[str, ...], ...]


def _validate(scores) -> pd.DataFrame:
    import pandas as pd

    if not isinstance(scores, pd.DataFrame):
        raise TypeError("scores must be a pandas DataFrame (rows data sets, columns methods); "
                        f"got {type(scores).__name__}.")
    if scores.columns.duplicated().any():
        raise ValueError("scores has duplicated method names (columns).")
    try:
        values = scores.to_numpy(dtype=float)
    except (TypeError, ValueError):
        raise ValueError("scores must hold numbers (NaN for a missing score).") from None
    if np.isinf(values).any():
        raise ValueError("scores must be finite (NaN marks a missing score).")
    return pd.DataFrame(values, index=scores.index, columns=[str(c) for c in scores.columns])


def nemenyi_q(k: int, alpha: float = 0.05) -> float:
    """The Nemenyi quantile ``q_alpha`` for ``k`` methods (Demšar's table 5).

    Examples
    --------
    >>> round(nemenyi_q(4), 3)
    2.569
    """
    from scipy.stats import studentized_range

    if k < 2:
        raise ValueError(f"the Nemenyi test needs at least 2 methods; got {k}.")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1); got {alpha}.")
    return float(studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2))


def friedman_nemenyi(scores: pd.DataFrame, *, alpha: float = 0.05,
                     higher_is_better: bool = True) -> RankTest:
    """Friedman test and Nemenyi critical difference of methods over data sets.

    Parameters
    ----------
    scores : pandas.DataFrame
        One row per data set, one column per method (e.g. accuracy or log-loss). A data set
        where some method has NaN (it failed) is left out and listed in ``dropped``.
    alpha : float
        Level of the Nemenyi test.
    higher_is_better : bool
        True for accuracy-like scores, False for losses (rank 1 = the lowest).

    Returns
    -------
    RankTest

    Warns
    -----
    UserWarning
        Fewer than :data:`FEW_DATASETS` data sets: the tests say little (the message starts
        "Only N data sets").

    Raises
    ------
    TypeError
        ``scores`` is not a DataFrame.
    ValueError
        Fewer than 2 methods or 2 complete data sets, non-numeric or infinite scores, or
        ``alpha`` outside (0, 1).

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame({"A": [0.9, 0.8, 0.7, 0.95, 0.85], "B": [0.8, 0.7, 0.6, 0.9, 0.8],
    ...                        "C": [0.7, 0.75, 0.65, 0.85, 0.75]})
    >>> test = friedman_nemenyi(scores)
    >>> test.mean_ranks.round(2).to_dict()
    {'A': 1.0, 'B': 2.4, 'C': 2.6}
    >>> round(test.critical_difference, 3)
    1.482
    """
    import pandas as pd
    from scipy.stats import chi2, f, rankdata

    table = _validate(scores)
    complete = table.notna().all(axis=1)
    dropped = tuple(table.index[~complete])
    table = table[complete]
    n, k = table.shape
    if k < 2:
        raise ValueError(f"scores needs at least 2 methods (columns); got {k}.")
    if n < 2:
        raise ValueError(f"scores needs at least 2 data sets with every method scored; got {n}.")
    if n < FEW_DATASETS:
        import warnings

        warnings.warn(f"Only {n} data sets: the Friedman test and the Nemenyi critical "
                      f"difference need at least {FEW_DATASETS} to say anything; read the "
                      "mean ranks as descriptive only.", UserWarning, stacklevel=2)
    values = table.to_numpy()
    ranks = rankdata(-values if higher_is_better else values, axis=1)  # ties: mean rank
    mean = ranks.mean(axis=0)
    ties = 0.0
    for row in values:
        _, counts = np.unique(row, return_counts=True)
        ties += float(np.sum(counts**3 - counts))
    correction = 1 - ties / (n * k * (k * k - 1))
    if correction <= 0:  # every data set ties every method
        chi2_f, p_chi2 = 0.0, 1.0
    else:
        chi2_f = (12 * n / (k * (k + 1)) * np.sum(mean**2) - 3 * n * (k + 1)) / correction
        p_chi2 = float(chi2.sf(chi2_f, k - 1))
    denominator = n * (k - 1) - chi2_f
    if denominator <= 0:  # the same ranking on every data set
        f_f, p_f = np.inf, 0.0
    else:
        f_f = (n - 1) * chi2_f / denominator
        p_f = float(f.sf(f_f, k - 1, (k - 1) * (n - 1)))
    q = nemenyi_q(k, alpha)
    cd = q * np.sqrt(k * (k + 1) / (6 * n))
    order = np.argsort(mean, kind="stable")
    mean_ranks = pd.Series(mean[order], index=table.columns[order], name="mean rank")
    return RankTest(mean_ranks, n, dropped, float(chi2_f), p_chi2, float(f_f), p_f, alpha, q,
                    float(cd), _cliques(mean_ranks, cd))


def _cliques(mean_ranks: pd.Series, cd: float) -> tuple[tuple[str, ...], ...]:
    """Maximal runs of rank-sorted methods whose first and last mean ranks differ by less
    than ``cd`` (runs of one method are not cliques)."""
    r = mean_ranks.to_numpy()
    names = list(mean_ranks.index)
    runs, last_end = [], -1
    for i in range(len(r)):
        j = i
        while j + 1 < len(r) and r[j + 1] - r[i] < cd:
            j += 1
        if j > i and j > last_end:
            runs.append(tuple(names[i:j + 1]))
            last_end = j
    return tuple(runs)


def plot_critical_difference(scores: pd.DataFrame | RankTest, *, alpha: float = 0.05,
                             higher_is_better: bool = True, ax: Axes | None = None,
                             style: Style | None = None, title: str | None = None) -> Figure:
    """Demšar's critical-difference diagram of methods compared over data sets.

    An axis of mean ranks (1, the best, on the left; one inch-scaled layout, so that the
    labels of any length fit); each method hangs from its mean rank
    to its name (the better half on the left, the rest on the right); a bar of length CD
    above the axis; thick bars join the methods whose mean ranks differ by less than CD
    (not significantly different by the Nemenyi test at ``alpha``). The Friedman p-value is
    in the bottom line.

    Parameters
    ----------
    scores : pandas.DataFrame or RankTest
        Rows data sets, columns methods (see :func:`friedman_nemenyi`), or its result.
    alpha, higher_is_better
        Passed to :func:`friedman_nemenyi` (ignored for a ``RankTest``).
    ax : matplotlib Axes, optional
    style : Style, optional
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
        Artists carry gids: ``method:NAME`` (the line of a method), ``clique:I``, ``cd``.

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame({"A": [0.9, 0.8, 0.7, 0.95, 0.85], "B": [0.8, 0.7, 0.6, 0.9, 0.8],
    ...                        "C": [0.7, 0.75, 0.65, 0.85, 0.75]})
    >>> fig = plot_critical_difference(scores)
    >>> sorted(l.get_gid() for l in fig.axes[0].lines if l.get_gid().startswith("method"))
    ['method:A', 'method:B', 'method:C']
    """
    test = scores if isinstance(scores, RankTest) else friedman_nemenyi(
        scores, alpha=alpha, higher_is_better=higher_is_better)
    ranks = test.mean_ranks
    k = len(ranks)
    left = (k + 1) // 2
    with style_context(style) as s:
        # lay out in inches: the labels' width decides where the rank axis can go; within the
        # page width (7 in), long labels wrap onto more lines instead of widening the figure
        char = 0.55 * s.font_size / 72
        page = paper_width("page")
        texts = [f"{name} ({rank:.2f})" for name, rank in ranks.items()]
        longest_word = max(len(word) for t in texts for word in t.split())
        chars = max(longest_word, int(((page - 0.35 * k) / 2 - 0.55) / char))
        labels = [textwrap.fill(t, chars, break_long_words=False, break_on_hyphens=False)
                  for t in texts]
        label_width = char * max(len(line) for t in labels for line in t.split("\n")) + 0.25
        width = min(page, max(6.0, 2 * label_width + 0.6 * k))
        a, b = label_width + 0.3, width - label_width - 0.3
        def x(rank):  # noqa: E306 - the rank axis in inches
            return a + (rank - 1) / (k - 1) * (b - a)
        step = 0.22 * max(t.count("\n") + 1 for t in labels)
        depth = 0.35 + 0.12 * len(test.cliques) + step * max(left, k - left)
        fig, ax = new_axes(ax, s, size=(width, depth + 1.1))
        ax.set_xlim(0, width)
        ax.set_ylim(-depth - 0.3, 0.8)
        ax.axis("off")
        ax.plot([x(1), x(k)], [0, 0], color=s.edge_color, linewidth=s.line_width, gid="axis")
        for t in range(1, k + 1):
            ax.plot([x(t), x(t)], [0, 0.06], color=s.edge_color, linewidth=s.line_width,
                    gid=f"tick:{t}")
            ax.text(x(t), 0.1, str(t), ha="center", va="bottom", fontsize=s.font_size)
        cd = test.critical_difference
        end = min(1 + cd, k)  # a CD longer than the axis is drawn to its end, and said
        ax.plot([x(1), x(end)], [0.5, 0.5], color=s.edge_color, linewidth=s.line_width,
                gid="cd")
        ax.text(x((1 + end) / 2), 0.55, f"CD = {cd:.2f}" + (
            f" (longer than the rank axis, {k - 1})" if end < 1 + cd else ""),
            ha="center", va="bottom", fontsize=s.font_size)
        top = -0.2 - 0.12 * len(test.cliques)
        for i, ((name, rank), text) in enumerate(zip(ranks.items(), labels, strict=True)):
            on_left = i < left
            level = top - step * (i if on_left else k - 1 - i)
            end = a - 0.15 if on_left else b + 0.15
            ax.plot([x(rank), x(rank), end], [0, level, level], color=s.edge_color,
                    linewidth=0.7 * s.line_width, gid=f"method:{name}")
            ax.text(end + (-0.05 if on_left else 0.05), level, text,
                    ha="right" if on_left else "left", va="center", fontsize=s.font_size)
        for i, members in enumerate(test.cliques):
            lo, hi = ranks[list(members)].min(), ranks[list(members)].max()
            y = -0.15 - 0.12 * i
            ax.plot([x(lo) - 0.03, x(hi) + 0.03], [y, y], color=s.edge_color,
                    linewidth=3 * s.line_width, solid_capstyle="round", gid=f"clique:{i}")
        few = (f" - too few data sets (< {FEW_DATASETS}): ranks descriptive only"
               if test.n_datasets < FEW_DATASETS else "")
        ax.text(width / 2, -depth - 0.25, f"Friedman p = {test.friedman_p:.2g}, Nemenyi "
                f"alpha = {test.alpha}, N = {test.n_datasets} data sets{few}",
                ha="center", va="bottom", fontsize=s.font_size - 1,
                color="#b00000" if few else None, gid="footer")
        if title:
            ax.set_title(title)
    return fig
