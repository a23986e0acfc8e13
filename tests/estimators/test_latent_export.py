"""The models with no CGNetwork export exactly with small CPTs (issue 45; MATH.md §10.2):
AODE/AnDE as a SPODE mixture over latent nodes, GNB and k-GNB as their rooted networks
(a discriminative GNB as its equivalent network), the one-component latent CNB as naive
Bayes; a latent CNB with more components is refused past the posterior table's size.

Checked against a brute-force posterior from the exported CPDs alone (every latent state
enumerated, no inference engine) on every combination of training categories of small
tables, and against pgmpy's variable elimination on the files ``kgraph export`` writes
(100 held-out rows of votes and car)."""

from __future__ import annotations

import contextlib
import io

import joblib
import numpy as np
import pandas as pd
import pytest
from network_posterior import all_rows, brute_posterior

from estimators.bnc import A2DEClassifier, AODEClassifier
from estimators.discriminative import Discriminative
from estimators.gnb import GNBClassifier, KGNBClassifier
from estimators.latent import LatentCNBClassifier
from estimators.network.export.exact_export import (
    class_node,
    exact_network,
    posterior_table_network,
    read_network,
)
from estimators.network.export.network_formats import FORMATS
from viz.cli import main

pytestmark = pytest.mark.filterwarnings("ignore")


def _table(seed: int, n: int = 150, cards=(3, 2, 3, 2)) -> tuple[pd.DataFrame, np.ndarray]:
    """Categorical features depending on each other and on a three-valued class."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    cols, prev = {}, np.zeros(n, int)
    for j, r in enumerate(cards):
        x = (y + prev + rng.integers(0, 2, n) + (rng.random(n) < 0.2)) % r
        cols[f"f{j}"] = np.array([f"v{c}" for c in x], dtype=object)
        prev = x
    return pd.DataFrame(cols), np.array(["a", "b", "c"], dtype=object)[y]


def _fallback_rows(clf, rows: pd.DataFrame) -> int:
    """Rows of an AODE with no qualifying SPODE (the naive Bayes corner), counted from its
    super-parent counts."""
    cats = {c: sorted(clf.encoder_.categories_[c].tolist()) for c in rows.columns}
    none = np.ones(len(rows), bool)
    for (s,), counts in zip(clf.structure_.super_parents, clf.super_parent_counts_,
                            strict=True):
        codes = rows[s].map({v: k for k, v in enumerate(cats[s])}).to_numpy()
        none &= counts[codes] < clf.frequency_limit
    return int(none.sum())


@pytest.mark.parametrize("model", [
    AODEClassifier(), AODEClassifier(frequency_limit=0), AODEClassifier(frequency_limit=75),
    A2DEClassifier(), A2DEClassifier(frequency_limit=12), A2DEClassifier(alpha=0.3),
], ids=repr)
def test_spode_mixture_is_the_anode_posterior_on_every_row(model):
    """Every combination of categories (unseen pairs, non-qualifying super-parents and, for
    AODE(frequency_limit=75), rows that get naive Bayes included): the brute-force
    posterior of the exported CPDs is predict_proba to 1e-12."""
    X, y = _table(3)
    clf = model.fit(X, y)
    bn = exact_network(clf)
    assert bn.graph["parameters"] == "spode mixture"
    rows = all_rows(X)
    np.testing.assert_allclose(brute_posterior(bn, "class", rows), clf.predict_proba(rows),
                               rtol=0, atol=1e-12)
    if getattr(model, "frequency_limit", 1) == 75:  # the corner is reached and exact
        assert 0 < _fallback_rows(clf, rows) < len(rows)
        assert "nb" in bn.get_cpds("spode").state_names["spode"]
    # CPTs of SPODEs x classes x joint values: no table over all features
    assert max(cpd.values.size for cpd in bn.get_cpds()) <= 3 * 6 * 3 * 9 * 3


def test_a2de_whose_naive_bayes_corner_is_reachable_is_refused():
    """No pair with every joint value in frequency_limit rows: a complete row may get naive
    Bayes, which has no small exact network: refused in one line."""
    X, y = _table(3)
    clf = A2DEClassifier(frequency_limit=40).fit(X, y)
    assert not any((np.asarray(c) >= 40).all() for c in clf.super_parent_counts_)
    with pytest.raises(ValueError, match="may get the naive Bayes fallback") as err:
        exact_network(clf)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("model", [
    GNBClassifier(), GNBClassifier(n_clusters=2),
    GNBClassifier(parameters=Discriminative(l2=1.0, scale=1.0)),
    GNBClassifier(parameters=Discriminative(form="weights", l2=0.5)),
    KGNBClassifier(order=3), KGNBClassifier(order=4),
    LatentCNBClassifier(n_components=1), LatentCNBClassifier(n_components=1, prior="beta-liouville"),
], ids=repr)
def test_own_network_is_the_posterior_on_every_row(model):
    """GNB (reduced forests and discriminative included), k-GNB and the one-component
    latent CNB: the exported CPDs' posterior is predict_proba on every row (1e-12), with
    CPTs no larger than a family's."""
    X, y = _table(4)
    clf = model.fit(X, y)
    bn = exact_network(clf)
    rows = all_rows(X)
    np.testing.assert_allclose(brute_posterior(bn, class_node(clf), rows),
                               clf.predict_proba(rows), rtol=0, atol=1e-12)
    assert max(cpd.values.size for cpd in bn.get_cpds()) <= 3 * 3 ** 3


