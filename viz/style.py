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

__all__ = ["OKABE_ITO", "PALETTE", "PAPER_WIDTHS", "MIN_FONT_SIZE", "Style", "paper_width",
           "resolve_style",
           "rc_params", "style_context", "apply_style", "save_figure"]

#: The common two-column journal widths in inches: one column and the whole text block.
PAPER_WIDTHS: dict[str, float] = {"column": 3.5, "page": 7.0}

#: No text of a figure is smaller than this, in points at print size.
MIN_FONT_SIZE = 6.0


def paper_width(width: str | float | None) -> float | None:
    """A figure width in inches: ``"column"`` (3.5), ``"page"`` (7.0), a number of inches,
    or None (the figure's own width).

    Raises
    ------
    ValueError
        For an unknown name or a width that is not a positive number of inches.

    Examples
    --------
    >>> paper_width("column"), paper_width(5), paper_width(None)
    (3.5, 5.0, None)
    >>> paper_width("A4")
    Traceback (most recent call last):
    ...
    ValueError: Unknown figure width 'A4': use 'column' (3.5 in), 'page' (7.0 in) or a number of inches.
    """
    if width is None:
        return None
    if isinstance(width, str):
        if width in PAPER_WIDTHS:
            return PAPER_WIDTHS[width]
        try:
            width = float(width)
        except ValueError:
            names = ", ".join(f"{k!r} ({v} in)" for k, v in PAPER_WIDTHS.items())
            raise ValueError(f"Unknown figure width {width!r}: use {names} or a number of "
                             "inches.") from None
    if isinstance(width, bool) or not isinstance(width, int | float) or not 1.0 <= width <= 40.0:
        raise ValueError(f"A figure width must be 'column', 'page' or a number of inches "
                         f"between 1 and 40; got {width!r}.")
    return float(width)

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

    Sizes are physical: a figure is drawn at the size it is printed at, so ``font_size`` is
    the size of the text in the paper (a ``"column"`` figure is 3.5 inches wide in the PDF
    and on the printed page).

    Parameters
    ----------
    font_size : float
        Text size in points at print size (node labels, tick labels); titles are the same
        size, secondary text (edge labels, creation numbers, legends) one point smaller but
        never below ``min_font_size``.
    min_font_size : float
        The smallest text allowed, in points (at least 6).
    width : {"column", "page"}, float or None
        Figure width: one column (3.5 in), the whole page (7.0 in), a number of inches, or
        None (graph figures as wide as their layout needs, at most a page; charts 4.8 in).
        The height follows from the layout, at most ``max_aspect`` times the width.
    max_aspect : float
        Largest height / width ratio of a figure.
    line_width : float
        Width of edges and curves in points (thin per-split lines use half of it).
    figsize : (float, float) or None
        Fixed size of new chart figures in inches (overrides ``width``); graph figures are
        always sized by their layout.
    dpi : int
        Resolution of PNG files (vector files do not depend on it).
    palette : tuple of str
        Category colours (classes, trees, methods, priors), cycled when exhausted.
    variable_color, class_color, highlight_color, soft_highlight_color : str
        Fill of feature vertices, of the class vertex, of highlighted parts (the root clique
        of a pbkt, the chosen number of clusters) and of marked vertices (a k-tree's
        initial clique; the orange lightened).
    continuous_color, categorical_color : str
        Fill of continuous and categorical features when their types are known.
    edge_color, light_color : str
        Structure edges; class edges and secondary marks (separators, split curves).
    edge_labels : bool
        Write edge labels (selection order on GNB tree edges, separators on junction edges).

    Examples
    --------
    >>> from viz.style import Style
    >>> Style().font_size, Style(width="column").inches
    (7.0, 3.5)
    >>> Style().with_(font_size=12).font_size
    12
    >>> Style(font_size=5)
    Traceback (most recent call last):
    ...
    ValueError: font_size must be at least min_font_size (6.0 pt); got 5 pt.
    """

    font_size: float = 7.0
    min_font_size: float = MIN_FONT_SIZE
    width: str | float | None = None
    max_aspect: float = 1.3
    line_width: float = 0.8
    figsize: tuple[float, float] | None = None
    dpi: int = 200
    palette: tuple[str, ...] = field(default=PALETTE)
    variable_color: str = "#FFFFFF"
    class_color: str = OKABE_ITO["sky_blue"]
    highlight_color: str = OKABE_ITO["orange"]
    soft_highlight_color: str = "#F8D999"
    continuous_color: str = "#FBF3B9"
    categorical_color: str = "#FFFFFF"
    edge_color: str = "#1A1A1A"
    light_color: str = "#8C8C8C"
    edge_labels: bool = True

    def __post_init__(self) -> None:
        if self.min_font_size < MIN_FONT_SIZE:
            raise ValueError(f"min_font_size must be at least {MIN_FONT_SIZE} pt; got "
                             f"{self.min_font_size} pt.")
        if self.font_size < self.min_font_size:
            raise ValueError(f"font_size must be at least min_font_size "
                             f"({self.min_font_size} pt); got {self.font_size} pt.")
        if not self.max_aspect > 0:
            raise ValueError(f"max_aspect must be positive; got {self.max_aspect}.")
        paper_width(self.width)

    @property
    def inches(self) -> float | None:
        """The figure width in inches (None: the figure's own width)."""
        return paper_width(self.width)

    @property
    def small_font_size(self) -> float:
        """Secondary text: one point below ``font_size``, never below ``min_font_size``."""
        return max(self.min_font_size, self.font_size - 1)

    def with_(self, **changes: Any) -> Style:
        """A copy with some options changed."""
        return replace(self, **changes)

    def color(self, i: int) -> str:
        """The i-th category colour (cycled)."""
        return self.palette[i % len(self.palette)]


def resolve_style(style: Style | None, width: str | float | None = None) -> Style:
    """The style a plot function draws with: ``style`` (default :class:`Style`) with its
    ``width`` replaced by ``width`` when given.

    Examples
    --------
    >>> resolve_style(None, "page").inches
    7.0
    """
    s = style or DEFAULT_STYLE
    return s if width is None else s.with_(width=width)


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
        "axes.titlesize": s.font_size,
        "axes.labelsize": s.font_size,
        "xtick.labelsize": s.small_font_size,
        "ytick.labelsize": s.small_font_size,
        "legend.fontsize": s.small_font_size,
        "legend.title_fontsize": s.small_font_size,
        "figure.titlesize": s.font_size,
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
        "svg.fonttype": "path",  # text as glyph outlines: no font needed to view
        "pdf.compression": 6,
        "svg.hashsalt": "kgraph",
        "image.cmap": "viridis",
    }


