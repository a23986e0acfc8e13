"""The log-linear features of a fixed structure (MATH.md §10): one sparse design matrix.

A structure is given by its conditional Gaussian factors (:mod:`estimators.scores`'s
``CategoricalFactor``, ``LinearGaussianFactor``, ``BayesCategoricalFactor``): vertex ``v``,
categorical parents D (configuration ``u``, the cells seen in training) and continuous
parents C. Continuous values enter standardised, ``z = (x - mean) / sd`` with the training
column's mean and standard deviation (sd 1 for a constant column), so that one L2 penalty
means the same for every column. Per family the columns of the design are, for every
parent cell ``u`` seen in training:

* categorical v, C = ∅: the indicators ``1[x_v = c, u]`` (the CPT's cells);
* continuous v: ``1[u] * (1, z_v, z_v², z_v z_c, z_c, z_c z_c')`` for c, c' in C (c <= c'),
  i.e. every monomial of degree <= 2 of the family's continuous variables: the conditional
  linear-Gaussian factor's log-density is exactly linear in them;
* categorical v with C ≠ ∅: ``1[x_v = c, u] * (1, z_c, z_c z_c')``, the terms of the
  Gaussian numerator ``p(c | u, y) N(x_C; mu, S)`` of its Bayes-rule factor.

Each class has its own weight on every column (the cells "given parents and class").

**The hierarchy** (``fit_design(..., scale=s)``): logistic regression's own features get
columns of their own after the cells -- the one-hot cells ``1[x_v = c]`` of every
categorical vertex that has parents and the standardised value ``z_v`` of every continuous
vertex -- and every family's cells are multiplied by ``s``, except those of a categorical
vertex with no parent but the class (they *are* its one-hot cells). One penalty ``λ`` on all
weights then penalises the structure's terms by ``λ / s²``: they are shrunk towards logistic
regression on the same features instead of towards nothing (:mod:`._model`).

A family is **active** on a row when v and every parent are observed and ``u`` was seen in
training; elsewhere its columns are zero (the scheme of :mod:`._model` then gives it its
generative, marginalised term). Built with one COO assembly per family, no loop over rows.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from scipy import sparse

from estimators.columns import EncodedColumns
from estimators.network.factors import (
    BayesCategoricalFactor,
    CategoricalFactor,
    LinearGaussianFactor,
)
from estimators.stats.cell_statistics import upper_pairs
from estimators.stats.gaussian import LOG_2PI

__all__ = ["Design", "fit_design", "generative_weights", "layout", "standardisation"]


@dataclass(frozen=True, eq=False)
class Design:
    """The column layout of a structure's log-linear features.

    Attributes
    ----------
    factors : tuple
        The generative CG factors, one per family.
    mean, sd : ndarray
        Standardisation of every encoded column (0 and 1 for categorical ones).
    offsets : ndarray of int
        First design column of each family's cells; ``offsets[-1]`` is :attr:`n_cells`.
    main : ndarray of int or None
        First main-effect column of each family, counted from :attr:`n_cells` (None: no
        hierarchy).
    scales : ndarray or None
        The factor of each family's cells (None: 1).

    Examples
    --------
    The layout of a discriminative naive Bayes on iris: 3 class cells for each of the 4
    features, then one main-effect column per family (the hierarchy's ``scale``):

    >>> from estimators import NaiveBayesClassifier, load_dataset
    >>> X, y = load_dataset("iris")
    >>> design = NaiveBayesClassifier(parameters="discriminative").fit(X, y).discriminative_.design
    >>> type(design).__name__, design.n_columns, design.offsets.tolist(), len(design.factors)
    ('Design', 16, [0, 3, 6, 9, 12], 4)
    """

    factors: tuple
    mean: np.ndarray
    sd: np.ndarray
    offsets: np.ndarray
    main: np.ndarray | None = None
    scales: np.ndarray | None = None

    @property
    def n_cells(self) -> int:
        """Number of cell columns (the structure's log-linear features)."""
        return int(self.offsets[-1])

    @property
    def n_columns(self) -> int:
        """Number of design columns (cells, then the main effects)."""
        return self.n_cells + (0 if self.main is None else int(self.main[-1]))

    def column_scales(self) -> np.ndarray:
        """The factor of every design column: the family's scale on its cells, 1 on the
        main effects (:meth:`matrix` of a design with other scales is the same matrix
        times the ratio of these)."""
        out = np.ones(self.n_columns)
        if self.scales is not None:
            out[:self.n_cells] = np.repeat(self.scales, np.diff(self.offsets))
        return out

    def rescaled(self, scale: float) -> Design:
        """The same layout with every scaled family at ``scale``."""
        return replace(self, scales=np.array([1.0 if _is_main(f) else float(scale)
                                              for f in self.factors]))

    def active(self, enc: EncodedColumns) -> np.ndarray:
        """Boolean (n, n_families): the family is active on the row (module docstring)."""
        obs = enc.observed
        out = np.empty((enc.codes.shape[0], len(self.factors)), dtype=bool)
        for j, f in enumerate(self.factors):
            cols = [f.v, *f.continuous_parents, *f.categorical_parents]
            out[:, j] = obs[:, cols].all(axis=1) & (f.config_index(enc) < f.n_configs)
        return out

    def matrix(self, enc: EncodedColumns, active: np.ndarray | None = None) -> sparse.csr_matrix:
        """The design matrix of ``enc``: CSR of shape (n, :attr:`n_columns`)."""
        if active is None:
            active = self.active(enc)
        n = enc.codes.shape[0]
        z = (np.nan_to_num(enc.values) - self.mean) / self.sd
        rows, cols, vals = [], [], []
        for j, f in enumerate(self.factors):  # loop over families; rows are vectorised
            idx = np.flatnonzero(active[:, j])
            u = f.config_index(enc)[idx]
            block = _monomials(z[idx], f)
            width = block.shape[1]
            if isinstance(f, LinearGaussianFactor):
                cell = u
            else:
                cell = u * int(f.log_cpt.shape[2]) + enc.codes[idx, f.v]
            col = self.offsets[j] + cell[:, None] * width + np.arange(width)
            rows.append(np.repeat(idx, width))
            cols.append(col.ravel())
            vals.append(block.ravel() * (1.0 if self.scales is None else self.scales[j]))
        if self.main is not None:
            for j, f in enumerate(self.factors):
                if self.main[j + 1] == self.main[j]:
                    continue
                idx = np.flatnonzero(active[:, j])
                start = self.n_cells + self.main[j]
                if isinstance(f, LinearGaussianFactor):
                    block = z[idx, f.v][:, None]
                    col = np.full(block.shape, start)
                else:
                    block = np.ones((idx.size, 1))
                    col = start + enc.codes[idx, f.v][:, None]
                rows.append(np.repeat(idx, block.shape[1]))
                cols.append(col.ravel())
                vals.append(block.ravel())
        data = (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols)))
        return sparse.csr_matrix(sparse.coo_matrix(data, shape=(n, self.n_columns)))