def test_latent_cnb_with_components_is_refused_past_its_table():
    """Two components: the score is a variational bound, exported only as the posterior
    table; past its size, refused in one line saying why."""
    X, y = _table(4)
    clf = LatentCNBClassifier(n_components=2, random_state=0).fit(X, y)
    bn = exact_network(clf)
    assert bn.graph["parameters"] == "posterior table"
    with pytest.raises(ValueError, match="n_components_=2 .* variational bound") as err:
        posterior_table_network(clf, limit=10)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(("table", "name", "model"), [
    # AODE's export in the slow step (pgmpy's elimination on its SPODE mixture, ~10 s); the
    # default run checks it against the brute-force posterior above
    pytest.param("car", "aode", AODEClassifier(), marks=pytest.mark.slow),
    ("votes", "gnb", GNBClassifier(parameters=Discriminative(l2=1.0, scale=1.0))),
    ("car", "kgnb", KGNBClassifier()), ("car", "latent", LatentCNBClassifier(n_components=1)),
])
def test_kgraph_export_files_give_predict_proba(tmp_path, table, name, model):
    """``kgraph export`` in every format; pgmpy's variable elimination on each file read
    back, every feature of 100 held-out rows as evidence, equals predict_proba (1e-9). (Every
    model on votes and car in ``benchmarks/export_exactness.py``: pgmpy's BIF and NET
    readers take a minute on votes' AODE, minutes on its A2DE.)"""
    from pgmpy.inference import VariableElimination

    frame = pd.read_csv(f"/work/shared/datasets/{table}.csv")
    X, y = frame.drop(columns="class"), frame["class"].to_numpy()
    order = np.random.default_rng(0).permutation(len(X))
    test, train = order[:100], order[100:]
    clf = model.fit(X.iloc[train], y[train])
    rows = X.iloc[test]
    rows = rows[np.all([rows[c].isin(X.iloc[train][c]) for c in X.columns], axis=0)]
    assert len(rows) >= 95
    want = clf.predict_proba(rows)
    joblib.dump(clf, tmp_path / "model.joblib")
    like = exact_network(clf)
    target = class_node(clf)
    for fmt in FORMATS:
        path = tmp_path / f"m.{fmt}"
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["export", str(tmp_path / "model.joblib"), "--to", fmt,
                         "--out", str(path)]) == 0
        ve = VariableElimination(read_network(path, fmt, like))
        got = np.array([ve.query([target], show_progress=False, evidence={
            k: v if fmt == "pgmpy" else str(v) for k, v in r.items()}).values
            for r in rows.astype(object).to_dict("records")])
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-9, err_msg=fmt)
