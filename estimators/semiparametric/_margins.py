"""Class-conditional kernel margins and their normal scores (MATH.md §11, the copula's
``z_j = Phi^-1(F_{j,y}(x_j))``).

Per class y and continuous column j the margin is a *defensive mixture*

    f_{j,y} = (1 - tail) KDE_{j,y} + tail KDE_j,

KDE_{j,y} the 1-D Gaussian KDE of the class's observed values (Scott's factor on the class
rows, the binned evaluation of :class:`estimators.densities.kde.KDE1D`) and KDE_j the same
on every training row. Two floors stop a within-class (near-)constant column from deciding
a row alone:

* the bandwidth of KDE_{j,y} is at least ``bw_floor`` times the column's standard deviation
  over all training rows (not 0 or 1e-12 as for a constant class sample);
* the ``tail`` weight of the pooled KDE_j, which is the same for every class: wherever a
  class's own kernels have no mass, ``f_{j,y}(x) >= tail KDE_j(x)``, so one column moves
  ``ln p(y | x)`` by at most about ``ln(1 / tail)`` plus the pooled-to-class density ratio
  (a bound, where the Gaussian factor's tails made it unbounded: 1e10 nats on oj).

The mixture is a proper density with CDF ``(1 - tail) F_{j,y} + tail F_j``, so the copula
stays a proper density with exactly these margins. ``u`` is clipped into
``[U_EPS, 1 - U_EPS]`` (|z| <= 6.0) as :mod:`estimators.densities.copula_density` does.
"""

from __future__ import annotations

import numpy as np
from scipy.special import ndtri

from estimators.columns import EncodedColumns
from estimators.densities.kde import KDE1D, class_kde, scott_factor
from estimators.stats.gaussian import LOG_2PI

U_EPS = 1e-9
_LOG_SQRT_2PI = 0.5 * LOG_2PI


class Margin:
    """``(1 - tail) KDE_class + tail KDE_pooled`` of one column in one class.

    Examples
    --------
    A proper density (it integrates to 1) whose normal scores are ``Phi^-1(F(x))``:

    >>> import numpy as np
    >>> from estimators.densities import KDE1D
    >>> from estimators.semiparametric import Margin
    >>> rng = np.random.default_rng(0)
    >>> x, pooled = rng.exponential(size=200), rng.exponential(size=400)
    >>> margin = Margin(KDE1D(x, 0.3), KDE1D(pooled, 0.3), tail=0.1)
    >>> grid = np.linspace(-3, 12, 3001)
    >>> round(float(np.trapezoid(np.exp(margin.logpdf(grid)), grid)), 3)
    1.0
    >>> points = np.array([0.5, 2.0])
    >>> own, other = (np.exp(KDE1D(v, 0.3).logpdf(points)) for v in (x, pooled))
    >>> bool(np.allclose(np.exp(margin.logpdf(points)), 0.9 * own + 0.1 * other))
    True
    """

    def __init__(self, own: KDE1D, pooled: KDE1D, tail: float) -> None:
        self.own, self.pooled, self.tail = own, pooled, float(tail)

    @property
    def h(self) -> float:
        """The class kernel's bandwidth."""
        return float(self.own.h)

    def logpdf(self, x: np.ndarray) -> np.ndarray:
        a = self.own.logpdf(x)
        if self.tail <= 0.0:
            return a
        return np.logaddexp(np.log1p(-self.tail) + a, np.log(self.tail) + self.pooled.logpdf(x))

    def cdf(self, x: np.ndarray) -> np.ndarray:
        a = self.own.cdf(x)
        return a if self.tail <= 0.0 else (1.0 - self.tail) * a + self.tail * self.pooled.cdf(x)

    def scores(self, x: np.ndarray) -> np.ndarray:
        """Normal scores ``Phi^-1(F(x))`` with u clipped into [U_EPS, 1 - U_EPS]."""
        return ndtri(np.clip(self.cdf(x), U_EPS, 1.0 - U_EPS))

    def log_jacobian(self, x: np.ndarray) -> np.ndarray:
        """``ln f(x) - ln phi(z(x))``: the density of x is that of z times ``exp`` of this."""
        z = self.scores(x)
        return self.logpdf(x) + 0.5 * z * z + _LOG_SQRT_2PI