def _monomials(z: np.ndarray, f) -> np.ndarray:
    """The per-cell feature block of family ``f`` on standardised rows ``z``."""
    zc = z[:, list(f.continuous_parents)]
    i, j = upper_pairs(zc.shape[1])  # the quadratic terms' pairs c <= c'
    parents = [zc, zc[:, i] * zc[:, j]]
    one = np.ones((z.shape[0], 1))
    if isinstance(f, LinearGaussianFactor):
        zv = z[:, [f.v]]
        return np.hstack([one, zv, zv * zv, zv * zc, *parents])
    return np.hstack([one, *parents])


def _width(f) -> int:
    """Columns per cell of family ``f``."""
    p = len(f.continuous_parents)
    base = 1 + p + p * (p + 1) // 2
    return base + 2 + p if isinstance(f, LinearGaussianFactor) else base


def _cells(f) -> int:
    """Cells of family ``f``: parent configurations seen (times the categories of v)."""
    return f.n_configs * (1 if isinstance(f, LinearGaussianFactor) else int(f.log_cpt.shape[2]))


def _is_main(f) -> bool:
    """The family's cells are logistic regression's own features: a categorical vertex with
    no parent but the class (its one-hot cells)."""
    return (isinstance(f, CategoricalFactor) and not len(f.continuous_parents)
            and not len(f.categorical_parents))


