"""Small tables the command-line tests write as CSV files (fast to learn with every model)."""

from __future__ import annotations

import numpy as np
import pandas as pd


def small_mixed_table(path) -> pd.DataFrame:
    """60 rows: letters, small integers, two continuous columns, a string class (``class``)
    on which every feature depends; written to ``path`` as CSV and returned."""
    rng = np.random.default_rng(7)
    n = 60
    y = np.array(["no", "yes"])[rng.integers(0, 2, n)]
    shift = (y == "yes").astype(float)
    frame = pd.DataFrame({
        "colour": np.where(rng.random(n) < 0.3 + 0.4 * shift, "red", "blue"),
        "level": rng.integers(0, 3, n) + (shift * (rng.random(n) < 0.5)).astype(int),
        "size": rng.normal(shift, 1.0, n).round(3),
        "mass": rng.normal(0.0, 1.0 + shift, n).round(3),
        "class": y,
    })
    frame.to_csv(path, index=False)
    return frame


def markdown_rows(text: str) -> list[list[str]]:
    """The rows of every markdown table in ``text`` (header rows too, rules left out), each
    a list of its cells without the padding."""
    return [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in text.splitlines()
            if line.startswith("|") and set(line) - set("|-: ")]
