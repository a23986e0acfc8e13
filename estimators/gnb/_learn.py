"""Structure learning for the GNB classifiers: the seam to :mod:`estimators.scores` and
:mod:`estimators.search` (paper 1 Algorithm 1: CMI edge weights, then Kruskal).

Everything the classifiers need from those packages goes through this module.
"""

from __future__ import annotations

import numpy as np

from estimators.base.user_warnings import warn_user
from estimators.base.validation import DegenerateFeatureWarning
from estimators.densities import DENSITIES, PairDensity
from estimators.densities.kde_pair import KERNELS
from estimators.learning.structure_learning import (
    INELIGIBLE,
    Constraints,
    Relabelled,
    learn_structure,
)
from estimators.scores import (
    GaussianCMI,
    as_fitted_score,
    max_parents,
    unfitted_score,
)
from estimators.scores import make_score as registered_score
from estimators.search import canonical_order, maximum_spanning_tree, snap, tie_step

#: the score of :data:`estimators.scores.SCORES` (``"gaussian"`` family) matching each
#: dependence model of GNBClassifier (MATH.md §1); its keys are the dependence models the
#: command line offers
DEPENDENCE_SCORES = {"gaussian": "cmi", "gaussian-copula": "gaussian-copula", "kde": "kde"}
DEPENDENCES = tuple(DEPENDENCE_SCORES)
__all__ = ["DEPENDENCES", "DEPENDENCE_SCORES", "KERNELS", "fit_structure_score",
           "fitted_copula_score", "fitted_copula_tree", "make_density", "make_score",
           "search_tree"]


def make_score(dependence: str, bandwidth: str | float = "scott", n_jobs: int | None = None):
    """An unfitted CMI score for ``dependence``: the registered score
    ``DEPENDENCE_SCORES[dependence]`` of :data:`estimators.scores.SCORES` for the
    ``"gaussian"`` family (``bandwidth`` goes to the kernel-based ones, ``n_jobs`` to all).

    The Gaussian-copula score uses ``marginals="kernel"``: normal scores from the class-y
    kernel CDF of the raw values (:func:`~estimators.scores._marginals.kernel_cdf`, u clipped
    at 1e-6). :class:`~estimators.gnb.GNBClassifier` uses it only where the fitted copula
    cannot give the scores (mixed tables, missing cells); on complete continuous data it
    takes them from the fitted density instead (:func:`fitted_copula_tree`).
    """
    score = registered_score(DEPENDENCE_SCORES[dependence], "gaussian")
    own = score.get_params(deep=False)
    return score.set_params(**{k: v for k, v in {"bandwidth": bandwidth, "n_jobs": n_jobs}.items()
                               if k in own})


def fit_structure_score(score, X: np.ndarray, names: list, codes: np.ndarray, k: int):
    """A researcher's structure score (a name of :data:`estimators.scores.SCORES` or a
    protocol object, see :mod:`estimators.scores`) fitted on the complete continuous columns
    ``X`` (the ``"gaussian"`` family) named ``names``, as the searchers use it.

    Raises
    ------
    ValueError
        An unknown name, a score without the ``"gaussian"`` family, or one answering fewer
        than ``k`` parents.
    """
    import pandas as pd

    unfitted = unfitted_score(score, "gaussian")
    largest = max_parents(unfitted)
    if largest is not None and k > largest:
        raise ValueError(f"the structure score {score!r} answers at most {largest} "
                         f"parent(s) (its max_parents); got k={k}.")
    fitted = unfitted.fit(pd.DataFrame(X, columns=names), codes)
    return as_fitted_score(unfitted if fitted is None else fitted, names)


