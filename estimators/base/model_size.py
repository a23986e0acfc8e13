"""The size of a fit, known before any work is done.

A family whose cost grows exponentially in one of its options (the width ``k`` of k-TAN and
kDB, the ``order`` of k-GNB, the super-parent set size ``n`` of AnDE, BAN's
``max_parents``) computes, from the data's cardinalities and that option, two numbers
before it fits anything:

- **the largest table**: the cells of the largest conditional table it will build, the
  classes times the values of a feature and its parents (a continuous column counts once:
  its factor is a regression, not a table);
- **the scored cells**: the cells of every table its structure search scores (every
  family of a child and at most ``k`` parents for the backbone DP, every SPODE of AnDE).

The largest table must stay within ``max_cells`` (10^6 by default: the rule that refuses
exporting a posterior table of more cells, ``estimators.network.export``), the scored cells
within ``100 * max_cells``. Over either, :func:`check_size` raises one ``ValueError`` naming
the option, the size and the largest value of the option that fits, so a typo such as
``k=50`` is refused in a moment instead of running for hours. A width larger than the
table allows (``k`` of at least the number of features) is lowered with one warning when the
widest structure keeps to the limits, and refused, saying it exceeds the features, when it
does not; it is never lowered silently.

Examples
--------
>>> sizes = [2] * 22                           # 22 binary features, two classes
>>> size = ktree_size(sizes, 2, scored=sizes)
>>> check_size("k", 50, size, highest=21,
...            bound="the 21 other features")  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
...
ValueError: k = 50 exceeds the 21 other features; k <= 5 keeps every table
under 10^6 cells and the search under 10^8 here (raise the limit with max_cells, --max-cells)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import Interval

from estimators.base.parameters import Flag, Parameter

__all__ = ["CANDIDATE_ADVICE", "MAX_CELLS", "MAX_CELLS_PARAMETER", "SEARCH_FACTOR", "Size",
           "check_size", "column_sizes", "family_cells", "ktree_search_size", "ktree_size",
           "largest_table", "level_counts", "limit_text", "spode_size", "within"]

#: the default limit of one table's cells (the exports refuse larger posterior tables)
MAX_CELLS = 10**6
#: the cells a search may score in all, as a multiple of ``max_cells``. Measured on one core
#: of the development machine: k-TAN on 22 binary features at k = 5 (6.7e7 cells) fits in
#: ~17 s, at k = 6 (3e8) in minutes; on the 85 features and 5,822 rows of a table kept for
#: choosing defaults (caravan), k-TAN at k = 2 (2.0e8 cells) takes 33 s of CPU and A2DE
#: (2.0e8) 221 s. 10^8 keeps a search to well under a minute of k-TAN and about two of AnDE.
SEARCH_FACTOR = 100
#: the other way to a smaller k-tree search than a smaller k
CANDIDATE_ADVICE = "or score only each feature's top-m partners: candidates=m, --candidates m"

MAX_CELLS_PARAMETER = Parameter(
    "max_cells", MAX_CELLS, [Interval(Integral, 1, None, closed="left")], "int",
    "The largest table ``fit`` may build, in cells (the classes times the values of a "
    "feature and its parents; a continuous column counts once); the tables a structure "
    "search scores may hold ``100 * max_cells`` cells in all. Both are computed from the "
    "data's cardinalities before any work; over either, ``fit`` raises one ``ValueError`` "
    "naming the option, the size and the largest value of the option that fits. The "
    "default, 10^6, is the limit of the exact exports.",
    Flag("the largest table a fit may build, in cells; the search may score 100 times as "
         "many in all (default 10^6: the exports' limit)", type=int))


@dataclass(frozen=True)
class Size:
    """What a fit at one value of its option builds.

    Attributes
    ----------
    table : float
        Cells of the largest table.
    scored : float
        Cells of every table the structure search scores (0: no search to bound).
    """

    table: float
    scored: float = 0.0


def level_counts(n_levels: np.ndarray, types: Sequence[str], continuous: float = 1.0
                 ) -> np.ndarray:
    """The number of values of each modelled column as a table sees it: a categorical
    column's levels, ``continuous`` for a continuous one (1: its factor is a regression, not
    a table); constant columns (which leave the model) are left out.

    Examples
    --------
    >>> level_counts(np.array([3, 0, 1]), ("categorical", "continuous", "constant")).tolist()
    [3.0, 1.0]
    """
    kept = [j for j, t in enumerate(types) if t != "constant"]
    sizes = np.asarray(n_levels, dtype=float)[kept]
    return np.where(np.asarray(types, dtype=object)[kept] == "continuous", continuous, sizes)


def column_sizes(enc) -> tuple[np.ndarray, np.ndarray]:
    """``(table sizes, search sizes)`` of the encoded table ``enc``'s modelled columns: a
    continuous column counts once in a table and twice in the search's work (each
    continuous member of a family at least doubles the moments its score reads: (c + 1)^2
    for c of them)."""
    return (level_counts(enc.n_levels, enc.types),
            level_counts(enc.n_levels, enc.types, continuous=2.0))


def largest_table(sizes: Sequence[float], members: int, classes: int) -> float:
    """Cells of the largest table over ``members`` columns and the class: ``classes``
    times the product of the ``members`` largest ``sizes``.

    Examples
    --------
    >>> largest_table([2, 5, 3, 1], 2, 2)
    30.0
    """
    top = np.sort(np.asarray(sizes, dtype=float))[::-1][:max(members, 0)]
    return float(classes * np.prod(top))


def _elementary(sizes: Sequence[float], top: int) -> np.ndarray:
    """``e_0 .. e_top`` of ``sizes``: ``e_j`` is the sum over every j-subset of the product
    of its sizes (one pass, ``O(len(sizes) * top)``)."""
    e = np.zeros(top + 1)
    e[0] = 1.0
    for s in np.asarray(sizes, dtype=float):
        e[1:] = e[1:] + s * e[:-1]
    return e


def family_cells(sizes: Sequence[float], width: int, classes: int) -> float:
    """Cells of the tables of every family of one child and at most ``width`` parents among
    the columns (what the backbone DP scores): ``classes * sum_j (j + 1) e_(j+1)``, j = 0 ..
    width, since each (j + 1)-set of columns is one table for each of its j + 1 children.

    Examples
    --------
    >>> family_cells([2, 2, 2], 1, 1)  # 3 tables of 2 cells, 6 ordered pairs of 4 cells
    30.0
    """
    top = min(width + 1, len(sizes))
    e = _elementary(sizes, top)
    return float(classes * sum((j + 1) * e[j + 1] for j in range(top)))


def ktree_size(sizes: Sequence[float], classes: int, *,
               scored: Sequence[float] | None = None) -> Callable[[int], Size]:
    """``size_at(k)`` of a k-tree (or a DAG of at most k parents) over columns of ``sizes``:
    its largest table has k + 1 columns and the class; ``scored`` (the columns' search
    sizes, :func:`column_sizes`): the search scores every family of a child and at most k
    parents (the backbone DP and greedy's first clique without candidate lists); None: no
    search to bound.

    Examples
    --------
    >>> ktree_size([2] * 22, 2, scored=[2] * 22)(5)
    Size(table=128.0, scored=66743688.0)
    """
    return lambda k: Size(largest_table(sizes, k + 1, classes),
                          0.0 if scored is None else family_cells(scored, k, classes))


def ktree_search_size(enc, classes: int, candidates: int | None
                      ) -> tuple[Callable[[int], Size], int]:
    """``(size_at(k), d)`` of a k-tree search over the encoded table ``enc``'s ``d``
    modelled columns: without candidate lists the searches (the backbone DP, greedy's first
    clique) score every family of at most k parents; with them, only the tables count."""
    sizes, work = column_sizes(enc)
    return ktree_size(sizes, classes, scored=work if candidates is None else None), len(sizes)


def spode_size(sizes: Sequence[float], classes: int,
               scored: Sequence[float] | None = None) -> Callable[[int], Size]:
    """``size_at(n)`` of AnDE: a SPODE's table has its ``n`` super-parents, the child and
    the class; the model holds one for every super-parent set and child, ``classes * (n + 1)
    * e_(n+1)`` cells in all (each (n + 1)-set of columns once for each child in it; of
    the search sizes ``scored``, :func:`column_sizes`, when given).

    Examples
    --------
    >>> spode_size([2] * 4, 2)(2)  # C(4, 3) = 4 triples, 3 children each, 2 * 8 cells
    Size(table=16.0, scored=192.0)
    """
    work = sizes if scored is None else scored

    def size_at(n: int) -> Size:
        e = _elementary(work, min(n + 1, len(work)))
        every = e[n + 1] if n + 1 < e.size else 0.0
        return Size(largest_table(sizes, n + 1, classes), float(classes * (n + 1) * every))

    return size_at


def within(size: Size, limit: int = MAX_CELLS) -> bool:
    """Whether a fit of ``size`` keeps to ``max_cells = limit``.

    Examples
    --------
    >>> within(Size(256.0, 5e7)), within(Size(2e6))
    (True, False)
    """
    return size.table <= limit and size.scored <= SEARCH_FACTOR * limit


def limit_text(cells: float) -> str:
    """``10^6`` for a power of ten from 1000 on, else the number with thousands separators.

    Examples
    --------
    >>> limit_text(10**6), limit_text(2_500_000), limit_text(10)
    ('10^6', '2,500,000', '10')
    """
    power = math.log10(cells) if cells >= 1000 else 0.5
    return f"10^{round(power)}" if power == round(power) else f"{cells:,.0f}"


def check_size(option: str, value: int, size_at: Callable[[int], Size], *,
               highest: int, bound: str, lowest: int = 1, limit: int = MAX_CELLS,
               offer: Callable[[int], str] | None = None, lowered: bool = False,
               fewer: str | None = None) -> None:
    """Refuse, in one ``ValueError``, an option value the table does not allow or whose fit
    is over the size limits.

    Parameters
    ----------
    option : str
        The option the user set (``"k"``, ``"order"``, ``"n"``, ...).
    value : int
        Its value.
    size_at : callable
        ``size_at(v)``: the :class:`Size` of a fit at value ``v`` (non-decreasing in v).
    highest : int
        The largest value the table allows (``k``: the number of features minus one).
    bound : str
        What ``highest`` is, as the message says it (``"the 21 other features"``).
    lowest : int
        The smallest value of the option.
    limit : int
        ``max_cells``: the largest table; the scored cells may be ``SEARCH_FACTOR`` times
        as many.
    offer : callable, optional
        ``offer(v)``: the advice for the largest value ``v`` that fits (default
        ``"k <= v"``).
    lowered : bool
        Whether the family lowers a value over ``highest`` to ``highest`` with a warning
        (k-GNB's ``order``, whose default exceeds what a 2-feature table allows): then
        such a value passes when ``highest`` fits, and is refused only when it does not.
    fewer : str, optional
        Another way to a smaller search, said after the advice when the scored cells are
        over the limit (k-TAN and k-GNB: :data:`CANDIDATE_ADVICE`).

    Raises
    ------
    ValueError
        Naming the option, the size over the limit (or the bound exceeded) and the largest
        value that fits.
    """
    search = SEARCH_FACTOR * limit
    if value > highest:
        if lowered and within(size_at(highest), limit):
            return
        problem = f"{option} = {value} exceeds {bound}"
    else:
        size = size_at(value)
        if size.table > limit:
            problem = (f"{option} = {value} builds a table of {size.table:.3g} cells, over "
                       f"{limit_text(limit)}")
        elif size.scored > search:
            problem = (f"{option} = {value} scores tables of {size.scored:.3g} cells in all, "
                       f"over {limit_text(search)}")
            if fewer:
                problem += f" ({fewer})"
        else:
            return
    best = next((v for v in range(min(value, highest + 1) - 1, lowest - 1, -1) if within(size_at(v), limit)),
                None)
    searched = size_at(lowest).scored > 0
    where = (f"every table under {limit_text(limit)} cells"
             + (f" and the search under {limit_text(search)}" if searched else "") + " here")
    if best is None:
        advice = (f"no {option} keeps {where}; leave out features with many values or raise "
                  "the limit (max_cells, --max-cells)")
    else:
        advice = (f"{offer(best) if offer else f'{option} <= {best}'} keeps {where} (raise "
                  "the limit with max_cells, --max-cells)")
    raise ValueError(f"{problem}; {advice}")  # the estimator names itself (named_errors)
