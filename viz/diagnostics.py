"""Paper 1 appendix F: pair diagnostics — each selected feature pair with the
class-conditional density contours and the misclassified points marked.

The data come from :func:`estimators.gnb.pair_data` (a list of :class:`PairData`); this
module only draws them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from estimators.gnb.diagnostics import PairData
from viz.style import Style, resolve_style, style_context

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["PairData", "plot_pair_diagnostics"]

def plot_pair_diagnostics(pairs: PairData | Sequence[PairData], *,
                          ax: Axes | Sequence[Axes] | None = None, style: Style | None = None,
                          grid_size: int = 60, levels: int = 4, ncols: int = 3,
                          title: str | None = None, width: str | float | None = None) -> Figure:
    """Paper 1 appendix F: one panel per feature pair, with the class-conditional density
    contours of every class and the points coloured by their true class; misclassified
    points are circled in black.

    Parameters
    ----------
    pairs : PairData or sequence of PairData
        See :func:`estimators.gnb.pair_data` to get them from a fitted GNB classifier.
    ax : Axes or sequence of Axes, optional
        One axes per pair; a new figure with ``ncols`` panels per row when None.
    style : Style, optional
    width : {"column", "page"} or float, optional
        Figure width (3.5 in, 7.0 in or inches); replaces ``style.width``.
    grid_size : int
        Grid points per axis where the densities are evaluated.
    levels : int
        Contour lines per class (at density quantiles of the grid maximum).
    ncols : int
        Panels per row of a new figure.
    title : str, optional
        Figure title.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.stats import multivariate_normal
    >>> from viz.diagnostics import PairData, plot_pair_diagnostics
    >>> rng = np.random.default_rng(0)
    >>> x = np.vstack([rng.normal(0, 1, (20, 2)), rng.normal(2, 1, (20, 2))])
    >>> y = np.repeat([0, 1], 20)
    >>> dens = {c: multivariate_normal([2 * c, 2 * c]).logpdf for c in (0, 1)}
    >>> pred = (x.sum(axis=1) > 2).astype(int)
    >>> fig = plot_pair_diagnostics(PairData(x, y, pred, dens))
    >>> len(fig.axes)
    1
    """
    if hasattr(pairs, "get_params") or not (isinstance(pairs, PairData) or hasattr(pairs, "__iter__")):
        raise TypeError("plot_pair_diagnostics draws PairData, a fitted GNB classifier's "
                        "densities at the points of a table: estimators.gnb.pair_data(model, "
                        f"X, y) gives them; got a {type(pairs).__name__}.")
    pairs = [pairs] if isinstance(pairs, PairData) else list(pairs)
    if not pairs:
        raise ValueError("plot_pair_diagnostics needs at least one PairData; got none.")
    with style_context(resolve_style(style, width)) as s:
        fig, axes = _panel_axes(ax, len(pairs), ncols, s)
        classes = list(dict.fromkeys(c for p in pairs for c in p.log_density))
        for panel, a in zip(pairs, axes, strict=True):
            _draw_panel(panel, a, classes, s, grid_size, levels)
        if title:
            fig.suptitle(title)
    return fig


def _panel_axes(ax: Any, n: int, ncols: int, style: Style) -> tuple[Figure, list[Axes]]:
    if ax is not None:
        axes = [ax] if not isinstance(ax, Sequence | np.ndarray) else list(np.ravel(ax))
        if len(axes) != n:
            raise ValueError(f"ax must hold one Axes per pair: {n}; got {len(axes)}.")
        return axes[0].figure, axes
    from matplotlib.figure import Figure

    cols = min(ncols, n)
    rows = -(-n // cols)
    size = (3.0 * cols, 2.8 * rows)
    if style.figsize is None and style.inches is not None:  # panels shrink to the width
        size = (style.inches, min(style.inches / cols * 0.93 * rows, style.max_aspect * style.inches))
    fig = Figure(figsize=style.figsize or size, dpi=style.dpi, layout="constrained")
    grid = fig.subplots(rows, cols, squeeze=False).ravel()
    for extra in grid[n:]:
        extra.set_visible(False)
    return fig, list(grid[:n])


def _draw_panel(p: PairData, ax: Axes, classes: list, s: Style, grid_size: int,
                levels: int) -> None:
    lo, hi = p.x.min(axis=0), p.x.max(axis=0)
    pad = 0.1 * np.where(hi > lo, hi - lo, 1.0)
    gx = np.linspace(lo[0] - pad[0], hi[0] + pad[0], grid_size)
    gy = np.linspace(lo[1] - pad[1], hi[1] + pad[1], grid_size)
    mx, my = np.meshgrid(gx, gy)
    points = np.column_stack([mx.ravel(), my.ravel()])
    for k, c in enumerate(classes):
        if c not in p.log_density:
            continue
        z = np.exp(np.asarray(p.log_density[c](points), dtype=float)).reshape(mx.shape)
        top = float(np.nanmax(z))
        if not np.isfinite(top) or top <= 0:
            continue
        cs = ax.contour(mx, my, z, levels=top * np.linspace(0.1, 0.9, levels),
                        colors=s.color(k), linewidths=0.6 * s.line_width, alpha=0.9)
        cs.set_gid(f"density:{c}")
    for k, c in enumerate(classes):
        rows = p.y_true == c
        if rows.any():
            ax.scatter(p.x[rows, 0], p.x[rows, 1], s=10, color=s.color(k), zorder=3,
                       gid=f"points:{c}", label=str(c), edgecolors="none")
    wrong = p.misclassified
    ax.scatter(p.x[wrong, 0], p.x[wrong, 1], s=45, facecolors="none", zorder=4,
               edgecolors=s.edge_color, linewidths=s.line_width,
               gid="misclassified", label=f"misclassified ({int(wrong.sum())})")
    ax.set_xlabel(p.names[0])
    ax.set_ylabel(p.names[1])
    ax.legend(loc="best", fontsize=s.small_font_size)