def search_tree(score, used: np.ndarray, *, directed: bool, names=None
                ) -> tuple[list[tuple[int, int]], np.ndarray]:
    """The GNB tree of a fitted score over the positions ``0 .. len(used)-1``: edges as
    column-index pairs (``used``) in selection order and their weights (nats, as searched:
    see :mod:`estimators.learning.structure_learning`).

    Learned by :func:`estimators.learning.structure_learning.learn_structure` with the registered
    searchers. ``directed=False``: ``"spanning-tree"``, Kruskal's maximum spanning tree of
    a symmetric score, edges in Kruskal's selection order (paper 1 Algorithm 1; decreasing
    weight, ties by pair in variable order). ``directed=True``: ``"arborescence"``, the
    maximum spanning arborescence (Chu–Liu/Edmonds) of ``W[i, j] = f(j, {i})``; the edges
    are the arcs (mother, child) in decreasing order of weight (ties: creation order).
    Arcs without enough complete rows are used (at
    :data:`~estimators.learning.structure_learning.INELIGIBLE`) only when no tree avoids them, with one
    warning. ``names`` (the columns' names) decide ties (:mod:`estimators.search.ties`);
    None: the positions.
    """
    q = len(used)
    labels = list(range(q)) if names is None else list(names)
    fit = learn_structure(score if names is None else Relabelled(score, labels),
                          "arborescence" if directed else "spanning-tree",
                          Constraints(k=1), variables=labels)
    W, tree = fit.searched_edge_matrix, fit.structure
    at = {v: i for i, v in enumerate(labels)}
    arcs = [(at[next(iter(tree.parents(v)))], at[v]) for v in tree.order[1:]]
    if directed:  # stable: ties keep creation order
        local = sorted(arcs, key=lambda a: -W[a[0], a[1]])
    else:  # Kruskal's selection order: weight descending, then pair (i, j), i < j
        pairs = sorted((min(a), max(a)) for a in arcs)
        local = sorted(pairs, key=lambda e: (-W[e[0], e[1]], e[0] * q + e[1]))
    if fit.ineligible:
        warn_user(f"Too few rows observed together for every pair of some column: arcs "
                  f"without enough complete rows (score -inf) were used at weight "
                  f"{INELIGIBLE:g}, so the tree still spans every column.",
                  DegenerateFeatureWarning)
    weights = np.array([W[i, j] for i, j in local])
    return [(int(used[i]), int(used[j])) for i, j in local], weights


def fitted_copula_tree(
    corr: np.ndarray, counts: np.ndarray, used: np.ndarray, names=None
) -> tuple[list[tuple[int, int]], np.ndarray]:
    """Chow–Liu tree of a fitted class-conditional Gaussian copula.

    The pair (i, j) of the fitted model ``c_rho(F_i, F_j) f_i f_j`` in class y has mutual
    information ``-1/2 ln(1 - rho_y^2)`` whatever its marginals, so the model's
    ``I(X_i; X_j | Y) = -1/2 sum_y p(y) ln(1 - rho_{ij|y}^2)`` (MATH.md §1, the Gaussian
    closed form on the model's own normal scores: :func:`fitted_copula_score`). Its maximum
    spanning tree (Kruskal, :func:`search_tree`) is the best GNB of the fitted model in the
    sense of MATH.md §2 (eq. 7–8). The training log-likelihood of a tree's copula terms
    equals this weight only when each class's normal scores have mean 0 and mean square 1,
    which kernel-CDF scores do not quite have (see
    ``benchmarks/results/copula_structure.md``).

    Parameters
    ----------
    corr : ndarray of shape (m, d, d)
        The fitted copula correlations per class (``ClassGaussianCopula.corr_``).
    counts : ndarray of shape (m,)
        Training rows per class (p(y) is their share).
    used : ndarray of int
        The columns that enter the structure.

    Returns
    -------
    edges : list of (int, int)
        Column-index pairs in Kruskal's selection order.
    weights : ndarray
        Their I(X_i; X_j | Y) in nats.

    Examples
    --------
    >>> import numpy as np
    >>> corr = np.array([[[1.0, 0.6, 0.1], [0.6, 1.0, 0.3], [0.1, 0.3, 1.0]]])
    >>> edges, w = fitted_copula_tree(corr, np.array([10]), np.array([0, 1, 2]))
    >>> edges, bool(np.isclose(w[0], -0.5 * np.log(1 - 0.36)))
    ([(0, 1), (1, 2)], True)
    """
    used = np.asarray(used, dtype=int)
    m = len(counts)
    score = fitted_copula_score(corr, counts, np.arange(m), used, list(range(used.size)),
                                np.zeros((m, used.size), dtype=bool))
    return spanning_tree_of(score.edge_matrix(), used, names)


