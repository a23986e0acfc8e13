"""The structure-learning parameters the families share, declared once
(:mod:`estimators.base.parameters`): the width ``k``, the ``search``, its ``backbone``, the
sparse ``candidates`` and the ``structure_score``. Their constraints read the registries at
``fit`` (plug-ins included); :func:`backbone_text` reads a ``--backbone`` option."""

from __future__ import annotations

from numbers import Integral

from sklearn.utils._param_validation import HasMethods, Interval, StrOptions

from estimators.base.parameters import Flag, Parameter, ints_or_auto
from estimators.learning.plugin_registry import RegistryName
from estimators.scores import score_names
from estimators.search import BACKBONE_METHODS, WIDTH, searcher_names

__all__ = ["BACKBONE", "CANDIDATES", "K", "SEARCH", "STRUCTURE_SCORE", "backbone_text"]


def backbone_text(text: str) -> str | list[str]:
    """A ``--backbone`` option: a backbone method of the registry, or a comma-separated
    list of features.

    Examples
    --------
    >>> backbone_text("given"), backbone_text("a,b")
    ('given', ['a', 'b'])
    """
    if "," in text:
        return text.split(",")
    if text not in BACKBONE_METHODS:
        raise ValueError(f"expected one of {', '.join(BACKBONE_METHODS)} or a comma-separated "
                         f"list of features, got {text!r}")
    return text


#: the k-tree width; ``k >= n_features`` is lowered at ``fit`` (the table decides the range)
K = Parameter(
    "k", "auto", [WIDTH, StrOptions({"auto"}), "array-like"],
    'int, "auto" or sequence of int',
    'Tree width: each feature has at most ``k`` feature parents. A ``k`` of at least '
    '``n_features`` is lowered to ``n_features - 1`` with one warning; one whose tables '
    'would exceed ``max_cells`` is refused before any work (one ``ValueError`` naming the '
    'largest k that fits). '
    '``"auto"`` tries '
    'k = 1, 2, 3 (those below n_features) by inner cross-validation, in that order, '
    'stopping at the first k that does not improve on the one before.',
    Flag("the k of the k-tree, 'auto' or a list such as 1,2 (chosen by inner CV log-loss)",
         type=ints_or_auto))
SEARCH = Parameter(
    "search", "backbone-dp", [RegistryName(searcher_names)], "str",
    'A searcher of :data:`estimators.search.SEARCHERS` (``"backbone-dp"``, ``"greedy"``, '
    '``"spanning-tree"`` for ``k = 1``, or one registered later).',
    Flag("searcher", choices="search"))
BACKBONE = Parameter(
    "backbone", None, [None, StrOptions(BACKBONE_METHODS.keys()), "array-like"],
    'None, {"given", "mst-dfs", "greedy-path", "local-search"} or sequence',
    'Backbone of ``"backbone-dp"``; must be None for ``"greedy"``.',
    Flag("%(methods)s | a,b,c,... (implies --search backbone-dp unless --search is given)",
         type=backbone_text, listed="backbone"))
CANDIDATES = Parameter(
    "candidates", None, [None, Interval(Integral, 1, None, closed="left")], "int or None",
    "Sparse candidate parents for wide tables: each feature's parents must be among its "
    "top-``candidates`` partners by pair score (symmetrised); with the backbone DP the "
    "features at most k apart along the backbone are candidates of each other too, so a "
    "structure always exists; other hyperedges are never scored "
    "(:mod:`estimators.search.candidates`). None: no restriction.",
    Flag("score only each feature's top-m partners (wide tables)", type=int))
STRUCTURE_SCORE = Parameter(
    "structure_score", "cmi", [RegistryName(score_names), HasMethods(["fit", "score"])],
    "str or score object",
    "The hyperedge score of the structure search: a name of "
    ":data:`estimators.scores.SCORES`, checked at ``fit`` against the registry (plug-ins "
    'included): ``"cmi"`` (plug-in CMI), ``"bic"`` (BIC/MDL), ``"bdeu"`` (the BDeu '
    "marginal-likelihood gain, complete discrete tables only) or one registered with "
    ":func:`~estimators.scores.register_score` or an entry point; or an object following "
    "the score protocol of :mod:`estimators.scores` (cloned, then fitted on the table). "
    'On mixed tables or with missing cells ``"cmi"`` is the conditional Gaussian score '
    'and ``"bic"`` its BIC with rows counted per hyperedge '
    "(:class:`~estimators.scores.ConditionalGaussianBIC`).",
    Flag("structure score, plug-ins included ('kgraph plugins')", choices="score"))
