"""TAN and k-TAN classifiers (paper 2; MATH.md §4–§5)."""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral, Real

from sklearn.base import _fit_context
from sklearn.utils._param_validation import Interval, StrOptions

from estimators._dask import is_dask
from estimators._model_selection import candidate_grid, select_by_cv
from estimators.ktan._base import BaseKTAN
from estimators.scores import SCORES
from estimators.search import BACKBONE_METHODS, SEARCHERS

_DOC_COMMON = """
    Discrete features get conditional probability tables with pseudo-count ``alpha`` over
    the categories seen in training (any hashable values, e.g. strings); a category not
    seen in training is scored by the same smoothing (as a category with zero count), so
    prediction never fails on it. Gaussian features get class-conditional linear-Gaussian
    regressions on their parents. ``features="auto"`` picks the family from the columns:
    see :mod:`estimators.ktan._columns` for the rule. The structure is learned from the
    plug-in class-conditional mutual information of the chosen family (``alpha`` smooths
    the tables only; :class:`KTANClassifier` can use a penalised or Bayesian score instead).
"""


class TANClassifier(BaseKTAN):
    """Tree-augmented naive Bayes: the maximum spanning tree of I(X_i; X_j | Y) (exact).
    {common}
    Parameters
    ----------
    features : {{"auto", "discrete", "gaussian"}}, default="auto"
        Model family of the features.
    alpha : float, default=1.0
        Pseudo-count of the CPTs (> 0), discrete features only.
    ess : float or None, default=None
        When given, the CPTs use the BDeu-style Dirichlet prior with this equivalent sample
        size instead of ``alpha`` (see :mod:`estimators.ktan._cpt`).

    Attributes
    ----------
    structure_ : kgraph.AcyclicKTree
        The learned tree (k = 1) over the feature names.
    backbone_ : None
        TAN keeps no backbone.
    certificate_ : None
        TAN's spanning tree needs no certificate.
    score_ : float
        ``sum_v I(X_v; X_pa(v) | Y)`` of the tree, in nats.
    classes_ : ndarray
        Class labels.
    family_ : str
        ``"discrete"`` or ``"gaussian"``.
    class_log_prior_ : ndarray
        ``ln p(y)`` (relative frequencies).
    n_features_in_ : int
        Number of features.
    feature_names_in_ : ndarray
        Column names, when fitted on a DataFrame with string column names.

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.ktan import TANClassifier
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 500)
    >>> x0 = (rng.random(500) < 0.2 + 0.6 * y).astype(int)
    >>> X = np.column_stack([x0, x0 ^ (rng.random(500) < 0.1), rng.integers(0, 3, 500)])
    >>> clf = TANClassifier().fit(X, y)
    >>> clf.structure_.k, len(clf.structure_.edges)
    (1, 2)
    >>> sorted(sorted(e) for e in clf.structure_.edges)[0]  # x1 is a noisy copy of x0
    ['x0', 'x1']
    >>> clf.predict_proba(X[:2]).sum(axis=1)
    array([1., 1.])
    """

    _parameter_constraints: dict = {
        **BaseKTAN._parameter_constraints,
        "ess": [None, Interval(Real, 0, None, closed="neither")],
    }

    def __init__(self, *, features: str = "auto", alpha: float = 1.0, ess: float | None = None):
        self.features = features
        self.alpha = alpha
        self.ess = ess

    def _search_spec(self) -> tuple[int, str, object]:
        return 1, "backbone-dp", None


