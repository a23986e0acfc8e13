"""The template floor (issue 47; DESIGN.md "estimators, floor by floor"): the classifier
base every family fills, above the learning floor and below the families.

Modules: ``joint_likelihood``
(:class:`~estimators.template.joint_likelihood.JointLogLikelihoodClassifier`: input checks,
column types, feature selection, prediction from a family's joint log-likelihood).
"""
