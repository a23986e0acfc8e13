"""The learning floor (issue 47; DESIGN.md "estimators, floor by floor"): one structure
learning over any registered score and searcher, above the scores and searchers it glues.

Modules: ``structure_learning`` (:func:`~estimators.learning.structure_learning.learn_structure`,
the constraints and the policy for scores a search cannot use) and ``structure_scores``
(the score a family learns its structure with, fitted once and shared by the training
parts of a cross-validation).
"""
