"""Regenerate the image-comparison baselines of tests/viz (one PNG per figure family and per standalone wide layout).

Run from the repository root: ``python tests/viz/make_baselines.py``. Uses the Agg backend,
the rcParams of :mod:`viz.style` and the fixed size and dpi of ``viz_cases``; commit the
PNG files it writes into ``tests/viz/baseline/`` after looking at them.
"""

from __future__ import annotations

import sys
from pathlib import Path

BASELINE_DIR = Path(__file__).resolve().parent / "baseline"


def main() -> None:
    root = Path(__file__).resolve().parents[2]
    sys.path[:0] = [str(root), str(root / "tests")]
    import matplotlib

    matplotlib.use("Agg")
    from viz_cases import BASELINE_STYLE, CASES, FAMILIES, STANDALONE, family_figure

    from viz.style import apply_style, save_figure

    apply_style(BASELINE_STYLE)
    BASELINE_DIR.mkdir(exist_ok=True)
    for name in FAMILIES:
        path = save_figure(family_figure(name), BASELINE_DIR / f"{name}.png", BASELINE_STYLE)
        print(path.relative_to(root))
    for name in STANDALONE:
        path = save_figure(CASES[name](style=BASELINE_STYLE), BASELINE_DIR / f"{name}.png",
                           BASELINE_STYLE)
        print(path.relative_to(root))


if __name__ == "__main__":
    main()
