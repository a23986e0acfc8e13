"""Result figures of paper 1: the model-reduction curve (appendix E) and the relative F1 of
methods over data sets (fig. 6)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from viz._draw import new_axes
from viz.style import Style, resolve_style, style_context

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_reduction_curve", "plot_relative_f1", "relative_f1"]


def _reduction_array(obj: Any) -> np.ndarray:
    """The (n_splits, n_clusters) score array of an array-like or a fitted classifier."""
    if hasattr(obj, "get_params") or hasattr(obj, "classes_"):
        params = getattr(obj, "get_params", dict)()
        if not hasattr(obj, "reduction_scores_") and params and "n_clusters" not in params:
            raise TypeError(f"plot_reduction_curve draws the reduction curve of a "
                            f"GNBClassifier fitted with n_clusters='auto' (or its scores, an "
                            f"array); got a {type(obj).__name__}, which has no clusters.")
        if not hasattr(obj, "reduction_scores_"):
            raise ValueError(
                f"{type(obj).__name__} has no 'reduction_scores_': fit it with "
                "n_clusters='auto' to record the F1 of every number of clusters."
            )
        obj = obj.reduction_scores_
    scores = np.asarray(obj, dtype=float)
    if scores.ndim == 1:
        scores = scores[None, :]
    if scores.ndim != 2 or scores.shape[1] < 1 or scores.shape[0] < 1:
        raise ValueError("reduction_scores must be an array of shape (n_splits, n_clusters) "
                         f"with at least one split and one cluster; got shape {scores.shape}.")
    if not np.all(np.isfinite(scores)):
        raise ValueError("reduction_scores contains NaN or infinity; F1 scores are finite.")
    return scores


def plot_reduction_curve(reduction_scores: Any, *, ax: Axes | None = None,
                         style: Style | None = None, title: str | None = None, width: str | float | None = None,
                         ylabel: str = "weighted F1"
                         ) -> Figure:
    """Paper 1 appendix E: F1 against the number of clusters of the reduced model.

    One thin light line per split, the mean over the splits as a thick line, and a marker on
    the mean at the chosen number of clusters (the largest mean; ties: the smaller number,
    as ``GNBClassifier(n_clusters="auto")`` chooses).

    Parameters
    ----------
    reduction_scores : array-like of shape (n_splits, n_clusters) or fitted GNBClassifier
        Row s, column m - 1: the F1 of split s with the first m clusters. A classifier
        fitted with ``n_clusters="auto"`` gives its ``reduction_scores_``.
    ax : matplotlib Axes, optional
    style : Style, optional
    width : {"column", "page"} or float, optional
        Figure width (3.5 in, 7.0 in or inches); replaces ``style.width``.
    title : str, optional
    ylabel : str
        Label of the y axis.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ValueError
        For a classifier without ``reduction_scores_``, a wrongly shaped or non-finite array.
    TypeError
        For a model without clusters (not a GNB classifier).

    Examples
    --------
    >>> import numpy as np
    >>> from viz.curves import plot_reduction_curve
    >>> scores = np.array([[0.5, 0.7, 0.6], [0.6, 0.8, 0.8]])
    >>> fig = plot_reduction_curve(scores)
    >>> len(fig.axes[0].lines)  # two splits and the mean
    3
    """
    scores = _reduction_array(reduction_scores)
    m = np.arange(1, scores.shape[1] + 1)
    mean = scores.mean(axis=0)
    best = int(np.argmax(mean))
    with style_context(resolve_style(style, width)) as s:
        fig, ax = new_axes(ax, s)
        for i, row in enumerate(scores):
            ax.plot(m, row, color=s.light_color, linewidth=0.5 * s.line_width, alpha=0.8,
                    gid=f"split:{i}", label="one split" if i == 0 else None)
        ax.plot(m, mean, color=s.color(0), linewidth=2 * s.line_width, marker="o",
                markersize=3, gid="mean", label=f"mean of {scores.shape[0]} splits")
        ax.scatter([m[best]], [mean[best]], s=60, zorder=5, color=s.highlight_color,
                   edgecolors=s.edge_color, gid="best", label=f"chosen: {m[best]} clusters")
        ax.set_xlabel("number of clusters")
        ax.set_ylabel(ylabel)
        ax.set_xticks(m if m.size <= 20 else np.unique(np.linspace(1, m[-1], 10).round()))
        ax.legend(loc="lower right")
        if title:
            ax.set_title(title)
    return fig


def relative_f1(table: pd.DataFrame) -> pd.DataFrame:
    """Each data set's scores divided by its best score (paper 1 §6.3): rows data sets,
    columns methods.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"A": [0.8, 0.5], "B": [0.4, 1.0]}, index=["d1", "d2"])
    >>> relative_f1(t)["B"].tolist()
    [0.5, 1.0]
    """
    import pandas as pd

    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"table must be a pandas DataFrame (rows data sets, columns methods); "
                        f"got {type(table).__name__}.")
    values = table.to_numpy(dtype=float)
    if values.size == 0:
        raise ValueError("table is empty; it needs at least one data set and one method.")
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise ValueError("table must hold finite, non-negative F1 scores.")
    best = values.max(axis=1, keepdims=True)
    zero = np.flatnonzero(best[:, 0] == 0)
    if zero.size:
        raise ValueError(f"Data set {table.index[zero[0]]!r} has F1 0 for every method; "
                         "its relative F1 is undefined.")
    return pd.DataFrame(values / best, index=table.index, columns=table.columns)


def plot_relative_f1(table: pd.DataFrame, *, highlight: Iterable[str] = (),
                     ax: Axes | None = None, style: Style | None = None,
                     title: str | None = None, width: str | float | None = None) -> Figure:
    """Paper 1 fig. 6: the mean relative F1 of each method over the data sets.

    Each data set's F1 scores are divided by the best F1 on that data set; a bar shows the
    mean of these ratios per method, and one small dot per data set shows their spread.

    Parameters
    ----------
    table : pandas.DataFrame
        F1 scores, rows data sets, columns methods (mean over the splits).
    highlight : iterable of str
        Methods whose bars get the highlight colour (for example the paper's own methods).
    ax, style, title, width : as in :func:`plot_reduction_curve`

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import pandas as pd
    >>> from viz.curves import plot_relative_f1
    >>> t = pd.DataFrame({"A": [0.8, 0.5], "B": [0.4, 1.0]}, index=["d1", "d2"])
    >>> [round(float(b.get_height()), 3) for b in plot_relative_f1(t).axes[0].patches]
    [0.75, 0.75]
    """
    rel = relative_f1(table)
    highlight = set(highlight)
    unknown = sorted(highlight - set(map(str, rel.columns)))
    if unknown:
        raise ValueError(f"highlight names methods not in the table: {unknown}; the methods "
                         f"are {list(map(str, rel.columns))}.")
    means = rel.mean(axis=0).to_numpy()
    x = np.arange(len(rel.columns))
    with style_context(resolve_style(style, width)) as s:
        fig, ax = new_axes(ax, s, (max(3.2, 0.45 * len(x) + 1.2), 3.2))
        colours = [s.highlight_color if str(c) in highlight else s.color(0) for c in rel.columns]
        ax.bar(x, means, color=colours, edgecolor=s.edge_color, linewidth=0.5, width=0.7,
               gid="mean")
        jitter = np.linspace(-0.18, 0.18, len(rel.index)) if len(rel.index) > 1 else [0.0]
        for j, (name, row) in enumerate(rel.iterrows()):
            ax.scatter(x + jitter[j], row.to_numpy(), s=8, color=s.edge_color, zorder=3,
                       gid=f"dataset:{name}", label="one data set" if j == 0 else None)
        ax.set_xticks(x, [str(c) for c in rel.columns], rotation=45, ha="right")
        ax.set_ylabel("relative F1 (F1 / best F1)")
        low = float(np.min(rel.to_numpy()))
        ax.set_ylim(max(0.0, low - 0.05), 1.02)
        ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), borderaxespad=0.2)
        if title:
            ax.set_title(title)
    return fig