class KTANClassifier(BaseKTAN):
    """k-tree augmented naive Bayes: a maximum-score acyclic k-tree over the features.
    {common}
    With ``search="backbone-dp"`` the k-tree is the exact optimum among those containing a
    backbone path (paper 2, §5): ``backbone`` is a permutation of the features (names, or
    column indices) or the name of a method that derives one from the pair scores
    (``"given"``: column order, ``"mst-dfs"``, ``"greedy-path"``, ``"local-search"``); ``None`` means the exact
    maximum spanning tree for ``k = 1`` (so ``KTANClassifier(k=1)`` is
    :class:`TANClassifier`) and ``"mst-dfs"`` for ``k >= 2``. ``search="greedy"`` grows a
    k-tree without a backbone (heuristic).

    ``k="auto"`` (or a list of k) chooses k -- and, with ``structure_score="auto"``, the
    structure score too -- by stratified 5-fold cross-validated log-loss on the training data
    (each candidate refitted from scratch per fold; ties go to the smaller k); see
    :mod:`estimators._model_selection`. The cross-validation table is kept in ``cv_results_``.

    Parameters
    ----------
    k : int, "auto" or sequence of int, default=2
        Tree width: each feature has at most ``k`` feature parents. A ``k`` of at least
        ``n_features`` is lowered to ``n_features - 1`` with one warning. ``"auto"`` tries
        k = 1, 2, 3 (those below n_features) by inner cross-validation.
    search : str, default="backbone-dp"
        A searcher of :data:`estimators.search.SEARCHERS` (``"backbone-dp"``, ``"greedy"``,
        ``"spanning-tree"`` for ``k = 1``, or one registered later).
    backbone : None, {{"given", "mst-dfs", "greedy-path", "local-search"}} or sequence, default=None
        Backbone of ``"backbone-dp"``; must be None for ``"greedy"``.
    features : {{"auto", "discrete", "gaussian"}}, default="auto"
        Model family of the features.
    alpha : float, default=1.0
        Pseudo-count of the CPTs (> 0), discrete features only.
    candidates : int or None, default=None
        Sparse candidate parents for wide tables: each feature's parents must be among its
        top-``candidates`` partners by pair score (symmetrised); other hyperedges are never
        scored (:mod:`estimators.search.candidates`). None: no restriction.
    structure_score : {{"cmi", "bic", "bdeu", "auto"}}, default="cmi"
        The hyperedge score of the structure search (:data:`estimators.scores.SCORES`):
        plug-in CMI, BIC/MDL or the BDeu marginal-likelihood gain (discrete only).
        ``"auto"`` (with ``k="auto"``) lets cross-validation choose among those defined for
        the feature family.
    ess : float or None, default=None
        When given, the CPTs use the BDeu-style Dirichlet prior with this equivalent sample
        size instead of ``alpha`` (see :mod:`estimators.ktan._cpt`).

    Attributes
    ----------
    k_ : int
        The width used (``k`` lowered to ``n_features - 1`` when larger; the chosen one with
        ``k="auto"``).
    structure_ : kgraph.AcyclicKTree
        The learned k-tree over the feature names.
    candidates_ : dict or None
        Each feature's candidate parents when ``candidates`` is set, else None.
    structure_score_ : str
        The structure score used (the chosen one with ``structure_score="auto"``).
    cv_results_ : dict or None
        With ``k="auto"``: per candidate ``k``, ``structure_score``, ``mean_log_loss``,
        ``std_log_loss``, ``fold_log_loss`` and ``n_folds``; None otherwise.
    backbone_ : tuple or None
        The backbone path kept (feature names); None for the spanning tree and greedy.
    certificate_ : PBKT or None
        The backbone DP's certificate (the decomposition it chose); None otherwise.
    score_ : float
        ``sum_v I(X_v; X_pa(v) | Y)`` of the k-tree, in nats.
    classes_ : ndarray
        Class labels.
    family_ : str
        ``"discrete"`` or ``"gaussian"``.
    class_log_prior_ : ndarray
        ``ln p(y)`` (relative frequencies).
    n_features_in_ : int
        Number of features.
    feature_names_in_ : ndarray
        Column names, when fitted on a DataFrame with string column names.

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.ktan import KTANClassifier
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 400)
    >>> X = (rng.random((400, 4)) < 0.3 + 0.4 * y[:, None]).astype(int)
    >>> clf = KTANClassifier(k=2, backbone="given").fit(X, y)
    >>> clf.backbone_
    ('x0', 'x1', 'x2', 'x3')
    >>> max(len(clf.structure_.parents(v)) for v in clf.structure_.order)
    2
    """

    _parameter_constraints: dict = {
        **BaseKTAN._parameter_constraints,
        "k": [Interval(Integral, 1, None, closed="left"), StrOptions({"auto"}), "array-like"],
        "structure_score": [StrOptions({*SCORES, "auto"})],
        "ess": [None, Interval(Real, 0, None, closed="neither")],
        "search": [StrOptions(SEARCHERS.keys())],
        "backbone": [None, StrOptions(BACKBONE_METHODS.keys()), "array-like"],
        "candidates": [None, Interval(Integral, 1, None, closed="left")],
    }

    def __init__(
        self,
        *,
        k: int = 2,
        search: str = "backbone-dp",
        backbone: str | Sequence | None = None,
        features: str = "auto",
        alpha: float = 1.0,
        candidates: int | None = None,
        structure_score: str = "cmi",
        ess: float | None = None,
    ):
        self.candidates = candidates
        self.k = k
        self.search = search
        self.backbone = backbone
        self.features = features
        self.alpha = alpha
        self.structure_score = structure_score
        self.ess = ess

    def _search_spec(self) -> tuple[int, str, object]:
        return self.k_, self.search, self.backbone

    def _score_name(self) -> str:
        return self.structure_score_

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Learn the k-tree and the conditional models; with ``k="auto"`` first choose k
        (and the score) by inner cross-validated log-loss.

        Parameters
        ----------
        X : array-like or pandas.DataFrame of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        self.cv_results_ = None
        if is_dask(X):
            from estimators.distributed import fit_tan_dask

            return fit_tan_dask(self, X, y)  # a TypeError naming the models that can
        if isinstance(self.k, Integral):
            if self.structure_score == "auto":
                raise ValueError(
                    "KTANClassifier(structure_score='auto') chooses the score by cross-validation "
                    f"together with k; use k='auto' (or a list of k), or name a score in "
                    f"{sorted(SCORES)}. Got k={self.k}."
                )
            self.k_, self.structure_score_ = int(self.k), self.structure_score
            return super().fit(X, y)
        if not isinstance(self.k, str) and (
            len(self.k) == 0 or not all(isinstance(v, Integral) and v >= 1 for v in self.k)
        ):
            raise ValueError(
                f"The 'k' parameter of KTANClassifier must be an int >= 1, 'auto' or a non-empty "
                f"list of ints >= 1. Got {self.k!r} instead."
            )
        probe = TANClassifier(features=self.features).fit(X, y)  # the family and d
        names = [s for s, fams in SCORES.items() if probe.family_ in fams]
        grid = candidate_grid(self.k, self.structure_score, names, probe.n_features_in_)
        best, table = select_by_cv(self, X, y, grid)
        self.k_, self.structure_score_ = best["k"], best["structure_score"]
        super().fit(X, y)
        self.cv_results_ = table
        return self


TANClassifier.__doc__ = TANClassifier.__doc__.format(common=_DOC_COMMON)
KTANClassifier.__doc__ = KTANClassifier.__doc__.format(common=_DOC_COMMON)
