"""The example plug-in of tutorials/e_plugin: the James–Stein shrinkage CMI checked against
a direct dense computation of Hausser & Strimmer's formulas (always), and used through its
entry point by KTANClassifier, StructureConfidence, check_score and the CLI (when the
package is installed; CI installs it)."""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from installed_plugins import require_js_cmi

from estimators import KTANClassifier, load_dataset
from estimators.scores import DiscreteCMI

PACKAGE = Path(__file__).resolve().parents[1] / "tutorials" / "e_plugin"


def plugin_module():
    """The installed module, else the one in the repository (the formulas need no install)."""
    if importlib.util.find_spec("kgraph_js_cmi") is not None:
        import kgraph_js_cmi

        return kgraph_js_cmi
    spec = importlib.util.spec_from_file_location("kgraph_js_cmi_src",
                                                  PACKAGE / "kgraph_js_cmi.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def dense_js_cmi(columns: list[np.ndarray], cards: list[int], y: np.ndarray, m: int,
                 lam: float | None = None) -> tuple[float, float]:
    """Hausser & Strimmer written out on the dense joint table of (X_v, X_P..., Y):
    lambda* (eq. 12) towards the uniform target, the shrunk joint (eq. 8), then
    I(X_v; X_P | Y) = sum p(x, z, y) ln[p(x, z, y) p(y) / (p(x, y) p(z, y))] from it."""
    shape = (*cards, m)
    N = np.zeros(shape)
    np.add.at(N, (*columns, y), 1)
    n = N.sum()
    u = N / n
    t = 1.0 / N.size
    if lam is None:
        lam = (1 - (u**2).sum()) / ((n - 1) * ((t - u) ** 2).sum())
        lam = min(1.0, max(0.0, lam))
    p = lam * t + (1 - lam) * u
    parents = tuple(range(1, len(cards)))
    p_xy = p.sum(axis=parents, keepdims=True)
    p_zy = p.sum(axis=0, keepdims=True)
    p_y = p.sum(axis=tuple(range(len(cards))), keepdims=True)
    return float((p * np.log(p * p_y / (p_xy * p_zy))).sum()), lam


@pytest.fixture(scope="module")
def table():
    rng = np.random.default_rng(4)
    n = 30
    y = rng.integers(0, 2, n)
    a = (y + (rng.random(n) < 0.3)) % 3
    b = rng.integers(0, 2, n)
    c = (a + rng.integers(0, 2, n)) % 4
    X = pd.DataFrame({"a": a, "b": b, "c": c})
    X.loc[0, ["a", "c"]] = [2, 3]  # every category seen
    return X, y


@pytest.mark.parametrize("v, parents", [("a", ["b"]), ("b", ["a"]), ("c", ["a"]),
                                        ("a", ["b", "c"]), ("c", ["b", "a"])])
def test_score_equals_the_formulas_on_the_dense_table(table, v, parents):
    mod = plugin_module()
    X, y = table
    js = mod.JamesSteinCMI().fit(X, y)
    cards = [int(X[c].max()) + 1 for c in [v, *parents]]
    expected, lam = dense_js_cmi([X[c].to_numpy() for c in [v, *parents]], cards, y, 2)
    assert 0 < lam < 1
    assert js.shrinkage_intensity(v, set(parents)) == pytest.approx(lam, rel=1e-12)
    assert js.score(v, set(parents)) == pytest.approx(expected, rel=1e-10, abs=1e-14)
    fixed, _ = dense_js_cmi([X[c].to_numpy() for c in [v, *parents]], cards, y, 2, lam=0.3)
    assert mod.JamesSteinCMI(shrinkage=0.3).fit(X, y).score(v, parents) == \
        pytest.approx(fixed, rel=1e-10)


def test_no_shrinkage_is_the_plug_in_cmi_and_full_shrinkage_is_zero(table):
    mod = plugin_module()
    X, y = table
    plug_in = DiscreteCMI().fit(X, y)
    none = mod.JamesSteinCMI(shrinkage=0.0).fit(X, y)
    full = mod.JamesSteinCMI(shrinkage=1.0).fit(X, y)
    for v, ps in [("a", {"b"}), ("c", {"a", "b"})]:
        assert none.score(v, ps) == pytest.approx(plug_in.score(v, ps), rel=1e-10)
        assert full.score(v, ps) == pytest.approx(0.0, abs=1e-12)  # the uniform joint
    assert none.score("a", set()) == 0.0


