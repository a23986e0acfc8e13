"""scikit-learn's estimator checks for the GNB-family classifiers."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from estimators.gnb import GNBClassifier, KGNBClassifier

ESTIMATORS = [
    GNBClassifier(),
    GNBClassifier(dependence="gaussian-copula"),
    GNBClassifier(dependence="kde"),
    GNBClassifier(n_clusters="auto", n_splits=2, random_state=0),
    KGNBClassifier(order=3),
    KGNBClassifier(order=4, dependence="gaussian-copula"),
]

#: Expected failures, with reasons (none at present).
EXPECTED_FAILED: dict[str, dict[str, str]] = {}


@parametrize_with_checks(
    ESTIMATORS, expected_failed_checks=lambda est: EXPECTED_FAILED.get(type(est).__name__, {})
)
def test_sklearn_compatible(estimator, check):
    check(estimator)
