"""Discriminative parameters on a fixed structure (MATH.md §10, and where it goes beyond).

A classifier fitted generatively has factors ``p_f = p(x_v | x_pa(v), y)`` and the joint
``ln p(y, x_O)`` (missing cells marginalised exactly, MATH.md §8). With
``parameters="discriminative"`` the template (:mod:`estimators.template.joint_likelihood`) then fits the
scores

    s_y(x) = o_y(x) + b_y + Σ_{f active on x} w_{f,y}ᵀ φ_f(x)

by maximising the L2-penalised conditional log-likelihood (:mod:`._cll`, L-BFGS), where a
family is *active* on a row when its vertex and parents are observed (and its parent cell
was seen in training). Two choices, fixed by :class:`Discriminative`:

``form``
    ``"cells"``: φ_f are the log-linear features of :mod:`._design` (CPT cells given parents
    and class; degree <= 2 monomials of the continuous variables per categorical parent
    cell) -- logistic regression over the structure's cells. ``"weights"``: φ_f is the
    generative log-factor itself, ``ln p_f(x | y)``, one weight per family and class
    (WANBIA-C).

``scale`` (the hierarchy of the cells; ``form="cells"`` only)
    ``None``: the cells alone, one penalty on all (the flat parameterisation: for naive
    Bayes, logistic regression on the cells). A number ``s`` (or ``"auto"``: chosen by inner
    CV from :data:`._select.SCALE_GRID`): logistic regression's own features -- the one-hot
    cells of every categorical feature and the standardised value ``z`` of every continuous
    one -- are columns of their own, and every other cell (a CPT's cells given parents, the
    quadratic and cross terms of the continuous families) enters multiplied by ``s``, so
    that its weight is penalised by ``λ / s²``: the structure's terms are shrunk towards the
    logistic regression of the same features (s -> 0) rather than towards nothing. The
    model class is unchanged (the main effects are sums of cells); what changes is the
    prior. Measured (``benchmarks/results/discriminative.md``, the rows ``tan
    (discriminative)`` and ``tan (discriminative, flat)``): the flat TAN overfits where its
    interactions or class-specific variances are not supported by the rows, and the
    hierarchy recovers it (accuracy at or above the LR pipeline's on 14 of 18 tables
    against 10, log-loss at or below it on 11 against 6). One cause is the quadratic
    terms alone: on the same folds, scikit-learn's LR pipeline with ``[z, z²]`` in place
    of ``z`` drops from 0.839 to 0.813 on heart_failure (a check made while building this,
    not a benchmark row).

``centre`` (what the penalty ``(λ/2)‖w‖²`` shrinks towards, and the start of L-BFGS)
    ``"zero"`` (default): ``o_y(x) = ln p(y, x_O) - Σ_{f active} ln p_f(x | y)`` and ``w``
    the full log-linear weights, started at the generative ones
    (:func:`._design.generative_weights` for cells, 1 for weights; 0 on the main effects).
    On complete rows ``o`` is ``ln p(y)``, absorbed by the bias: this is exactly MATH.md
    §10's CLL, and for naive Bayes with ``scale=None`` it is scikit-learn's multinomial
    ``LogisticRegression(C = 1/λ)`` on one-hot (categorical) or ``[z, z²]`` (continuous)
    features. ``"generative"``: ``o_y(x) = ln p(y, x_O)``, the generative model itself, and
    ``w`` the *correction* to it (0 at the start): the penalty shrinks towards the generative
    parameters instead of towards zero, so the fitted CLL is never below the generative one
    (``CLL(w*) >= CLL(0) + (λ/2)‖w*‖²``). ``"auto"``: chosen with λ. Measured on the 18
    tables, inner CV picked the generative centre on a few categorical tables only, with
    the same outer accuracy as the zero centre (within 0.004) at twice the fit time: the
    default is ``"zero"``.

**Missing cells and unseen parent cells** (the scheme; beyond §10, which names it for the
weighted form only). Every family is discriminative where it is active and generative where
it is not: ``o`` holds the exact generative marginal of the inactive families. For
``centre="zero"``, ``ln p(y, x_O) - Σ_{active} ln p_f = ln p(y) + ln ∫ Π_{inactive} p_f dx_M``
because no active family involves a missing variable: the inactive families are integrated
out exactly as the generative model does (§8), the active ones take their discriminative
terms. The same scores are used in training (rows with missing cells included) and at
prediction, so the fit stays a concave maximisation and every row gets a prediction.

**Where this extends MATH.md §10** (which stays the reference for the CLL, its gradient and
the NB = logistic regression identities, all tested):

- the cells of a continuous family also hold the parents' monomials ``z_c, z_c z_c'`` (and
  a Bayes-rule family those of its Gaussian numerator), so that every generative
  linear-Gaussian factor is exactly a point of the log-linear family (the warm start of
  ``centre="zero"`` is then exact; §10 lists ``1, x_v, x_v², x_v x_c``, the rest being held
  by other factors in a fully log-linear model);
- ``centre="generative"``: the penalty shrinks towards the generative parameters (a prior
  centred on them) rather than towards zero;
- λ, the scale (and optionally the centre) are chosen by inner cross-validation
  (:mod:`._select`); the hierarchy of ``scale`` is a prior, not in §10;
- the missing-cell scheme above covers the cell form too (§10 states it for the weighted
  form): inactive families keep their generative factors, marginalised as in §8.

**Which form.** Both were measured on the 18 shared tables
(``benchmarks/results/discriminative.md``, TAN, the same inner CV; at commit 219b6be, the
flat cells): the cells reach the LogisticRegression pipeline's accuracy on 10 of 18 tables,
the weights on 4 of 18 (log-loss 6 and 7 of 18); the benchmark keeps both rows. One weight per factor and class can only rescale a factor, not correct the
cells a wrong independence assumption got wrong (tic-tac-toe: cells 0.972, weights 0.748,
generative 0.744), so ``"cells"`` is the default form.

**Rows in partitions that are never gathered** (:func:`fit_parameters_partitioned`). The CLL
and its gradient are sums over rows (:mod:`._cll`), so :func:`fit_parameters` runs on
partitions (:class:`~estimators.stats.partitions.Partitions`: one in memory, or a Dask
DataFrame through ``estimators.distributed.collect``) in three steps:

1. one pass: the class codes of every row (one small integer each, gathered to the client)
   and the standardisation of the continuous columns (their moments merged by Chan's
   update, :class:`~estimators.stats.cell_statistics.CellStats`), which the in-memory fit
   computes from all training rows (:func:`._design.standardisation`);
2. for ``"auto"`` settings, the rows of inner cross-validation: the same stratified
   subsample of :data:`._select.INNER_ROWS` rows that :func:`._select.inner_rows` draws in
   memory (drawn on the gathered class codes, then the chosen rows taken from their
   partitions), and :func:`._select.select_on_sample` on it, as in memory;
3. every partition's design and offset built where it lives and kept there
   (:class:`._cll.RowBlock`, ``Partitions.persist``): L-BFGS runs on the client, each
   evaluation's value and gradient summed over the blocks (:class:`._cll.PartitionedCLL`).

The result equals the in-memory fit up to the order of the floating-point sums (the penalty
chosen on the same rows, the same convex objective, the same start). The rows are encoded,
and their generative ``ln p(y, x_O)`` computed, by the classifier (``rows``), so this
module reads no classifier attribute.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import sparse

from estimators.columns import EncodedColumns
from estimators.discriminative._cll import (
    CLLProblem,
    PartitionedCLL,
    RowBlock,
    linear,
    maximise_cll,
)
from estimators.discriminative._design import Design, fit_design, generative_weights, layout
from estimators.discriminative._select import inner_rows, select_on_sample, select_penalty
from estimators.stats.cell_statistics import CellStats

__all__ = ["FORMS", "PARAMETERS", "Discriminative", "DiscriminativeParameters", "fit_parameters",
           "fit_parameters_partitioned",
           "resolve_parameters"]

#: the values of every classifier's ``parameters`` string
PARAMETERS = ("generative", "discriminative")
FORMS = ("cells", "weights")
CENTRES = ("generative", "zero", "auto")


@dataclass(frozen=True)
class Discriminative:
    """How ``parameters="discriminative"`` fits (the string means ``Discriminative()``).

    Parameters
    ----------
    form : {"cells", "weights"}, default="cells"
        Log-linear cells of every factor, or one weight per generative log-factor and class
        (module docstring).
    l2 : float or "auto", default="auto"
        λ of the penalty ``(λ/2)‖w‖²`` on the summed CLL (``1 / C`` of scikit-learn);
        ``"auto"``: chosen from :data:`._select.L2_GRID` by inner cross-validated log-loss.
    centre : {"generative", "zero", "auto"}, default="zero"
        What the penalty shrinks towards (module docstring); ``"auto"``: chosen with λ.
    max_iter : int, default=1000
        L-BFGS iterations at most.
    tol : float, default=1e-6
        L-BFGS gradient tolerance (of the objective divided by n).
    scale : float, "auto" or None, default="auto"
        ``s``: the structure's cells beyond logistic regression's features enter times
        ``s`` (penalty ``λ / s²``), beside those features; ``None``: the cells alone, one
        penalty (module docstring). ``"auto"``: chosen with λ by inner cross-validation.

    Examples
    --------
    >>> Discriminative(l2=0.5)
    Discriminative(form='cells', l2=0.5, centre='zero', max_iter=1000, tol=1e-06, scale='auto')
    """

    form: str = "cells"
    l2: float | str = "auto"
    centre: str = "zero"
    max_iter: int = 1000
    tol: float = 1e-6
    scale: float | str | None = "auto"

    def __post_init__(self):
        if self.form not in FORMS:
            raise ValueError(f"Discriminative form must be one of {FORMS}; got {self.form!r}.")
        if self.centre not in CENTRES:
            raise ValueError(f"Discriminative centre must be one of {CENTRES}; got "
                             f"{self.centre!r}.")
        if self.l2 != "auto" and not (isinstance(self.l2, int | float) and np.isfinite(self.l2)
                                      and self.l2 >= 0):
            raise ValueError(f"Discriminative l2 must be a finite number >= 0 or 'auto'; got "
                             f"{self.l2!r}.")
        if self.scale not in (None, "auto") and not (
                isinstance(self.scale, int | float) and np.isfinite(self.scale)
                and self.scale > 0):
            raise ValueError(f"Discriminative scale must be a finite number > 0, 'auto' or "
                             f"None; got {self.scale!r}.")


def resolve_parameters(parameters) -> Discriminative | None:
    """None for ``"generative"``, a :class:`Discriminative` otherwise.

    Examples
    --------
    >>> resolve_parameters("generative") is None, resolve_parameters("discriminative").form
    (True, 'cells')
    """
    if isinstance(parameters, Discriminative):
        return parameters
    if parameters == "generative":
        return None
    if parameters == "discriminative":
        return Discriminative()
    raise ValueError("parameters must be 'generative', 'discriminative' or a Discriminative; "
                     f"got {parameters!r}.")


@dataclass(eq=False)
class DiscriminativeParameters:
    """Fitted discriminative parameters: ``scores(enc, jll)`` replaces ``ln p(y, x)``.

    Attributes
    ----------
    spec : Discriminative
    design : Design
        The log-linear layout (its factors are the generative ones).
    coef : ndarray of shape (n_columns or n_families, n_classes)
    intercept : ndarray of shape (n_classes,)
    info : dict
        L-BFGS's ``n_iter``, ``converged``, ``message`` and the training CLL at the start
        (``cll_start``) and at the optimum (``cll``).

    Examples
    --------
    A classifier's ``discriminative_``:

    >>> from estimators import NaiveBayesClassifier, load_dataset
    >>> X, y = load_dataset("iris")
    >>> fitted = NaiveBayesClassifier(parameters="discriminative").fit(X, y).discriminative_
    >>> type(fitted).__name__, fitted.coef.shape, fitted.intercept.shape, fitted.info["converged"]
    ('DiscriminativeParameters', (16, 3), (3,), True)
    >>> sorted(fitted.info)  # "cv": the inner cross-validation that chose the penalty
    ['cll', 'cll_start', 'converged', 'cv', 'message', 'n_iter']
    """

    spec: Discriminative
    design: Design
    coef: np.ndarray
    intercept: np.ndarray
    info: dict = field(default_factory=dict)

    def terms(self, enc: EncodedColumns, jll: np.ndarray):
        """The offset ``o`` (n, m) and the design of ``enc`` (module docstring)."""
        return _terms(self.spec, self.design, enc, jll)

    def scores(self, enc: EncodedColumns, jll: np.ndarray) -> np.ndarray:
        """The discriminative scores ``s_y(x)`` (n, m), given the generative
        ``ln p(y, x_O)`` of the same rows."""
        offset, design = self.terms(enc, jll)
        return offset + self.intercept + linear(design, self.coef)


def _terms(spec: Discriminative, design: Design, enc: EncodedColumns, jll):
    """The offset and design of ``enc``; ``jll``: its ``ln p(y, x_O)`` (n, m), or a function
    giving it of an encoded table. For the zero-centred cells and a function with the
    ``class_log_prior`` of its complete rows (``network.NetworkLikelihood``), the offset of a
    row on which every family is active is that prior (module docstring: ``ln p(y)``, the
    product over no inactive family), and ``jll`` and the log-factors are computed on the
    other rows only (the inner cross-validation, :mod:`._select`)."""
    active = design.active(enc)
    prior = getattr(jll, "class_log_prior", None)
    if spec.form == "cells" and spec.centre == "zero" and prior is not None:
        offset = np.tile(np.asarray(prior, float), (active.shape[0], 1))
        partial = ~active.all(axis=1)
        if partial.any():
            rows = enc.take(partial)
            offset[partial] = jll(rows) - _active_logs(design, rows, active[partial]).sum(axis=2)
        return offset, design.matrix(enc, active)
    if callable(jll):
        jll = jll(enc)
    logs = None
    if spec.form == "weights" or spec.centre == "zero":
        logs = _active_logs(design, enc, active)
    offset = jll - logs.sum(axis=2) if spec.centre == "zero" else np.asarray(jll, float)
    if spec.form == "cells":
        return offset, design.matrix(enc, active)
    return offset, [sparse.csr_matrix(logs[:, y, :]) for y in range(logs.shape[1])]


def _active_logs(design: Design, enc: EncodedColumns, active: np.ndarray) -> np.ndarray:
    """``ln p_f(x | y)`` on the rows where family f is active, 0 elsewhere: (n, m,
    n_families)."""
    return np.stack([np.where(active[:, [j]], np.nan_to_num(f.log_prob(enc)), 0.0)
                     for j, f in enumerate(design.factors)], axis=2)


def fit_parameters(factors, enc: EncodedColumns, y: np.ndarray, jll: np.ndarray,
                   spec: Discriminative, refit=None,
                   random_state: int = 0) -> DiscriminativeParameters:
    """Fit discriminative parameters on a structure's generative factors.

    Parameters
    ----------
    factors : sequence
        The fitted CG factors (one per modelled feature).
    enc : EncodedColumns
        The training table.
    y : ndarray of int
        Class codes.
    jll : ndarray of shape (n, m)
        The generative ``ln p(y, x_O)`` of the training rows.
    spec : Discriminative
    refit : callable, optional
        ``refit(rows) -> (factors, jll)``: the family's generative factors refitted on the
        given training rows and their ``ln p(y, x_O)`` function, for ``l2``, ``centre`` or
        ``scale`` ``"auto"`` (:func:`._select.select_penalty`); the chosen values are in the
        returned ``spec`` and the inner-CV table in ``info["cv"]``.
    random_state : int, default=0
        Seed of that inner cross-validation's folds.

    Returns
    -------
    DiscriminativeParameters

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.columns import MixedEncoder
    >>> from estimators.network.fitting import fit_cg_factor
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 300)
    >>> X = np.column_stack([(rng.random(300) < 0.3 + 0.4 * y), rng.normal(y, 1.0)])
    >>> enc = MixedEncoder({0: "categorical"}).fit_transform(X)
    >>> factors = [fit_cg_factor(enc, y, 2, 0), fit_cg_factor(enc, y, 2, 1, [0])]
    >>> jll = np.log(np.bincount(y) / 300) + sum(f.log_prob(enc) for f in factors)
    >>> spec = Discriminative(l2=1.0, centre="generative", scale=1.0)
    >>> fitted = fit_parameters(factors, enc, y, jll, spec)
    >>> bool(fitted.info["cll"] >= fitted.info["cll_start"])
    True
    """
    m = jll.shape[1]
    table = None
    if _chooses(spec, refit):
        l2, centre, scale, table = select_penalty(spec, enc, y, m, refit, _terms,
                                                  random_state=random_state, factors=factors)
        spec = _chosen(spec, l2, centre, scale)
    design = fit_design(factors, enc, spec.scale if spec.form == "cells" else None)
    offset, matrix = _terms(spec, design, enc, jll)
    return _maximise(spec, design, CLLProblem(matrix, offset, y, spec.l2), table)


def _chooses(spec: Discriminative, refit) -> bool:
    """Whether ``spec`` has settings for inner cross-validation to choose (which needs the
    family's ``refit``)."""
    if "auto" not in (spec.l2, spec.centre, spec.scale):
        return False
    if refit is None:
        raise ValueError("Discriminative(l2, centre or scale 'auto') needs the family's "
                         "refit function (inner cross-validation).")
    return True


def _chosen(spec: Discriminative, l2: float, centre: str, scale) -> Discriminative:
    """``spec`` with the values inner cross-validation chose for its ``"auto"``."""
    return Discriminative(form=spec.form, l2=l2, centre=centre, max_iter=spec.max_iter,
                          tol=spec.tol, scale=scale)


def _maximise(spec: Discriminative, design: Design, problem, table: dict | None
              ) -> DiscriminativeParameters:
    """Maximise the CLL of ``problem`` (all training rows, in memory or in partitions) from
    the start of ``spec.centre`` (module docstring)."""
    p, m = problem.p, problem.m
    if spec.centre == "generative":
        W0 = np.zeros((p, m))
    elif spec.form == "cells":
        W0 = generative_weights(design, m)
    else:
        W0 = np.ones((p, m))
    W, b, info = maximise_cll(problem, W0, np.zeros(m), max_iter=spec.max_iter, tol=spec.tol)
    if table is not None:
        info["cv"] = table
    return DiscriminativeParameters(spec, design, W, b, info)


def fit_parameters_partitioned(factors, data, rows, counts: np.ndarray, spec: Discriminative,
                               refit: Callable | None = None,
                               random_state: int = 0) -> DiscriminativeParameters:
    """:func:`fit_parameters` on training rows in partitions (module docstring).

    Parameters
    ----------
    factors : sequence
        The fitted CG factors (one per modelled feature).
    data : Partitions
        The training table (complete rows).
    rows : object
        ``rows.encode(x, y) -> (EncodedColumns, class codes)`` of a partition (pandas ``x``
        and ``y``) and ``rows.likelihood(enc) -> ln p(y, x_O)`` (n, m), or a function with
        a ``class_log_prior`` (``network.NetworkLikelihood``); picklable: it is sent to
        where the partitions live.
    counts : ndarray of shape (m,)
        Training rows per class.
    spec : Discriminative
    refit : callable, optional
        ``refit(enc, codes) -> (factors, jll)``: the generative factors refitted on rows of
        the inner cross-validation (for ``"auto"`` settings).
    random_state : int, default=0

    Returns
    -------
    DiscriminativeParameters

    Examples
    --------
    On one in-memory partition it gives the parameters of :func:`fit_parameters`:

    >>> import numpy as np, pandas as pd
    >>> from estimators.columns import MixedEncoder
    >>> from estimators.discriminative import Discriminative, fit_parameters
    >>> from estimators.stats.partitions import InMemory
    >>> from estimators.network.fitting import fit_cg_factor
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 300)
    >>> X = np.column_stack([(rng.random(300) < 0.3 + 0.4 * y), rng.normal(y, 1.0)])
    >>> encoder = MixedEncoder({0: "categorical"}).fit(X)
    >>> enc = encoder.transform(X)
    >>> factors = [fit_cg_factor(enc, y, 2, 0), fit_cg_factor(enc, y, 2, 1, [0])]
    >>> prior = np.log(np.bincount(y) / 300)
    >>> class Rows:
    ...     def encode(self, x, y):
    ...         return encoder.transform(x.to_numpy()), np.asarray(y)
    ...     def likelihood(self, enc):
    ...         return prior + sum(f.log_prob(enc) for f in factors)
    >>> spec = Discriminative(l2=1.0, centre="generative", scale=1.0)
    >>> data = InMemory(pd.DataFrame(X), pd.Series(y))
    >>> fitted = fit_parameters_partitioned(factors, data, Rows(), np.bincount(y), spec)
    >>> in_memory = fit_parameters(factors, enc, y, Rows().likelihood(enc), spec)
    >>> bool(np.allclose(fitted.coef, in_memory.coef, atol=1e-6))
    True
    """
    first = data.map_each(_codes_and_moments, rows)
    y = np.concatenate([codes for codes, _, _ in first])
    table = None
    if _chooses(spec, refit):
        enc, codes = _sample(data, rows, y, [c.size for c, _, _ in first],
                             inner_rows(y, counts, random_state))
        l2, centre, scale, table = select_on_sample(
            spec, enc, codes, counts, lambda r: refit(enc.take(r), codes[r]), _terms,
            random_state=random_state, factors=factors)
        spec = _chosen(spec, l2, centre, scale)
    design = layout(factors, *_standardisation(first),
                    spec.scale if spec.form == "cells" else None)
    blocks = data.persist(_row_block, rows, spec, design)
    p = design.n_columns if spec.form == "cells" else len(factors)
    return _maximise(spec, design, PartitionedCLL(blocks, y.size, p, counts.size, spec.l2),
                     table)


def _codes_and_moments(x: pd.DataFrame, y: pd.Series, rows) -> tuple:
    """A partition's class codes, the continuous mask of its encoded columns and their
    moments (no cross products)."""
    enc, codes = rows.encode(x, y)
    cont = enc.continuous
    stats = CellStats.from_arrays(enc.values[:, cont], np.zeros(codes.size, int), 1, cross=False)
    # the codes in the smallest integer type (the client gathers one per training row)
    return codes.astype(np.min_scalar_type(max(int(codes.max(initial=0)), 0))), cont, stats


def _standardisation(first: list) -> tuple[np.ndarray, np.ndarray]:
    """``(mean, sd)`` of every encoded column from the partitions' moments, as
    :func:`._design.standardisation` computes them from all rows."""
    cont = first[0][1]
    stats = first[0][2]
    for _, _, st in first[1:]:
        stats = stats.merge(st)
    mean, sd = np.zeros(cont.size), np.ones(cont.size)
    with np.errstate(all="ignore"):
        m = stats.mean[0]
        s = np.sqrt(stats.M[0] / stats.n[0])
    mean[cont] = np.where(np.isfinite(m), m, 0.0)
    sd[cont] = np.where(np.isfinite(s) & (s > 0), s, 1.0)
    return mean, sd


def _sample(data, rows, y: np.ndarray, sizes: list, sub: np.ndarray | None):
    """The encoded rows ``sub`` (all rows when None) of the partitioned table and their
    class codes, in row order."""
    index = np.arange(y.size) if sub is None else sub
    bounds = np.cumsum([0, *sizes])
    local = [index[(index >= a) & (index < b)] - a
             for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
    pieces = data.map_each(_take, each=local)
    return rows.encode(pd.concat([x for x, _ in pieces]), pd.concat([y for _, y in pieces]))


def _take(x: pd.DataFrame, y: pd.Series, local: np.ndarray) -> tuple:
    return x.iloc[local], y.iloc[local]


#: rows of a partition encoded and turned into one :class:`._cll.RowBlock` at a time (the
#: design's assembly takes ~25 bytes per nonzero while it is built, the block ~4 to 12)
CHUNK_ROWS = 100_000


def _row_block(x: pd.DataFrame, y: pd.Series, rows, spec: Discriminative, design) -> list:
    """A partition's share of the objective: the design and offset (``_model._terms``) of
    its rows, in chunks of :data:`CHUNK_ROWS`."""
    out = []
    for start in range(0, max(len(x), 1), CHUNK_ROWS):
        enc, codes = rows.encode(x.iloc[start:start + CHUNK_ROWS],
                                 y.iloc[start:start + CHUNK_ROWS])
        offset, matrix = _terms(spec, design, enc, rows.likelihood)
        out.append(RowBlock(matrix, offset, codes))
    return out
