"""TAN and k-TAN classifiers (paper 2; MATH.md §4–§5, mixed tables §7, missing cells §8)."""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral

from sklearn.utils._param_validation import Interval, StrOptions

from estimators.ktan._base import BaseKTAN
from estimators.search import BACKBONE_METHODS, SEARCHERS

_DOC_ATTRIBUTES = """classes_ : ndarray
        Class labels.
    family_ : str
        ``"discrete"``, ``"gaussian"`` or ``"mixed"`` (the modelled columns' types).
    feature_types_ : dict
        Feature name -> ``"continuous" | "categorical" | "constant"``.
    constant_features_ : list
        Constant columns, left out of the structure.
    encoder_ : MixedEncoder
        The fitted column encoder.
    network_ : CGNetwork
        The fitted factors (:mod:`estimators.ktan._network`).
    class_log_prior_ : ndarray
        ``ln p(y)`` (relative frequencies).
    n_features_in_ : int
        Number of features.
    feature_names_in_ : ndarray
        Column names, when fitted on a DataFrame with string column names.
"""

_DOC_COMMON = """
    Columns are continuous or categorical (types decided once, see ``feature_types``; a
    constant column leaves the model with one warning). Each feature gets a conditional
    Gaussian factor given its parents and the class (MATH.md §7): a table with
    pseudo-count ``alpha`` (categorical feature, categorical parents), a class-conditional
    linear-Gaussian regression per configuration of its categorical parents (continuous
    feature; ``var_smoothing`` times the largest feature variance added to the residual
    variances, as ``GaussianNB``), or Bayes' rule on the CG joint (categorical feature
    with continuous parents). On all-categorical or all-continuous tables these are the
    smoothed CPTs and linear-Gaussian regressions of the discrete and Gaussian k-TAN.

    The structure maximises ``sum_v f(v, pa(v))``: the plug-in class-conditional mutual
    information on complete single-type tables, the conditional Gaussian log-likelihood
    gain (:class:`~estimators.scores.ConditionalGaussianScore`, directed) on mixed tables or
    with missing cells. Missing cells (NaN, None, empty strings) are learned around: each
    factor and its score use the rows where the feature, its parents and the class are
    observed. At prediction they are marginalised exactly on the k-tree
    (:mod:`estimators.marginal`); a category not seen in training is treated as a missing
    cell (it carries no evidence). Small classes (pooled Gaussian cells) and constant or
    collinear columns are named in one warning and never stop a fit.
"""
class TANClassifier(BaseKTAN):
    """Tree-augmented naive Bayes: the maximum spanning tree of I(X_i; X_j | Y) (exact;
    on mixed tables the maximum spanning arborescence of the directed CG score).
    {common}
    Parameters
    ----------
    features : {{"auto", "discrete", "gaussian"}}, default="auto"
        ``"auto"`` leaves the column types to ``feature_types``; ``"discrete"`` makes
        every column categorical, ``"gaussian"`` every column continuous (see
        :mod:`estimators.ktan._columns`).
    alpha : float, default=1.0
        Pseudo-count of the CPTs (> 0), categorical features only.
    feature_types : "auto" or mapping, default="auto"
        Column types (:func:`estimators.columns.infer_feature_types`): ``"auto"`` or
        ``{{column: "continuous" | "categorical"}}``; recorded in ``feature_types_``.
    var_smoothing : float, default=1e-9
        Fraction of the largest continuous-feature variance added to residual variances.

    Attributes
    ----------
    structure_ : kgraph.AcyclicKTree
        The learned tree (k = 1) over the feature names.
    backbone_ : None
        TAN keeps no backbone.
    certificate_ : None
        TAN's spanning tree needs no certificate.
    score_ : float
        ``sum_v f(v, pa(v))`` of the tree, in nats (``I(X_v; X_pa(v) | Y)`` on single-type
        data).
    search_ : str
        The searcher that ran: ``"spanning-tree"`` (Kruskal, symmetric scores) or
        ``"arborescence"`` (Chu–Liu/Edmonds, directed scores of mixed tables).
    {attributes}
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

    Mixed columns and missing cells:

    >>> import pandas as pd
    >>> df = pd.DataFrame({{"colour": np.where(x0 == 1, "red", "blue"),
    ...                     "size": rng.normal(y, 1.0), "count": rng.integers(0, 3, 500)}})
    >>> df.loc[0, "size"] = np.nan
    >>> clf = TANClassifier().fit(df, y)
    >>> clf.family_, clf.search_, clf.feature_types_["size"]
    ('mixed', 'arborescence', 'continuous')
    >>> clf.predict_proba(df.iloc[:1]).sum().round(12)
    np.float64(1.0)
    """

    def __init__(self, *, features: str = "auto", alpha: float = 1.0,
                 feature_types="auto", var_smoothing: float = 1e-9):
        self.features = features
        self.alpha = alpha
        self.feature_types = feature_types
        self.var_smoothing = var_smoothing

    def _search_spec(self) -> tuple[int, str, object]:
        return 1, "backbone-dp", None


class KTANClassifier(BaseKTAN):
    """k-tree augmented naive Bayes: a maximum-score acyclic k-tree over the features.
    {common}
    With ``search="backbone-dp"`` the k-tree is the exact optimum among those containing a
    backbone path (paper 2, §5): ``backbone`` is a permutation of the features (names, or
    column indices) or the name of a method that derives one from the pair scores
    (``"given"``: column order, ``"mst-dfs"``, ``"greedy-path"``, ``"local-search"``); ``None`` means the exact
    maximum spanning tree (arborescence on mixed tables) for ``k = 1`` (so ``KTANClassifier(k=1)`` is
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
        ``"auto"`` leaves the column types to ``feature_types``; ``"discrete"`` makes
        every column categorical, ``"gaussian"`` every column continuous (see
        :mod:`estimators.ktan._columns`).
    alpha : float, default=1.0
        Pseudo-count of the CPTs (> 0), categorical features only.
    feature_types : "auto" or mapping, default="auto"
        Column types (:func:`estimators.columns.infer_feature_types`): ``"auto"`` or
        ``{{column: "continuous" | "categorical"}}``; recorded in ``feature_types_``.
    var_smoothing : float, default=1e-9
        Fraction of the largest continuous-feature variance added to residual variances.

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
        ``sum_v f(v, pa(v))`` of the k-tree, in nats (``I(X_v; X_pa(v) | Y)`` on
        single-type data).
    search_ : str
        The searcher that ran (``search``, or for ``k = 1`` without a backbone
        ``"spanning-tree"`` / ``"arborescence"`` as for :class:`TANClassifier`).
    {attributes}
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
        var_smoothing: float = 1e-9,
    ):
        self.k = k
        self.search = search
        self.backbone = backbone
        self.features = features
        self.alpha = alpha
        self.feature_types = feature_types
        self.var_smoothing = var_smoothing

    def _search_spec(self) -> tuple[int, str, object]:
        return self.k, self.search, self.backbone


TANClassifier.__doc__ = TANClassifier.__doc__.format(common=_DOC_COMMON,
                                                      attributes=_DOC_ATTRIBUTES)
KTANClassifier.__doc__ = KTANClassifier.__doc__.format(common=_DOC_COMMON,
                                                        attributes=_DOC_ATTRIBUTES)
