"""The learning floor (issue 47; DESIGN.md "estimators, floor by floor"): one structure
learning over any registered score and searcher, above the scores and searchers it glues.

Modules: ``structure_learning`` (:func:`~estimators.learning.structure_learning.learn_structure`,
the constraints and the policy for scores a search cannot use) and ``structure_scores``
(the score a family learns its structure with, fitted once and shared by the training
parts of a cross-validation); choosing among models on the training rows:
``model_selection`` (``k="auto"`` and the other inner cross-validations),
``feature_selection`` and ``selective_nb`` (the modelled columns), ``best_of`` (the best of
several classifiers); judging them: ``evaluation`` (hold-out and k-fold metrics),
``structure_confidence`` (edge confidence under resampling), ``baseline_classifiers`` (the
scikit-learn baselines); and ``plugin_registry`` (what the score and searcher registries
hold, and the constraint that checks a registered name at fit).
"""
