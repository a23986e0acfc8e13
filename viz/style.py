"""The one place that sets fonts and colours of every :mod:`viz` figure.

Colours come from the Okabe–Ito palette (Okabe & Ito 2008, "Color Universal Design"), which
stays distinguishable under the common colour-vision deficiencies; the font is DejaVu Sans,
which ships with matplotlib, so text renders the same on every machine. Plot functions take a
:class:`Style` (grouped options) instead of many keyword arguments and draw inside
:func:`style_context`; :func:`save_figure` writes reproducible PDF, SVG and PNG files.

Nothing here imports matplotlib at module import time.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

__all__ = ["OKABE_ITO", "PALETTE", "Style", "rc_params", "style_context", "apply_style",
           "save_figure"]

#: The eight Okabe–Ito colours by name.
OKABE_ITO: dict[str, str] = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
}

#: Category colours in the order they are used (classes, trees, methods, priors...).
PALETTE: tuple[str, ...] = tuple(OKABE_ITO[name] for name in (
    "blue", "orange", "bluish_green", "vermillion", "reddish_purple", "sky_blue", "yellow",
    "black"))


@dataclass(frozen=True)
class Style:
    """Grouped style options shared by all plot functions.

    Parameters
    ----------
    font_size : float
        Base font size in points (node labels, tick labels); titles are one point larger.
    line_width : float
        Width of edges and curves in points (thin per-split lines use half of it).
    node_radius : float
        Radius of a round node in layout units (neighbouring layout slots are 1 apart).
    unit : float
        Inches per layout unit when a graph figure is created (its size follows the layout).
    figsize : (float, float) or None
        Fixed figure size in inches for new figures; None: from the layout (graphs) or
        (4.8, 3.2) inches (charts).
    dpi : int
        Resolution of new figures and of PNG files.
    palette : tuple of str
        Category colours (classes, trees, methods, priors), cycled when exhausted.
    variable_color, class_color, highlight_color, soft_highlight_color : str
        Fill of feature vertices, of the class vertex, of highlighted parts (the root clique
        of a pbkt, the chosen number of clusters) and of marked vertices (a k-tree's
        initial clique; the orange lightened).
    edge_color, light_color : str
        Structure edges; class edges and secondary marks (separators, split curves).
    edge_labels : bool
        Write edge labels (selection order on GNB tree edges, separators on junction edges).

    Examples
    --------
    >>> from viz.style import Style
    >>> Style().font_size
    9.0
    >>> Style().with_(font_size=12).font_size
    12
    """

    font_size: float = 9.0
    line_width: float = 1.2
    node_radius: float = 0.3
    unit: float = 0.75
    figsize: tuple[float, float] | None = None
    dpi: int = 100
    palette: tuple[str, ...] = field(default=PALETTE)
    variable_color: str = "#FFFFFF"
    class_color: str = OKABE_ITO["sky_blue"]
    highlight_color: str = OKABE_ITO["orange"]
    soft_highlight_color: str = "#F8D999"
    edge_color: str = "#1A1A1A"
    light_color: str = "#9A9A9A"
    edge_labels: bool = True

    def with_(self, **changes: Any) -> Style:
        """A copy with some options changed."""
        return replace(self, **changes)

    def color(self, i: int) -> str:
        """The i-th category colour (cycled)."""
        return self.palette[i % len(self.palette)]


DEFAULT_STYLE = Style()


def rc_params(style: Style | None = None) -> dict[str, Any]:
    """The matplotlib rcParams of a style (fonts, colours, vector-output settings).

    Examples
    --------
    >>> rc_params()["font.family"]
    ['DejaVu Sans']
    """
    s = style or DEFAULT_STYLE
    return {
        "font.family": ["DejaVu Sans"],
        "font.sans-serif": ["DejaVu Sans"],
        "mathtext.fontset": "dejavusans",
        "font.size": s.font_size,
        "axes.titlesize": s.font_size + 1,
        "axes.labelsize": s.font_size,
        "xtick.labelsize": s.font_size - 1,
        "ytick.labelsize": s.font_size - 1,
        "legend.fontsize": s.font_size - 1,
        "legend.frameon": False,
        "axes.prop_cycle": _cycler(s.palette),
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.edgecolor": s.edge_color,
        "text.color": s.edge_color,
        "lines.linewidth": s.line_width,
        "figure.dpi": s.dpi,
        "savefig.dpi": s.dpi,
        "figure.facecolor": "white",
        "savefig.facecolor": "white",
        "pdf.fonttype": 42,
        "ps.fonttype": 42,
        "svg.fonttype": "path",
        "svg.hashsalt": "kgraph",
        "image.cmap": "viridis",
    }


def _cycler(colors: tuple[str, ...]):
    from cycler import cycler

    return cycler(color=list(colors))


@contextlib.contextmanager
def style_context(style: Style | None = None) -> Iterator[Style]:
    """Temporarily apply a style's rcParams; yields the style (the default when None)."""
    import matplotlib

    s = style or DEFAULT_STYLE
    with matplotlib.rc_context(rc_params(s)):
        yield s


def apply_style(style: Style | None = None) -> None:
    """Set the global ``matplotlib.rcParams`` from a style (for scripts and tests)."""
    import matplotlib

    matplotlib.rcParams.update(rc_params(style))


#: Metadata that would make vector files differ between runs (dates) is left out.
_STABLE_METADATA = {
    ".pdf": {"CreationDate": None, "ModDate": None},
    ".svg": {"Date": None},
    ".png": {},
}


def save_figure(fig: Figure, path: str | PathLike, style: Style | None = None) -> Path:
    """Save a figure as PDF, SVG or PNG (by suffix) reproducibly: the same figure gives the
    same bytes (no creation dates; fonts embedded as TrueType in PDF, as paths in SVG).

    Returns the path written.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in _STABLE_METADATA:
        raise ValueError(f"Cannot save figure as {path.name!r}: the suffix must be one of "
                         f"'.pdf', '.png', '.svg'; got {suffix or 'none'!r}.")
    with style_context(style) as s:
        fig.savefig(path, dpi=s.dpi, metadata=_STABLE_METADATA[suffix])
    return path
