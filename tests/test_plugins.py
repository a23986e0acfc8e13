"""Plug-ins found through entry points (kgraph.scores, kgraph.searchers): a package on the
path with a dist-info of its own registers a score and a searcher with zero edits to
kgraph; a broken one gives one warning naming its entry point and breaks no command."""

import importlib
import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import estimators.learning.plugin_registry as plugins
from estimators import KTANClassifier
from estimators.base.entry_points import STATE
from estimators.scores import SCORES
from estimators.search import SEARCHERS

ROOT = Path(__file__).resolve().parents[1]

MODULE = '''
from estimators.scores import DiscreteCMI
from estimators.search import SEARCHERS


class HalfCMI(DiscreteCMI):
    """Half the plug-in CMI: the same structures, half the score (score() goes through
    score_many)."""

    def score_many(self, items):
        return super().score_many(items) / 2

    def edge_matrix(self):
        return super().edge_matrix() / 2


FAMILIES = {"discrete": HalfCMI}


def reversed_greedy(f, variables, k, **kw):
    return SEARCHERS["greedy"](f, list(variables)[::-1], k, **kw)
'''


def dist(folder: Path, name: str, entry_points: str) -> None:
    info = folder / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(textwrap.dedent(entry_points))


@pytest.fixture()
def site(tmp_path, monkeypatch):
    """A folder on sys.path holding a working plug-in and a broken one; the registries and
    the loader's memory are restored afterwards."""
    (tmp_path / "kgraph_fake_plugin.py").write_text(MODULE)
    dist(tmp_path, "kgraph_fake_plugin", """
        [kgraph.scores]
        half-cmi = kgraph_fake_plugin:FAMILIES
        [kgraph.searchers]
        reversed-greedy = kgraph_fake_plugin:reversed_greedy
        """)
    dist(tmp_path, "kgraph_broken_plugin", """
        [kgraph.scores]
        broken-import = kgraph_no_such_module:FAMILIES
        """)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(STATE, "loaded", set())  # entry points are read again
    importlib.invalidate_caches()
    saved = (dict(SCORES), dict(SEARCHERS), dict(STATE.registered), dict(STATE.broken))
    yield tmp_path
    for table, old in zip((SCORES, SEARCHERS, STATE.registered, STATE.broken), saved,
                          strict=True):
        table.clear()
        table.update(old)
    sys.modules.pop("kgraph_fake_plugin", None)


def test_entry_points_register_a_score_and_a_searcher(site):
    with pytest.warns(plugins.PluginWarning) as caught:
        plugins.load_plugins(reload=True)
    assert len(caught) == 1
    assert "broken-import = kgraph_no_such_module:FAMILIES" in str(caught[0].message)
    assert "kgraph_broken_plugin 1.0" in str(caught[0].message)
    assert "ModuleNotFoundError" in str(caught[0].message)
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    X = pd.DataFrame((rng.random((200, 4)) < 0.3 + 0.4 * y[:, None]).astype(int),
                     columns=list("abcd"))
    half = KTANClassifier(k=2, structure_score="half-cmi", search="reversed-greedy").fit(X, y)
    full = KTANClassifier(k=2, structure_score="cmi", search="reversed-greedy").fit(X, y)
    assert half.structure_ == full.structure_
    assert half.score_ == pytest.approx(full.score_ / 2, rel=1e-12)
    rows = {(r.kind, r.name): r for r in plugins.registered()}
    assert rows["score", "half-cmi"].origin == \
        "entry point half-cmi = kgraph_fake_plugin:FAMILIES (kgraph_fake_plugin 1.0)"
    assert rows["score", "half-cmi"].families == ("discrete",)
    assert rows["searcher", "reversed-greedy"].loaded
    assert not rows["score", "broken-import"].loaded
    assert rows["score", "cmi"].origin == "kgraph"
    with warnings.catch_warnings():
        warnings.simplefilter("error", plugins.PluginWarning)
        plugins.load_plugins(reload=True)  # the same failure is not warned twice


