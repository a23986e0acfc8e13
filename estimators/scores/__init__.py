"""Hyperedge scores (MATH.md §1): class-conditional mutual information and its relatives.

Each score is fitted with ``fit(X, y)`` and is then a callable ``score(v, parents) -> float``
giving ``I(X_v; X_parents | Y)`` in nats, with ``edge_matrix()`` for all pairs at once and
``score_many`` for batches of hyperedges, both computed in parallel chunks through joblib.
Scores are registered by name and feature family in :data:`SCORES`
(:func:`register_score`; other packages through the ``kgraph.scores`` entry point, see
:mod:`estimators.learning.plugin_registry`).

The score protocol
------------------
What an object must provide to serve as the structure score of the classifiers
(``KTANClassifier(structure_score=obj)``, ``KGNBClassifier(structure_score=obj)``, or a
factory of such objects registered by name). :class:`BaseCMI` provides all of it and is the
convenient base, not a requirement; :func:`estimators.testing.check_score` checks it.

Required

* ``fit(X, y) -> self``. ``X`` is a pandas DataFrame whose columns are the variables (the
  feature names); ``y`` holds the class codes ``0 .. m-1``. For the ``"discrete"`` family
  ``X`` holds the category codes ``0 .. c-1`` of complete categorical columns; for
  ``"gaussian"`` the floats of complete continuous columns. Fitting must not depend on
  anything but its parameters and the data (the same data give the same scores).
* ``score(v, parents) -> float`` after ``fit``: the hyperedge score of variable ``v`` with
  the parent set ``parents`` (a frozenset of variables; empty is allowed), larger is
  better, finite or ``-inf`` (an ineligible hyperedge), never NaN.

The classifiers learn the acyclic k-tree maximising ``sum_v score(v, pa(v))``: a score is
*decomposable* by construction (one term per vertex and its parents), and need be neither
symmetric nor a mutual information. The same ``score(v, parents)`` serves the searchers over
DAGs (:func:`estimators.search.hill_climb_dag`, BAN): it is read as the local score of the
family (v | parents, class) minus that of (v | class), a term that does not depend on the
structure, so ``sum_v score(v, pa(v))`` ranks DAGs as the family scores do (BIC, BDeu and
the conditional Gaussian BIC are such differences by construction); no other method is
needed, but the score must answer every parent set up to the in-degree searched. The parameters of a classifier holding a score object
are cloned with :func:`sklearn.base.clone` (``get_params`` when the object has it, a deep
copy otherwise) and pickled, so the object must pickle.

Optional

* ``families``: the feature families it serves, among ``"discrete"``, ``"gaussian"`` and
  ``"mixed"`` (the latter: mixed column types or missing cells, fitted through
  ``fit_encoded(enc, y_codes, classes)`` as :class:`ConditionalGaussianScore`). A
  registered score's families are its registry entry's keys. The built-in classes declare
  theirs (``DiscreteCMI`` and ``DiscreteBDeu``: discrete; ``GaussianCMI``,
  ``GaussianCopulaCMI``, ``KDECopulaCMI``: gaussian; ``ConditionalGaussianScore`` and
  ``ConditionalGaussianBIC``: mixed; ``BIC``: its base's), so a subclass inherits them.
* ``max_parents``: the largest parent set it answers (None or absent: any); the classifier
  refuses a larger ``k`` before fitting.
* ``symmetric``: True when ``score(i, {j}) == score(j, {i})`` (checked by ``check_score``);
  an asymmetric score is searched by its directed pair scores (``k = 1``: the maximum
  spanning arborescence).
* ``score_many(items) -> ndarray`` and ``edge_matrix() -> ndarray`` (``W[i, j] = score(j,
  {i})``), for speed; without them the classifier loops over ``score`` (and caches it).
* ``score_positions(V, P) -> ndarray``: hyperedges as arrays of positions in
  ``variables_`` (V (N,), P (N, j), each row ascending), no Python work per hyperedge; the
  backbone DP's score tables use it when present (:class:`ConditionalGaussianScore` has it).
* ``variables_``: the fitted variables, in column order.

Examples
--------
>>> import numpy as np
>>> from estimators.scores import GaussianCMI
>>> rng = np.random.default_rng(1)
>>> X, y = rng.normal(size=(500, 4)), rng.integers(0, 2, 500)
>>> W = GaussianCMI().fit(X, y).edge_matrix()
>>> bool(np.allclose(W, W.T)), float(W.trace())
(True, 0.0)
"""

from ._cg_bic import ConditionalGaussianBIC
from ._conditional_gaussian import ConditionalGaussianScore
from ._discrete import DiscreteCMI
from ._gaussian_cmi import GaussianCMI, GaussianCopulaCMI
from ._kde_copula import KDECopulaCMI, copula_mi_normal_scores
from ._penalised import BIC, DiscreteBDeu
from ._protocol import (
    FittedScore,
    as_fitted_score,
    declared_families,
    max_parents,
    unfitted_score,
)
from ._score_base import BaseCMI
from ._score_registry import (
    BUILTIN_SCORES,
    FAMILIES,
    SCORES,
    load_score_plugins,
    make_score,
    register_score,
    score_names,
)

__all__ = [
    "BIC",
    "BUILTIN_SCORES",
    "FAMILIES",
    "FittedScore",
    "SCORES",
    "BaseCMI",
    "ConditionalGaussianBIC",
    "ConditionalGaussianScore",
    "DiscreteBDeu",
    "DiscreteCMI",
    "GaussianCMI",
    "GaussianCopulaCMI",
    "KDECopulaCMI",
    "as_fitted_score",
    "declared_families",
    "copula_mi_normal_scores",
    "load_score_plugins",
    "make_score",
    "max_parents",
    "register_score",
    "score_names",
    "unfitted_score",
]
