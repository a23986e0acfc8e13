"""The checks every family of the registry passes (:mod:`estimators.template.family_registry`),
shared by the conformance test (``tests/estimators/test_sklearn_conformance.py``) and a test's
own toy family (``tests/test_add_a_family.py``)."""

import numpy as np
import pandas as pd
import pytest

from estimators.template.family_registry import families

#: each bad input and the error every family gives (``<clf>``: the class's name)
BAD_INPUTS = {
    "one-class": "<clf> needs samples of at least 2 classes in y; got one class only ('a').",
    "infinity": "<clf>: Input X contains infinity in column 'r' (1 rows); it needs finite values",
    "length": "Found input variables with inconsistent numbers of samples: [60, 59]",
    "one-row": "Found array with 1 sample(s) (shape=(1, 4)) while a minimum of 2 is required",
    "predict-features": "X has 3 features, but <clf> is expecting 4 features as input.",
    "predict-names": "Feature names seen at fit time, yet now missing:\n- s",
}


def registered_classes() -> list[type]:
    """Every family's class, in the registry's order."""
    return [f.cls for f in families()]


def at_defaults(cls):
    """``cls()``, with fewer EM steps for the latent family (its ``slow`` checks take the
    true defaults)."""
    from estimators.latent import LatentCNBClassifier

    return LatentCNBClassifier(n_components=2, max_iter=20) if cls is LatentCNBClassifier \
        else cls()


def two_class_table() -> tuple[pd.DataFrame, np.ndarray]:
    """60 rows, 4 continuous features shifted by the class (``BAD_INPUTS``' table)."""
    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b"], 30)
    X = pd.DataFrame(rng.normal(size=(60, 4)) + (y == "b")[:, None], columns=list("pqrs"))
    return X, y


def bad_input_error(cls, case: str, X, y) -> str:
    """The ``ValueError`` message of ``cls`` given the bad input ``case`` of
    :data:`BAD_INPUTS` on :func:`two_class_table`, its class name replaced by ``<clf>``."""
    Xb = X.copy()
    Xb.iloc[5, 2] = np.inf
    calls = {"one-class": lambda: cls().fit(X, np.full(len(y), "a")),
             "infinity": lambda: cls().fit(Xb, y),
             "length": lambda: cls().fit(X, y[:-1]),
             "one-row": lambda: cls().fit(X.iloc[:1], y[:1]),
             "predict-features": lambda: cls().fit(X, y).predict(X.iloc[:, :3].to_numpy()),
             "predict-names": lambda: cls().fit(X, y).predict(X.iloc[:, :3])}
    with pytest.raises(ValueError) as info:
        calls[case]()
    return str(info.value).replace(cls.__name__, "<clf>")
