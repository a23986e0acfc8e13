"""Tests that need the example plug-in installed (``pip install ./tutorials/e_plugin``):
they skip where it is not installed, and fail instead when ``KGRAPH_REQUIRE_PLUGINS=1``
(set by ``.ci/run``, which installs it), so CI always runs them."""

import os
from importlib.metadata import entry_points

import pytest

JS_CMI = "js-cmi"


def require_js_cmi() -> None:
    """Skip (or, under ``KGRAPH_REQUIRE_PLUGINS=1``, fail) unless the ``js-cmi`` entry point
    of the example package is installed."""
    if entry_points(group="kgraph.scores", name=JS_CMI):
        return
    message = ("the example plug-in is not installed: pip install ./tutorials/e_plugin "
               "(entry point kgraph.scores: js-cmi)")
    if os.environ.get("KGRAPH_REQUIRE_PLUGINS") == "1":
        pytest.fail(message)
    pytest.skip(message)