def test_a_missing_attribute_or_a_wrong_object_is_one_warning_each(site):
    dist(site, "kgraph_sloppy_plugin", """
        [kgraph.scores]
        no-attribute = kgraph_fake_plugin:NOPE
        not-a-score = kgraph_fake_plugin:reversed_greedy
        """)
    importlib.invalidate_caches()
    with pytest.warns(plugins.PluginWarning) as caught:
        plugins.load_plugins(reload=True)
    text = sorted(str(w.message) for w in caught)
    assert len(text) == 3  # the broken-import one too
    assert any("no-attribute = kgraph_fake_plugin:NOPE" in t and "AttributeError" in t
               for t in text)
    assert any("not-a-score = kgraph_fake_plugin:reversed_greedy" in t and "TypeError" in t
               for t in text)
    assert "no-attribute" not in SCORES and "not-a-score" not in SCORES


def cli(site: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)]),
           "MPLBACKEND": "Agg"}
    return subprocess.run([sys.executable, "-m", "viz.cli", *args], env=env, cwd=site,
                          capture_output=True, text=True, check=False)


def test_every_command_runs_beside_a_broken_plugin(site, capsys, monkeypatch):
    from viz.cli import main

    help_ = cli(site, "--help")
    assert help_.returncode == 0 and "plugins" in help_.stdout
    assert "PluginWarning" not in help_.stderr  # the top-level help reads no registry
    listing = cli(site, "plugins")
    assert listing.returncode == 0, listing.stderr
    assert listing.stderr.count("PluginWarning") == 1
    assert "broken-import = kgraph_no_such_module:FAMILIES" in listing.stderr
    lines = listing.stdout.splitlines()
    assert any(line.split()[:2] == ["half-cmi", "discrete"] and "kgraph_fake_plugin 1.0" in line
               for line in lines)
    assert any(line.split()[0] == "reversed-greedy" for line in lines)
    assert lines[-2] == "plug-ins that could not be loaded (skipped):"
    monkeypatch.setenv("COLUMNS", "400")
    with pytest.warns(plugins.PluginWarning, match="broken-import"):  # in this process
        with pytest.raises(SystemExit) as done:
            main(["learn", "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "{bdeu,bic,cmi,gaussian-copula,half-cmi," in text and ",kde,auto}" in text
    assert "reversed-greedy" in text
    assert main(["datasets"]) == 0 and "car" in capsys.readouterr().out


def test_kgraph_learn_takes_the_plugin_score(site, tmp_path_factory, capsys):
    from viz.cli import main

    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 120)
    X = (rng.random((120, 4)) < 0.3 + 0.4 * y[:, None]).astype(int)
    data = pd.DataFrame(X, columns=list("abcd")).assign(label=np.where(y, "yes", "no"))
    csv = site / "small.csv"
    data.to_csv(csv, index=False)
    out = tmp_path_factory.mktemp("learned")
    with pytest.warns(plugins.PluginWarning, match="broken-import"):
        plugins.load_plugins(reload=True)
    status = main(["learn", str(csv), "--target", "label", "--model", "ktan", "--k", "2",
                   "--structure-score", "half-cmi", "--cv", "2", "--quiet",
                   "--out", str(out)])
    assert status == 0
    import joblib

    model = joblib.load(out / "model.joblib")
    assert model.structure_score == "half-cmi"
    ref = KTANClassifier(k=2).fit(data[list("abcd")], data["label"])
    assert model.structure_ == ref.structure_
    assert model.score_ == pytest.approx(ref.score_ / 2)


def test_plugin_tests_skip_locally_but_fail_in_ci_without_the_example(monkeypatch):
    import installed_plugins

    monkeypatch.setattr(installed_plugins, "entry_points", lambda **kw: [])
    monkeypatch.delenv("KGRAPH_REQUIRE_PLUGINS", raising=False)
    with pytest.raises(pytest.skip.Exception, match="pip install ./tutorials/e_plugin"):
        installed_plugins.require_js_cmi()
    monkeypatch.setenv("KGRAPH_REQUIRE_PLUGINS", "1")
    with pytest.raises(pytest.fail.Exception, match="not installed"):
        installed_plugins.require_js_cmi()
