"""Discrete k-TAN marginalisation against pgmpy's VariableElimination and brute force."""

import itertools

import numpy as np
import pandas as pd
import pytest
from pgmpy.inference import VariableElimination

from estimators.ktan import KTANClassifier, TANClassifier
from estimators.marginal import (
    discrete_log_marginal,
    discrete_log_marginal_evidence,
)


def _data(seed: int, n: int = 300, d: int = 5):
    """Categorical data with dependence along a chain, so that every CPT matters."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    cols = [(y + rng.integers(0, 2, n)) % 3]
    for _ in range(d - 1):
        cols.append((cols[-1] + y * rng.integers(0, 2, n) + (rng.random(n) < 0.3)) % 3)
    X = pd.DataFrame({f"f{j}": np.array(["a", "b", "c"])[c] for j, c in enumerate(cols)})
    return X, np.array(["u", "v", "w"])[y]


@pytest.fixture(scope="module", params=[("tan", 1), ("ktan", 2), ("ktan", 3)], ids=str)
def fitted(request):
    kind, k = request.param
    X, y = _data(k)
    clf = TANClassifier() if kind == "tan" else KTANClassifier(k=k, search="greedy")
    clf.fit(X, y)
    rng = np.random.default_rng(10 + k)
    Xq = X.iloc[:40].reset_index(drop=True)
    missing = rng.random(Xq.shape) < 0.4
    missing[:3] = [True] * Xq.shape[1]  # all missing: the prior
    missing[3:6] = False  # complete rows
    return clf, Xq, missing


def test_equals_pgmpy_variable_elimination(fitted):
    clf, Xq, missing = fitted
    codes = clf._check_X(Xq).codes
    jll = discrete_log_marginal(clf.network_.marginal_factors, clf.class_log_prior_,
                                codes, missing)
    proba = np.exp(jll - jll.max(axis=1, keepdims=True))
    proba /= proba.sum(axis=1, keepdims=True)
    infer = VariableElimination(clf.to_pgmpy())
    target = clf.class_node_
    ref = []
    for r in range(Xq.shape[0]):
        evidence = {c: Xq.iloc[r, j] for j, c in enumerate(Xq.columns) if not missing[r, j]}
        q = infer.query([target], evidence=evidence, show_progress=False)
        ref.append([q.get_value(**{target: label}) for label in clf.classes_.tolist()])
    np.testing.assert_allclose(proba, np.array(ref), rtol=0, atol=1e-9)


def test_complete_rows_equal_classifier(fitted):
    clf, Xq, _ = fitted
    codes = clf._check_X(Xq).codes
    jll = discrete_log_marginal(clf.network_.marginal_factors, clf.class_log_prior_, codes,
                                np.zeros(codes.shape, bool))
    np.testing.assert_allclose(jll, clf._joint_log_likelihood(clf._check_X(Xq)), rtol=0, atol=1e-9)


def test_equals_sum_over_completions(fitted):
    """The unnormalised ln p(y, x_O): the full joint summed over every completion."""
    clf, Xq, missing = fitted
    codes = clf._check_X(Xq).codes
    jll = discrete_log_marginal(clf.network_.marginal_factors, clf.class_log_prior_,
                                codes, missing)
    cats = [clf.encoder_.categories_[c] for c in Xq.columns]
    for r in range(6, 12):
        miss = np.flatnonzero(missing[r])
        total = np.zeros(clf.classes_.size)
        for fill in itertools.product(*(range(cats[j].size) for j in miss)):
            row = Xq.iloc[[r]].copy()
            for j, code in zip(miss, fill, strict=True):
                row.iloc[0, j] = cats[j][code]
            total += np.exp(clf._joint_log_likelihood(clf._check_X(row))[0])
        np.testing.assert_allclose(jll[r], np.log(total), rtol=0, atol=1e-9)


def test_all_missing_gives_the_prior(fitted):
    clf, Xq, missing = fitted
    codes = clf._check_X(Xq).codes
    jll = discrete_log_marginal(clf.network_.marginal_factors, clf.class_log_prior_,
                                codes, missing)
    np.testing.assert_allclose(jll[:3], np.tile(clf.class_log_prior_, (3, 1)), atol=1e-12)


def test_evidence_method_equals_pattern_method(fitted):
    """Both engines on the same rows, one of them also checked against pgmpy above."""
    clf, Xq, missing = fitted
    codes = clf._check_X(Xq).codes
    factors = clf.network_.marginal_factors
    by_pattern = discrete_log_marginal(factors, clf.class_log_prior_, codes, missing)
    by_evidence = discrete_log_marginal_evidence(factors, clf.class_log_prior_, codes, missing)
    np.testing.assert_allclose(by_evidence, by_pattern, rtol=0, atol=1e-9)


def test_evidence_method_marginalises_unseen_categories_like_the_classifier(fitted):
    clf, Xq, _ = fitted
    X = Xq.copy()
    X.iloc[:5, 1] = "never seen"
    codes = clf._check_X(X).codes  # unseen: code -1, a missing cell
    got = discrete_log_marginal_evidence(clf.network_.marginal_factors,
                                         clf.class_log_prior_, codes, codes < 0)
    np.testing.assert_allclose(got, clf._joint_log_likelihood(clf._check_X(X)), rtol=0, atol=1e-9)
