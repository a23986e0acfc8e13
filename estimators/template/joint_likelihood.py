"""The classifier template of the Naive-Bayes family (scikit-learn's ``_BaseNB`` pattern).

The template owns input validation, column types and prediction; a family writes only
:meth:`~JointLogLikelihoodClassifier._joint_log_likelihood` on an encoded table (and calls
:meth:`~JointLogLikelihoodClassifier._validate_training` first thing in ``fit``). So the
same input gets the same treatment in every family:

- X is checked in one place, :meth:`~JointLogLikelihoodClassifier._validate_X`, keeping its
  dtypes (a family parametrises only ``_min_features``): infinity is refused naming the
  column; missing cells (NaN, None, pandas NA, empty strings) are accepted when the
  family's ``allow_nan`` tag is set (the default) and refused naming the column otherwise;
- the column types are decided once at ``fit`` by :class:`estimators.columns.MixedEncoder`
  (the ``feature_types`` parameter of every classifier: ``"auto"`` or a mapping
  ``{column: "continuous" | "categorical"}``); constant columns are named in one warning
  and listed in ``constant_features_``; X reaches the family as an
  :class:`~estimators.columns.EncodedColumns` (floats for continuous columns, codes for
  categorical ones; a category unseen in training is coded ``-1``, i.e. treated as a
  missing cell and marginalised);
- training needs at least two rows and at least two classes; ``y`` must match X's rows;
- prediction checks the model is fitted and that X has the training features;
- ``feature_selection=`` (families with that parameter call
  :meth:`~JointLogLikelihoodClassifier._select_features` on their non-constant columns):
  the class's Markov blanket or selective naive Bayes's forward selection
  (:mod:`estimators.learning.feature_selection`) chooses the modelled columns, the others are
  ignored at prediction;
- ``parameters="discriminative"`` (families that expose their factors through
  :meth:`~JointLogLikelihoodClassifier._log_linear_factors`) refits the parameters on the
  learned structure by maximising the conditional log-likelihood
  (:mod:`estimators.discriminative`): the family calls
  :meth:`~JointLogLikelihoodClassifier._fit_parameters` at the end of ``fit`` (a fit from
  partitions: the same method on the partitions, every L-BFGS evaluation reduced over them) and
  prediction uses the discriminative scores in place of ``ln p(y, x)``.
"""

from __future__ import annotations

import warnings
from abc import ABCMeta, abstractmethod
from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from estimators.base.parameters import Flag, Parameter
from estimators.base.user_warnings import named_errors, user_fit, warn_user
from estimators.base.validation import (
    DegenerateFeatureWarning,
    as_written,
    check_cells,
    non_constant_columns,
)
from estimators.columns import DISCRETIZERS, DiscretisingEncoder, EncodedColumns, MixedEncoder
from estimators.columns.feature_families import FEATURE_FAMILIES
from estimators.discriminative import (
    PARAMETERS,
    Discriminative,
    fit_parameters,
    fit_parameters_partitioned,
    resolve_parameters,
)
from estimators.learning.feature_selection import FEATURE_SELECTORS, select_features
from estimators.learning.model_selection import fixed_seed
from estimators.network.cg_pairs import statistics_table
from estimators.network.stats_factors import StatsTable
from estimators.semiparametric import KINDS, Semiparametric
from estimators.stats.class_information import class_information
from estimators.stats.dask_collections import is_dask
from estimators.stats.engine import partition_dispatch
from estimators.stats.partitions import Partitions, column_kinds, empty_encoded

__all__ = ["CONTINUOUS", "DISCRETIZE", "FEATURES", "FEATURE_SELECTION", "FEATURE_SELECTION_CONSTRAINT",
           "FEATURE_TYPES", "FEATURE_TYPES_CONSTRAINT", "FIT_PARAMETERS",
           "JointLogLikelihoodClassifier", "PARAMETERS_CONSTRAINT"]

#: the ``_parameter_constraints`` entry of every classifier's ``feature_types``
FEATURE_TYPES_CONSTRAINT = [StrOptions({"auto"}), Mapping]
#: ... and of ``parameters`` (the families with :meth:`_log_linear_factors`)
PARAMETERS_CONSTRAINT = [StrOptions(set(PARAMETERS)), Discriminative]
#: ... and of ``feature_selection`` (a name of
#: :data:`estimators.learning.feature_selection.FEATURE_SELECTORS`, or None: all features)
FEATURE_SELECTION_CONSTRAINT = [None, StrOptions(set(FEATURE_SELECTORS))]