def _main_width(f) -> int:
    """Main-effect columns of family ``f``: none when its cells are main effects, the
    standardised value of a continuous vertex, the one-hot cells of a categorical one."""
    if _is_main(f):
        return 0
    return 1 if isinstance(f, LinearGaussianFactor) else int(f.log_cpt.shape[2])


def fit_design(factors, enc: EncodedColumns, scale: float | None = None) -> Design:
    """The :class:`Design` of a fitted structure's factors on its training table.

    Parameters
    ----------
    factors : sequence
        CG factors (``CategoricalFactor``, ``LinearGaussianFactor``,
        ``BayesCategoricalFactor``), one per modelled feature.
    enc : EncodedColumns
        The training table (its continuous columns give the standardisation).
    scale : float or None, default=None
        ``s`` of the hierarchy (module docstring); None: the cells alone.

    Returns
    -------
    Design

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.columns import MixedEncoder
    >>> from estimators.network.fitting import fit_cg_factor
    >>> X = np.array([[0, 1.5], [1, 2.5], [1, 4.5], [0, 3.5]])
    >>> enc = MixedEncoder({0: "categorical", 1: "continuous"}).fit_transform(X)
    >>> y = np.array([0, 0, 1, 1])
    >>> factors = [fit_cg_factor(enc, y, 2, 0), fit_cg_factor(enc, y, 2, 1, [0])]
    >>> design = fit_design(factors, enc)
    >>> design.n_columns  # 2 cells of x0; 2 parent cells x (1, z, z^2) of x1
    8
    >>> design.matrix(enc).toarray()[0, :2].tolist()
    [1.0, 0.0]
    """
    return layout(factors, *standardisation(enc), scale)


def standardisation(enc: EncodedColumns) -> tuple[np.ndarray, np.ndarray]:
    """``(mean, sd)`` of every encoded column: the training mean and (maximum-likelihood)
    standard deviation of a continuous column over its observed cells, 0 and 1 for a
    categorical one (and sd 1 for a constant column)."""
    cont = enc.continuous
    mean = np.zeros(enc.values.shape[1])
    sd = np.ones(enc.values.shape[1])
    if cont.any():
        with np.errstate(all="ignore"):
            vals = enc.values[:, cont]
            m = np.nanmean(np.where(np.isnan(vals), np.nan, vals), axis=0)
            s = np.nanstd(vals, axis=0)
        mean[cont] = np.where(np.isfinite(m), m, 0.0)
        sd[cont] = np.where(np.isfinite(s) & (s > 0), s, 1.0)
    return mean, sd


def layout(factors, mean: np.ndarray, sd: np.ndarray, scale: float | None = None) -> Design:
    """The :class:`Design` of the factors with a given standardisation (:func:`fit_design`
    computes it from the training table; from partitions it comes from their merged
    moments)."""
    sizes = [_cells(f) * _width(f) for f in factors]
    main = scales = None
    if scale is not None:
        main = np.concatenate([[0], np.cumsum([_main_width(f) for f in factors])]).astype(int)
        scales = np.array([1.0 if _is_main(f) else float(scale) for f in factors])
    return Design(tuple(factors), mean, sd, np.concatenate([[0], np.cumsum(sizes)]).astype(int),
                  main, scales)


