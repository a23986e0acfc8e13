"""LatentCNB: the latent conditional Naive Bayes model of paper 3."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    DensityMixin,
    TransformerMixin,
    _fit_context,
)
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, validate_data

from estimators.base.parameters import declare
from estimators.base.user_warnings import named_errors, user_fit
from estimators.base.validation import DegenerateFeatureWarning, check_cells
from estimators.columns import EncodedColumns, MixedEncoder
from kgraph.plate import LatentCNBPlate

from ._em import fit_em
from ._estep import EStepResult, e_step
from ._family_base import check_rows_observed
from ._mixed import MixedFamily, encoder_feature_types
from ._params import LATENT_PARAMETERS, LatentSettings
from ._prior_family_registry import make_prior

__all__ = ["LatentCNB"]


@declare(*LATENT_PARAMETERS)
class LatentCNB(LatentSettings, ClassNamePrefixFeaturesOutMixin, TransformerMixin, DensityMixin,
                BaseEstimator):
    """Latent conditional Naive Bayes (LD-, LGD-, LBL-CNB; paper 3), fitted by variational EM.

    Each row i draws its own mixing weights ``pi_i`` from the prior; each *observed* feature
    j draws a component ``z_ij ~ Cat(pi_i)`` and its value from that component's
    distribution for feature j. A missing cell (NaN, None, pandas NA, empty string) is an
    unobserved feature: the row is modelled on its observed features only. Formulas:
    MATH.md §6.

    Column types are decided once at ``fit`` (:class:`estimators.columns.MixedEncoder`,
    recorded in ``feature_types_``): with ``family="auto"`` a continuous column gets a
    Gaussian and a categorical one (strings, bools, numbers with at most 3 distinct values,
    integer codes with at most 10 values) a categorical distribution, in one model; constant
    columns are left out. A category never seen in training is coded as missing, so it is
    an unobserved feature (marginalised), never an error.

    Attributes
    ----------
    prior_ : Prior
        The prior with its resolved parameters.
    family_ : MixedFamily
        The fitted family: modelled columns (``columns_``, ``kinds_``), categories, scales.
    encoder_ : MixedEncoder
        Column types and categories.
    feature_types_ : dict
        Column -> ``"continuous" | "categorical" | "constant"``, by the rule of
        :mod:`estimators.columns` unless ``feature_types`` names the column: a numeric
        column with at most 3 distinct values is categorical whatever they are, as is
        one of at most 10 integers.
    params_ : dict
        Component parameters: ``means`` and ``variances`` (K, d_continuous) of the
        continuous columns; ``probabilities`` (a list of (K, r_j + 1) arrays, last column
        the unseen slot) of the categorical ones, each in table order.
    converged_ : bool
    n_iter_ : int
    lower_bound_ : float
        Objective of the best run: mean per-row ELBO (plus, for the categorical family, the
        pseudo-count penalty ``pseudo_count * sum ln p`` divided by n).
    lower_bounds_ : list of float
        The objective after each EM iteration of the best run (never decreasing).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when X has string column names.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = np.concatenate([rng.normal(-3, 1, (50, 4)), rng.normal(3, 1, (50, 4))])
    >>> X[::7, 1] = np.nan  # unobserved entries
    >>> model = LatentCNB(n_components=2, random_state=0).fit(X)
    >>> bool(np.all(np.diff(model.lower_bounds_) >= 0))
    True
    >>> sorted(model.params_["means"][:, 0].round(0).tolist())
    [-3.0, 3.0]
    >>> model.transform(X[:1]).sum().round(6)
    np.float64(1.0)
    """

    def _encode(self, X, *, reset: bool) -> EncodedColumns:
        """X validated (scikit-learn's checks, dtypes kept) and encoded; at ``reset`` the
        column types are decided (``encoder_``, ``feature_types_``)."""
        checked = validate_data(self, X, reset=reset, dtype=None, ensure_all_finite=False,
                                ensure_min_samples=2 if reset else 1)
        raw = X if isinstance(X, pd.DataFrame) else checked
        names = list(raw.columns) if isinstance(raw, pd.DataFrame) else list(
            range(raw.shape[1]))
        with named_errors(type(self).__name__):  # predict too
            check_cells(raw, names, allow_nan=True)
        if reset:
            types = encoder_feature_types(names, self.family, self.feature_types)
            self.encoder_ = MixedEncoder(types).fit(raw)
            self.feature_types_ = dict(self.encoder_.feature_types_)
        return self.encoder_.transform(raw)

    @_fit_context(prefer_skip_nested_validation=True)
    @user_fit
    def fit(self, X, y=None):
        """Fit the model by variational EM.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Missing cells (NaN, None, empty strings) mark unobserved features; every row
            needs one observed value in a modelled (non-constant) column.
        y : Ignored

        Returns
        -------
        self : LatentCNB
        """
        enc = self._encode(X, reset=True)
        constant = [c for c, t in zip(enc.names, enc.types, strict=True) if t == "constant"]
        if len(constant) == len(enc.names):
            raise ValueError(f"Every column of X is constant ({constant}); "
                             "LatentCNB needs a column with two distinct values.")
        if constant:
            warnings.warn(f"LatentCNB: column(s) {constant} of X take fewer than two distinct "
                          "values; they carry no information and leave the model.",
                          DegenerateFeatureWarning, stacklevel=2)
        return self._fit_encoded(enc, require_observed=True)

    def _fit_encoded(self, enc: EncodedColumns, *, pooled=None, require_observed=False):
        """Variational EM on an encoded table (a classifier passes one class's rows and
        the ``pooled`` moments of its whole training set)."""
        self.prior_ = make_prior(self.prior, self.n_components, self.prior_params)
        self.family_ = MixedFamily(self.var_floor, self.pseudo_count, pooled)
        data, mask = self.family_.encode(enc, fit=True)
        if require_observed:
            check_rows_observed(mask)
        result = fit_em(
            self.prior_,
            self.family_,
            data,
            mask,
            n_components=self.n_components,
            max_iter=self.max_iter,
            tol=self.tol,
            n_init=self.n_init,
            e_step_max_iter=self.e_step_max_iter,
            e_step_tol=self.e_step_tol,
            rng=np.random.default_rng(check_random_state(self.random_state).randint(2**31)),
        )
        self.params_ = result.theta
        self.converged_ = result.converged
        self.n_iter_ = result.n_iter
        self.lower_bound_ = result.lower_bound
        self.lower_bounds_ = result.lower_bounds
        self._n_features_out = self.n_components
        return self

    def _infer_encoded(self, enc: EncodedColumns, *, require_observed=True):
        data, mask = self.family_.encode(enc, fit=False)
        if require_observed:
            check_rows_observed(mask)
        loglik = self.family_.log_likelihood(self.params_, data, mask)
        result = e_step(
            self.prior_, loglik, mask, max_iter=self.e_step_max_iter, tol=self.e_step_tol
        )
        return result, mask

    def _infer(self, X) -> tuple[EStepResult, np.ndarray]:
        check_is_fitted(self)
        return self._infer_encoded(self._encode(X, reset=False))

    def score_samples(self, X) -> np.ndarray:
        """Per-row ELBO, a lower bound of ``ln p(x_i)`` over the row's observed features.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        elbo : ndarray of shape (n_samples,)
        """
        return self._infer(X)[0].elbo

    def score(self, X, y=None) -> float:
        """Mean per-row ELBO of X."""
        return float(self.score_samples(X).mean())

    def transform(self, X) -> np.ndarray:
        """Expected mixing weights ``E_q[pi_i]`` of each row (rows sum to 1)."""
        result, _ = self._infer(X)
        return self.prior_.expected_weights(result.q)

    def predict(self, X) -> np.ndarray:
        """Dominant component of each row: the argmax of ``E_q[pi_i]``."""
        return self.transform(X).argmax(axis=1)

    def fit_predict(self, X, y=None) -> np.ndarray:
        """Fit, then predict the dominant component of each training row."""
        return self.fit(X).predict(X)

    def plate_graph(self) -> LatentCNBPlate:
        """The model's plate graph (pi -> z_j -> x_j <- theta_j) as a kgraph structure.

        Examples
        --------
        >>> import numpy as np
        >>> model = LatentCNB(2, random_state=0).fit(np.arange(12.0).reshape(6, 2) / 7)
        >>> model.plate_graph()
        LatentCNBPlate(features=[0, 1], n_components=2, prior='dirichlet', family='gaussian')
        """
        return plate_of(self)

    def perplexity(self, X, per: str = "feature") -> float:
        """Perplexity ``exp(-sum_i ELBO_i / sum_i m_i)`` (paper 3, eqs. 32-33).

        ``per="feature"`` divides by the number of observed entries (eq. 32), ``per="row"``
        by the number of rows (eq. 33). The ELBO replaces ``ln p(x_i)``, so the value is an
        upper bound of the true perplexity. For the Gaussian family it is a density-based
        figure (it depends on the units of X and can be below 1).

        Examples
        --------
        >>> import numpy as np
        >>> X = np.random.default_rng(1).normal(size=(40, 3))
        >>> model = LatentCNB(n_components=1, random_state=0).fit(X)
        >>> elbo = model.score_samples(X)
        >>> bool(np.isclose(model.perplexity(X), np.exp(-elbo.sum() / X.size)))
        True
        """
        if per not in ("feature", "row"):
            raise ValueError(f"per must be 'feature' or 'row'. Got {per!r} instead.")
        result, mask = self._infer(X)
        total = mask.sum() if per == "feature" else mask.shape[0]
        return float(np.exp(-result.elbo.sum() / total))


def plate_of(estimator) -> LatentCNBPlate:
    """The plate graph of a fitted LatentCNB or LatentCNBClassifier: its modelled features
    (constant columns left out) by name, and their family (``"gaussian"``,
    ``"categorical"``, or ``"mixed"`` when both occur)."""
    check_is_fitted(estimator)
    names = getattr(estimator, "feature_names_in_", None)
    features = list(range(estimator.n_features_in_)) if names is None else names.tolist()
    family = getattr(estimator, "family_", None) or estimator.estimators_[0].family_
    kinds = set(family.kinds_)
    label = "mixed" if len(kinds) > 1 else {"continuous": "gaussian"}.get(
        next(iter(kinds), ""), "categorical")
    components = getattr(estimator, "n_components_", estimator.n_components)  # "auto": chosen
    return LatentCNBPlate([features[j] for j in family.columns_], components,
                          estimator.prior, label)