class ClassMargins:
    """The margins of the given continuous columns in every class.

    Parameters
    ----------
    enc : EncodedColumns
        Training table.
    y : ndarray of int
        Class codes.
    n_classes : int
    columns : iterable of int
        Continuous columns to model.
    bw_floor, tail : float
        The floors of the module docstring.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from estimators.columns import MixedEncoder
    >>> rng = np.random.default_rng(0)
    >>> enc = MixedEncoder().fit_transform(pd.DataFrame({"x": rng.exponential(size=300)}))
    >>> m = ClassMargins(enc, rng.integers(0, 2, 300), 2, [0], bw_floor=0.05, tail=0.01)
    >>> z = m.scores(enc, 0, 0)
    >>> bool(abs(z.mean()) < 0.2 and abs(z.std() - 1) < 0.2)
    True
    """

    def __init__(self, enc: EncodedColumns, y: np.ndarray, n_classes: int, columns, *,
                 bw_floor: float, tail: float) -> None:
        y = np.asarray(y)
        self.n_classes = n_classes
        self.margins: dict[int, list[Margin]] = {}
        every = np.arange(y.size)
        for v in columns:
            col = enc.values[:, v]
            sd = float(np.nanstd(col)) if np.isfinite(col).any() else 1.0
            floor = bw_floor * (sd if sd > 0 else 1.0)
            n_obs = int(np.isfinite(col).sum())
            pooled = class_kde(col, every, scott_factor(max(n_obs, 2), 1), floor)
            per = []
            for c in range(n_classes):
                rows = np.flatnonzero(y == c)
                n_c = int(np.isfinite(col[rows]).sum())
                own = class_kde(col, rows, scott_factor(max(n_c, 2), 1), floor)
                per.append(Margin(own, pooled, tail))
            self.margins[int(v)] = per

    def scores(self, enc: EncodedColumns, v: int, c: int) -> np.ndarray:
        """Normal scores of column v in class c (NaN where missing)."""
        x = enc.values[:, v]
        out = np.full(x.shape, np.nan)
        ok = np.isfinite(x)
        out[ok] = self.margins[v][c].scores(x[ok])
        return out

    def log_jacobian(self, enc: EncodedColumns, v: int, c: int) -> np.ndarray:
        """``ln f_{v,c}(x_v) - ln phi(z_v)``, 0 where x_v is missing."""
        x = enc.values[:, v]
        out = np.zeros(x.shape)
        ok = np.isfinite(x)
        out[ok] = self.margins[v][c].log_jacobian(x[ok])
        return out

    def transform(self, enc: EncodedColumns, c: int, columns=None) -> EncodedColumns:
        """``enc`` with the modelled continuous columns (those of ``columns`` when given)
        replaced by their class-c normal scores."""
        values = enc.values.copy()
        for v in self.margins if columns is None else columns:
            if v in self.margins:
                values[:, v] = self.scores(enc, v, c)
        return EncodedColumns(values, enc.codes, enc.types, enc.n_levels, enc.names,
                              enc.n_unseen)

    def training_scores(self, enc: EncodedColumns, y: np.ndarray) -> EncodedColumns:
        """Each training row's normal scores under its own class's margins (the table the
        z-space factors and the structure score are fitted on)."""
        values = enc.values.copy()
        y = np.asarray(y)
        for c in range(self.n_classes):
            rows = y == c
            if rows.any():
                values[rows] = self.transform(enc.take(rows), c).values
        return EncodedColumns(values, enc.codes, enc.types, enc.n_levels, enc.names,
                              enc.n_unseen)
