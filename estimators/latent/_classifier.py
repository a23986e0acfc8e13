"""LatentCNBClassifier: one LatentCNB per class, a supervised use of paper 3's model."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import _fit_context, clone

from estimators._joint import FEATURE_TYPES_CONSTRAINT, JointLogLikelihoodClassifier
from kgraph.plate import LatentCNBPlate

from ._family_base import check_rows_observed
from ._model import LatentCNB, plate_of
from ._params import LATENT_PARAMETER_CONSTRAINTS

__all__ = ["LatentCNBClassifier"]


class LatentCNBClassifier(JointLogLikelihoodClassifier):
    """Classifier that fits one :class:`LatentCNB` per class and predicts
    ``argmax_y ln p(y) + ELBO_y(x)`` (the ELBO standing in for ``ln p(x | y)``).

    Paper 3 uses the model unsupervised; this is the supervised comparison. NaN (or None)
    marks an unobserved feature, as in :class:`LatentCNB`. With the categorical family each
    class learns its own categories, so a value never seen in a class is scored by that
    class's pseudo-count slot.

    Parameters
    ----------
    n_components, prior, family, prior_params, var_floor, pseudo_count, max_iter, tol, \
n_init, e_step_max_iter, e_step_tol, random_state
        As in :class:`LatentCNB`; used by every per-class model.
    feature_types : "auto" or mapping, default="auto"
        Column types (:func:`estimators.columns.infer_feature_types`): ``"auto"`` or
        ``{column: "continuous" | "categorical"}``; recorded in ``feature_types_``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_log_prior_ : ndarray of shape (n_classes,)
        ``ln p(y)``, the class frequencies in the training data.
    estimators_ : list of LatentCNB
        The per-class models, in the order of ``classes_``.
    n_iter_ : ndarray of shape (n_classes,)
        EM iterations of each per-class model.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when X has string column names.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = LatentCNBClassifier(n_components=2, random_state=0).fit(X, y)
    >>> round(clf.score(X, y), 2)
    0.97
    >>> clf.predict_proba(X[:1]).round(3)
    array([[1., 0., 0.]])
    """

    _parameter_constraints: dict = {**LATENT_PARAMETER_CONSTRAINTS,
                                    "feature_types": FEATURE_TYPES_CONSTRAINT}

    def __init__(
        self,
        n_components: int = 3,
        *,
        prior: str = "dirichlet",
        family: str = "gaussian",
        prior_params: dict | None = None,
        var_floor: float = 1e-3,
        pseudo_count: float = 0.1,
        max_iter: int = 100,
        tol: float = 1e-4,
        n_init: int = 1,
        e_step_max_iter: int = 100,
        e_step_tol: float = 1e-4,
        random_state=None,
        feature_types="auto",
    ):
        self.n_components = n_components
        self.prior = prior
        self.family = family
        self.prior_params = prior_params
        self.var_floor = var_floor
        self.pseudo_count = pseudo_count
        self.max_iter = max_iter
        self.tol = tol
        self.n_init = n_init
        self.e_step_max_iter = e_step_max_iter
        self.e_step_tol = e_step_tol
        self.random_state = random_state
        self.feature_types = feature_types

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.string = self.family == "categorical"
        tags.input_tags.categorical = self.family == "categorical"
        return tags

    def _decoded_observed(self, enc) -> np.ndarray:
        """The encoded table in the values the family models (floats for ``"gaussian"``,
        categories for ``"categorical"``; NaN unobserved), every row with an observed
        feature."""
        X = self._decoded(enc, numeric=self.family == "gaussian")
        check_rows_observed(~np.asarray(pd.isna(X), dtype=bool))
        return X

    def _check_X(self, X) -> np.ndarray:
        """The template's prediction input, decoded (see :meth:`_decoded_observed`)."""
        return self._decoded_observed(super()._check_X(X))

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit one LatentCNB per class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self : LatentCNBClassifier
        """
        enc, y_index = self._validate_training(X, y)
        X = self._decoded_observed(enc)
        params = self.get_params()
        params.pop("feature_types")
        template = LatentCNB(**params)
        self.estimators_ = [clone(template).fit(X[y_index == c])
                            for c in range(self.classes_.size)]
        self.n_iter_ = np.array([model.n_iter_ for model in self.estimators_])
        return self

    def plate_graph(self) -> LatentCNBPlate:
        """The plate graph every per-class model shares (each class has its own θ and its
        own rows' mixing weights; the structure is the same)."""
        return plate_of(self)

    def _joint_log_likelihood(self, X: np.ndarray) -> np.ndarray:
        scores = np.column_stack([model.score_samples(X) for model in self.estimators_])
        return scores + self.class_log_prior_

