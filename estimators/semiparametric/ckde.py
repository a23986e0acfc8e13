"""The conditional kernel density factor (CKDE, MATH.md §11; Atienza, Bielza & Larrañaga
2022, as PyBNesian's ``CKDE``).

Within a class y and a configuration d of the categorical parents D, with x_C the continuous
parents: ``p(x_v | x_C, d, y) = f(x_v, x_C) / f(x_C)``, f the Gaussian-kernel KDE of the
cell's complete training rows with bandwidth matrix H and f(x_C) the same KDE with the
C-block of H (the exact margin of the joint KDE, so the ratio integrates to 1 over x_v).

Bandwidth rules (``bandwidth=``), with Σ̂ the cell's sample covariance (ddof = 1) and
p = 1 + |C| the dimension:

* ``"normal_reference"`` (default; PyBNesian's ``NormalReferenceRule``):
  ``H = (4 / ((p + 2) n))^(2 / (p + 4)) Σ̂``;
* ``"scott"`` (PyBNesian's ``ScottsBandwidth``): ``H = n^(-2 / (p + 4)) Σ̂``;
* ``"cv"``: the normal-reference H times a factor from :data:`CV_SCALES`, the one with the
  largest 5-fold cross-validated ``sum ln p(x_v | x_C, d, y)`` on the training rows.

Floors (see also :mod:`._margins`): every diagonal entry of H is raised to at least
``(bw_floor sd_j)^2``, sd_j the column's standard deviation over all training rows (the
difference is added to the diagonal, so H stays positive definite); then the conditional
kernel variance ``H_vv - H_vC H_CC^-1 H_Cv`` is raised to at least ``(bw_floor sd_v)^2`` by
adding the difference to H_vv (H_CC, hence f(x_C), unchanged): without it a child that
copies its parent (helpmiss' ``hospitalizations`` and ``d1``) had a ridge-thin conditional
kernel in every class and cost the true class 10.8 nats per row on average; and the density is the
defensive mixture ``(1 - tail) p_CKDE + tail g(x_v)``, g the KDE of x_v on every training
row (the same for every class). ``bw_floor = tail = 0`` is the plain CKDE (the PyBNesian
comparison, tests/estimators/semiparametric/test_pybnesian.py).

Small cells: a cell (d, y) with fewer than ``max(min_cell_rows, p + 2)`` rows uses the
class's rows over every configuration of D, and a class with fewer uses every row; a
configuration unseen in training uses its class's cell.

Kernel sums (``kernel_sum=``): ``"exact"`` evaluates f and f(x_C) by the direct sum,
O(n_train n_test p) per factor, in chunks of :data:`_CHUNK` differences. ``"binned"`` (the
default) does so only for cells of fewer than :data:`BINNED_MIN_ROWS` rows or of more than two
dimensions; a larger cell of dimension p <= 2 (every continuous TAN factor) is a KDE with the
identity kernel in whitened coordinates ``w = L^-1 x`` (H = L L^T), so its sum is the binned
one of :class:`estimators.densities.kde.KDE1D` / :class:`~estimators.densities.kde.KDE2D`
(linear binning on a regular grid, FFT convolution, linear interpolation of ln f; kernel sums
over the 128 nearest rows where the grid's density is below 1e-12 of its maximum or the point
is off the grid), minus ``ln |det L|``: O(n_train + G log G + n_test) per cell. Error: with
grid spacing d (in bandwidths: at most 1/16, coarser only where a whitened 2-D range exceeds
the 512-node cap) linear binning moves each kernel term by at most ``(d^2 / 8) (t^2 + p)``
relative to leading order, t the query's distance from the row in bandwidths, and the
interpolation of ln f adds the same order; measured against the direct sum on normal,
lognormal and discretised samples of 5,300 rows and 4,000 held-out queries (the size of one
class cell of a 20,000-row fold): largest ``|ln f_binned - ln f_exact|`` 7.5e-4 at spacing 1/16
(normal), 3.1e-3 at the queries within 2 bandwidths of a training row where a lognormal
tail coarsens the spacing to 1/10 (largest 3.1e-2, at far-tail queries);
tests/estimators/semiparametric/test_factors.py asserts the bound on random data.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.special import logsumexp

from estimators.base.tie_tolerance import first_best
from estimators.columns import EncodedColumns
from estimators.densities.kde import KDE1D, KDE2D, class_kde, scott_factor
from estimators.stats.gaussian import LOG_2PI

_CHUNK = 1 << 22
#: bandwidth factors tried by ``bandwidth="cv"`` (times the normal-reference H)
CV_SCALES = (0.35, 0.5, 0.7, 1.0, 1.4, 2.0)
BANDWIDTHS = ("normal_reference", "scott", "cv")
KERNEL_SUMS = ("binned", "exact")
#: cells of at least this many rows (and at most two dimensions) sum kernels on a grid
BINNED_MIN_ROWS = 500


def bandwidth_factor(rule: str, n: int, p: int) -> float:
    """The factor multiplying Σ̂ in H for a rule of the module docstring.

    Examples
    --------
    >>> round(bandwidth_factor("normal_reference", 100, 1), 6) == round((4 / 300) ** 0.4, 6)
    True
    >>> round(bandwidth_factor("scott", 100, 2), 6) == round(100 ** (-1 / 3), 6)
    True
    """
    if rule == "scott":
        return float(n) ** (-2.0 / (p + 4))
    return (4.0 / ((p + 2) * n)) ** (2.0 / (p + 4))


@dataclass(eq=False)
class KernelCell:
    """The KDE of one cell: data [x_v, x_C] (n, p), ``chol`` of H, ``chol_c`` of H_CC;
    ``binned``: the binned sums of f and f(x_C) (module docstring), None for direct sums."""

    data: np.ndarray
    chol: np.ndarray
    chol_c: np.ndarray | None
    binned: tuple | None = None

    @staticmethod
    def fit(data: np.ndarray, factor: float, floor: np.ndarray,
            kernel_sum: str = "exact") -> KernelCell:
        n, p = data.shape
        cov = np.cov(data, rowvar=False, ddof=1).reshape(p, p) if data.shape[0] > 1 else \
            np.zeros((p, p))
        H = factor * cov
        diag = np.diag(H).copy()
        H = H + np.diag(np.maximum(floor ** 2 - diag, 0.0))
        if p > 1 and floor[0] > 0:  # the conditional kernel of x_v given x_C, floored too
            cond = H[0, 0] - H[0, 1:] @ np.linalg.pinv(H[1:, 1:]) @ H[1:, 0]
            H[0, 0] += max(floor[0] ** 2 - cond, 0.0)
        chol = _cholesky(H)
        chol_c = _cholesky(H[1:, 1:]) if p > 1 else None
        binned = None
        if kernel_sum == "binned" and n >= BINNED_MIN_ROWS and p <= 2:
            binned = (BinnedKernelSum(data, chol),
                      BinnedKernelSum(data[:, 1:], chol_c) if p > 1 else None)
        return KernelCell(data, chol, chol_c, binned)

    def log_conditional(self, q: np.ndarray) -> np.ndarray:
        """``ln f(q) - ln f(q_C)`` for query rows q (r, p)."""
        if self.binned is not None:
            joint, margin = self.binned
            out = joint.logpdf(q)
            return out if margin is None else out - margin.logpdf(q[:, 1:])
        out = _log_kde(q, self.data, self.chol)
        if self.chol_c is not None:
            out = out - _log_kde(q[:, 1:], self.data[:, 1:], self.chol_c)
        return out


def _cholesky(H: np.ndarray) -> np.ndarray:
    """Cholesky factor of H, with a jitter of 1e-12 of its scale added if H is singular."""
    try:
        return np.linalg.cholesky(H)
    except np.linalg.LinAlgError:
        scale = max(float(np.max(np.abs(np.diag(H)))), 1e-300)
        return np.linalg.cholesky(H + 1e-12 * scale * np.eye(H.shape[0]) + 1e-300 * np.eye(H.shape[0]))


def _log_kde(q: np.ndarray, data: np.ndarray, chol: np.ndarray) -> np.ndarray:
    """``ln (1/n) sum_i N(q; data_i, L L^T)`` for each query row (direct kernel sum)."""
    Linv = np.linalg.inv(chol)
    w = data @ Linv.T
    qw = q @ Linv.T
    n, p = data.shape
    const = -np.log(np.abs(np.diag(chol))).sum() - 0.5 * p * LOG_2PI - np.log(n)
    out = np.empty(q.shape[0])
    step = max(1, _CHUNK // max(1, n * p))
    for s in range(0, q.shape[0], step):
        diff = qw[s:s + step, None, :] - w[None, :, :]
        out[s:s + step] = logsumexp(-0.5 * np.einsum("rnk,rnk->rn", diff, diff), axis=1)
    return out + const


class BinnedKernelSum:
    """``ln (1/n) sum_i N(q; data_i, L L^T)`` for p <= 2 columns, binned in the whitened
    coordinates ``L^-1 x`` where the kernel is the identity (module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> data = rng.normal(size=(2000, 2)) @ np.array([[1.0, 0.6], [0.0, 0.8]])
    >>> L = np.linalg.cholesky(np.array([[0.3, 0.1], [0.1, 0.2]]))
    >>> q = data[:50]
    >>> bool(np.abs(BinnedKernelSum(data, L).logpdf(q) - _log_kde(q, data, L)).max() < 1e-3)
    True
    """

    def __init__(self, data: np.ndarray, chol: np.ndarray) -> None:
        self.p = data.shape[1]
        if self.p not in (1, 2):
            raise ValueError(f"BinnedKernelSum sums kernels in 1 or 2 dimensions; got {self.p}.")
        self.whiten = np.linalg.inv(chol).T
        self.log_det = float(np.log(np.abs(np.diag(chol))).sum())
        w = data @ self.whiten
        self.kde = KDE1D(w[:, 0], 1.0) if self.p == 1 else KDE2D(w[:, 0], w[:, 1], (1.0, 1.0))

    def logpdf(self, q: np.ndarray) -> np.ndarray:
        """The log kernel density at the query rows q (r, p)."""
        w = q @ self.whiten
        out = self.kde.logpdf(w[:, 0]) if self.p == 1 else self.kde.logpdf(w[:, 0], w[:, 1])
        return out - self.log_det


@dataclass(eq=False)
class CKDEFactor:
    """``p(x_v | x_C, d, y)`` by conditional KDE (module docstring).

    ``cells[(u, c)]`` is the :class:`KernelCell` of training configuration ``u`` of the
    categorical parents (index into ``configs``) and class c; ``class_cells[c]`` the
    class's pooled cell (unseen configurations, small cells).

    Examples
    --------
    The factors of a TAN with ``continuous="ckde"`` (the categorical feature keeps its
    Bayes-rule factor):

    >>> import numpy as np, pandas as pd
    >>> from estimators import TANClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = pd.DataFrame({"a": rng.exponential(size=300), "b": rng.choice(["u", "v"], 300)})
    >>> X["c"] = np.log1p(X["a"]) + rng.normal(scale=0.3, size=300)
    >>> y = (X["a"] + rng.normal(size=300) > 1).astype(int)
    >>> model = TANClassifier(continuous="ckde").fit(X, y)
    >>> [type(f).__name__ for f in model.network_.factors]
    ['CKDEFactor', 'BayesCategoricalFactor', 'CKDEFactor']
    """

    v: int
    continuous_parents: tuple
    categorical_parents: tuple
    n_classes: int
    radix: np.ndarray
    configs: np.ndarray
    cells: dict
    class_cells: list
    pooled: KDE1D | None = None
    tail: float = 0.0
    n_rows: int = 0
    scale: float = 1.0
    continuous: bool = field(default=True)

    def describe(self, names: list) -> dict:
        """Its parameters for exports: parents, training rows, tail weight, and the
        bandwidth matrix H of each class cell and of each (configuration, class) cell."""
        def h(cell):
            return (cell.chol @ cell.chol.T).tolist()
        return {"kind": "CKDEFactor",
                "categorical_parents": [names[p] for p in self.categorical_parents],
                "continuous_parents": [names[p] for p in self.continuous_parents],
                "n_rows": int(self.n_rows), "tail": float(self.tail),
                "bandwidth_scale": float(self.scale),
                "class_bandwidths": [h(c) for c in self.class_cells],
                "cell_bandwidths": {f"{int(self.configs[u])},{c}": h(cell)
                                    for (u, c), cell in self.cells.items()}}

    @property
    def vertex(self) -> int:
        return self.v

    @property
    def parents(self) -> tuple:
        return (*self.categorical_parents, *self.continuous_parents)

    def _config(self, enc: EncodedColumns) -> np.ndarray:
        code = _configurations(enc.codes[:, list(self.categorical_parents)], self.radix)
        pos = np.minimum(np.searchsorted(self.configs, code), self.configs.size - 1)
        return np.where((code >= 0) & (self.configs[pos] == code), pos, -1)

    def log_prob_at(self, enc: EncodedColumns, classes: np.ndarray) -> np.ndarray:
        """``ln p(x_v | x_pa, y)`` at one class per row (shape (n,)): 0 where x_v is missing,
        NaN where x_v is observed and a parent is not."""
        classes = np.asarray(classes, dtype=np.int64)
        obs = enc.observed
        v_obs = obs[:, self.v]
        p_obs = obs[:, list(self.parents)].all(axis=1) if self.parents else np.ones_like(v_obs)
        out = np.zeros(classes.shape)
        out[v_obs & ~p_obs] = np.nan
        ok = v_obs & p_obs
        if not ok.any():
            return out
        q = enc.values[:, [self.v, *self.continuous_parents]]
        u = self._config(enc)
        key = np.where(u >= 0, u * self.n_classes + classes, -1 - classes)
        for k in np.unique(key[ok]):
            rows = ok & (key == k)
            cell = (self.cells.get((k // self.n_classes, k % self.n_classes))
                    if k >= 0 else None) or self.class_cells[
                        k % self.n_classes if k >= 0 else -1 - k]
            out[rows] = cell.log_conditional(q[rows])
        if self.tail > 0.0 and self.pooled is not None:
            x = enc.values[ok, self.v]
            out[ok] = np.logaddexp(np.log1p(-self.tail) + out[ok],
                                   np.log(self.tail) + self.pooled.logpdf(x))
        return out

    def log_prob(self, enc: EncodedColumns) -> np.ndarray:
        """``ln p(x_v | x_pa, y)`` for every row and class, shape (n, n_classes)."""
        n = enc.codes.shape[0]
        return np.column_stack([self.log_prob_at(enc, np.full(n, c))
                                for c in range(self.n_classes)])


def _configurations(codes: np.ndarray, radix: np.ndarray) -> np.ndarray:
    """Mixed-radix code of each row's categorical parent values (-1 if any is missing)."""
    if codes.shape[1] == 0:
        return np.zeros(codes.shape[0], np.int64)
    code = np.zeros(codes.shape[0], np.int64)
    for j in range(codes.shape[1]):
        code = code * int(radix[j]) + codes[:, j]
    return np.where((codes >= 0).all(axis=1), code, -1)


def fit_ckde_factor(enc: EncodedColumns, y: np.ndarray, n_classes: int, v: int, parents=(),
                    *, bandwidth: str = "normal_reference", bw_floor: float = 0.0,
                    tail: float = 0.0, min_cell_rows: int = 5,
                    scale: float = 1.0, rows: np.ndarray | None = None,
                    kernel_sum: str = "binned") -> CKDEFactor:
    """Fit the CKDE factor of continuous column v given ``parents`` on the complete rows of
    (v, parents) (among ``rows`` when given; ``scale`` multiplies H; ``kernel_sum`` of
    :data:`KERNEL_SUMS`, the module docstring).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from estimators.columns import MixedEncoder
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=200)
    >>> enc = MixedEncoder().fit_transform(pd.DataFrame({"a": x, "b": x ** 2 + rng.normal(size=200)}))
    >>> f = fit_ckde_factor(enc, np.zeros(200, int), 1, v=1, parents=[0])
    >>> f.log_prob(enc).shape
    (200, 1)
    """
    if bandwidth not in BANDWIDTHS:
        raise ValueError(f"bandwidth must be one of {BANDWIDTHS}; got {bandwidth!r}.")
    if kernel_sum not in KERNEL_SUMS:
        raise ValueError(f"kernel_sum must be one of {KERNEL_SUMS}; got {kernel_sum!r}.")
    y = np.asarray(y)
    if bandwidth == "cv":
        scale = _cv_scale(enc, y, n_classes, v, parents, bw_floor, tail, min_cell_rows, rows,
                          kernel_sum)
        bandwidth = "normal_reference"
    parents = tuple(int(p) for p in parents)
    C = tuple(p for p in parents if enc.continuous[p])
    D = tuple(p for p in parents if not enc.continuous[p])
    cols = [v, *C]
    ok = enc.observed[:, [v, *parents]].all(axis=1)
    if rows is not None:
        ok &= np.isin(np.arange(ok.size), rows)
    values = enc.values[ok][:, cols]
    yy = y[ok]
    with np.errstate(invalid="ignore"):
        sd = np.nanstd(enc.values[:, cols], axis=0)
    floor = bw_floor * np.where(np.isfinite(sd) & (sd > 0), sd, 1.0)
    radix = enc.n_levels[list(D)]
    code = _configurations(enc.codes[ok][:, list(D)], radix)
    configs = np.unique(code) if code.size else np.zeros(1, np.int64)
    if configs.size == 0:
        configs = np.zeros(1, np.int64)
    need = max(min_cell_rows, len(cols) + 1)

    def cell(data):
        return KernelCell.fit(data, scale * bandwidth_factor(bandwidth, data.shape[0],
                                                             len(cols)), floor, kernel_sum)

    class_cells = [values[yy == c] for c in range(n_classes)]
    if any(mine.shape[0] < need for mine in class_cells):  # a small class: every row's cell
        everything = cell(values) if values.shape[0] >= 2 else KernelCell.fit(
            np.zeros((1, len(cols))), 1.0, np.maximum(floor, 1.0))
    class_cells = [cell(mine) if mine.shape[0] >= need else everything
                   for mine in class_cells]
    cells = {}
    if D:
        u = np.searchsorted(configs, code)
        for uu in range(configs.size):
            for c in range(n_classes):
                mine = values[(u == uu) & (yy == c)]
                if mine.shape[0] >= need:
                    cells[(uu, c)] = cell(mine)
    pooled = None
    if tail > 0.0:
        x = enc.values[:, v] if rows is None else enc.values[np.asarray(rows), v]
        x = x[np.isfinite(x)]  # the training rows only (held-out rows stay out of kernels)
        pooled = class_kde(x, np.arange(x.size), scott_factor(max(x.size, 2), 1), floor[0])
    return CKDEFactor(v, C, D, n_classes, radix, configs, cells, class_cells, pooled, tail,
                      int(values.shape[0]), float(scale))


def _cv_scale(enc, y, n_classes, v, parents, bw_floor, tail, min_cell_rows, rows,
              kernel_sum: str = "exact", folds: int = 5) -> float:
    """The factor of :data:`CV_SCALES` with the largest cross-validated log-likelihood."""
    ok = enc.observed[:, [v, *parents]].all(axis=1)
    idx = np.flatnonzero(ok) if rows is None else np.intersect1d(np.flatnonzero(ok), rows)
    if idx.size < 2 * folds:
        return 1.0
    fold = np.random.default_rng(0).permutation(idx.size) % folds
    totals = []
    for s in CV_SCALES:
        total = 0.0
        for k in range(folds):
            f = fit_ckde_factor(enc, y, n_classes, v, parents, bw_floor=bw_floor, tail=tail,
                                min_cell_rows=min_cell_rows, scale=s, rows=idx[fold != k],
                                kernel_sum=kernel_sum)
            test = enc.take(idx[fold == k])
            total += float(f.log_prob_at(test, y[idx[fold == k]]).sum())
        totals.append(total)
    return float(CV_SCALES[first_best(totals)])  # ties (TIE_RTOL): the first scale
