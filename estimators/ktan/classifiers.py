"""TAN and k-TAN classifiers (paper 2; MATH.md §4–§5)."""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral

from sklearn.utils._param_validation import Interval, StrOptions

from estimators.ktan._base import BaseKTAN
from estimators.search import BACKBONE_METHODS, SEARCHERS

_DOC_COMMON = """
    Discrete features get conditional probability tables with pseudo-count ``alpha`` over
    the categories seen in training (any hashable values, e.g. strings); a category not
    seen in training is scored by the same smoothing (as a category with zero count), so
    prediction never fails on it. Gaussian features get class-conditional linear-Gaussian
    regressions on their parents. ``features="auto"`` picks the family from the columns:
    see :mod:`estimators.ktan._columns` for the rule. The structure is learned from the
    plug-in class-conditional mutual information of the chosen family (``alpha`` smooths
    the tables only).
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
    feature_types : "auto" or mapping, default="auto"
        Column types (:func:`estimators.columns.infer_feature_types`): ``"auto"`` or
        ``{{column: "continuous" | "categorical"}}``; recorded in ``feature_types_``.

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

    def __init__(self, *, features: str = "auto", alpha: float = 1.0,
                 feature_types="auto"):
        self.features = features
        self.alpha = alpha
        self.feature_types = feature_types

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

    Parameters
    ----------
    k : int, default=2
        Tree width: each feature has at most ``k`` feature parents. A ``k`` of at least
        ``n_features`` is lowered to ``n_features - 1`` with one warning.
    search : str, default="backbone-dp"
        A searcher of :data:`estimators.search.SEARCHERS` (``"backbone-dp"``, ``"greedy"``,
        ``"spanning-tree"`` for ``k = 1``, or one registered later).
    backbone : None, {{"given", "mst-dfs", "greedy-path", "local-search"}} or sequence, default=None
        Backbone of ``"backbone-dp"``; must be None for ``"greedy"``.
    features : {{"auto", "discrete", "gaussian"}}, default="auto"
        Model family of the features.
    alpha : float, default=1.0
        Pseudo-count of the CPTs (> 0), discrete features only.
    feature_types : "auto" or mapping, default="auto"
        Column types (:func:`estimators.columns.infer_feature_types`): ``"auto"`` or
        ``{{column: "continuous" | "categorical"}}``; recorded in ``feature_types_``.

    Attributes
    ----------
    k_ : int
        The width used (``k`` lowered to ``n_features - 1`` when larger).
    structure_ : kgraph.AcyclicKTree
        The learned k-tree over the feature names.
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
        "k": [Interval(Integral, 1, None, closed="left")],
        "search": [StrOptions(SEARCHERS.keys())],
        "backbone": [None, StrOptions(BACKBONE_METHODS.keys()), "array-like"],
    }

    def __init__(
        self,
        *,
        k: int = 2,
        search: str = "backbone-dp",
        backbone: str | Sequence | None = None,
        features: str = "auto",
        alpha: float = 1.0,
        feature_types="auto",
    ):
        self.k = k
        self.search = search
        self.backbone = backbone
        self.features = features
        self.alpha = alpha
        self.feature_types = feature_types

    def _search_spec(self) -> tuple[int, str, object]:
        return self.k, self.search, self.backbone


TANClassifier.__doc__ = TANClassifier.__doc__.format(common=_DOC_COMMON)
KTANClassifier.__doc__ = KTANClassifier.__doc__.format(common=_DOC_COMMON)
