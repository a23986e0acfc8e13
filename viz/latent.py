"""Figures of the latent conditional Naive Bayes models (paper 3): the evidence lower bound
per EM iteration and the perplexity per prior and data set."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from viz._draw import new_axes
from viz.style import Style, resolve_style, style_context

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_elbo", "plot_perplexity", "perplexity_summary"]


def _elbo_runs(lower_bounds: Any) -> list[np.ndarray]:
    """One array per run from a fitted model (``lower_bounds_``), a sequence of numbers or a
    sequence of sequences."""
    per_class = getattr(lower_bounds, "estimators_", None)
    if per_class is not None and all(hasattr(m, "lower_bounds_") for m in per_class):
        return _elbo_runs([m.lower_bounds_ for m in per_class])  # one run per class
    if hasattr(lower_bounds, "get_params") or hasattr(lower_bounds, "lower_bound_"):
        params = getattr(lower_bounds, "get_params", dict)()
        if params and "n_components" not in params:  # an estimator, not one fitted by EM
            raise TypeError(f"plot_elbo draws the EM runs of a fitted LatentCNB or "
                            f"LatentCNBClassifier (or numbers); got a "
                            f"{type(lower_bounds).__name__}, which is not fitted by EM.")
        if not hasattr(lower_bounds, "lower_bounds_"):
            raise ValueError(f"{type(lower_bounds).__name__} has no 'lower_bounds_'; fit it "
                             "first.")
        lower_bounds = lower_bounds.lower_bounds_
    items = list(lower_bounds)
    if not items:
        raise ValueError("lower_bounds is empty; give the ELBO of at least one iteration.")
    if all(np.ndim(v) == 0 for v in items):
        items = [items]
    runs = [np.asarray(run, dtype=float) for run in items]
    for i, run in enumerate(runs):
        if run.ndim != 1 or run.size == 0:
            raise ValueError(f"Run {i} of lower_bounds must be a non-empty sequence of numbers; "
                             f"got shape {run.shape}.")
        if not np.all(np.isfinite(run)):
            raise ValueError(f"Run {i} of lower_bounds contains NaN or infinity.")
    return runs


def plot_elbo(lower_bounds: Any, *, labels: Sequence[str] | None = None,
              ax: Axes | None = None, style: Style | None = None,
              title: str | None = None, width: str | float | None = None) -> Figure:
    """The evidence lower bound per EM iteration, one line per run.

    Parameters
    ----------
    lower_bounds : fitted LatentCNB or LatentCNBClassifier, sequence of float, or sequence of sequences
        A LatentCNB gives its ``lower_bounds_`` (one run), a LatentCNBClassifier those of
        its model of each class (one run per class, labelled by the class).
    labels : sequence of str, optional
        One legend entry per run (for example the prior of each run).
    ax, style, title, width : optional
        Axes to draw into, grouped style options, title.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from viz.latent import plot_elbo
    >>> fig = plot_elbo([[-3.0, -2.0, -1.5], [-4.0, -2.5]], labels=["a", "b"])
    >>> [len(line.get_xdata()) for line in fig.axes[0].lines]
    [3, 2]
    """
    runs = _elbo_runs(lower_bounds)
    if labels is None and getattr(lower_bounds, "estimators_", None) is not None:
        labels = [f"class {c}" for c in lower_bounds.classes_]  # a LatentCNBClassifier
    if labels is not None and len(labels) != len(runs):
        raise ValueError(f"labels must name each of the {len(runs)} runs; got {len(labels)}.")
    with style_context(resolve_style(style, width)) as s:
        fig, ax = new_axes(ax, s)
        for i, run in enumerate(runs):
            ax.plot(np.arange(1, run.size + 1), run, color=s.color(i), marker="o",
                    markersize=2.5, gid=f"run:{i}", label=None if labels is None else labels[i])
        ax.set_xlabel("EM iteration")
        ax.set_ylabel("evidence lower bound (per row, nats)")
        ax.xaxis.get_major_locator().set_params(integer=True)
        if labels is not None:
            ax.legend(loc="lower right")
        if title:
            ax.set_title(title)
    return fig


def perplexity_summary(results: Any, group: str = "dataset", series: str = "prior",
                       value: str = "perplexity") -> pd.DataFrame:
    """Mean and standard deviation of the perplexity per (group, series).

    ``results`` is a long table (DataFrame) with the columns ``group``, ``series`` and
    ``value`` (one row per fold or seed), or a mapping ``{group: {series: values}}``.
    Returns a DataFrame indexed by (group, series) with columns ``mean``, ``std``, ``n``;
    groups and series keep their order of first appearance.

    Examples
    --------
    >>> s = perplexity_summary({"iris": {"dirichlet": [3.0, 5.0]}})
    >>> float(s.loc[("iris", "dirichlet"), "mean"]), int(s.loc[("iris", "dirichlet"), "n"])
    (4.0, 2)
    """
    import pandas as pd

    if isinstance(results, Mapping):
        results = _long(results, group, series, value)
    if not isinstance(results, pd.DataFrame):
        raise TypeError("results must be a DataFrame or a mapping {group: {series: values}}; "
                        f"got {type(results).__name__}.")
    missing = [c for c in (group, series, value) if c not in results.columns]
    if missing:
        raise ValueError(f"results has no column {missing[0]!r}; its columns are "
                         f"{list(results.columns)}.")
    if results.empty:
        raise ValueError("results is empty; it needs at least one perplexity value.")
    values = results[value].to_numpy(dtype=float)
    if not np.all(np.isfinite(values)) or np.any(values < 1):
        raise ValueError(f"Column {value!r} must hold finite perplexities >= 1.")
    grouped = results.groupby([group, series], sort=False)[value]
    out = pd.DataFrame({"mean": grouped.mean(), "std": grouped.std(ddof=0),
                        "n": grouped.size()})
    return out


def plot_perplexity(results: Any, *, group: str = "dataset", series: str = "prior",
                    value: str = "perplexity", ax: Axes | None = None,
                    style: Style | None = None, title: str | None = None,
                    width: str | float | None = None) -> Figure:
    """Perplexity per data set (groups of bars) and prior (one bar each): the mean over
    folds or seeds, with a bar of ± one standard deviation and a dot per value.

    Parameters
    ----------
    results : DataFrame or mapping
        As for :func:`perplexity_summary`.
    group, series, value : str
        Column names of a long table.
    ax, style, title, width : optional

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from viz.latent import plot_perplexity
    >>> fig = plot_perplexity({"a": {"dirichlet": [3, 4], "beta-liouville": [2, 2.5]},
    ...                        "b": {"dirichlet": [6, 7], "beta-liouville": [5, 5.5]}})
    >>> len(fig.axes[0].patches)  # 2 data sets x 2 priors
    4
    """
    if isinstance(results, Mapping):
        results = _long(results, group, series, value)
    summary = perplexity_summary(results, group, series, value)
    groups = list(dict.fromkeys(summary.index.get_level_values(0)))
    names = list(dict.fromkeys(summary.index.get_level_values(1)))
    bar = 0.8 / len(names)
    with style_context(resolve_style(style, width)) as s:
        fig, ax = new_axes(ax, s, (max(3.2, 0.35 * len(groups) * len(names) + 1.5), 3.2))
        for k, name in enumerate(names):
            x, mean, std = [], [], []
            for g, group_name in enumerate(groups):
                if (group_name, name) in summary.index:
                    row = summary.loc[(group_name, name)]
                    x.append(g - 0.4 + (k + 0.5) * bar)
                    mean.append(row["mean"])
                    std.append(row["std"])
            ax.bar(x, mean, width=0.9 * bar, color=s.color(k), edgecolor=s.edge_color,
                   linewidth=0.5, label=str(name), gid=f"series:{name}")
            ax.errorbar(x, mean, yerr=std, fmt="none", ecolor=s.edge_color, capsize=2,
                        linewidth=0.8, gid=f"spread:{name}")
        offsets = {n: -0.4 + (k + 0.5) * bar for k, n in enumerate(names)}
        xs = [groups.index(g) + offsets[p] for g, p in zip(results[group], results[series],
                                                            strict=True)]
        ax.scatter(xs, results[value].to_numpy(dtype=float), s=6, color=s.edge_color,
                   zorder=4, gid="values")
        ax.set_xticks(range(len(groups)), [str(g) for g in groups])
        ax.set_ylabel("perplexity (upper bound)")
        ax.legend(title=series, loc="upper left")
        if title:
            ax.set_title(title)
    return fig


def _long(results: Mapping, group: str, series: str, value: str) -> pd.DataFrame:
    import pandas as pd

    rows = [(g, p, float(v)) for g, by_series in results.items()
            for p, values in by_series.items() for v in np.atleast_1d(values)]
    return pd.DataFrame(rows, columns=[group, series, value])
