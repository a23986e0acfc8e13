"""The penalised conditional log-likelihood of a log-linear classifier and its maximiser.

Scores ``s_iy = o_iy + b_y + (Φ_y w_y)_i``: a fixed offset ``o`` (n, m), an unpenalised
class bias ``b`` and per-class weights ``w_y`` on a design ``Φ_y`` (one sparse or dense
matrix shared by the classes, or one per class). The objective minimised is

    L(w, b) = -(1/n) [ Σ_i s_{i,y_i} - ln Σ_y exp(s_iy) ] + (λ / 2n) ‖w‖²,

i.e. the negative penalised CLL of MATH.md §10 divided by n (the optimum is that of
``CLL - (λ/2)‖w‖²``; scikit-learn's ``LogisticRegression(C)`` minimises the same with
``λ = 1 / C`` and its intercept unpenalised). Its gradient is
``(1/n) Φ_yᵀ (p_y - 1[y]) + (λ/n) w_y`` and ``(1/n) Σ_i (p_iy - 1[y_i = y])`` for ``b``; it is
convex, so scipy's L-BFGS-B reaches the optimum from any start (we start from the
generative parameters).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import scipy
from scipy import optimize, sparse

from estimators.base.blas_threads import one_blas_thread
from estimators.base.log_sum_exp import log_sum_exp
from estimators.base.progress import progress

__all__ = ["CLLProblem", "PartitionedCLL", "RowBlock", "maximise_cll"]


class CLLProblem:
    """The objective above on one training set.

    Parameters
    ----------
    design : matrix or sequence of matrices
        Φ, shape (n, p), shared by every class; or one (n, p) matrix per class.
    offset : ndarray of shape (n, m)
    y : ndarray of int, shape (n,)
        Class codes ``0 .. m - 1``.
    l2 : float
        λ >= 0.

    Examples
    --------
    At ``theta = 0`` every class has probability 1/m, so the CLL is ``n ln(1/m)``:

    >>> import numpy as np
    >>> from estimators.discriminative import CLLProblem, maximise_cll
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    >>> problem = CLLProblem(X, np.zeros((4, 2)), np.array([0, 1, 0, 0]), l2=1.0)
    >>> (problem.n, problem.m, problem.p), round(problem.cll(np.zeros(6)), 6)
    ((4, 2, 2), -2.772589)
    >>> W, b, info = maximise_cll(problem, np.zeros((2, 2)), np.zeros(2))
    >>> bool(problem.cll(problem.pack(W, b)) > 4 * np.log(0.5))
    True
    """

    def __init__(self, design, offset: np.ndarray, y: np.ndarray, l2: float):
        self.shared = not isinstance(design, Sequence)
        self.design = compact(design) if self.shared else [compact(D) for D in design]
        # Φᵀ once (a CSR or contiguous copy), not one transposition per evaluation
        self.design_t = (_transpose(self.design) if self.shared else
                         [_transpose(D) for D in self.design])
        self.offset = np.asarray(offset, dtype=float)
        self.n, self.m = self.offset.shape
        self.p = (design if self.shared else design[0]).shape[1]
        self.y = np.asarray(y, dtype=np.int64)
        # the evaluations work on (m, n) arrays: reductions over the classes are then over
        # rows of n contiguous numbers (numpy's reductions along a short axis of an (n, m)
        # array cost ~10-40 us each at n ~ 700)
        self.offset_t = np.ascontiguousarray(self.offset.T)
        self.onehot_t = np.zeros((self.m, self.n))
        self.onehot_t[self.y, np.arange(self.n)] = 1.0
        self.dense = self.shared and not sparse.issparse(self.design)
        self.l2 = float(l2)

    def unpack(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(W (p, m), b (m,))`` from the flat parameter vector."""
        return theta[: self.p * self.m].reshape(self.p, self.m), theta[self.p * self.m:]

    @staticmethod
    def pack(W: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The flat parameter vector of ``(W, b)``."""
        return np.concatenate([np.ravel(W), np.ravel(b)])

    def scores(self, theta: np.ndarray) -> np.ndarray:
        """``s`` (n, m) at ``theta``."""
        W, b = self.unpack(theta)
        return self.offset + b + linear(self.design, W)

    def cll(self, theta: np.ndarray) -> float:
        """The unpenalised conditional log-likelihood ``Σ_i ln p(y_i | x_i)``."""
        s = self.scores(theta)
        return float((s[np.arange(self.n), self.y] - log_sum_exp(s, 1)[:, 0]).sum())

    def loss_grad(self, theta: np.ndarray) -> tuple[float, np.ndarray]:
        """The objective ``L`` and its gradient."""
        W, b = self.unpack(theta)
        loss, gW, gb = self.sums(W, b)
        return penalised(loss, gW, gb, W, self.l2, self.n)

    def sums(self, W: np.ndarray, b: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        """``(-Σ_i ln p(y_i | x_i), Φᵀ (p - 1[y]) (p, m), Σ_i (p_i - 1[y_i]) (m,))``: the
        unpenalised sums over the rows (a partition's share of a reduction over many,
        :class:`PartitionedCLL`)."""
        # sᵀ (m, n): Wᵀ Φᵀ for a dense shared design (one BLAS product), else by class
        s = (W.T @ self.design_t if self.dense
             else np.ascontiguousarray(linear(self.design, W).T))
        loss, R = softmax_sums(s, self.offset_t, b, self.onehot_t)
        gW = (R @ self.design).T if self.dense else _products(self.design_t, R.T)
        return loss, gW, np.sum(R, axis=1)


class RowBlock:
    """Rows of the objective held lean where their partition lives: the design (compacted,
    no transposed copy; a sparse design whose every column holds one value -- the cells of
    categorical families -- keeps its sparsity pattern and that value per column only), the
    offset (one row when all rows share it: the class prior of complete rows) and the
    classes; :meth:`sums` gives their share of every evaluation (:class:`PartitionedCLL`).

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    >>> whole = CLLProblem(X, np.zeros((4, 2)), np.array([0, 1, 0, 0]), l2=0.0)
    >>> halves = [RowBlock(X[:2], np.zeros((2, 2)), np.array([0, 1])),
    ...           RowBlock(X[2:], np.zeros((2, 2)), np.array([0, 0]))]
    >>> W, b = np.ones((2, 2)), np.array([0.5, -0.5])
    >>> parts = [block.sums(W, b)[0] for block in halves]
    >>> bool(np.isclose(sum(parts), whole.sums(W, b)[0]))
    True
    """

    def __init__(self, design, offset: np.ndarray, y: np.ndarray):
        self.design = compact(design) if not isinstance(design, Sequence) else [
            compact(D) for D in design]
        self.values = None  # the value of every column, when the design's data is dropped
        D = self.design
        if sparse.issparse(D) and D.nnz:
            values = np.zeros(D.shape[1])
            values[D.indices] = D.data
            if np.array_equal(values[D.indices], D.data):
                self.values = values
                self.design = (D.indices, D.indptr, D.shape)  # the pattern alone
        offset = np.asarray(offset, dtype=float)
        if offset.shape[0] and (offset == offset[0]).all():
            offset = offset[:1]
        self.offset_t = np.ascontiguousarray(offset.T)
        self.n = len(y)
        self.y = np.asarray(y, dtype=np.min_scalar_type(max(self.offset_t.shape[0] - 1, 0)))

    def _design(self):
        if self.values is None:
            return self.design
        indices, indptr, shape = self.design
        return sparse.csr_matrix((self.values[indices], indices, indptr), shape=shape,
                                 copy=False)

    def sums(self, W: np.ndarray, b: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        """As :meth:`CLLProblem.sums`."""
        m, n = self.offset_t.shape[0], self.n
        onehot_t = np.zeros((m, n))
        onehot_t[self.y, np.arange(n)] = 1.0
        design = self._design()
        s = np.ascontiguousarray(linear(design, W).T)
        loss, R = softmax_sums(s, self.offset_t, b, onehot_t)
        design_t = design.T if not isinstance(design, Sequence) else [D.T for D in design]
        return loss, _products(design_t, R.T), np.sum(R, axis=1)


def _block_sums(blocks: list, W: np.ndarray, b: np.ndarray) -> tuple:
    """The sums of a partition's row blocks."""
    out = blocks[0].sums(W, b)
    for block in blocks[1:]:
        out = _add_sums(out, block.sums(W, b))
    return out


def _add_sums(a: tuple, b: tuple) -> tuple:
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


class PartitionedCLL:
    """The objective above with its rows in partitions that are never gathered: each
    evaluation sums :meth:`RowBlock.sums` over the blocks where they live (``blocks``: a
    :class:`~estimators.stats.partitions.Resident` of :class:`RowBlock`) and adds the
    penalty here, so L-BFGS runs on the client on the same objective as
    :class:`CLLProblem` on all rows (up to the order of the sums).

    Parameters
    ----------
    blocks : Resident
        Per partition, a list of :class:`RowBlock` (its rows in chunks).
    n, p, m : int
        Rows in all blocks, design columns, classes.
    l2 : float
    """

    def __init__(self, blocks, n: int, p: int, m: int, l2: float):
        self.blocks, self.n, self.p, self.m, self.l2 = blocks, int(n), int(p), int(m), float(l2)

    unpack = CLLProblem.unpack
    pack = staticmethod(CLLProblem.pack)

    def loss_grad(self, theta: np.ndarray) -> tuple[float, np.ndarray]:
        """The objective ``L`` and its gradient."""
        W, b = self.unpack(theta)
        loss, gW, gb = self.blocks.map_reduce(_block_sums, _add_sums, W, b)
        return penalised(loss, gW, gb, W, self.l2, self.n)

    def cll(self, theta: np.ndarray) -> float:
        """The unpenalised conditional log-likelihood ``Σ_i ln p(y_i | x_i)``."""
        return -float(self.blocks.map_reduce(_block_sums, _add_sums, *self.unpack(theta))[0])


def softmax_sums(s: np.ndarray, offset_t: np.ndarray, b: np.ndarray, onehot_t: np.ndarray
                 ) -> tuple[float, np.ndarray]:
    """From the linear scores ``sᵀ`` (m, n; overwritten): ``-Σ_i ln p(y_i | x_i)`` and
    ``(p - 1[y])ᵀ`` (m, n) of the scores ``sᵀ + oᵀ + b``."""
    s += offset_t
    s += b[:, None]
    s -= s.max(axis=0)  # shift-invariant: the softmax of s is unchanged
    R = np.exp(s)
    total = R.sum(axis=0)
    # -Σ_i (s_{i,y_i} - ln Σ_y exp s_iy), with s_{i,y_i} summed through the one-hot
    loss = float(np.log(total).sum() - np.vdot(s, onehot_t))
    R /= total
    R -= onehot_t  # (p - 1[y])ᵀ
    return loss, R


def penalised(loss: float, gW: np.ndarray, gb: np.ndarray, W: np.ndarray, l2: float,
              n: int) -> tuple[float, np.ndarray]:
    """``L`` and its flat gradient from the unpenalised sums over ``n`` rows."""
    loss = loss + 0.5 * l2 * np.vdot(W, W)
    grad = np.empty(W.size + gb.size)
    grad[: W.size].reshape(W.shape)[...] = gW
    grad[: W.size].reshape(W.shape)[...] += l2 * W
    grad[W.size:] = gb
    grad /= n
    return loss / n, grad


def linear(design, W: np.ndarray) -> np.ndarray:
    """``Φ_y w_y`` for every class: shape (n, m)."""
    if not isinstance(design, Sequence):
        return np.asarray(design @ W)
    return np.column_stack([np.asarray(D @ W[:, y]).ravel() for y, D in enumerate(design)])


#: a design with at most this many cells (rows x columns) is multiplied as a dense array:
#: BLAS on a few hundred thousand numbers beats the per-call overhead of a sparse product
DENSE_CELLS = 400_000


def compact(D):
    """``D`` as a dense array when small (:data:`DENSE_CELLS`), else as CSR."""
    if sparse.issparse(D):
        return D.toarray() if D.shape[0] * D.shape[1] <= DENSE_CELLS else D.tocsr()
    return np.asarray(D, dtype=float)


def _transpose(D):
    return D.T.tocsr() if sparse.issparse(D) else np.ascontiguousarray(D.T)


def _products(design_t, R: np.ndarray) -> np.ndarray:
    """``Φ_yᵀ r_y`` for every class from the transposed designs: shape (p, m)."""
    if not isinstance(design_t, Sequence):
        return np.asarray(design_t @ R)
    return np.column_stack([np.asarray(D @ R[:, y]).ravel() for y, D in enumerate(design_t)])


def maximise_cll(problem: CLLProblem, W0: np.ndarray, b0: np.ndarray, *, max_iter: int = 1000,
                 tol: float = 1e-10, report: bool = True) -> tuple[np.ndarray, np.ndarray, dict]:
    """Minimise ``L`` by L-BFGS-B from ``(W0, b0)``.

    ``report=False`` leaves the two CLLs out of ``info`` (the inner cross-validation's many
    fits do not read them: two evaluations of the scores each).

    Returns
    -------
    W : ndarray of shape (p, m)
    b : ndarray of shape (m,)
    info : dict
        ``n_iter``, ``converged``, ``message``, and ``cll_start`` / ``cll`` (the
        unpenalised CLL at the start and at the optimum).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    >>> problem = CLLProblem(X, np.zeros((4, 2)), np.array([0, 1, 0, 0]), l2=1.0)
    >>> W, b, info = maximise_cll(problem, np.zeros((2, 2)), np.zeros(2))
    >>> info["converged"], bool(info["cll"] > info["cll_start"])
    (True, True)
    """
    theta0 = problem.pack(W0, b0)
    res = _lbfgs(problem.loss_grad, theta0, max_iter, tol)
    W, b = problem.unpack(res.x)
    info = {"n_iter": int(res.nit), "converged": bool(res.success), "message": str(res.message)}
    if report:
        info.update(cll_start=problem.cll(theta0), cll=problem.cll(res.x))
    return W, b, info


#: L-BFGS-B's memory (corrections kept): 80 up to :data:`_LONG_MEMORY` parameters, 20 above
#: (the corrections take 2 x memory x parameters numbers). On the full kr_vs_kp (2,556
#: training rows, weak penalty: ill-conditioned) the final fits took 166-222 iterations
#: instead of 271-424 with 20 (0.84 s instead of 1.38 s for three folds), nursery 0.8x the
#: time; at 500 rows the fits take the same time (they end within ~80 iterations).
_MAXCOR = 80
_LONG_MEMORY = 100_000


#: line-search steps at most per iteration (scipy's default)
_MAXLS = 20
#: scipy >= 1.15 has the C port of L-BFGS-B, whose ``setulb`` :func:`_drive` calls
_DIRECT = tuple(int(part) for part in scipy.__version__.split(".")[:2]) >= (1, 15)


def _memory(n: int) -> int:
    """L-BFGS-B's memory for ``n`` parameters."""
    return _MAXCOR if n <= _LONG_MEMORY else 20


def _lbfgs(fun, theta0: np.ndarray, max_iter: int, tol: float) -> optimize.OptimizeResult:
    """L-BFGS-B (no bounds) on ``fun`` (loss and gradient) from ``theta0``: gradient
    tolerance ``tol``, relative loss tolerance ``tol * 1e-3``, one bar step per iteration.

    With scipy >= 1.15 the iterations of scipy's own ``setulb`` are driven directly
    (:func:`_drive`): the same iterates as ``scipy.optimize.minimize(method="L-BFGS-B")``
    without its per-evaluation bookkeeping, which on the inner-CV fits of the shared tables
    (n ~ 100-300 rows, a few hundred parameters, ~60 us per evaluation) took ~40% of the
    solver's time; older scipy goes through ``minimize``."""
    bar = progress(iter(int, 1), "discriminative parameters (L-BFGS iterations)")
    steps = iter(bar)
    # one BLAS thread: L-BFGS-B's vectors are small, and threads of scipy's own OpenBLAS
    # spinning on a busy machine made each iteration ~7 ms instead of ~50 us
    with one_blas_thread():
        res = None
        if _DIRECT:
            res = _drive(fun, theta0, max_iter, tol, lambda: next(steps, None))
        if res is None:
            res = optimize.minimize(fun, theta0, jac=True, method="L-BFGS-B",
                                    callback=lambda _: next(steps, None),
                                    options={"maxiter": max_iter, "gtol": tol,
                                             "ftol": tol * 1e-3,
                                             "maxcor": _memory(theta0.size),
                                             "maxls": _MAXLS})
    if hasattr(bar, "close"):
        bar.close()
    return res


def _drive(fun, theta0: np.ndarray, max_iter: int, tol: float,
           step) -> optimize.OptimizeResult:
    """The loop of scipy's ``_minimize_lbfgsb`` (scipy >= 1.15, no bounds) around its
    ``setulb``, calling ``fun`` directly; None when this scipy's ``setulb`` is not the one
    this loop was written for (a private routine: a later scipy may change it), and then
    :func:`_lbfgs` goes through ``minimize``."""
    try:
        from scipy.optimize import _lbfgsb
    except ImportError:
        return None

    n = theta0.size
    m = _memory(n)
    x = np.array(theta0, dtype=np.float64)
    f, g = np.array(0.0), np.zeros(n)
    nbd, bound = np.zeros(n, np.int32), np.zeros(n)
    wa = np.zeros(2 * m * n + 5 * n + 11 * m * m + 8 * m)
    iwa = np.zeros(3 * n, np.int32)
    task, ln_task, lsave = np.zeros(2, np.int32), np.zeros(2, np.int32), np.zeros(4, np.int32)
    isave, dsave = np.zeros(44, np.int32), np.zeros(29)
    factr = tol * 1e-3 / np.finfo(float).eps  # scipy's ftol -> factr
    nit = nfev = 0
    while True:
        try:
            _lbfgsb.setulb(m, x, bound, bound, nbd, f, g, factr, tol, wa, iwa, task, lsave,
                           isave, dsave, _MAXLS, ln_task)
        except (AttributeError, TypeError, ValueError):
            if nfev == 0:  # the first call: a different setulb, nothing computed yet
                return None
            raise
        if task[0] == 3:  # f and g wanted at x
            value, grad = fun(x)
            f, g = np.array(value, dtype=np.float64), np.asarray(grad, dtype=np.float64)
            nfev += 1
        elif task[0] == 1:  # an iteration done
            nit += 1
            step()
            if nit >= max_iter:
                task[0], task[1] = 5, 504
                break
        else:
            break
    return optimize.OptimizeResult(x=x, fun=float(f), nit=nit, nfev=nfev,
                                   success=bool(task[0] == 4),
                                   message=_MESSAGES.get(int(task[0]), "ABNORMAL"))


_MESSAGES = {4: "CONVERGENCE", 5: "STOP: TOTAL NO. OF ITERATIONS REACHED LIMIT"}
