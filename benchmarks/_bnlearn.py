"""Reference Bayesian networks of the bnlearn repository (as bundled with pgmpy, offline):
forward samples and the exact Bayes-optimal posterior of a target.

The posterior of the target ``t`` given every other variable only involves its Markov
blanket: ``p(t | x) ∝ p(t | pa(t)) prod_{c in ch(t)} p(x_c | pa(c))`` (every other factor of
the joint does not contain ``t`` and cancels). Each factor is gathered from the true CPD
array for all rows and all values of ``t`` at once, so the posterior is exact and vectorised;
the same function gives the posterior of any fitted discrete Bayesian network (e.g. pgmpy's
TAN), which is what its ``predict_proba`` computes.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd


def load_network(name: str):
    """pgmpy's bundled bnlearn network ``name`` (no network access needed)."""
    from pgmpy.utils import get_example_model

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return get_example_model(name)


def sample(model, n: int, seed: int) -> pd.DataFrame:
    """``n`` forward samples of ``model`` as a DataFrame of state names (strings)."""
    from pgmpy.sampling import BayesianModelSampling

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = BayesianModelSampling(model).forward_sample(size=n, seed=seed, show_progress=False)
    return frame.astype(str)


def blanket_posterior(model, target: str, frame: pd.DataFrame) -> tuple[np.ndarray, list[str]]:
    """Exact ``p(target | all other variables)`` for each row of ``frame``.

    Parameters
    ----------
    model : pgmpy DiscreteBayesianNetwork with CPDs
    target : str
    frame : DataFrame
        State names of (at least) the target's Markov blanket.

    Returns
    -------
    posterior : ndarray of shape (n_rows, n_target_states)
    states : list of str
        The target's states, in the columns' order.
    """
    states = [str(s) for s in model.get_cpds(target).state_names[target]]
    n, r = len(frame), len(states)
    log_post = np.zeros((n, r))
    factors = [target, *model.get_children(target)]
    for var in factors:
        cpd = model.get_cpds(var)
        axes = []
        for v in cpd.variables:  # child first, then its parents, as in cpd.values
            if v == target:
                axes.append(np.broadcast_to(np.arange(r), (n, r)))
                continue
            lookup = {str(s): i for i, s in enumerate(cpd.state_names[v])}
            codes = frame[v].map(lookup).to_numpy()
            if np.isnan(codes.astype(float)).any():
                raise ValueError(f"Column {v!r} has a state the network does not know.")
            axes.append(np.broadcast_to(codes.astype(np.intp)[:, None], (n, r)))
        with np.errstate(divide="ignore"):
            log_post += np.log(cpd.values[tuple(axes)])
    log_post -= log_post.max(axis=1, keepdims=True)
    post = np.exp(log_post)
    return post / post.sum(axis=1, keepdims=True), states
