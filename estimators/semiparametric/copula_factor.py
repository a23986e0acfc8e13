"""The Gaussian-copula factor with kernel margins (MATH.md §11).

With the class-y normal scores ``z_j = Phi^-1(F_{j,y}(x_j))`` of :mod:`._margins`, the
factor of a vertex v with continuous parents C and categorical parents D is the conditional
Gaussian factor of MATH.md §7 fitted on the normal scores (each training row under its own
class's margins), times the Jacobian of the score transform when v is continuous:

    p(x_v | x_C, d, y) = N(z_v; a_{d,y} + b_{d,y}^T z_C, s2_{d,y}) f_{v,y}(x_v) / phi(z_v).

Because ``dz_v / dx_v = f_{v,y}(x_v) / phi(z_v)``, this is a proper density in x_v for any
regression (a change of variables), its margin given y alone is exactly f_{v,y} (the
factor with no parents is N(z_v; a, s2) with a ~ 0, s2 ~ 1), and on a network whose
continuous factors are all of this kind the class-conditional joint is a conditional
Gaussian network in z: missing continuous cells marginalise in z-space with the exact
Gaussian algebra of :mod:`estimators.marginal` (the Jacobian of a missing cell integrates
away with it). A categorical v with continuous parents gets Bayes' rule on the CG joint of
(v, z_C), which equals p(v | x_C, d, y) since z_C is a bijection of x_C within the class.

The residual variance in z-space gets ``bw_floor ** 2`` added (the z scale is 1): the
variance floor of the factor, on top of the margins' floors.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from estimators.columns import EncodedColumns
from estimators.network.fitting import fit_cg_factor
from estimators.semiparametric._margins import ClassMargins


class WrapsCGFactor:
    """Vertex, parents and training rows of a factor built on a CG factor ``self.inner``
    (:func:`estimators.network.fitting.fit_cg_factor`): the copula and class-free factors."""

    inner: object

    @property
    def v(self) -> int:
        return self.inner.v

    @property
    def vertex(self) -> int:
        return self.inner.v

    @property
    def parents(self) -> tuple:
        return (*self.inner.categorical_parents, *self.inner.continuous_parents)

    @property
    def continuous_parents(self) -> tuple:
        return self.inner.continuous_parents

    @property
    def categorical_parents(self) -> tuple:
        return self.inner.categorical_parents

    @property
    def n_rows(self) -> int:
        """Complete training rows of the family."""
        return self.inner.n_rows


@dataclass(eq=False)
class CopulaFactor(WrapsCGFactor):
    """A conditional Gaussian factor in class-y normal scores (module docstring).

    ``inner`` is the factor of :func:`estimators.network.fitting.fit_cg_factor` fitted on the
    training normal scores; ``margins`` the :class:`ClassMargins` that define them.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from estimators import TANClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = pd.DataFrame({"a": rng.exponential(size=300)})
    >>> X["c"] = np.log1p(X["a"]) + rng.normal(scale=0.3, size=300)
    >>> y = (X["a"] + rng.normal(size=300) > 1).astype(int)
    >>> model = TANClassifier(continuous="copula").fit(X, y)
    >>> [type(f).__name__ for f in model.network_.factors], model.factor_kinds_
    (['CopulaFactor', 'CopulaFactor'], {'a': 'copula', 'c': 'copula'})
    """

    inner: object
    margins: ClassMargins
    continuous: bool
    n_classes: int
    _scored: tuple = field(default=())

    def describe(self, names: list) -> dict:
        """Its parameters for exports: the z-space CG factor's (``z_space``) and the class
        kernel margins' bandwidths of v and its continuous parents."""
        from estimators.network.export.pgmpy_network import factor_parameters

        cols = [self.v, *self.continuous_parents] if self.continuous else list(
            self.continuous_parents)
        return {"kind": "CopulaFactor", "categorical_parents":
                [names[p] for p in self.categorical_parents],
                "continuous_parents": [names[p] for p in self.continuous_parents],
                "n_rows": int(self.n_rows), "z_space": factor_parameters(self.inner, names),
                "margin_bandwidths": {names[u]: [m.h for m in self.margins.margins[u]]
                                      for u in cols},
                "margin_tail": float(self.margins.margins[cols[0]][0].tail) if cols else 0.0}

    def log_prob_at(self, enc: EncodedColumns, classes: np.ndarray) -> np.ndarray:
        """``ln p(x_v | x_pa, y)`` at one class per row: 0 where x_v is missing, NaN where a
        parent of an observed x_v is missing."""
        classes = np.asarray(classes, dtype=np.int64)
        out = np.zeros(classes.shape)
        cols = [self.v, *self.inner.continuous_parents] if self.continuous else list(
            self.inner.continuous_parents)
        for c in np.unique(classes):
            rows = classes == c
            sub = enc.take(rows) if not rows.all() else enc
            z = self.margins.transform(sub, int(c), cols)
            lp = self.inner.log_prob_at(z, np.full(int(rows.sum()), int(c)))
            if self.continuous:
                lp = lp + self.margins.log_jacobian(sub, self.v, int(c))
            out[rows] = lp
        return out

    def log_prob(self, enc: EncodedColumns) -> np.ndarray:
        """``ln p(x_v | x_pa, y)`` for every row and class, shape (n, n_classes)."""
        n = enc.codes.shape[0]
        return np.column_stack([self.log_prob_at(enc, np.full(n, c))
                                for c in range(self.n_classes)])


def fit_copula_factor(enc: EncodedColumns, z_train: EncodedColumns, y: np.ndarray,
                      n_classes: int, v: int, parents, margins: ClassMargins, *,
                      alpha: float, bw_floor: float, min_cell_rows: int,
                      rows: np.ndarray | None = None) -> CopulaFactor:
    """The copula factor of v given ``parents``: :func:`~estimators.network.fitting.fit_cg_factor`
    on ``z_train`` (the training rows' own-class normal scores under ``margins``), among
    ``rows`` when given.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from estimators.columns import MixedEncoder
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=300)
    >>> enc = MixedEncoder().fit_transform(pd.DataFrame({"a": np.exp(x), "b": np.exp(x + rng.normal(size=300))}))
    >>> y = np.zeros(300, int)
    >>> m = ClassMargins(enc, y, 1, [0, 1], bw_floor=0.05, tail=0.01)
    >>> f = fit_copula_factor(enc, m.training_scores(enc, y), y, 1, 1, [0], m, alpha=1.0,
    ...                       bw_floor=0.05, min_cell_rows=5)
    >>> round(float(f.inner.coef[0, 0, 0]), 1)   # z_b ~ rho z_a, rho = 1 / sqrt(2)
    0.7
    """
    parents = tuple(int(p) for p in parents)
    z, yy = (z_train, y) if rows is None else (z_train.take(rows), np.asarray(y)[rows])
    inner = fit_cg_factor(z, yy, n_classes, v, parents, alpha=alpha, var_smoothing=max(bw_floor ** 2, 1e-9),
                          ridge=0.0, min_cell_rows=min_cell_rows, var_floor=bw_floor ** 2,
                          shrink=not z.observed[:, [v, *parents]].all())
    return CopulaFactor(inner, margins, bool(enc.continuous[v]), n_classes)