# -- the template's parameters, declared once (estimators.base.parameters) --------------------
FEATURE_TYPES = Parameter(
    "feature_types", "auto", FEATURE_TYPES_CONSTRAINT, '"auto" or mapping',
    'Column types (:func:`estimators.columns.infer_feature_types`): ``"auto"`` or '
    '``{column: "continuous" | "categorical"}``; recorded in ``feature_types_`` (a '
    'numeric column with at most 3 distinct values is categorical, whatever the values).')
FIT_PARAMETERS = Parameter(
    "parameters", "generative", PARAMETERS_CONSTRAINT,
    '{"generative", "discriminative"} or Discriminative',
    '``"generative"``: the factors above. ``"discriminative"``: keep the structure and '
    'refit its parameters by maximising the L2-penalised conditional log-likelihood '
    '(log-linear cells of every factor, penalty centred on the generative parameters, '
    'missing cells marginalised by the generative factors they touch; see '
    ':mod:`estimators.discriminative`); ``discriminative_`` holds them; on categorical '
    'features ``to_pgmpy`` gives the equivalent Bayesian network (MATH.md §10.1).',
    Flag("fit the parameters of the learned structure by maximising the conditional "
         "log-likelihood (discriminative)", choices="parameters"))
FEATURE_SELECTION = Parameter(
    "feature_selection", None, FEATURE_SELECTION_CONSTRAINT,
    '{"selective-nb", "markov-blanket"} or None',
    "Which features are modelled (:func:`estimators.learning.feature_selection.select_features`); "
    "None: all non-constant ones.")
FEATURES = Parameter(
    "features", "auto", [StrOptions(set(FEATURE_FAMILIES))], '{"auto", "discrete", "gaussian"}',
    '``"auto"`` leaves the column types to ``feature_types``; ``"discrete"`` makes every '
    'column categorical, ``"gaussian"`` every column continuous (see '
    ':mod:`estimators.columns.feature_families`).',
    Flag("feature model", choices="features"))
CONTINUOUS = Parameter(
    "continuous", "gaussian", [StrOptions(set(KINDS)), Semiparametric],
    '{"gaussian", "copula", "ckde", "auto"} or Semiparametric',
    'How continuous features are modelled (MATH.md §11, '
    ':mod:`estimators.semiparametric`): linear-Gaussian regressions (the factors above), '
    'a class-conditional Gaussian copula with kernel margins, conditional kernel '
    'densities, or per feature the one with the best cross-validated likelihood. The '
    'non-Gaussian kinds learn the structure on the class-conditional normal scores (the '
    "copula's CMI), floor bandwidths and variances, and are generative only; "
    "``factor_kinds_`` names each feature's kind.",
    Flag("continuous factors: linear Gaussian, Gaussian copula with kernel margins, "
         "conditional KDE, or chosen per feature by CV (auto: the best held-out density, "
         "and the class dropped from the features whose evidence does not raise the "
         "out-of-fold conditional likelihood)", choices="continuous"))
DISCRETIZE = Parameter(
    "discretize", None, [None, StrOptions(set(DISCRETIZERS))], '{"mdl"} or None',
    '``"mdl"``: cut every continuous column into intervals on the training rows by '
    "Fayyad and Irani's entropy split with the MDL stopping rule (Weka's supervised "
    '``Discretize``; :mod:`estimators.columns.mdl_discretisation`) and model it as a '
    'categorical column whose states are the intervals (``cut_points_`` holds each '
    "column's cut points; a column with no accepted cut is one interval and leaves the "
    'model, as a constant column does; missing cells stay missing). None: continuous '
    'columns stay continuous.',
    Flag("discretise every continuous column by its supervised MDL cut points "
         "(Fayyad and Irani) and model it as categorical", choices="discretize"))


#: the refusal of a Dask collection by a family that fits from rows only
_NO_STATISTICS = ("{owner} cannot be fitted from a Dask collection (partition statistics); "
                  "TANClassifier, KTANClassifier, NaiveBayesClassifier, AODEClassifier and "
                  "GNBClassifier(dependence='gaussian') can. Compute a sample into memory for "
                  "the others.")


