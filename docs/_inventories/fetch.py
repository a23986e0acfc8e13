"""Fetch the intersphinx inventories (``objects.inv``) of the libraries the documentation
links to into this folder, as ``NAME.inv``: run once on a machine with network access
(``python docs/_inventories/fetch.py``) and commit the files, so that builds without
network access link to those libraries too (``docs/conf.py`` reads them from here)."""

from __future__ import annotations

import ast
import urllib.request
from pathlib import Path


def main() -> int:
    conf = (Path(__file__).resolve().parents[1] / "conf.py").read_text()
    start = conf.index("_INTERSPHINX = ")
    mapping = ast.literal_eval(conf[start + len("_INTERSPHINX = "):conf.index("}", start) + 1])
    for name, url in mapping.items():
        target = Path(__file__).with_name(f"{name}.inv")
        with urllib.request.urlopen(url + "objects.inv", timeout=30) as response:
            data = response.read()
        if not data.startswith(b"# Sphinx inventory version"):
            raise SystemExit(f"{name}: {url}objects.inv is not a Sphinx inventory")
        target.write_bytes(data)
        print(f"{name}: {len(data)} bytes from {url}objects.inv -> {target.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
