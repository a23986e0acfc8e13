"""Files and pixels: baselines per figure family, determinism, PDF/SVG/PNG output, the
gallery, deterministic layouts and the lazy matplotlib import."""

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.testing.compare import compare_images
from viz_cases import BASELINE_STYLE, CASES, FAMILIES, TOLERANCE, family_figure

from viz.gallery import gallery_figures, main
from viz.layout import rooted_children, tidy_forest
from viz.style import OKABE_ITO, PALETTE, Style, apply_style, rc_params, save_figure

BASELINE = Path(__file__).parent / "baseline"
MAGIC = {".pdf": b"%PDF", ".png": b"\x89PNG", ".svg": b"<?xml"}


@pytest.fixture(autouse=True)
def _style():
    import matplotlib

    with matplotlib.rc_context():
        apply_style(BASELINE_STYLE)
        yield


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_family_matches_its_baseline(family, tmp_path):
    actual = save_figure(family_figure(family), tmp_path / f"{family}.png", BASELINE_STYLE)
    result = compare_images(str(BASELINE / f"{family}.png"), str(actual), tol=TOLERANCE)
    assert result is None, result


@pytest.mark.parametrize("family", ["gnb", "ktree"])  # the families with computed layouts
def test_drawing_twice_gives_identical_png_bytes(family, tmp_path):
    first = save_figure(family_figure(family), tmp_path / "a.png", BASELINE_STYLE)
    second = save_figure(family_figure(family), tmp_path / "b.png", BASELINE_STYLE)
    assert first.read_bytes() == second.read_bytes()


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_figure_saves_as_pdf_svg_and_png(name, tmp_path):
    small = Style(dpi=40)
    fig = CASES[name](style=small)
    for suffix, magic in MAGIC.items():
        path = save_figure(fig, tmp_path / f"{name}{suffix}", small)
        assert path.read_bytes().startswith(magic), suffix
    assert b"<path" in (tmp_path / f"{name}.svg").read_bytes()


def test_every_figure_draws_into_a_given_axes():
    from matplotlib.figure import Figure

    for name, draw in CASES.items():
        fig = Figure()
        ax = fig.add_subplot()
        assert draw(ax=ax) is fig, name
        assert ax.has_data() or ax.patches or ax.texts, name


def test_vector_files_are_reproducible(tmp_path):
    fig = CASES["pbkt"]()
    for suffix in (".pdf", ".svg"):
        a = save_figure(fig, tmp_path / f"a{suffix}").read_bytes()
        b = save_figure(fig, tmp_path / f"b{suffix}").read_bytes()
        assert a == b, suffix


def test_save_figure_rejects_unknown_suffix(tmp_path):
    with pytest.raises(ValueError, match=r"suffix must be one of '.pdf', '.png', '.svg'; got '.jpg'"):
        save_figure(CASES["elbo"](), tmp_path / "figure.jpg")


def test_style_is_colour_blind_safe_and_uses_dejavu_sans():
    assert set(PALETTE) == set(OKABE_ITO.values())
    params = rc_params(Style(font_size=11))
    assert params["font.family"] == ["DejaVu Sans"] and params["font.size"] == 11
    assert params["axes.prop_cycle"].by_key()["color"] == list(PALETTE)
    assert Style().color(len(PALETTE)) == PALETTE[0]


def test_gallery_writes_every_figure(tmp_path, capsys):
    assert main([str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.glob("*.png"))
    assert written == sorted(f"{name}.png" for name in gallery_figures())
    assert all(p.read_bytes().startswith(MAGIC[".png"]) for p in tmp_path.glob("*.png"))
    assert len(capsys.readouterr().out.splitlines()) == len(written)


def test_every_gallery_figure_is_one_column_wide_and_passes_the_checker():
    from viz.check import check_figure

    figures = gallery_figures()
    kinds = {"gnb_graph", "junction_tree", "gnb_forest", "ktree", "ktan",
             "tree_representation", "pbkt", "plate", "confidence"}
    assert kinds <= set(figures)  # one per structure type
    for name, draw in figures.items():
        fig = draw()
        assert fig.get_size_inches()[0] == pytest.approx(3.5), name
        assert check_figure(fig) == [], name


def test_importing_viz_does_not_import_matplotlib():
    code = ("import sys; import viz, viz.style, viz.layout, viz.gnb, viz.ktree, viz.curves, "
            "viz.diagnostics, viz.latent, viz.gallery; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=root).stdout
    assert out.strip() == "[]"


@st.composite
def trees(draw):
    """A random tree on n nodes: node i > 0 hangs below a random earlier node."""
    n = draw(st.integers(1, 12))
    return n, [(draw(st.integers(0, i - 1)), i) for i in range(1, n)]


@settings(max_examples=60, deadline=None)
@given(trees())
def test_tidy_layout_is_a_layered_tree_without_overlaps(tree):
    n, edges = tree
    roots, children = rooted_children(list(range(n)), edges)
    pos = tidy_forest(roots, children, row=1.5)
    assert roots == [0] and len(pos) == n
    assert len(set(pos.values())) == n  # no two nodes share a place
    for parent, kids in children.items():
        for kid in kids:
            assert pos[kid][1] == pos[parent][1] - 1.5
        if kids:
            assert pos[parent][0] == (pos[kids[0]][0] + pos[kids[-1]][0]) / 2
    rows = {}
    for x, y in pos.values():
        rows.setdefault(y, []).append(x)
    assert all(min(b - a for a, b in zip(sorted(r), sorted(r)[1:], strict=False)) >= 1
               for r in rows.values() if len(r) > 1)
    assert tidy_forest(roots, children, row=1.5) == pos