def _cycler(colors: tuple[str, ...]):
    from cycler import cycler

    return cycler(color=list(colors))


@contextlib.contextmanager
def style_context(style: Style | None = None) -> Iterator[Style]:
    """Temporarily apply a style's rcParams; yields the style (the default when None).

    Examples
    --------
    >>> import matplotlib
    >>> from viz import Style, style_context
    >>> with style_context(Style(font_size=9)) as s:
    ...     print(s.font_size, matplotlib.rcParams["font.size"])
    9 9.0
    """
    import matplotlib

    s = style or DEFAULT_STYLE
    with matplotlib.rc_context(rc_params(s)):
        yield s


def apply_style(style: Style | None = None) -> None:
    """Set the global ``matplotlib.rcParams`` from a style (for scripts and tests).

    Examples
    --------
    >>> import matplotlib
    >>> from viz import Style, apply_style
    >>> with matplotlib.rc_context():  # restores the rcParams afterwards
    ...     apply_style(Style(font_size=8))
    ...     print(matplotlib.rcParams["font.size"], matplotlib.rcParams["pdf.fonttype"])
    8.0 42
    """
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

    Examples
    --------
    The same figure saved twice gives the same bytes:

    >>> import tempfile
    >>> from pathlib import Path
    >>> import matplotlib.pyplot as plt
    >>> from viz import save_figure
    >>> fig, ax = plt.subplots()
    >>> _ = ax.plot([0, 1], [1, 0])
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     a = save_figure(fig, Path(folder) / "a.pdf").read_bytes()
    ...     b = save_figure(fig, Path(folder) / "b.pdf").read_bytes()
    >>> a[:5], a == b
    (b'%PDF-', True)
    >>> plt.close(fig)
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in _STABLE_METADATA:
        raise ValueError(f"Cannot save figure as {path.name!r}: the suffix must be one of "
                         f"'.pdf', '.png', '.svg'; got {suffix or 'none'!r}.")
    with style_context(style) as s:
        fig.savefig(path, dpi=s.dpi, metadata=_STABLE_METADATA[suffix])
    return path