class JointLogLikelihoodClassifier(ClassifierMixin, BaseEstimator, metaclass=ABCMeta):
    """Base of the GNB, k-GNB, TAN, k-TAN and latent-CNB classifiers: a subclass supplies
    :meth:`_joint_log_likelihood`; validation, prediction, posteriors and their logs are
    written here once."""

    #: the fewest feature columns the family can model
    _min_features: int = 1
    #: whether the family learns dependences between features given the class (then a
    #: feature constant within a class is named in one warning, by the class's label)
    _learns_dependence: bool = False

    # -- the one place X is converted -------------------------------------------------------
    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

    def feature_names(self) -> list[str]:
        """Variable names of the fitted features (pandas columns, else ``x0, x1, ...``)."""
        if hasattr(self, "feature_names_in_"):
            return [str(c) for c in self.feature_names_in_]
        return [f"x{j}" for j in range(self.n_features_in_)]

    def _validate_X(self, X, y=None, *, reset: bool):
        """``(raw, X, y)``: scikit-learn's checks (shape, feature names, ``y``) on ``X`` kept
        in its own dtypes, then cells that are no scalar, infinity, and (unless the
        family's ``allow_nan`` tag is set) missing cells refused naming the column. ``raw``
        is what the encoder reads: the DataFrame itself (its dtypes decide the types) or
        the validated array."""
        if isinstance(X, Partitions):  # the families that fit from it dispatch before
            raise TypeError(_NO_STATISTICS.format(owner=type(self).__name__))
        if is_dask(X):  # refused with the way that works (never computed by accident)
            raise TypeError(f"{type(self).__name__} got a Dask collection: fit with "
                            "clf.fit(estimators.distributed.collect(X, y)) and predict with "
                            "estimators.distributed.predict_dask(clf, X).")
        kwargs = dict(reset=reset, dtype=None, ensure_all_finite=False,
                      ensure_min_features=self._min_features if reset else 1,
                      ensure_min_samples=2 if reset else 1)
        raw = X
        if reset:
            X, y = validate_data(self, _checkable(X), y, **kwargs)
        else:
            X = validate_data(self, _checkable(X), **kwargs)
        if not (isinstance(raw, pd.DataFrame)
                and (reset or list(raw.columns) == list(self.encoder_.feature_names_in_))):
            raw = X
        with named_errors(type(self).__name__):  # predict too
            check_cells(raw, self.feature_names(),
                        allow_nan=self.__sklearn_tags__().input_tags.allow_nan)
        return raw, X, y

    def _feature_types_by_column(self, raw) -> str | dict:
        """The ``feature_types`` parameter with keys the encoder knows: for an array, the
        names ``x0, x1, ...`` become column indices."""
        types = self.feature_types
        if isinstance(types, str) or isinstance(raw, pd.DataFrame):
            return types
        index = {name: j for j, name in enumerate(self.feature_names())}
        return {index.get(key, key): kind for key, kind in types.items()}

    def _validate_training(self, X, y) -> tuple[EncodedColumns, np.ndarray]:
        """Validate a training set and decide the column types once.

        Sets ``classes_``, ``class_count_``, ``class_log_prior_``, ``class_information_``
        (I(X_j; C) in nats per column, :mod:`estimators.stats.class_information`), ``n_features_in_``,
        ``feature_names_in_`` (DataFrames with string column names), ``encoder_`` (the
        fitted :class:`~estimators.columns.MixedEncoder`), ``feature_types_`` (feature name
        -> ``"continuous" | "categorical" | "constant"``) and ``constant_features_``, and
        warns once (:class:`~estimators.base.validation.DegenerateFeatureWarning`) naming the
        constant columns, which leave the structure. Returns the encoded table and the
        class codes ``0 .. m - 1``.
        """
        raw, _, y = self._validate_X(X, y, reset=True)
        _check_one_label_type(y)
        check_classification_targets(y)
        self.classes_, codes, counts = np.unique(y, return_inverse=True, return_counts=True)
        if self.classes_.size < 2:
            raise ValueError(
                f"{type(self).__name__} needs samples of at least 2 classes in y; got one "
                f"class only ({self.classes_.tolist()[0]!r})."
            )
        self.class_count_ = counts
        self.class_log_prior_ = np.log(counts / counts.sum())
        self.encoder_ = self._fitted_encoder(raw, codes)
        enc = self.encoder_.transform(raw)
        self.class_information_ = class_information(enc, codes, self.classes_.size)
        self._record_types(enc.types, stacklevel=4)
        if self._learns_dependence:
            self._warn_constant_within_class(enc, codes)
        self._check_model_size(enc)
        return enc, codes

    def _fitted_encoder(self, raw, codes: np.ndarray) -> MixedEncoder:
        """The encoder of the training table ``raw``: a :class:`MixedEncoder`, or with
        ``discretize`` (the families that declare it) a
        :class:`~estimators.columns.DiscretisingEncoder` fitted on the class ``codes``, whose
        cut points are then ``cut_points_`` (feature name -> sorted cut points)."""
        types = self._feature_types_by_column(raw)
        method = getattr(self, "discretize", None)
        if method is None:
            self.__dict__.pop("cut_points_", None)  # of an earlier fit
            return MixedEncoder(types).fit(raw)
        encoder = DiscretisingEncoder(types, method).fit(raw, codes)
        names = dict(zip(encoder.feature_names_in_, self.feature_names(), strict=True))
        self.cut_points_ = {names[c]: cuts for c, cuts in encoder.cut_points_.items()}
        return encoder

    def _check_model_size(self, enc: EncodedColumns) -> None:
        """Refuse, before any work, a fit whose tables would be over the size limits
        (:mod:`estimators.base.model_size`; ``enc``: the training table, or its column types
        and levels only). The families whose cost grows exponentially in an option write
        it; the others build tables no larger than the data."""

    def _warn_constant_within_class(self, enc: EncodedColumns, codes: np.ndarray) -> None:
        """One :class:`~estimators.base.validation.DegenerateFeatureWarning` naming, by class
        label, the features whose observed values are all equal within a class of at least
        two rows (that class adds no dependence for them; the scores fitted inside ``fit``
        see class codes and leave this note to the classifier)."""
        kept = np.array([j for j, t in enumerate(enc.types) if t != "constant"], dtype=int)
        flat = constant_by_class(enc, kept, codes, self.classes_.size)
        flat[self.class_count_ < 2] = False  # a one-row class is warned about as such
        names = self.feature_names()
        labels = self.classes_.tolist()
        parts = [f"class {labels[c]!r}: {[names[kept[j]] for j in np.flatnonzero(row)]}"
                 for c, row in enumerate(flat) if row.any()]
        if parts:
            warn_user(f"{type(self).__name__}: feature(s) constant within a class, which "
                      f"then contributes no dependence for them: {'; '.join(parts)}.",
                      DegenerateFeatureWarning)

    # -- fitting from partition statistics (estimators.stats.partitions) ------------------
    #: the fewest training rows per class a fit from partition statistics accepts
    _min_class_rows: int = 2

    def _needs_rows(self) -> str | None:
        """The setting of this fit that needs the training rows (as written, e.g.
        ``"feature_selection='selective-nb'"``), or None: a fit from partitions refuses it,
        naming it, before any pass over them. A family that fits from statistics extends
        it with its own row-only options (kernel densities, widths chosen by CV)."""
        if getattr(self, "discretize", None) is not None:  # cut points need sorted rows
            return f"discretize={self.discretize!r}"
        method = getattr(self, "feature_selection", None)
        # "auto" with a fixed width (k-TAN) models all the features
        return None if method in (None, "auto") else f"feature_selection={method!r}"

    def _fit_statistics(self, data: Partitions):
        """The fit from :class:`~estimators.stats.partitions.Partitions` (what :meth:`fit`
        runs on them): the row-only settings (:meth:`_needs_rows`) refused at once, then
        the statistics built once through one adapter
        (:func:`~estimators.network.cg_pairs.statistics_table`: class moments, pair counts
        and level moments as the column types need), the attributes of
        :meth:`_validate_training` set from them, and the family's
        :meth:`_fit_from_statistics` on them."""
        owner = type(self).__name__
        data = data.with_owner(owner)
        self._validate_params()
        if type(self)._fit_from_statistics is JointLogLikelihoodClassifier._fit_from_statistics:
            raise TypeError(_NO_STATISTICS.format(owner=owner))
        reason = self._needs_rows()
        if reason is not None:
            raise ValueError(f"{owner}({reason}) needs the rows in memory; fit it on a sample "
                             "computed into memory, or leave that setting at its default on a "
                             "Dask collection.")
        encoder, table, classes = statistics_table(data, self._continuous_columns(data))
        self._set_classes_from_statistics(classes, table.class_counts, data,
                                          self._min_class_rows)
        enc = self._set_encoder_from_statistics(encoder)
        self.class_information_ = table.class_information()
        return self._fit_from_statistics(enc, table, data)

    def _fit_from_statistics(self, enc: EncodedColumns, table: StatsTable, data: Partitions):
        """The family's fit from the statistics ``table`` of :meth:`_fit_statistics` (``enc``:
        the encoded table of no rows, i.e. the column types and levels; ``data``: the
        partitions, for a statistic the table does not hold or the discriminative
        parameters). A family that fits from partitions writes it."""

    def _continuous_columns(self, data: Partitions) -> np.ndarray:
        """Which columns of partitioned data are continuous: from ``features``, a
        ``feature_types`` mapping or the in-memory typing rule
        (:func:`~estimators.stats.partitions.column_kinds`)."""
        features = getattr(self, "features", "auto")
        if features != "auto":
            return np.full(len(data.names), features == "gaussian")
        return column_kinds(data, getattr(self, "feature_types", "auto"))

    def _set_classes_from_statistics(self, classes: np.ndarray, counts: np.ndarray,
                                     data: Partitions, min_rows: int) -> None:
        """The class and feature-name attributes of :meth:`_validate_training`, from the
        class counts of partitioned data (at least ``min_rows`` rows per class)."""
        owner = type(self).__name__
        if classes.size < 2:
            raise ValueError(f"{owner} needs samples of at least 2 classes in y; got one class "
                             f"only ({classes.tolist()[0]!r}).")
        low = np.flatnonzero(counts < min_rows)
        if low.size:
            c = int(low[0])
            raise ValueError(f"Class {as_written(classes[c])} has {int(counts[c])} training "
                             f"row(s); "
                             f"{owner} needs at least {min_rows} rows per class.")
        if len(data.names) < 2:
            raise ValueError(f"{owner} needs at least 2 feature columns; got {len(data.names)}.")
        self.classes_ = classes
        self.class_count_ = counts.astype(np.int64)
        self.class_log_prior_ = np.log(counts / counts.sum())
        self.n_features_in_ = len(data.names)
        if not data.from_array and all(isinstance(c, str) for c in data.names):
            self.feature_names_in_ = np.asarray(data.names, dtype=object)
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_

    def _set_encoder_from_statistics(self, encoder: MixedEncoder) -> EncodedColumns:
        """``encoder_``, ``feature_types_``, ``constant_features_`` (and the warning) as
        :meth:`_validate_training` sets them; returns the encoded table of no rows (the
        column types and levels)."""
        self.encoder_ = encoder
        empty = empty_encoded(encoder)
        self._record_types(empty.types, stacklevel=5)
        self._check_model_size(empty)
        return empty

    def _record_types(self, types, stacklevel: int) -> None:
        """Set ``feature_types_`` and ``constant_features_`` from the encoded column types
        and warn once naming the constant columns."""
        self.feature_types_ = dict(zip(self.feature_names(), types, strict=True))
        self.constant_features_ = [v for v, t in self.feature_types_.items() if t == "constant"]
        uncut = [v for v in self.constant_features_ if v in getattr(self, "cut_points_", {})]
        flat = [v for v in self.constant_features_ if v not in uncut]
        if flat:
            warnings.warn(
                f"{type(self).__name__}: column(s) {flat} of X take fewer "
                "than two distinct values; they carry no information and leave the model.",
                DegenerateFeatureWarning,
                stacklevel=stacklevel,
            )
        if uncut:
            warnings.warn(
                f"{type(self).__name__}(discretize={self.discretize!r}): no cut point of "
                f"column(s) {uncut} passes the MDL criterion; one interval each, they carry "
                "no information about the class and leave the model.",
                DegenerateFeatureWarning,
                stacklevel=stacklevel,
            )

    def _check_X(self, X) -> EncodedColumns:
        """Prediction input: the model must be fitted, X validated with ``reset=False`` and
        encoded with the training types and categories (unseen categories coded ``-1``,
        i.e. treated as missing)."""
        check_is_fitted(self)
        raw = self._validate_X(X, reset=False)[0]
        return self.encoder_.transform(raw)

    def _decoded(self, enc: EncodedColumns, *, numeric: bool) -> np.ndarray:
        """The encoded table back in its training values (NaN where missing or unseen):
        floats when ``numeric`` (a categorical column with non-numeric categories is then a
        ``ValueError`` naming it), else an object array of the categories."""
        out = enc.values.astype(object) if not numeric else enc.values.copy()
        for j, name in enumerate(self.encoder_.feature_names_in_):
            if enc.types[j] == "continuous":
                continue
            levels = self.encoder_.categories_[name]
            if numeric:  # the keys: numeric text (a digit-string category) as its number
                try:
                    levels = self.encoder_.category_keys_[name].astype(float)
                except (TypeError, ValueError):
                    raise ValueError(
                        f"Column {self.feature_names()[j]!r} is categorical with non-numeric "
                        f"categories ({levels[0]!r}, ...); {type(self).__name__} models "
                        "numeric columns only: encode it as numbers or drop it."
                    ) from None
            col = np.full(enc.codes.shape[0], np.nan, dtype=float if numeric else object)
            seen = enc.codes[:, j] >= 0
            col[seen] = levels[enc.codes[seen, j]]
            out[:, j] = col
        return out

    # -- feature selection, for every family with a ``feature_selection`` parameter --------
    def _feature_selection_method(self) -> str | None:
        """The feature selection this fit uses: the ``feature_selection`` parameter (None
        when the family has none); a family that resolves it (e.g. ``"auto"``) overrides."""
        return getattr(self, "feature_selection", None)

    @_fit_context(prefer_skip_nested_validation=True)
    @user_fit
    @partition_dispatch()
    def fit(self, X, y=None):
        """Fit the family's structure and factors (and, with
        ``parameters="discriminative"``, its discriminative parameters): the family's
        ``_fit_table`` on a table, :meth:`_fit_statistics` on partitions.

        Parameters
        ----------
        X : array-like or pandas.DataFrame of shape (n_samples, n_features), or Partitions
            Training data: continuous and categorical columns (any hashable categories,
            e.g. strings); missing cells (NaN, None, empty strings) allowed. Or the
            partitions of a Dask DataFrame (``estimators.distributed.collect(X, y)``; y
            then None).
        y : array-like of shape (n_samples,)
            Class labels.

        Returns
        -------
        self
        """
        return self._fit_table(X, y)

    def _fit_table(self, X, y):
        """The fit from a table (what :meth:`fit` runs on anything but partitions); a
        family that keeps the template's :meth:`fit` writes it."""
        raise NotImplementedError(f"{type(self).__name__} writes no _fit_table.")

    def _modelled_features(self, enc: EncodedColumns, codes: np.ndarray, minimum: int = 1
                           ) -> list[int]:
        """The non-constant columns of ``enc`` (at least ``minimum``, else ValueError:
        :func:`~estimators.base.validation.non_constant_columns`) the feature selection of
        :meth:`_select_features` keeps."""
        kept = non_constant_columns(enc.types, minimum, self.constant_features_)
        return self._select_features(enc, codes, kept)

    def _modelled_statistics(self, enc: EncodedColumns, minimum: int = 1) -> list[int]:
        """:meth:`_modelled_features` of a fit from statistics: the non-constant columns (no
        feature selection there, :meth:`_needs_rows`)."""
        self.feature_selection_ = None
        return non_constant_columns(enc.types, minimum, self.constant_features_)

    def _select_features(self, enc: EncodedColumns, codes: np.ndarray, kept: list[int]
                         ) -> list[int]:
        """The columns of ``kept`` (indices into ``enc``) the family models: those the
        feature selection chooses (:func:`estimators.learning.feature_selection.select_features`,
        at least ``_min_features``), all of them without one. Sets
        ``feature_selection_``."""
        method = self._feature_selection_method()
        self.feature_selection_ = method
        return select_features(method, enc, codes, kept, min_features=self._min_features,
                               random_state=fixed_seed(getattr(self, "random_state", None)),
                               names=self.feature_names())

    # -- what a family writes ---------------------------------------------------------------
    @abstractmethod
    def _joint_log_likelihood(self, X: EncodedColumns) -> np.ndarray:
        """``ln p(y, x)`` of rows already validated by :meth:`_check_X`, shape
        (n_samples, n_classes), columns in ``classes_`` order."""

    def _log_linear_factors(self, enc: EncodedColumns, codes: np.ndarray) -> list:
        """The fitted CG factors of the structure (one per modelled feature; ``enc``,
        ``codes``: the training table), on which
        ``parameters="discriminative"`` fits log-linear weights; a family that supports
        it overrides this."""
        raise ValueError(f"{type(self).__name__} has no discriminative parameters; use "
                         "parameters='generative'.")

    def _likelihood(self):
        """``enc -> ln p(y, x_O)`` of the fitted model (what the discriminative fit from
        partitions computes where each partition lives); a family whose function has the
        ``class_log_prior`` of its complete rows returns that
        (``network.NetworkLikelihood``), which spares the log-factors of those rows."""
        return self._joint_log_likelihood

    def _refit_generative(self, enc: EncodedColumns, codes: np.ndarray):
        """``(factors, jll)``: the structure's generative factors refitted on ``(enc,
        codes)`` and a function giving their ``ln p(y, x_O)`` of an encoded table (the
        inner cross-validation of ``parameters="discriminative"``)."""
        raise ValueError(f"{type(self).__name__} cannot refit its factors on a subset.")

    def _fit_parameters(self, enc: EncodedColumns | Partitions, codes: np.ndarray | None,
                        parameters, random_state=None) -> None:
        """Set ``discriminative_``: None for ``parameters="generative"``, else the
        parameters fitted on the family's factors and its generative ``ln p(y, x_O)`` of
        the training rows (the family passes its ``parameters`` and ``random_state``: the
        template reads no family parameter): by
        :func:`estimators.discriminative.fit_parameters` on the encoded rows ``enc`` and
        their class ``codes``, or at the end of a fit from partitions (``enc`` the
        :class:`Partitions`, ``codes`` None) by :func:`estimators.discriminative.
        fit_parameters_partitioned`, every L-BFGS evaluation reduced over the partitions
        where they live."""
        # "hdp" (the network families) changes the tables, not this step
        spec = None if parameters == "hdp" else resolve_parameters(parameters)
        self.discriminative_ = None
        if spec is None:
            return
        seed = fixed_seed(random_state)
        if isinstance(enc, Partitions):
            factors = self._log_linear_factors(empty_encoded(self.encoder_),
                                               np.zeros(0, dtype=np.int64))
            self.discriminative_ = fit_parameters_partitioned(
                factors, enc, _PartitionRows(self, enc.from_array), self.class_count_, spec,
                refit=self._refit_generative, random_state=seed)
        else:
            jll = self._joint_log_likelihood(enc)
            self.discriminative_ = fit_parameters(
                self._log_linear_factors(enc, codes), enc, codes, jll, spec,
                refit=lambda rows: self._refit_generative(enc.take(rows), codes[rows]),
                random_state=seed)
        self._warn_not_converged()

    def _warn_not_converged(self) -> None:
        if not self.discriminative_.info["converged"]:
            warn_user(f"{type(self).__name__}: the discriminative fit stopped before "
                      f"converging ({self.discriminative_.info['message']}).", UserWarning)

    def _scores(self, enc: EncodedColumns) -> np.ndarray:
        """What prediction maximises: ``ln p(y, x)``, or the discriminative scores."""
        jll = self._joint_log_likelihood(enc)
        fitted = getattr(self, "discriminative_", None)
        return jll if fitted is None else fitted.scores(enc, jll)

    # -- prediction, written once -----------------------------------------------------------
    def encode(self, X) -> EncodedColumns:
        """``X`` validated and encoded with the training types and categories (unseen
        categories coded ``-1``, i.e. missing): what every prediction reads, and what
        :meth:`predict_joint_log_proba` takes again, so that models sharing the training
        categories encode a table once."""
        return self._check_X(X)

    def predict_joint_log_proba(self, X) -> np.ndarray:
        """Joint log-probability ``ln p(y, x_O)`` of each row and class (scikit-learn's
        name on its naive Bayes), the empty cells marginalised as in prediction, shape
        (n_samples, n_classes); ``X`` a table or the :meth:`encode` of one by a model with
        the same training types and categories.

        Raises
        ------
        ValueError
            For ``parameters="discriminative"``: its scores are a posterior's, with no
            joint distribution.
        """
        if getattr(self, "discriminative_", None) is not None:
            raise ValueError(f"{type(self).__name__} with discriminative parameters scores "
                             "classes by a conditional model: it has no joint p(y, x); fit "
                             "it with parameters='generative'.")
        if isinstance(X, EncodedColumns):
            check_is_fitted(self)
            names = tuple(self.encoder_.feature_names_in_)
            if tuple(X.names) != names:
                raise ValueError(f"{type(self).__name__}: the encoded table has the columns "
                                 f"{list(X.names)[:5]}..., not the model's {list(names)[:5]}...")
            return self._joint_log_likelihood(X)
        return self._joint_log_likelihood(self._check_X(X))

    def predict(self, X) -> np.ndarray:
        """The class with the largest joint log-likelihood ``ln p(y, x)`` (or discriminative
        score) for each row."""
        jll = self._scores(self._check_X(X))
        return self.classes_[np.argmax(jll, axis=1)]

    def predict_log_proba(self, X) -> np.ndarray:
        """Log posterior ``ln p(y | x)``, shape (n_samples, n_classes)."""
        jll = self._scores(self._check_X(X))
        return jll - logsumexp(jll, axis=1, keepdims=True)

    def predict_proba(self, X) -> np.ndarray:
        """Posterior ``p(y | x)``: the softmax over classes of ``ln p(y, x)``."""
        proba = np.exp(self.predict_log_proba(X))
        # ln p(y, x) of ~1e10 in every class (a near-degenerate density) leaves the log
        # posteriors correct only to ~1e-7; dividing by the row sum keeps rows summing to 1
        return proba / proba.sum(axis=1, keepdims=True)


