"""Choosing the penalty (λ, the hierarchy's scale, the centre) by inner cross-validation on
the training rows.

Every ``"auto"`` of a :class:`Discriminative` is chosen on stratified :data:`INNER_FOLDS`-fold
splits of the training rows (seeded by ``random_state``, the estimator's, 0 when it has
none): per fold the family refits its *generative* factors on the inner training rows (the
structure is kept); for every centre and scale of :data:`SCALE_GRID` the discriminative
weights are fitted at values of :data:`L2_GRID` (all folds in step, each fit warm-started
from a neighbouring solution) and scored by the mean log-loss of the held-out rows. The λ
are searched by descent on the grid: the first scale starts at :data:`START_L2`, every later
scale at the best λ of the scale it was reached from (from that solution, its cells rescaled so that the
scores are unchanged); the grid neighbour towards smaller λ is tried, then the one towards
larger λ if that was no better, and the search walks in the direction that improved until
the loss rises (the held-out loss along λ is taken to be unimodal, as the walk down the
whole grid of earlier versions assumed; measured on the 18 shared tables at 500 rows, TAN:
the same outer accuracy on 15 of 18 tables and within 0.006 on the other three, with 30-55%
fewer fits, e.g. 41 instead of 69 per fit on helpmiss). The scales are searched the same way
on :data:`SCALE_GRID` (each scale's loss being its best over λ): from :data:`START_SCALE`
(0.3) on a table with a continuous column, from 1 on an all-categorical one, the next
smaller scale first, then the next larger if that was no better, walking on while the loss
falls. Where the search starts is a matter of cost, not of the choice where the losses are
unimodal: on the shared tables the continuous and mixed ones mostly chose 0.03-0.3 (their
quadratic and cross terms overfit) and the categorical ones 1 (their interactions are the
point). Measured at full size (11 tables with a continuous column, TAN, 5 outer folds, two
runs each way): starting at 0.3 instead of 1 took 0.69x the fit time on yeast (2.5 s -> 1.7
s), 0.82x helpmiss, 0.88x oj and winequality_red, 0.85x heart_failure, 1.2x abalone and
1.05x sonar, with the same outer accuracy on all 11 but winequality_white (0.8069 ->
0.8067) and log-loss changed on two (penguins 0.021 -> 0.030, wine 0.106 -> 0.094); on the
all-categorical tables, which mostly chose 1, it added fits (mushroom: the long λ walk down
from START_L2 then ran at 0.3).
A class with a single training row cannot be both held out and trained on: its row
is in every inner training part and in no held-out part (the other rows are split as
above); only when no class has two rows are the documented defaults used, with a warning.
The setting with the smallest mean held-out log-loss wins (ties: the larger λ, the generative
centre, the larger scale); the final fit uses it on all training rows. Losses within
:func:`estimators.base.tie_tolerance.tolerance` of each other (``TIE_RTOL = 1e-9`` relative) tie, in
the choice and in the walks (a step improves only by more than it), so that losses equal in
exact arithmetic choose the same on every CPU. The outer test rows
are never seen.

**Large training sets.** Above :data:`INNER_ROWS` (1,000) training rows, all of the above
runs on a stratified subsample of about that many (:func:`inner_rows`: seeded by the same
``random_state``, every class in proportion and at least ``min(count, INNER_FOLDS)`` of its
rows), and the setting chosen there is fitted on all training rows. The penalty is in sum
form, ``(λ/2)‖w‖²`` against the summed CLL (:mod:`._cll`; a Gaussian prior of fixed
variance ``1/λ`` per weight, scikit-learn's ``C = 1/λ``), so a λ carries over to more rows
as it already does from the inner training parts (2/3 of the rows) to the final fit: the
prior stays, the data weigh more. The cost of the search is then bounded (it was ~75% of a
fit on winequality_white's 3,918 training rows, 38x the LR pipeline's fit). Measured on the
nine shared tables with more than 1,000 training rows, full size, TAN, 5 outer folds (45
fits): the chosen (λ, scale) changed on 37 of 45 (the held-out loss is flat across them: on
all rows the choices already vary as much from fold to fold), the outer accuracy moved by at
most 0.0031 and the log-loss by at most +0.010 (abalone; the others within 0.0035), and the
fit time fell 1.1-2.7x (winequality_white 2.5 s -> 1.2 s, nursery 7.4 s -> 3.7 s).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
from scipy import sparse
from sklearn.model_selection import StratifiedKFold

from estimators.base.log_sum_exp import log_sum_exp
from estimators.base.progress import progress, show_progress
from estimators.base.tie_tolerance import first_best, tolerance
from estimators.base.user_warnings import warn_user
from estimators.columns import EncodedColumns
from estimators.discriminative._cll import CLLProblem, compact, linear, maximise_cll
from estimators.discriminative._design import fit_design
from estimators.network.factors import LinearGaussianFactor
from estimators.network.model import class_log_prior

__all__ = ["INNER_FOLDS", "INNER_ROWS", "L2_GRID", "START_L2", "inner_rows", "select_on_sample",
           "select_penalty"]

#: the λ tried by ``l2="auto"`` (largest first; the search walks it by neighbours),
#: 1000 to 0.001 in steps of √10
L2_GRID = tuple(float(10 ** (e / 2)) for e in range(6, -7, -1))
#: the scales ``s`` of the structure's terms beyond logistic regression's tried by
#: ``scale="auto"`` (their penalty is λ / s²)
SCALE_GRID = (1.0, 0.3, 0.1, 0.03)
#: ``s`` where inner cross-validation cannot split
SCALE = 1.0
#: the λ where the search of the first scale starts (a grid value)
START_L2 = 10.0
#: the scale where the search over scales starts on a table with a continuous column (a
#: value of SCALE_GRID; on all-categorical tables it starts at the first, 1)
START_SCALE = 0.3
#: λ where inner cross-validation cannot split (a class with one row): scikit-learn's C = 1
L2 = 1.0
#: inner folds
INNER_FOLDS = 3
#: gradient tolerance of the inner fits (the final fit uses the spec's)
_INNER_TOL = 1e-4
#: training rows above which the penalty is chosen on a stratified subsample of this many
INNER_ROWS = 1000


def inner_rows(y: np.ndarray, counts: np.ndarray, random_state: int) -> np.ndarray | None:
    """The training rows the inner cross-validation runs on: None (all of them) up to
    :data:`INNER_ROWS` rows, else a stratified subsample of about that many (sorted), drawn
    with ``random_state``: every class keeps ``round(count * INNER_ROWS / n)`` of its rows,
    and at least ``min(count, INNER_FOLDS)``."""
    n = y.size
    if n <= INNER_ROWS:
        return None
    rng = np.random.default_rng(random_state)
    keep = []
    for c in np.flatnonzero(counts):
        rows = np.flatnonzero(y == c)
        k = min(rows.size, max(INNER_FOLDS, round(rows.size * INNER_ROWS / n)))
        keep.append(rng.choice(rows, k, replace=False))
    return np.sort(np.concatenate(keep))


def _inner_splits(y: np.ndarray, counts: np.ndarray, random_state: int) -> list:
    """Stratified inner folds (``INNER_FOLDS``, fewer when the smallest class with two or
    more rows has fewer) over the rows of classes with two or more rows; a class with a
    single training row cannot be held out and trained on, so its row is in every inner
    training part and in no held-out part (every class keeps a row in every inner fit)."""
    single = np.isin(y, np.flatnonzero(counts == 1))
    kept, always = np.flatnonzero(~single), np.flatnonzero(single)
    folds = min(INNER_FOLDS, int(counts[counts > 1].min()))
    split = StratifiedKFold(folds, shuffle=True, random_state=random_state)
    return [(np.sort(np.concatenate([kept[train], always])), kept[test])
            for train, test in split.split(np.zeros(kept.size), y[kept])]


def select_penalty(spec, enc: EncodedColumns, y: np.ndarray, n_classes: int,
                   refit: Callable, terms: Callable, random_state: int = 0,
                   factors=None) -> tuple[float, str, float | None, dict]:
    """``(l2, centre, scale, table)``: the penalty with the best inner-CV log-loss.

    Parameters
    ----------
    spec : Discriminative
        Its ``l2``, ``centre`` and ``scale`` (any may be ``"auto"``) and ``form``.
    enc, y, n_classes
        The training table and class codes.
    refit : callable
        ``refit(rows) -> (factors, jll)``: the generative factors fitted on the given rows
        and a function giving their ``ln p(y, x_O)`` of an encoded table.
    terms : callable
        ``terms(spec, design, enc, jll) -> (offset, design matrix)`` (:mod:`._model`).
    random_state : int, default=0
        Seed of the inner stratified folds.
    factors : sequence, optional
        The generative factors fitted on all training rows: where refitting them would
        change nothing the inner fits use (:func:`_refit_free`), the folds keep them and
        ``refit`` is not called.

    Returns
    -------
    l2 : float
    centre : str
    scale : float or None
    table : dict
        ``{(centre, scale, l2): mean held-out log-loss}``.
    """
    counts = np.bincount(y, minlength=n_classes)
    sub = inner_rows(y, counts, random_state)
    if sub is None:
        return select_on_sample(spec, enc, y, counts, refit, terms, random_state, factors)
    # the subsample stands for the training rows from here on
    return select_on_sample(spec, enc.take(sub), y[sub], counts, lambda rows: refit(sub[rows]),
                            terms, random_state, factors)


def select_on_sample(spec, enc: EncodedColumns, y: np.ndarray, counts: np.ndarray,
                     refit: Callable, terms: Callable, random_state: int = 0,
                     factors=None) -> tuple[float, str, float | None, dict]:
    """:func:`select_penalty` on the rows it runs on (:func:`inner_rows` of the training
    rows, drawn by the caller: in memory, or gathered from partitions), given the class
    counts of all training rows; ``refit`` takes rows of this sample."""
    n_classes = counts.size
    grid = L2_GRID if spec.l2 == "auto" else (float(spec.l2),)
    centres = ("generative", "zero") if spec.centre == "auto" else (spec.centre,)
    scales = SCALE_GRID if spec.scale == "auto" and spec.form == "cells" else (
        None if spec.scale == "auto" else spec.scale,)
    if not (counts > 1).any():  # no class can be split: the documented defaults
        warn_user("parameters='discriminative': no class has two training rows, so the "
                  "penalty cannot be chosen by inner cross-validation; using "
                  f"l2={L2}, scale={SCALE} and the zero centre where 'auto' was asked.")
        return (L2 if spec.l2 == "auto" else float(spec.l2),
                "zero" if spec.centre == "auto" else spec.centre,
                SCALE if spec.scale == "auto" else spec.scale, {})
    cells = spec.form == "cells"
    prepared = []  # per inner fold and centre: the terms of both sides at scale 1
    counts = np.bincount(y, minlength=n_classes)
    keep = factors is not None and _refit_free(spec, centres, factors, enc)
    for train, test in _inner_splits(y, counts, random_state):
        if keep:  # the training factors, and the class prior of the fold as a refit has it
            jll = _ClassPrior(class_log_prior(y[train], n_classes))
        else:
            factors, jll = refit(train)
        mask_tr, mask_te = _mask(train, y.size), _mask(test, y.size)
        unit = fit_design(factors, enc.take(mask_tr),
                          1.0 if cells and scales != (None,) else None)
        # ln p(y, x_O), the design and the offset are row by row: one call on every row
        # shares the work per pattern of missing cells (the marginalised factors) and per
        # family between both sides of the fold; with the class prior of a network's
        # likelihood, the zero centre needs ln p(y, x_O) only where a family is inactive
        jll_all = jll if centres == ("zero",) and hasattr(jll, "class_log_prior") else jll(enc)
        for centre in centres:
            offset_all, matrix_all = terms(replace(spec, centre=centre), unit, enc, jll_all)
            offset, offset_te = offset_all[mask_tr], offset_all[mask_te]
            matrix, matrix_te = _rows(matrix_all, mask_tr), _rows(matrix_all, mask_te)
            if cells:
                matrix, matrix_te = compact(matrix), compact(matrix_te)
            prepared.append((centre, y[train], y[test], unit, len(factors), offset, matrix,
                             offset_te, matrix_te))
    table = {}
    bar = progress(scales * len(centres), "discriminative penalty (inner CV, scales)")
    steps = iter(bar)
    first = grid.index(START_L2) if START_L2 in grid else 0
    for centre in centres:
        found = {}  # scale index -> (best λ index, the folds' solutions there, column factors)

        def visit(k: int, origin: int | None, centre=centre, found=found) -> float:
            """The λ descent at scales[k], from the best λ of the scale it was reached from
            (its solution, rescaled so that the scores are unchanged) or from START_L2."""
            next(steps, None)
            start = first if origin is None else found[origin][0]
            states = [_state(entry, scales[k], n_classes, grid[start], cells, origin is None)
                      for entry in prepared if entry[0] == centre]
            if origin is not None:
                for state, (W, b), ratio in zip(states, *found[origin][1:], strict=True):
                    state[4:6] = [W * (ratio / state[6])[:, None], b]
            losses, solutions = _descend(states, grid, start, spec.max_iter)
            table.update({(centre, scales[k], grid[i]): loss for i, loss in losses.items()})
            tried = sorted(losses)  # grid order: ties go to the first (the larger λ)
            best = tried[first_best([losses[i] for i in tried], minimise=True)]
            found[k] = (best, solutions[best], [state[6] for state in states])
            return losses[best]

        start = (scales.index(START_SCALE) if START_SCALE in scales and enc.continuous.any()
                 else 0)
        _walk(len(scales), start, visit)
    if hasattr(bar, "close"):
        bar.close()
    order = {c: i for i, c in enumerate(("generative", "zero"))}
    keys = sorted(table, key=lambda k: (-k[2], order[k[0]], -_size(k[1])))  # the tie order
    best = keys[first_best([table[k] for k in keys], minimise=True)]
    return best[2], best[0], best[1], table


def _refit_free(spec, centres: tuple, factors, enc: EncodedColumns) -> bool:
    """Whether the inner folds may keep the factors fitted on all training rows instead of
    refitting them: zero-centred cells, every family a linear-Gaussian factor without a
    categorical parent and no modelled cell missing. A refit then changes nothing the inner
    fits use: the design's columns depend on the structure, the standardisation (of the
    fold's rows, :func:`._design.fit_design`) and the parent cells seen (one here), not on
    the factors' parameters, and every family is active on every row, so the zero-centred
    offset is the class prior alone (``_model._terms``), which :class:`_ClassPrior` gives as
    :func:`estimators.network.model.refit_network` computes it (for TAN and k-TAN the inner
    fits are then the same numbers; any other family's prior is a constant per class that
    the unpenalised bias absorbs). Measured on sonar (60 continuous features, 208 rows):
    the three refits were ~20% of a fit."""
    if spec.form != "cells" or centres != ("zero",):
        return False
    if not all(isinstance(f, LinearGaussianFactor) and not len(f.categorical_parents)
               for f in factors):
        return False
    cols = sorted({c for f in factors for c in (f.v, *f.continuous_parents)})
    return bool(enc.observed[:, cols].all())


@dataclass(frozen=True)
class _ClassPrior:
    """``ln p(y)`` of the zero-centred offset where every family is active; the joint of a
    row with an inactive family is never asked for (:func:`_refit_free`)."""

    class_log_prior: np.ndarray

    def __call__(self, enc: EncodedColumns) -> np.ndarray:
        raise RuntimeError("_ClassPrior holds no factors: every family must be active.")


def _state(entry, scale, n_classes: int, l2: float, cells: bool, start: bool = True) -> list:
    """One inner fold's problem at ``scale``: [problem, held-out matrix, held-out offset,
    held-out classes, W, b, column factors] with W, b the start and the factor of every
    column relative to the unit design (``start=False``: W None, to be set by the caller).
    The start is W = 0 for cells (either centre: the problem is convex, so the start
    changes the iterations, not the optimum; from 0 the first fit took 30-50% fewer L-BFGS
    iterations than from the generative weights on helpmiss and sonar), 1 for weights (the
    generative factors)."""
    centre, y_tr, y_te, unit, n_factors, offset, matrix, offset_te, matrix_te = entry
    p = matrix.shape[1] if cells else n_factors
    ratio = np.ones(p)
    if scale is not None:  # the matrices of a design at this scale
        ratio = unit.rescaled(scale).column_scales()
        matrix, matrix_te = _times(matrix, ratio), _times(matrix_te, ratio)
    W = (None if not start else np.zeros((p, n_classes)) if centre == "generative" or cells
         else np.ones((p, n_classes)))
    return [CLLProblem(matrix, offset, y_tr, l2), matrix_te, offset_te, y_te, W,
            np.zeros(n_classes), ratio]


def _step(states: list, lam: float, max_iter: int) -> float:
    """Fit every fold at ``lam`` from its state (updated to the solution): the mean held-out
    log-loss."""
    losses = []
    for state in states:
        problem, matrix_te, offset_te, y_te, W, b = state[:6]
        problem.l2 = lam
        with show_progress(False):  # one bar for the whole search (select_penalty)
            W, b, _ = maximise_cll(problem, W, b, max_iter=max_iter, tol=_INNER_TOL,
                                   report=False)
        state[4:6] = [W, b]
        s = offset_te + b + linear(matrix_te, W)
        losses.append(float(np.mean(log_sum_exp(s, 1)[:, 0] - s[np.arange(y_te.size), y_te])))
    return float(np.mean(losses))


def _descend(states: list, grid: tuple, start: int, max_iter: int) -> tuple[dict, dict]:
    """``({i: mean held-out log-loss at grid[i]}, {i: the folds' solutions})``: descent on
    ``grid`` from index ``start`` (:func:`_walk`), every fit warm-started from the
    solution of the grid neighbour it was reached from."""
    solutions = {}

    def visit(i: int, origin: int | None) -> float:
        if origin is not None:
            for state, solution in zip(states, solutions[origin], strict=True):
                state[4:6] = solution
        loss = _step(states, grid[i], max_iter)
        solutions[i] = [state[4:6] for state in states]
        return loss

    return _walk(len(grid), start, visit), solutions


def _walk(size: int, start: int, visit: Callable) -> dict:
    """``{i: loss}``: descent on grid indices ``0 .. size - 1`` from ``start`` (module
    docstring): ``visit(i, origin)`` gives the loss at ``i`` reached from ``origin`` (None
    for the start); the neighbour ``i + 1`` is tried first, then ``i - 1`` if that was no
    better, and the walk goes on in the direction that improved until the loss rises."""
    losses = {start: visit(start, None)}
    best = start
    for direction in (1, -1):
        while 0 <= best + direction < size and best + direction not in losses:
            losses[best + direction] = visit(best + direction, best)
            if losses[best + direction] >= losses[best] - tolerance(list(losses.values())):
                break
            best += direction
        if best != start:
            break
    return losses


def _size(scale) -> float:
    return np.inf if scale is None else scale


def _times(matrix, columns: np.ndarray):
    """``matrix`` with its columns multiplied by ``columns`` (dense or sparse)."""
    if sparse.issparse(matrix):
        return sparse.csr_matrix(matrix.multiply(columns[None, :]))
    return matrix * columns


def _rows(matrix, mask: np.ndarray):
    """The rows ``mask`` of a design matrix (or of each class's, a list)."""
    if isinstance(matrix, list):
        return [D[mask] for D in matrix]
    return matrix[mask]


def _mask(rows: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros(n, dtype=bool)
    out[rows] = True
    return out