def test_the_intensity_formula_by_hand():
    mod = plugin_module()
    u = np.array([0.8, 0.1, 0.1])
    expected = (1 - (u**2).sum()) / (9 * ((1 / 3 - u) ** 2).sum())
    assert mod.shrinkage_intensity(np.array([8, 1, 1]), 3) == pytest.approx(expected)
    assert mod.shrinkage_intensity(np.array([8, 1, 1]), 4) == pytest.approx(
        (1 - (u**2).sum()) / (9 * (((0.25 - u) ** 2).sum() + 0.25**2)))
    assert mod.shrinkage_intensity(np.array([1]), 5) == 1.0
    with pytest.raises(ValueError, match="shrinkage must be 'auto' or in"):
        mod.JamesSteinCMI(shrinkage=2).fit(pd.DataFrame({"a": [0, 1]}), np.array([0, 1]))


# -- through the entry point (the installed package) ---------------------------------------

def test_ktan_takes_it_by_name_as_by_object():
    require_js_cmi()
    import kgraph_js_cmi

    X, y = load_dataset("car")
    by_name = KTANClassifier(k=2, structure_score="js-cmi").fit(X, y)
    by_object = KTANClassifier(k=2, structure_score=kgraph_js_cmi.JamesSteinCMI()).fit(X, y)
    assert by_name.structure_ == by_object.structure_
    assert by_name.score_ == pytest.approx(by_object.score_)
    assert by_name.score_ != pytest.approx(KTANClassifier(k=2).fit(X, y).score_)


def test_check_score_and_structure_confidence_run_on_it():
    require_js_cmi()
    from estimators.learning.structure_confidence import StructureConfidence
    from estimators.testing import check_score

    assert check_score("js-cmi")[-1] == "discrete: classifiers fit and predict"
    X, y = load_dataset("car")
    conf = StructureConfidence(KTANClassifier(k=1, structure_score="js-cmi"), n_resamples=3,
                               random_state=0).fit(X, y)
    import kgraph_js_cmi

    by_object = StructureConfidence(
        KTANClassifier(k=1, structure_score=kgraph_js_cmi.JamesSteinCMI()), n_resamples=3,
        random_state=0).fit(X, y)
    assert conf.confidence("safety", "persons") == by_object.confidence("safety", "persons")
    assert sum(conf.confidence(u, v) for u, v in [("safety", "persons"),
                                                  ("buying", "maint")]) > 0


def test_the_cli_learns_and_lists_it(tmp_path, capsys):
    require_js_cmi()
    import joblib

    from viz.cli import main

    assert main(["plugins"]) == 0
    listing = capsys.readouterr().out
    assert "entry point js-cmi = kgraph_js_cmi:JamesSteinCMI (kgraph-js-cmi 0.1.0)" in listing
    assert main(["learn", "car", "--model", "ktan", "--k", "2", "--structure-score", "js-cmi",
                 "--cv", "2", "--quiet", "--out", str(tmp_path)]) == 0
    model = joblib.load(tmp_path / "model.joblib")
    X, y = load_dataset("car")
    assert model.structure_ == KTANClassifier(k=2, structure_score="js-cmi").fit(X, y).structure_


def test_the_cli_learns_tan_with_it(tmp_path):
    """TAN is k-TAN with k = 1: ``--model tan --structure-score js-cmi`` is the maximum
    spanning tree of the plug-in's pair scores (checked by brute force over all trees)."""
    require_js_cmi()
    import joblib
    import kgraph_js_cmi

    from estimators.ktan import TANClassifier
    from estimators.search import brute_force_spanning_tree
    from viz.cli import main

    assert main(["learn", "car", "--model", "tan", "--structure-score", "js-cmi", "--cv", "2",
                 "--quiet", "--out", str(tmp_path)]) == 0
    model = joblib.load(tmp_path / "model.joblib")
    assert isinstance(model, TANClassifier) and model.structure_score_ == "js-cmi"
    assert "`js-cmi`: `JamesSteinCMI`" in (tmp_path / "report.md").read_text()
    X, y = load_dataset("car")
    codes = X.apply(lambda c: c.astype("category").cat.codes)
    js = kgraph_js_cmi.JamesSteinCMI().fit(codes, np.unique(y, return_inverse=True)[1])
    names = list(X.columns)
    W = np.array([[js.score(b, {a}) if a != b else 0.0 for b in names] for a in names])
    best = brute_force_spanning_tree(W)
    assert {frozenset(e) for e in model.structure_.edges} == \
        {frozenset((names[i], names[j])) for i, j in best.edges}
    assert model.score_ == pytest.approx(best.score, rel=1e-9)
    assert model.score_ != pytest.approx(TANClassifier().fit(X, y).score_)  # not the plug-in CMI
