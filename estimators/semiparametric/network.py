"""A k-TAN network whose continuous factors are Gaussian, copula or CKDE (MATH.md §11).

``continuous=`` of TAN / k-TAN (and of every family fitted through
:func:`fit_semiparametric_network`) is a :class:`Semiparametric` spec or its ``kind``:

* ``"gaussian"``: the conditional Gaussian network of MATH.md §7 (the default; fitted by
  :func:`estimators.network.model.fit_network`, not here);
* ``"copula"``: every factor is a :class:`~estimators.semiparametric.copula_factor.CopulaFactor`
  (the CG network in class-conditional normal scores, kernel margins);
* ``"ckde"``: continuous vertices get :class:`~estimators.semiparametric.ckde.CKDEFactor`,
  categorical ones the CG factor;
* ``"auto"``: each vertex takes the kind (gaussian, copula, for a continuous vertex ckde,
  or class-free: ``p(x_v | x_pa)`` the same in every class) that maximises the
  ``folds``-fold out-of-fold conditional log-likelihood of the class, by coordinate ascent
  from each vertex's best held-out density (:mod:`estimators.semiparametric.selection`:
  the objective, and why not the held-out density alone). Each fold refits everything the
  factor depends on (margins too), so the held-out rows never enter a kernel they are
  scored by.

**Structure score** (all three non-Gaussian kinds): the conditional Gaussian score of
MATH.md §7 on the training normal scores, i.e. on continuous data the Gaussian CMI of the
normal scores, MATH.md §1 "Gaussian copula" and §11. Why this one:

1. it is the training log-likelihood gain of the copula factor itself, so for ``"copula"``
   every searcher maximises the likelihood of the model that then classifies (as §7 asks of
   the Gaussian score);
2. it is rank-based, so skewed, heavy-tailed or zero-inflated margins do not distort it
   (the Gaussian CMI of the raw values does: one outlier moves a correlation);
3. it is consistent for a lower bound of the true CMI, with equality for a Gaussian copula:
   z_v is marginally N(0, 1) in every class, and for fixed second moments the Gaussian has
   the largest conditional entropy, so ``H(z_v | z_C, y) <= ½ ln(2 pi e s2_{v|C,y})`` and
   ``I(x_v; x_C | y) = I(z_v; z_C | y) >= -½ ln(s2_{v|C,y})``, the plug-in of which is the
   score. A cross-validated CKDE likelihood gain would estimate I itself but costs a kernel
   fit per (vertex, parent set) candidate: d^2 for TAN, d^3 for 2-TAN, each O(n^2).

**Prediction.** Complete rows: ``ln p(y) + w sum_v ln p(x_v | x_pa, y)``, w the evidence
weight of :mod:`estimators.semiparametric.calibration` (``calibrate=True``, the default: the
maximiser of the training rows' out-of-fold conditional log-likelihood, the structure and
kinds fixed; ``calibrate=False``: w = 1). Measured on the benchmark's folds (500 rows, TAN /
2-TAN "auto"): oj fold weights 0.34-0.61 and log-loss / LR 1.26 -> 1.18 (TAN), 1.43 ->
1.24 (2-TAN); heart_failure 2-TAN 1.28 -> 1.16; winequality_red 2-TAN 1.22 -> 1.09. On oj
2-TAN the weight fitted on each test fold itself (a diagnostic, never used) gives 1.23: the
rest of the gap was ranking, not calibration (these numbers are from the per-node
density choice alone; the class-free option of :mod:`.selection` then closed that ranking
gap, benchmarks/results/semiparametric.md). Missing cells:
an all-copula network marginalises exactly in z-space (Gaussian algebra per class, plus the
Gauss–Hermite rule of :mod:`estimators.marginal.mixed` only where a missing continuous cell
has a categorical descendant, as for ``"gaussian"``); any other mix uses the grid engine
:func:`estimators.marginal.grid.grid_log_marginal`: the trapezoid rule on a regular grid
over ``[min - 8 S, max + 8 S]`` of the training values with spacing ``s / 4``, s the
smallest and S the largest scale on which v's factors vary (kernel bandwidths, the
Gaussian residual sd, sd(x_v) / 5), at most 256 nodes. Error bound: for an integrand that
is a mixture of Gaussians of sd in [s, S] centred within the data's range, the trapezoid
rule with spacing s / 4 has relative error ``<= 2 exp(-2 pi^2 16) ~ 1e-137`` (the
Poisson-summation bound) and the truncation 8 S beyond the data ``<= erfc(8 / sqrt 2) ~
1.2e-15``; the 256-node cap coarsens the spacing for a column spanning more than ~64 of its
smallest scales, and the bound then grows as ``exp(-2 pi^2 (s / spacing)^2)``; a
copula factor is such a mixture only approximately (the normal-score transform bends it).
A factor whose family has several missing continuous cells is a table of the product of
their node counts per row and class (256^2 for two, each node a kernel sum over the cell's
training rows: 112 s for the 66 incomplete test rows of one helpmiss 2-TAN CKDE fold); in
a missing pattern where that product exceeds :data:`MAX_FAMILY_CELLS` (64^2), the largest
rule of the family is halved (same interval) until it fits
(:func:`estimators.marginal.grid.coarsened`), the bound above with the coarser spacing.
Measured: two missing parents of an observed child, error against a 301^2 brute force
3.7e-6 at 64^2 (2.6e-6 uncapped, 1.7e-5 at 32^2, 7.9e-3 at 16^2;
tests/estimators/semiparametric/test_marginal.py); helpmiss 2-TAN CKDE fold 1: 8.4 s instead
of 112 s, largest change of ln p(x_O | y) 2.3e-4, of p(y | x_O) 4.2e-6. The measured error against brute-force quadrature is in
tests/estimators/semiparametric/test_marginal.py and benchmarks/results/semiparametric.md.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from estimators.columns import EncodedColumns
from estimators.marginal import cg_log_marginal
from estimators.marginal.grid import grid_log_marginal
from estimators.network.fitting import fit_cg_factor
from estimators.network.model import CGNetwork, fit_network
from estimators.semiparametric._margins import ClassMargins
from estimators.semiparametric.calibration import evidence_weight
from estimators.semiparametric.ckde import BANDWIDTHS, KERNEL_SUMS, fit_ckde_factor
from estimators.semiparametric.copula_factor import fit_copula_factor
from estimators.semiparametric.grids import factor_scales, rule_grids
from estimators.semiparametric.selection import (
    CLASS_FREE,
    ClassFreeFactor,
    choose_kinds,
    out_of_fold_table,
)

KINDS = ("gaussian", "copula", "ckde", "auto")
#: most nodes of one factor's table per row (the family's summed continuous cells)
MAX_FAMILY_CELLS = 1 << 12


@dataclass(frozen=True)
class Semiparametric:
    """How continuous factors are modelled (module docstring).

    Parameters
    ----------
    kind : {"gaussian", "copula", "ckde", "auto"}, default="auto"
    bandwidth : {"normal_reference", "scott", "cv"}, default="normal_reference"
        The CKDE bandwidth rule (:mod:`estimators.semiparametric.ckde`).
    bw_floor : float, default=0.5
        Kernel bandwidths (and the CKDE's conditional kernel) at least this times the
        column's sd; residual variances get ``(bw_floor sd)^2`` added (z-space: sd 1).
    tail : float, default=0.1
        Weight of the class-independent pooled KDE in every kernel margin and CKDE factor.
    folds : int, default=5
        Folds of the ``"auto"`` choice and of the evidence weight.
    calibrate : bool, default=True
        Weight the features' log-likelihood in the class posterior by the out-of-fold
        maximiser of the training rows' conditional log-likelihood
        (:mod:`estimators.semiparametric.calibration`); False: weight 1.
    kernel_sum : {"binned", "exact"}, default="binned"
        How the CKDE's kernel sums are evaluated: on a grid for cells of at least
        :data:`~estimators.semiparametric.ckde.BINNED_MIN_ROWS` rows and two dimensions
        at most (a stated error bound), or always directly
        (:mod:`estimators.semiparametric.ckde`).

    Examples
    --------
    >>> Semiparametric("ckde", bandwidth="cv").kind
    'ckde'
    >>> Semiparametric("kde")
    Traceback (most recent call last):
    ...
    ValueError: continuous must be one of ('gaussian', 'copula', 'ckde', 'auto'); got 'kde'.
    """

    kind: str = "auto"
    bandwidth: str = "normal_reference"
    bw_floor: float = 0.5
    tail: float = 0.1
    folds: int = 5
    calibrate: bool = True
    kernel_sum: str = "binned"

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"continuous must be one of {KINDS}; got {self.kind!r}.")
        if self.bandwidth not in BANDWIDTHS:
            raise ValueError(f"bandwidth must be one of {BANDWIDTHS}; got {self.bandwidth!r}.")
        if self.kernel_sum not in KERNEL_SUMS:
            raise ValueError(f"kernel_sum must be one of {KERNEL_SUMS}; got "
                             f"{self.kernel_sum!r}.")
        if not 0.0 <= self.tail < 1.0:
            raise ValueError(f"tail must be in [0, 1); got {self.tail!r}.")
        if not self.bw_floor >= 0.0:
            raise ValueError(f"bw_floor must be >= 0; got {self.bw_floor!r}.")
        if not isinstance(self.calibrate, (bool, np.bool_)):
            raise TypeError(f"calibrate must be True or False; got {self.calibrate!r}.")
        if int(self.folds) < 2:
            raise ValueError(f"folds must be at least 2; got {self.folds!r}.")


def as_spec(continuous) -> Semiparametric:
    """A :class:`Semiparametric` from a kind name or a spec (``TypeError`` otherwise).

    Examples
    --------
    >>> from estimators.semiparametric import Semiparametric, as_spec
    >>> as_spec("copula").kind, as_spec(Semiparametric("ckde", tail=0.2)).tail
    ('copula', 0.2)
    >>> as_spec(3)
    Traceback (most recent call last):
    ...
    TypeError: continuous must be 'gaussian', 'copula', 'ckde', 'auto' or a Semiparametric; got int.
    """
    if isinstance(continuous, Semiparametric):
        return continuous
    if isinstance(continuous, str):
        return Semiparametric(continuous)
    raise TypeError("continuous must be 'gaussian', 'copula', 'ckde', 'auto' or a "
                    f"Semiparametric; got {type(continuous).__name__}.")


@dataclass(frozen=True, eq=False)
class SemiparametricNetwork:
    """The factors of the modelled features (the layout of
    :class:`estimators.network.model.CGNetwork`), each one's ``kinds[i]``, and the weight
    of their log-likelihood in the class posterior (:mod:`.calibration`).

    Examples
    --------
    The ``network_`` of a TAN with a non-Gaussian ``continuous=`` (three columns of wine):

    >>> from estimators import TANClassifier, load_dataset
    >>> X, y = load_dataset("wine")
    >>> network = TANClassifier(continuous="copula").fit(X.iloc[:, :3], y).network_
    >>> type(network).__name__, network.kinds, type(network.margins).__name__
    ('SemiparametricNetwork', ('copula', 'copula', 'copula'), 'ClassMargins')
    >>> len(network.columns), network.parents[0], bool(network.weight > 0)
    (3, (), True)
    """

    columns: tuple
    parents: tuple
    factors: tuple
    kinds: tuple
    margins: ClassMargins | None
    grids: dict
    weight: float = 1.0

    def log_likelihood(self, enc: EncodedColumns) -> np.ndarray:
        """``sum_v ln p(x_v | x_pa(v), y)`` per row and class."""
        return sum(f.log_prob(enc) for f in self.factors)

    def joint_log_likelihood(self, enc: EncodedColumns, class_log_prior: np.ndarray
                             ) -> np.ndarray:
        """``ln p(y) + w ln p(x_O | y)`` per row and class, w the evidence weight
        (:mod:`.calibration`; 1 uncalibrated); missing cells marginalised
        (:meth:`log_marginal`)."""
        prior = np.asarray(class_log_prior, dtype=float)
        return self.weight * self.feature_log_likelihood(enc, prior.size) + prior

    def feature_log_likelihood(self, enc: EncodedColumns, n_classes: int) -> np.ndarray:
        """``ln p(x_O | y)`` per row and class, missing cells marginalised."""
        missing = ~enc.observed[:, list(self.columns)]
        incomplete = missing.any(axis=1)
        out = np.empty((enc.codes.shape[0], n_classes))
        if (~incomplete).any():
            out[~incomplete] = self.log_likelihood(enc.take(~incomplete))
        if incomplete.any():
            out[incomplete] = self.log_marginal(enc.take(incomplete), np.zeros(n_classes))
        return out

    def log_marginal(self, enc: EncodedColumns, class_log_prior: np.ndarray) -> np.ndarray:
        """``ln p(y, x_O)`` with the missing modelled cells integrated out (module
        docstring: z-space algebra for an all-copula network, else the grid engine)."""
        prior = np.asarray(class_log_prior, dtype=float)
        if all(k == "copula" for k in self.kinds):
            inner = CGNetwork(self.columns, self.parents,
                              tuple(f.inner for f in self.factors)).marginal_factors
            cols = sorted(self.columns)
            missing = ~enc.observed[:, cols]
            out = np.empty((enc.codes.shape[0], prior.size))
            for c in range(prior.size):
                z = self.margins.transform(enc, c)
                X = np.where(z.continuous[cols], z.values[:, cols], z.codes[:, cols])
                out[:, c] = cg_log_marginal(inner, prior, X, missing)[:, c]
                for v in cols:
                    if enc.continuous[v]:
                        out[:, c] += self.margins.log_jacobian(enc, v, c)
            return out
        by_vertex = dict(zip(self.columns, self.factors, strict=True))
        order = list(zip(self.columns, self.parents, strict=True))
        return grid_log_marginal(enc, order, lambda v, ps: by_vertex[v], prior.size,
                                 self.grids, max_family_cells=MAX_FAMILY_CELLS) + prior


def _kinds_for(enc: EncodedColumns, v: int, parents, kind: str) -> tuple:
    """The candidate kinds of vertex v (one unless ``kind == "auto"``)."""
    cont_parents = any(enc.continuous[p] for p in parents)
    if kind == "auto":
        if enc.continuous[v]:
            return ("gaussian", "copula", "ckde", CLASS_FREE)
        return ("gaussian", "copula", CLASS_FREE) if cont_parents else ("gaussian", CLASS_FREE)
    if kind == "ckde" and not enc.continuous[v]:
        return ("gaussian",)
    return (kind,)


class _Fitter:
    """Fits one vertex's factor of a given kind on a subset of rows.

    The copula's class margins of a subset of rows are fitted once for every continuous
    column of ``columns`` (each column's margins depend on its own values only), with the
    training normal scores under them, and reused by every vertex fitted on those rows (the
    folds of the ``"auto"`` choice)."""

    def __init__(self, enc, y, n_classes, spec, *, alpha, var_smoothing, min_cell_rows,
                 columns=()):
        self.enc, self.y, self.m, self.spec = enc, np.asarray(y), n_classes, spec
        self.alpha, self.var_smoothing, self.min_cell_rows = alpha, var_smoothing, min_cell_rows
        self.continuous = [int(v) for v in columns if enc.continuous[v]]
        self._margins: dict = {}
        self._rows: dict = {}
        self.sd = np.ones(enc.values.shape[1])
        for j in np.flatnonzero(enc.continuous):
            x = enc.values[:, j]
            x = x[np.isfinite(x)]
            self.sd[j] = float(np.std(x)) if x.size else 1.0

    def take(self, rows) -> EncodedColumns:
        """``enc.take(rows)``, cached per set of rows (the folds' tables)."""
        if rows is None:
            return self.enc
        key = np.asarray(rows).tobytes()
        if key not in self._rows:
            self._rows[key] = self.enc.take(rows)
        return self._rows[key]

    def var_floor(self, v: int) -> float:
        sd = self.sd[v] if np.isfinite(self.sd[v]) and self.sd[v] > 0 else 1.0
        return float((self.spec.bw_floor * sd) ** 2)

    def fit(self, kind, v, parents, rows=None, margins=None, z_train=None):
        enc, y = self.enc, self.y
        if kind == CLASS_FREE:
            sub = self.take(rows)
            inner = fit_cg_factor(sub, np.zeros(sub.codes.shape[0], np.int64), 1, v, parents,
                                  alpha=self.alpha, var_smoothing=self.var_smoothing,
                                  ridge=0.0, min_cell_rows=self.min_cell_rows,
                                  var_floor=self.var_floor(v) if enc.continuous[v] else None,
                                  shrink=not sub.observed[:, [v, *parents]].all())
            return ClassFreeFactor(inner, self.m)
        if kind == "gaussian":
            sub, yy = self.take(rows), (y if rows is None else y[rows])
            return fit_cg_factor(sub, yy, self.m, v, parents, alpha=self.alpha,
                                 var_smoothing=self.var_smoothing, ridge=0.0,
                                 min_cell_rows=self.min_cell_rows,
                                 var_floor=self.var_floor(v) if enc.continuous[v] else None,
                                 shrink=not sub.observed[:, [v, *parents]].all())
        if kind == "ckde":
            return fit_ckde_factor(enc, y, self.m, v, parents, bandwidth=self.spec.bandwidth,
                                   bw_floor=self.spec.bw_floor, tail=self.spec.tail,
                                   min_cell_rows=self.min_cell_rows, rows=rows,
                                   kernel_sum=self.spec.kernel_sum)
        if margins is None:
            margins, z_train = self.margins(rows, [v, *parents])
        return fit_copula_factor(enc, z_train, y, self.m, v, parents, margins,
                                 alpha=self.alpha, bw_floor=self.spec.bw_floor,
                                 min_cell_rows=self.min_cell_rows, rows=rows)

    def margins(self, rows, family) -> tuple:
        """``(margins, z_train)``: the class margins fitted on ``rows`` (all when None) of
        every continuous column of the network (of ``family`` when it has others) and the
        training normal scores under them; cached per set of rows."""
        enc, y = self.enc, self.y
        cols = sorted({*self.continuous, *(u for u in family if enc.continuous[u])})
        key = (None if rows is None else np.asarray(rows).tobytes(), tuple(cols))
        if key not in self._margins:
            sub, yy = self.take(rows), (y if rows is None else y[rows])
            margins = ClassMargins(sub, yy, self.m, cols, bw_floor=self.spec.bw_floor,
                                   tail=self.spec.tail)
            self._margins[key] = (margins, margins.training_scores(enc, y))
        return self._margins[key]


def fit_semiparametric_network(enc: EncodedColumns, y: np.ndarray, n_classes: int, columns,
                               parents, spec: Semiparametric, *, alpha: float,
                               var_smoothing: float, min_cell_rows: int,
                               margins: ClassMargins | None = None) -> SemiparametricNetwork:
    """Fit every modelled column's factor of the kind ``spec`` asks for (``"auto"``: chosen
    per vertex by cross-validation), on its available cases.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from estimators.columns import MixedEncoder
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 300)
    >>> a = rng.gamma(1 + y, size=300)
    >>> enc = MixedEncoder().fit_transform(pd.DataFrame({"a": a, "b": a + rng.normal(size=300)}))
    >>> net = fit_semiparametric_network(enc, y, 2, (0, 1), ((), (0,)), Semiparametric("copula"),
    ...                                  alpha=1.0, var_smoothing=1e-9, min_cell_rows=5)
    >>> net.kinds, net.log_likelihood(enc).shape
    (('copula', 'copula'), (300, 2))
    """
    columns = tuple(int(v) for v in columns)
    parents = tuple(tuple(sorted(int(p) for p in pa)) for pa in parents)
    y = np.asarray(y)
    fitter = _Fitter(enc, y, n_classes, spec, alpha=alpha, var_smoothing=var_smoothing,
                     min_cell_rows=min_cell_rows, columns=columns)
    counts = np.bincount(y, minlength=n_classes).astype(float)
    with np.errstate(divide="ignore"):
        log_prior = np.log(counts / counts.sum())
    options = [_kinds_for(enc, v, pa, spec.kind) for v, pa in zip(columns, parents, strict=True)]
    tables = None
    if spec.kind == "auto":
        tables = [{k: out_of_fold_table(fitter, k, v, pa, int(spec.folds)) for k in opts}
                  for v, pa, opts in zip(columns, parents, options, strict=True)]
        kinds = choose_kinds(tables, y, log_prior, calibrate=bool(spec.calibrate))
    else:
        kinds = tuple(opts[0] for opts in options)
    net = _fit_kinds(fitter, columns, parents, kinds, margins)
    if not spec.calibrate:
        return net
    if tables is not None and y.size >= 2 * int(spec.folds) and \
            enc.observed[:, list(columns)].all():
        # Every family complete: the choice's folds are those of _out_of_fold and its
        # tables the same fits, so the network's out-of-fold ln p(x | y) is their sum (a
        # class-free factor's table is 0, its ln p(x_v | x_pa) the same in every class,
        # which cancels in the weight's objective).
        loglik = sum(t[k] for t, k in zip(tables, kinds, strict=True))
    else:
        loglik = _out_of_fold(fitter, columns, parents, kinds)
    return replace(net, weight=evidence_weight(loglik, y, log_prior))


def _fit_kinds(fitter: _Fitter, columns, parents, kinds, margins=None, rows=None
               ) -> SemiparametricNetwork:
    """The network of the given kinds fitted on ``rows`` (all when None); the copula
    margins are ``margins`` or fitted on those rows."""
    enc, y = fitter.enc, fitter.y
    cont = [v for v in columns if enc.continuous[v]]
    sub = fitter.take(rows)
    if margins is None and "copula" in kinds:
        margins, z_train = fitter.margins(rows, ())
    else:
        z_train = margins.training_scores(enc, y) if margins is not None else None
    factors = tuple(fitter.fit(kind, v, pa, rows=rows, margins=margins, z_train=z_train)
                    for kind, v, pa in zip(kinds, columns, parents, strict=True))
    grids = rule_grids(sub, factor_scales(factors, margins, cont))
    return SemiparametricNetwork(columns, parents, factors, tuple(kinds), margins, grids)


def _out_of_fold(fitter: _Fitter, columns, parents, kinds) -> np.ndarray:
    """``ln p(x_i | y)`` of every training row and class from the network of the same
    structure and kinds fitted without the row's fold (``spec.folds`` folds)."""
    n, m = fitter.y.size, fitter.m
    folds = int(fitter.spec.folds)
    out = np.full((n, m), np.nan)
    if n < 2 * folds:
        return out
    fold = np.random.default_rng(0).permutation(n) % folds
    for k in range(folds):
        train, test = np.flatnonzero(fold != k), np.flatnonzero(fold == k)
        net = _fit_kinds(fitter, columns, parents, kinds, rows=train)
        out[test] = net.feature_log_likelihood(fitter.take(test), m)
    return out


def normal_score_table(enc: EncodedColumns, y: np.ndarray, n_classes: int, columns,
                       continuous, *, parameters="generative"):
    """``(spec, margins, table)`` for a classifier's ``continuous=``: with ``"gaussian"``
    ``(spec, None, enc)``; otherwise the class margins of the continuous ``columns`` and the
    training table in normal scores, on which the structure score is the copula's CMI
    (module docstring). A ``ValueError`` for ``parameters`` other than generative with a
    non-Gaussian kind (the discriminative cells are those of MATH.md §10).

    Examples
    --------
    With ``"gaussian"`` the table is returned as it is; otherwise in class-wise normal scores
    (two columns of wine, classes coded 0 .. 2):

    >>> from estimators import load_dataset
    >>> from estimators.columns import MixedEncoder
    >>> X, y = load_dataset("wine")
    >>> enc, codes = MixedEncoder().fit_transform(X.iloc[:, :2]), y.to_numpy() - 1
    >>> normal_score_table(enc, codes, 3, [0, 1], "gaussian")[2] is enc
    True
    >>> spec, margins, table = normal_score_table(enc, codes, 3, [0, 1], "copula")
    >>> spec.kind, type(margins).__name__, table.values.shape
    ('copula', 'ClassMargins', (178, 2))
    """
    spec = as_spec(continuous)
    if spec.kind == "gaussian":
        return spec, None, enc
    if parameters not in ("generative", "hdp"):  # "hdp": generative tables
        raise ValueError(f"continuous={spec.kind!r} is generative only: "
                         "parameters='discriminative' refits conditional Gaussian cells "
                         "(MATH.md §10); use continuous='gaussian' with it.")
    margins = ClassMargins(enc, y, n_classes, [j for j in columns if enc.continuous[j]],
                           bw_floor=spec.bw_floor, tail=spec.tail)
    return spec, margins, margins.training_scores(enc, y)


def fit_continuous_network(enc: EncodedColumns, y: np.ndarray, n_classes: int, columns,
                           parents, continuous, *, alpha: float, var_smoothing: float,
                           min_cell_rows: int, ess: float | None = None,
                           margins: ClassMargins | None = None):
    """The factors of a Bayesian-network classifier on its structure, the shared fitting
    path of ``continuous=``: :func:`estimators.network.model.fit_network` (conditional
    Gaussian, ``ess`` its BDeu-style pseudo-counts) for ``"gaussian"``, else
    :func:`fit_semiparametric_network` (``margins`` from :func:`normal_score_table`).

    Examples
    --------
    The chain 0 -> 1 with Gaussian factors (a :class:`~estimators.network.model.CGNetwork`)
    or copula factors on the normal scores' margins:

    >>> import numpy as np
    >>> from estimators.columns import MixedEncoder
    >>> from estimators.semiparametric import fit_continuous_network, normal_score_table
    >>> rng = np.random.default_rng(0)
    >>> X = rng.exponential(size=(300, 2))
    >>> X[:, 1] += X[:, 0]
    >>> y = (X[:, 0] + rng.normal(size=300) > 1).astype(int)
    >>> enc = MixedEncoder().fit_transform(X)
    >>> options = dict(alpha=1.0, var_smoothing=1e-9, min_cell_rows=5)
    >>> type(fit_continuous_network(enc, y, 2, [0, 1], [[], [0]], "gaussian", **options)).__name__
    'CGNetwork'
    >>> _, margins, _ = normal_score_table(enc, y, 2, [0, 1], "copula")
    >>> network = fit_continuous_network(enc, y, 2, [0, 1], [[], [0]], "copula", margins=margins,
    ...                                  **options)
    >>> type(network).__name__, network.kinds
    ('SemiparametricNetwork', ('copula', 'copula'))
    """
    spec = as_spec(continuous)
    if spec.kind == "gaussian":
        return fit_network(enc, y, n_classes, columns, parents, alpha=alpha, ess=ess,
                           var_smoothing=var_smoothing, ridge=0.0, min_cell_rows=min_cell_rows)
    return fit_semiparametric_network(enc, y, n_classes, columns, parents, spec, alpha=alpha,
                                      var_smoothing=var_smoothing,
                                      min_cell_rows=min_cell_rows, margins=margins)


CATEGORICAL = "categorical"


def factor_kinds(network, names, continuous) -> dict:
    """Feature name -> the kind of its factor: "gaussian", "copula", "ckde" or
    "class-free", and "categorical" for a categorical feature's class-conditional table
    (the kind "gaussian" of a categorical vertex: a CPT given its parents and the class).

    ``continuous[v]`` says whether column v is continuous (``EncodedColumns.continuous``).

    Examples
    --------
    What a fitted TAN reports as ``factor_kinds_``:

    >>> import numpy as np, pandas as pd
    >>> from estimators import TANClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = pd.DataFrame({"a": rng.normal(size=200), "b": rng.choice(["u", "v"], 200)})
    >>> y = (X["a"] + rng.normal(size=200) > 0).astype(int)
    >>> model = TANClassifier().fit(X, y)
    >>> factor_kinds(model.network_, ["a", "b"], np.array([True, False]))
    {'a': 'gaussian', 'b': 'categorical'}
    """
    kinds = getattr(network, "kinds", None) or ("gaussian",) * len(network.columns)
    return {names[v]: CATEGORICAL if k == "gaussian" and not continuous[v] else k
            for v, k in zip(network.columns, kinds, strict=True)}
