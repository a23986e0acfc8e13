"""The per-vertex choice of ``continuous="auto"`` (MATH.md §11, "choosing per node") and
the class-free factor it may choose.

**Options.** A continuous vertex may take ``"gaussian"``, ``"copula"`` or ``"ckde"``; a
categorical one ``"gaussian"`` (the CPT or Bayes' rule on the CG joint) and, when it has
continuous parents, ``"copula"``; every vertex may also be :data:`CLASS_FREE`: the factor
``p(x_v | x_pa)``, the same in every class (the class is no parent of v; the conditional
Gaussian factor of MATH.md §7 fitted on all training rows as one class, a proper density or
mass function, so missing cells marginalise with the same engine).

**Two decisions per vertex.** For each vertex v and option k, the out-of-fold table
``L_{v,k}[i, c] = ln p_k(x_iv | x_i,pa(v), c)`` of every training row i and class c, the
factor fitted without row i's fold (``folds`` folds of the complete rows of v's family; 0
where a cell of the family is missing, so an incomplete row keeps the factors it can
evaluate).

1. *Its density*: the option with the largest held-out log-likelihood
   ``sum_i L_{v,k}[i, y_i]`` (the per-node choice of semiparametric networks; ties to the
   earlier option of the list above).
2. *Whether the class is its parent*: the set of class-free vertices maximises the
   out-of-fold conditional log-likelihood of the class,

       CLL = max_w sum_i ln p_w(y_i | x_i),   ln p(x_i | c) = sum_v L_v[i, c],

   ``L_v`` the chosen density's table or 0 for a class-free vertex (its factor is the same
   in every class and cancels in ``p(y | x)``), w the evidence weight of
   :mod:`.calibration` (w = 1 with ``calibrate=False``). Coordinate ascent from "every
   vertex keeps the class": each vertex in turn switches state, the others fixed, when
   the switch raises the CLL by more than one standard error, ``sum_i g_i > sqrt(n) sd(g)``
   (and by more than the tie tolerance, MATH.md §12)
   with ``g_i`` the switch's change of row i's ``ln p_w(y_i | x_i)`` (the one-standard-error
   rule of model selection, Breiman et al. 1984, here against selection noise), until a
   sweep changes nothing or after :data:`MAX_SWEEPS` sweeps. Each switch raises the CLL, so
   the search ends no worse than the plain network, at a state no single switch improves
   beyond that noise.

   Without the guard (strict improvement only) the choice overfits where many vertices
   each move the CLL a little: sonar (166 training rows, 60 features) 2-TAN made 22-28
   vertices class-free per fold, the out-of-fold CLL went from -52 to -22 nats with the
   evidence weight at its bound 2, and the held-out log-loss rose to 0.829 from 0.391
   (accuracy 0.851 -> 0.822). With it: 0.548 and 0.866. A two-standard-error guard kept
   sonar (0.408) but gave back half of oj's gain (TAN 0.796 / 0.441, 2-TAN 0.812 / 0.461).

**Why not the held-out density alone.** It fits each column best but ranks classes worse
where the structure cannot express how the features depend on each other: on oj (the
benchmark's 5 folds of 500 rows) every one of the 14 scored TAN vertices took copula or
CKDE by 20-200 held-out nats over the (floored) Gaussian, and the accuracy fell to 0.782
from the Gaussian TAN's 0.800 (log-loss 1.18x, 2-TAN 1.24x the logistic regression's).
oj's prices are deterministic functions of each other (SalePriceMM = PriceMM - DiscMM,
PctDiscMM = DiscMM / PriceMM, PriceDiff, ListPriceDiff, Store7 and STORE of StoreID): a
tree cannot hold those three-way relations, the same evidence enters several factors, and
the density that fits each column best sharpens the double counting. Letting a redundant
vertex drop the class (the selective Bayesian classifier, Langley & Sage, UAI 1994),
chosen by the class's conditional likelihood (Grossman & Domingos, ICML 2004, choose BN
classifier structures by it), gave TAN 0.818 / log-loss 0.420 and 2-TAN 0.816 / 0.446 there
(LR 0.836 / 0.393; 0.826 / 0.413 and 0.826 / 0.422 without the guard of 2.). Measured
alternatives on the same folds (TAN, no guard): choosing the densities too by the CLL,
0.818 / 0.422 (2-TAN 0.800 / 0.465; heart_failure 2-TAN log-loss 0.501 against
0.466, so it overfits); without the class-free option 0.794; a hurdle factor (a point mass
at the column's most frequent value, then a density elsewhere) 0.750-0.774; typing the
columns with at most 13 or 20 distinct values categorical 0.736-0.776.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from estimators.base.log_sum_exp import log_sum_exp
from estimators.base.tie_tolerance import first_best, tolerance
from estimators.columns import EncodedColumns
from estimators.semiparametric.calibration import evidence_weight
from estimators.semiparametric.copula_factor import WrapsCGFactor

#: the option of a vertex whose factor does not depend on the class
CLASS_FREE = "class-free"
#: most coordinate-ascent sweeps of the choice
MAX_SWEEPS = 3


@dataclass(eq=False)
class ClassFreeFactor(WrapsCGFactor):
    """``p(x_v | x_pa)``, the same in every class: ``inner`` is a one-class factor of
    :func:`estimators.network.fitting.fit_cg_factor`, broadcast over ``n_classes``."""

    inner: object
    n_classes: int

    def describe(self, names: list) -> dict:
        """Its parameters for exports: those of the one-class factor, marked class-free."""
        from estimators.network.export.pgmpy_network import factor_parameters

        return {"kind": "ClassFreeFactor", "class_free": True,
                "factor": factor_parameters(self.inner, names)}

    def log_prob_at(self, enc: EncodedColumns, classes: np.ndarray) -> np.ndarray:
        """``ln p(x_v | x_pa)`` per row (the same whatever ``classes`` says)."""
        return self.inner.log_prob_at(enc, np.zeros(np.shape(classes), dtype=np.int64))

    def log_prob(self, enc: EncodedColumns) -> np.ndarray:
        """``ln p(x_v | x_pa)`` per row, repeated for every class: (n, n_classes)."""
        return np.repeat(self.inner.log_prob(enc)[:, :1], self.n_classes, axis=1)


def out_of_fold_table(fitter, kind: str, v: int, parents, folds: int) -> np.ndarray:
    """``L[i, c] = ln p(x_iv | x_i,pa, c)`` from the factor of ``kind`` fitted without row
    i's fold (``fitter.fit(kind, v, parents, rows=...)``, evaluated on the fold's rows
    ``fitter.take(rows)``); 0 where the family is incomplete or the family has fewer than
    ``2 folds`` complete rows; all 0 for :data:`CLASS_FREE` (it cancels in the class
    posterior)."""
    n, m = fitter.y.size, fitter.m
    out = np.zeros((n, m))
    ok = np.flatnonzero(fitter.enc.observed[:, [v, *parents]].all(axis=1))
    if kind == CLASS_FREE or ok.size < 2 * folds:
        return out
    fold = np.random.default_rng(0).permutation(ok.size) % folds
    for k in range(folds):
        train, test = ok[fold != k], ok[fold == k]
        out[test] = fitter.fit(kind, v, parents, rows=train).log_prob(fitter.take(test))
    return out


def choose_kinds(tables: list, y: np.ndarray, log_prior: np.ndarray, *,
                 calibrate: bool = True) -> tuple:
    """Each vertex's density, then which vertices go class-free (module docstring: by
    switches that raise the out-of-fold CLL by more than one standard error).

    ``tables[j]`` maps each option of vertex j to its out-of-fold table (n, n_classes).
    An option whose table is not finite everywhere (a held-out row of zero density) is
    dropped unless it is the vertex's only density.

    Examples
    --------
    Vertex 0 separates the classes; vertex 1 repeats its evidence three times over:

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 400)
    >>> s = rng.normal(size=400) + np.where(y == 1, 1.0, -1.0)
    >>> L0 = np.column_stack([-s, s])
    >>> t = [{"gaussian": L0}, {"gaussian": 3 * L0, "class-free": np.zeros((400, 2))}]
    >>> choose_kinds(t, y, np.log([0.5, 0.5]), calibrate=False)
    ('gaussian', 'class-free')
    """
    y = np.asarray(y, dtype=np.int64)
    rows = np.arange(y.size)
    densities = []
    for t in tables:
        options = {k: L for k, L in t.items() if k != CLASS_FREE}
        options = {k: L for k, L in options.items() if np.isfinite(L).all()} or options
        kinds = list(options)  # ties (TIE_RTOL): the first kind
        densities.append(kinds[first_best([options[k][rows, y].sum() for k in kinds])])

    def per_row(free) -> np.ndarray:
        """``ln p_w(y_i | x_i)`` of every row, w maximising their sum."""
        total = sum((t[k] for t, k, f in zip(tables, densities, free, strict=True) if not f),
                    np.zeros((y.size, log_prior.size)))
        w = evidence_weight(total, y, log_prior) if calibrate else 1.0
        s = w * total + log_prior
        return s[rows, y] - log_sum_exp(s, 1)[:, 0]

    free = [False] * len(tables)
    current = per_row(free)
    for _ in range(MAX_SWEEPS):
        changed = False
        for j, t in enumerate(tables):
            if CLASS_FREE not in t:
                continue
            trial = [*free[:j], not free[j], *free[j + 1:]]
            new = per_row(trial)
            gain = new - current
            # by more than the tie tolerance too: a switch that changes nothing in exact
            # arithmetic leaves gains of rounding noise
            if gain.sum() > np.sqrt(y.size) * gain.std(ddof=1) + tolerance(
                    [current.sum(), new.sum()]):
                free, current, changed = trial, new, True
        if not changed:
            break
    return tuple(CLASS_FREE if f else k for k, f in zip(densities, free, strict=True))
