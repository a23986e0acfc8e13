"""The shared half of the classifiers on a parent-set DAG (kDB, BAN): the size check of
their parent bound. A subclass learns the parents of each feature (its ``_fit_dag``);
everything else is the network base's (:mod:`estimators.template.network_classifier`).
"""

from __future__ import annotations

from estimators.base.model_size import check_size, column_sizes, ktree_size
from estimators.columns import EncodedColumns
from estimators.template.network_classifier import NetworkClassifier, NetworkExports


class DAGNetworkClassifier(NetworkExports, NetworkClassifier):
    """Base of the classifiers whose features form a DAG with the class a parent of each.

    Subclasses set the hyperparameters ``features``, ``alpha``, ``ess``,
    ``var_smoothing``, ``continuous``, ``parameters`` and their parent bound
    ``max_parents``, and write ``_fit_dag``: their own choice of parents, then
    ``_fit_network``.
    """

    _min_features = 1
    _learns_dependence = True

    def _check_model_size(self, enc: EncodedColumns) -> None:
        """Refuse a parent bound whose largest table would exceed ``max_cells``
        (:mod:`estimators.base.model_size`), before any work. The bound is an upper bound
        ("at most"): a value over the number of features is the model of d - 1, so only
        the table's size is checked."""
        sizes, _ = column_sizes(enc)
        value = self.max_parents
        width = ktree_size(sizes, self.classes_.size)
        check_size("max_parents", value,
                   lambda v: width(min(v, len(sizes) - 1)), highest=value, bound="",
                   lowest=0, limit=self.max_cells)