def generative_weights(design: Design, n_classes: int) -> np.ndarray:
    """The generative factors as log-linear weights, shape (n_columns, n_classes).

    Exact for CPTs (``ln p(c | u, y)``) and for linear-Gaussian factors (the
    log-density's coefficients in the standardised monomials); for a Bayes-rule factor the
    weights of its numerator ``ln p(c | u, y) + ln N(x_C; mu_c, S_c)`` (its normaliser over
    c is a function of the parents that the cells cannot hold): the warm start of the
    zero-centred fit.

    Examples
    --------
    For CPTs and linear-Gaussian factors the weights are exact: the design times them is the
    sum of the factors' log-probabilities:

    >>> import numpy as np
    >>> from estimators import NaiveBayesClassifier, load_dataset
    >>> X, y = load_dataset("iris")
    >>> model = NaiveBayesClassifier(parameters="discriminative").fit(X, y)
    >>> design, enc = model.discriminative_.design, model.encoder_.transform(X)
    >>> W = generative_weights(design, 3)
    >>> logs = sum(f.log_prob(enc) for f in design.factors)
    >>> W.shape, bool(np.allclose(design.matrix(enc) @ W, logs))
    ((16, 3), True)
    """
    W = np.zeros((design.n_columns, n_classes))
    for j, f in enumerate(design.factors):
        U = f.n_configs
        block = _factor_weights(f, design.mean, design.sd)[:U]  # (U, m, [K,] width)
        if not isinstance(f, LinearGaussianFactor):
            block = block.transpose(0, 2, 1, 3)  # (U, K, m, width)
            block = block.reshape(-1, n_classes, block.shape[-1])
        W[design.offsets[j]:design.offsets[j + 1]] = block.transpose(0, 2, 1).reshape(
            -1, n_classes) / (1.0 if design.scales is None else design.scales[j])
    return W


def _factor_weights(f, mean: np.ndarray, sd: np.ndarray) -> np.ndarray:
    """Per cell, the coefficients of the family's monomials (see :func:`_monomials`)."""
    C = list(f.continuous_parents)
    p = len(C)
    iu, ju = upper_pairs(p)
    off = np.where(iu == ju, 1.0, 2.0)  # z_c z_c' appears twice in a quadratic form
    if isinstance(f, CategoricalFactor):
        return f.log_cpt[..., None]
    if isinstance(f, LinearGaussianFactor):
        s2 = f.var
        sdv = sd[f.v]
        beta = f.coef * sd[C]  # (U+1, m, p)
        gamma = f.intercept + np.einsum("umc,c->um", f.coef, mean[C]) - mean[f.v]
        const = -0.5 * (LOG_2PI + np.log(s2)) - gamma ** 2 / (2 * s2)
        zv = gamma * sdv / s2
        zv2 = -sdv ** 2 / (2 * s2)
        zvzc = sdv * beta / s2[..., None]
        zc = -gamma[..., None] * beta / s2[..., None]
        zczc = -off * beta[..., iu] * beta[..., ju] / (2 * s2[..., None])
        return np.concatenate([const[..., None], zv[..., None], zv2[..., None], zvzc, zc, zczc],
                              axis=-1)
    if isinstance(f, BayesCategoricalFactor):
        # x = mean + sd z: (x - mu) = D (z - nu), nu = (mu - mean) / sd, precision D P D
        nu = (f.mean - mean[C]) / sd[C]
        P = f.precision * sd[C][:, None] * sd[C][None, :]
        Pnu = np.einsum("...ij,...j->...i", P, nu)
        const = f.log_cpt - 0.5 * (p * LOG_2PI + f.logdet + np.einsum("...i,...i->...", nu, Pnu))
        quad = -0.5 * off * P[..., iu, ju]
        return np.concatenate([const[..., None], Pnu, quad], axis=-1)
    raise TypeError(f"no log-linear features for a factor of type {type(f).__name__}")
