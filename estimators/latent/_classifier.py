"""LatentCNBClassifier: one LatentCNB per class, a supervised use of paper 3's model."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import _fit_context, clone
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from estimators._joint import JointLogLikelihoodClassifier
from kgraph.plate import LatentCNBPlate

from ._family_base import check_no_inf, check_rows_observed
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

    _parameter_constraints: dict = dict(LATENT_PARAMETER_CONSTRAINTS)

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

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.string = self.family == "categorical"
        tags.input_tags.categorical = self.family == "categorical"
        return tags

    def _check_X(self, X, y=None, *, reset: bool):
        kwargs = dict(
            reset=reset,
            dtype=np.float64 if self.family == "gaussian" else None,
            ensure_all_finite=False,
        )
        if reset:
            X, y = validate_data(self, X, y, **kwargs)
        else:
            X = validate_data(self, X, **kwargs)
        check_no_inf(X, getattr(self, "feature_names_in_", None))
        check_rows_observed(~np.asarray(pd.isna(X), dtype=bool))
        return X, y

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
        X, y = self._check_X(X, y, reset=True)
        check_classification_targets(y)
        self.classes_, y_index, counts = np.unique(y, return_inverse=True, return_counts=True)
        self.class_log_prior_ = np.log(counts / counts.sum())
        template = LatentCNB(**self.get_params())
        self.estimators_ = [clone(template).fit(X[y_index == c]) for c in range(counts.size)]
        self.n_iter_ = np.array([model.n_iter_ for model in self.estimators_])
        return self

    def plate_graph(self) -> LatentCNBPlate:
        """The plate graph every per-class model shares (each class has its own θ and its
        own rows' mixing weights; the structure is the same)."""
        return plate_of(self)

    def _joint_log_likelihood(self, X) -> np.ndarray:
        check_is_fitted(self)
        X, _ = self._check_X(X, reset=False)
        scores = np.column_stack([model.score_samples(X) for model in self.estimators_])
        return scores + self.class_log_prior_