class _PartitionRows:
    """A fitted classifier's encoding of training partitions (``encode``) and its generative
    ``ln p(y, x_O)`` (``likelihood``), sent to where the partitions live by the
    discriminative fit from partitions."""

    def __init__(self, clf: JointLogLikelihoodClassifier, from_array: bool):
        self.clf, self.from_array = clf, from_array
        self.likelihood = clf._likelihood()

    def encode(self, x: pd.DataFrame, y: pd.Series) -> tuple[EncodedColumns, np.ndarray]:
        """The encoded rows (the training types and categories) and their class codes."""
        clf = self.clf
        codes = pd.Index(clf.classes_).get_indexer(np.asarray(y))
        if not len(x):
            return empty_encoded(clf.encoder_), codes.astype(np.int64)
        return clf._check_X(x.to_numpy() if self.from_array else x), codes.astype(np.int64)


def _checkable(X):
    """``X`` as scikit-learn's checks can read it: in a DataFrame with a ``category``
    column, its bool and nullable-number columns as objects (else ``check_array`` casts the
    whole frame to float, which fails on string categories: "Cannot cast str dtype to
    float64"). Only the checks read this copy; the encoder reads ``X`` itself."""
    if not isinstance(X, pd.DataFrame) or not any(
            isinstance(d, pd.CategoricalDtype) for d in X.dtypes):
        return X
    early = [j for j, d in enumerate(X.dtypes) if pd.api.types.is_bool_dtype(d) or (
        pd.api.types.is_extension_array_dtype(d) and pd.api.types.is_numeric_dtype(d)
        and not isinstance(d, pd.CategoricalDtype))]
    if not early:
        return X
    out = X.copy(deep=False)
    for j in early:
        out.isetitem(j, X.iloc[:, j].astype(object))
    return out


