"""The benchmark's Bayes-optimal posterior against pgmpy's exact inference."""

import warnings

import numpy as np
import pytest

from benchmarks._bnlearn import blanket_posterior, load_network, sample


@pytest.mark.parametrize(("net", "target"), [("asia", "either"), ("sachs", "PKA"), ("survey", "E")])
def test_blanket_posterior_equals_variable_elimination(net, target):
    from pgmpy.inference import VariableElimination

    model = load_network(net)
    frame = sample(model, 12, seed=3)
    post, states = blanket_posterior(model, target, frame)
    ve = VariableElimination(model)
    for i in range(len(frame)):
        evidence = {c: frame.iloc[i][c] for c in frame.columns if c != target}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            q = ve.query([target], evidence=evidence, show_progress=False)
        names = [str(s) for s in q.state_names[target]]
        np.testing.assert_allclose(post[i], [q.values[names.index(s)] for s in states], atol=1e-12)


def test_unknown_state_is_named():
    model = load_network("survey")
    frame = sample(model, 3, seed=0)
    frame.loc[0, "A"] = "ancient"
    with pytest.raises(ValueError, match="Column 'A' has a state"):
        blanket_posterior(model, "E", frame)