def spanning_tree_of(W: np.ndarray, used: np.ndarray, names=None
                     ) -> tuple[list[tuple[int, int]], np.ndarray]:
    """Kruskal's tree of a pair-information matrix ``W`` over the columns ``used`` (its rows):
    the column-index pairs in selection order and their weights. ``W`` is a closed-form
    matrix, exactly symmetric and NaN-free by construction: no input checks. (The
    registry's ``"spanning-tree"`` through :func:`search_tree` finds the same tree; its
    input checks and the score policy cost passes over a d x d matrix that the wide
    Gaussian fit, d = 5,000, is timed without.) Ties as in :mod:`estimators.search.ties`:
    on ``W`` snapped to its grid, by ``names`` (the columns' names; None: positions)."""
    used = np.asarray(used, dtype=int)
    labels = list(range(len(W))) if names is None else list(names)
    at = {v: i for i, v in enumerate(labels)}
    perm = np.array([at[v] for v in canonical_order(labels)], dtype=np.int64)
    tied = snap(W[np.ix_(perm, perm)], tie_step(W))
    local = [(int(perm[i]), int(perm[j]))
             for i, j in maximum_spanning_tree(tied, check=False).edges]
    local = [(min(e), max(e)) for e in local]
    weights = np.array([W[i, j] for i, j in local])
    return [(int(used[i]), int(used[j])) for i, j in local], weights


def fitted_copula_score(
    corr: np.ndarray, counts: np.ndarray, classes: np.ndarray, used: np.ndarray,
    names: list, constant: np.ndarray
) -> GaussianCMI:
    """The CMI score of a fitted class-conditional Gaussian copula over the columns ``used``.

    The cluster marginals of the fitted copula are Gaussian copulas with the sub-matrices of
    its correlations, so its ``I(X_v; X_P | Y)`` is the Gaussian closed form of MATH.md §1 on
    those correlations: a :class:`~estimators.scores.GaussianCMI` carrying them (as the
    larger-than-memory path builds one from class moments), any parent-set size. On pairs
    it gives :func:`fitted_copula_tree`'s weights.

    Parameters
    ----------
    corr : ndarray of shape (m, d, d)
        The fitted copula correlations per class (``ClassGaussianCopula.corr_``).
    counts : ndarray of shape (m,)
        Training rows per class.
    classes : ndarray of shape (m,)
        The class labels.
    used : ndarray of int
        The columns scored, named ``names`` in the score.
    names : list
        The score's variable names.
    constant : ndarray of bool, shape (m, len(used))
        Columns constant within a class (``constant_in_class_``; their correlations are 0).

    Examples
    --------
    >>> import numpy as np
    >>> corr = np.array([[[1.0, 0.6], [0.6, 1.0]], [[1.0, 0.0], [0.0, 1.0]]])
    >>> score = fitted_copula_score(corr, np.array([30, 10]), np.array(["a", "b"]),
    ...                             np.array([0, 1]), ["u", "v"], np.zeros((2, 2), bool))
    >>> bool(np.isclose(score("u", {"v"}), -0.5 * 0.75 * np.log(1 - 0.36)))
    True
    """
    used = np.asarray(used, dtype=int)
    full = used.size == corr.shape[1] and np.array_equal(used, np.arange(used.size))
    R = corr if full else corr[:, used[:, None], used[None, :]]  # no (m, d, d) copy
    return GaussianCMI().fit_correlations(names, classes, counts, constant, R)


def make_density(
    dependence: str, bandwidth: str | float, var_smoothing: float, X: np.ndarray,
    kernel: str = "product",
) -> PairDensity:
    """The unfitted class-conditional density model of ``dependence`` (``kernel`` goes to
    the KDE: :class:`~estimators.densities.ClassKDE`)."""
    if dependence == "gaussian":
        return DENSITIES["gaussian"](var_smoothing=var_smoothing)
    # without NaN, np.var does nanvar's arithmetic (same sums, same order) without its copy
    var = np.nanvar(X, axis=0) if np.isnan(X).any() else np.var(X, axis=0)
    min_std = float(np.sqrt(var_smoothing * np.nanmax(var)))
    if dependence == "kde":
        return DENSITIES["kde"](bandwidth=bandwidth, min_std=min_std, kernel=kernel)
    return DENSITIES[dependence](bandwidth=bandwidth, min_std=min_std)