def _check_one_label_type(y: np.ndarray) -> None:
    """Refuse class labels of types that do not order among themselves (``1`` and ``"a"``),
    which scikit-learn's target checks and metrics refuse too, with a message saying so
    (numbers with numbers, and bools, are one kind)."""
    if y.dtype != object:
        return
    kinds = {type(v) for v in pd.unique(y) if not pd.isna(v)}
    numbers = {k for k in kinds if issubclass(k, int | float | np.number | np.bool_)}
    if len(kinds - numbers) + bool(numbers) > 1:
        names = sorted(k.__name__ for k in kinds)
        raise TypeError(f"the class labels in y mix the types {names}; "
                        "scikit-learn needs labels of one kind: convert them, e.g. "
                        "y.astype(str).")


def constant_by_class(enc: EncodedColumns, cols: np.ndarray, codes: np.ndarray,
                      n_classes: int) -> np.ndarray:
    """Boolean (m, len(cols)): the column's observed cells within the class take fewer than
    two distinct values (missing and unseen cells skipped; ``pandas``' ``nunique() <= 1``).

    One ``fmin`` / ``fmax`` reduction per class block (they skip NaN): a class whose
    observed values are all equal has ``max == min``, one without any observed value NaN.

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.columns import MixedEncoder
    >>> X = np.array([[1.0, 0.5], [1.0, np.nan], [2.0, 0.5], [3.0, 0.7]])
    >>> enc = MixedEncoder({0: "continuous"}).fit(X).transform(X)
    >>> constant_by_class(enc, np.arange(2), np.array([0, 0, 1, 1]), 2).tolist()
    [[True, True], [False, False]]
    """
    table = enc.values
    if not np.array_equal(cols, np.arange(table.shape[1])):
        table = table[:, cols]
    cat = ~enc.continuous[cols]
    if cat.any():  # categorical columns: their codes as numbers (NaN where missing)
        table = table.copy() if table is enc.values else table
        cc = enc.codes[:, cols[cat]]
        table[:, cat] = np.where(cc >= 0, cc, np.nan)
    flat = np.ones((n_classes, cols.size), dtype=bool)
    for c in range(n_classes):  # loop over classes, not rows
        block = table[codes == c]
        if block.shape[0]:
            flat[c] = ~(np.fmax.reduce(block, axis=0) > np.fmin.reduce(block, axis=0))
    return flat
