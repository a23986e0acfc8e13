"""The structure score of the conditional Gaussian network on an encoded table.

The network classifiers (TAN, k-TAN, BAN, ...) fit their structure score here
(:func:`fit_score`) and search it with :func:`estimators.learning.structure_learning.learn_structure`.
The score is chosen from the encoded table (the modelled columns: constant ones have
left):

* complete single-type data: the closed-form plug-in :class:`~estimators.scores.DiscreteCMI`
  (all categorical) or :class:`~estimators.scores.GaussianCMI` (all continuous), which the
  conditional Gaussian score equals there (MATH.md §7; tested to 1e-10) and which answer a
  hyperedge without refitting factors;
* anything else (continuous and categorical columns together, or missing cells): the
  directed :class:`~estimators.scores.ConditionalGaussianScore` on the available cases
  (MATH.md §8; -inf for a hyperedge with too few complete rows, searched as a large
  negative number, :data:`estimators.learning.structure_learning.INELIGIBLE`, so that a tiny table still
  gets a structure).

The searcher is the one registered under ``search`` in :data:`estimators.search.SEARCHERS`:

* ``"backbone-dp"``: the exact maximum-score acyclic k-tree containing the backbone path
  (any score, directed included; a backbone method such as ``"mst-dfs"`` reads the pair
  scores, for a directed score each pair's better direction ``max(f(i, {j}), f(j, {i}))``);
  ``backbone=None`` means ``"mst-dfs"`` for ``k >= 2`` and,
  for ``k = 1``, the exact maximum spanning tree: Kruskal's (``"spanning-tree"``) when the
  pair scores are symmetric (single-type data), the maximum spanning arborescence
  (``"arborescence"``, Chu–Liu/Edmonds) when they are not (mixed data);
* ``"greedy"``: the backbone-free greedy k-tree (heuristic);
* ``"spanning-tree"`` / ``"arborescence"``: as named (``k = 1``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np
import pandas as pd

from estimators.columns import EncodedColumns
from estimators.scores import SCORES, as_fitted_score, max_parents, unfitted_score


def score_family(enc: EncodedColumns) -> str:
    """The score family of :data:`estimators.scores.SCORES` for the modelled columns:
    ``"discrete"`` or ``"gaussian"`` for a complete table of one type, else ``"mixed"``."""
    types = set(enc.types) - {"constant"}
    if enc.observed[:, [j for j, t in enumerate(enc.types) if t != "constant"]].all():
        if types == {"categorical"}:
            return "discrete"
        if types == {"continuous"}:
            return "gaussian"
    return "mixed"


#: ridge of the CG score's regressions, relative to the parents' variances (see
#: fit_cg_factor); the fitted factors use least squares (ridge 0, minimum-norm slopes)
RIDGE = 1e-8
#: Gaussian cells with fewer rows are pooled; hyperedges with fewer complete rows are -inf
MIN_CELL_ROWS = 5

#: fitted scores shared by the fits inside :func:`shared_scores` (None: no sharing)
_SHARED: ContextVar[dict | None] = ContextVar("kgraph_shared_scores", default=None)


@contextmanager
def shared_scores() -> Iterator[None]:
    """Within this block, fits on the same encoded training table with the same score and
    settings share one fitted hyperedge score -- its statistics and the hyperedges already
    scored: ``k="auto"`` scores a training part once for k = 1, 2, 3 (the hyperedges of
    k = 1 and 2 are among those of k = 3). A score is a pure function of the table, so
    sharing changes no value. Nested blocks share the outer one's scores.

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.columns import MixedEncoder
    >>> rng = np.random.default_rng(0)
    >>> enc = MixedEncoder().fit_transform(rng.normal(size=(50, 3)))
    >>> y = rng.integers(0, 2, 50)
    >>> args = dict(var_smoothing=1e-9, ridge=1e-8, min_cell_rows=5)
    >>> with shared_scores():
    ...     a = fit_score(enc, y, np.arange(2), **args)
    ...     b = fit_score(enc, y, np.arange(2), **args)
    >>> a is b, fit_score(enc, y, np.arange(2), **args) is a
    (True, False)
    """
    token = _SHARED.set({}) if _SHARED.get() is None else None
    try:
        yield
    finally:
        if token is not None:
            _SHARED.reset(token)


def _fingerprint(enc: EncodedColumns, y_codes: np.ndarray, classes: np.ndarray) -> str:
    """A digest of everything a score reads from the table."""
    h = hashlib.blake2b(digest_size=20)
    for a in (enc.values, enc.codes, enc.n_levels, np.asarray(y_codes)):
        h.update(np.ascontiguousarray(a).tobytes())
    h.update(repr((enc.types, enc.names, np.asarray(classes).tolist())).encode())
    return h.hexdigest()


def fit_score(enc: EncodedColumns, y_codes: np.ndarray, classes: np.ndarray, *,
              var_smoothing: float, ridge: float, min_cell_rows: int, score="cmi"):
    """The fitted hyperedge score of ``enc``, shared inside :func:`shared_scores` when
    ``score`` is a registered name (a score object is fitted afresh); see
    :func:`_fit_score`."""
    shared = _SHARED.get()
    settings = dict(var_smoothing=var_smoothing, ridge=ridge, min_cell_rows=min_cell_rows,
                    score=score)
    if shared is None or not isinstance(score, str):
        return _fit_score(enc, y_codes, classes, **settings)
    key = (score, var_smoothing, ridge, min_cell_rows, _fingerprint(enc, y_codes, classes))
    if key not in shared:
        shared[key] = _fit_score(enc, y_codes, classes, **settings)
    return shared[key]


def _fit_score(enc: EncodedColumns, y_codes: np.ndarray, classes: np.ndarray, *,
               var_smoothing: float, ridge: float, min_cell_rows: int, score="cmi"):
    """The fitted hyperedge score of ``enc`` (variables ``enc.names``), as in the module
    docstring; ``score`` names a score of :data:`estimators.scores.SCORES` ("cmi", "bic",
    "bdeu", or one registered later) or is an object following the score protocol of
    :mod:`estimators.scores` (cloned, then fitted). On a mixed or incomplete table the score
    must serve the ``"mixed"`` family ("cmi": :class:`ConditionalGaussianScore`, "bic": its
    BIC with rows counted per hyperedge), fitted through ``fit_encoded``."""
    family = score_family(enc)
    if family == "mixed" and isinstance(score, str) and "mixed" not in SCORES.get(score, {"mixed": 0}):
        raise ValueError(
            f"The structure score {score!r} needs a complete table of one column type "
            "(all categorical or all continuous); this table is mixed or has missing cells, "
            f"where the conditional Gaussian scores {mixed_scores()} are available.")
    unfitted = unfitted_score(score, family)
    if family != "mixed":
        data = enc.codes if family == "discrete" else enc.values
        if "min_class_rows" in getattr(unfitted, "get_params", dict)():
            # a class too small for its own Gaussian cells is pooled, in the score as in
            # the fitted factors (GaussianCMI's module docstring)
            unfitted.set_params(min_class_rows=min_cell_rows)
        fitted = unfitted.fit(pd.DataFrame(data, columns=list(enc.names)), y_codes)
    elif not callable(getattr(unfitted, "fit_encoded", None)):
        raise ValueError(
            f"the structure score {type(unfitted).__name__} has no fit_encoded, so it "
            "cannot score a table that is mixed or has missing cells; the conditional Gaussian "
            f"scores {mixed_scores()} can.")
    else:
        settings = {"var_smoothing": var_smoothing, "ridge": ridge, "min_cell_rows": min_cell_rows}
        if hasattr(unfitted, "get_params"):
            own = unfitted.get_params(deep=False)
            unfitted.set_params(**{k: v for k, v in settings.items() if k in own})
        fitted = unfitted.fit_encoded(enc, y_codes, classes)
    return as_fitted_score(unfitted if fitted is None else fitted, list(enc.names))


def check_score_width(score, k: int) -> None:
    """Refuse a width ``k`` above the score's ``max_parents`` (before any fitting)."""
    largest = max_parents(score)
    if largest is not None and k > largest:
        raise ValueError(f"the structure score {score!r} answers at most {largest} "
                         f"parent(s) (its max_parents); got k={k}.")


def mixed_scores() -> list[str]:
    """Names of the scores defined on mixed tables or tables with missing cells."""
    return sorted(name for name, families in SCORES.items() if "mixed" in families)
