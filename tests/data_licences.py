"""The licence of each data file, read from the ``licence`` column of the tables in a data
README (``estimators/datasets/data/README.md``, ``benchmarks/data/README.md``), and the
licences under which a file may ship inside kgraph's BSD-3-Clause wheel."""

from __future__ import annotations

import re

#: terms that let a file ship inside a BSD-3-Clause package with its attribution
PERMISSIVE = {"CC BY 4.0", "CC0-1.0", "public domain"}


def licences(readme: str) -> dict[str, str]:
    """``{file name: licence}`` from every Markdown table of ``readme`` whose header has a
    ``file`` and a ``licence`` column (a file named in several tables must agree)."""
    found: dict[str, str] = {}
    lines = readme.splitlines()
    for i, line in enumerate(lines[:-1]):
        if not (line.startswith("| file |") and re.match(r"\|[-| ]+\|$", lines[i + 1])):
            continue
        header = [c.strip() for c in line.strip("|").split("|")]
        column = header.index("licence") if "licence" in header else None
        for row in lines[i + 2:]:
            if not row.startswith("|"):
                break
            if column is None:
                continue
            cells = [c.strip() for c in row.strip("|").split("|")]
            name = cells[0].strip("`")
            if found.setdefault(name, cells[column]) != cells[column]:
                raise ValueError(f"{name}: two licences in one README")
    return found
