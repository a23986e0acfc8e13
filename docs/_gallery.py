"""The example gallery: ``tutorials/*.py`` (jupytext percent notebooks with markdown cells)
run by sphinx-gallery at build time, each figure a tutorial saves shown on its page.

sphinx-gallery reads reStructuredText text blocks and a module docstring as the title, so
each tutorial is translated into ``docs/_examples/`` first: its first markdown cell becomes
the docstring, the others ``# %%`` text blocks, headings get reST underlines and indented
code becomes a literal block; code cells are copied unchanged. The figures are collected by
wrapping :func:`viz.save_figure` while an example runs: every figure the tutorial saves is
also written as a PNG beside its page (:func:`saved_figures_scraper`).
"""

from __future__ import annotations

import os
import re
import warnings
from pathlib import Path

_UNDERLINES = {1: "=", 2: "-", 3: "~", 4: "^"}
_SAVED: list = []


def _markdown_to_rst(lines: list[str]) -> list[str]:
    """Markdown lines (comment markers removed) as reStructuredText lines."""
    out: list[str] = []
    in_code = False
    for line in lines:
        heading = re.match(r"^(#{1,4}) (.*)$", line)
        indented = line.startswith("    ") and line.strip()
        if heading:
            text = heading.group(2).strip()
            out += ["", text, _UNDERLINES[len(heading.group(1))] * len(text), ""]
            continue
        if indented and not in_code:
            previous = next((x for x in reversed(out) if x.strip()), "")
            if previous.startswith(("- ", "* ")) or re.match(r"^\d+\. ", previous):
                out.append(line)  # a list item's continuation
                continue
            while out and not out[-1].strip():
                out.pop()
            if out and out[-1].rstrip().endswith(":"):
                out[-1] = out[-1].rstrip() + ":"
            else:
                out += ["", "::"]
            out.append("")
            in_code = True
        elif in_code and line.strip() and not line.startswith("    "):
            if out[-1].strip():
                out.append("")
            in_code = False
        if re.match(r"^(- |\* |\d+\. )", line) and out and out[-1].strip() and not re.match(
                r"^(- |\* |\d+\. |  )", out[-1]):
            out.append("")
        out.append(re.sub(r"\[([^\]]+)\]\(([^)]+)\)", r"`\1 <\2>`__", line))
    return out


def _cells(source: str) -> list[tuple[str, list[str]]]:
    """The percent-format cells of a tutorial: ``(kind, lines)``, kind ``markdown`` or
    ``code``."""
    cells: list[tuple[str, list[str]]] = []
    for line in source.splitlines():
        if line.startswith("# %%"):
            cells.append(("markdown" if "[markdown]" in line else "code", []))
        elif cells:
            cells[-1][1].append(line)
    return cells


def _uncomment(lines: list[str]) -> list[str]:
    return [line[2:] if line.startswith("# ") else line.lstrip("#") for line in lines]


#: what a page says where its tutorial reads ``KGRAPH_TUTORIAL_QUICK`` and the site runs it so
QUICK_NOTE = ("**Reduced size on this page:** the site runs this tutorial with "
              "``KGRAPH_TUTORIAL_QUICK=1``, its quick mode (fewer tables, rows, folds or "
              "repeats, as its code says where it reads ``quick``). Run the script itself, "
              "without that variable, for the full size.")


def translate(source: str, quick: bool = False) -> str:
    """A tutorial's text in sphinx-gallery's format (see the module docstring); with
    ``quick``, a tutorial that has a quick mode says on its page that it runs reduced."""
    cells = _cells(source)
    if not cells or cells[0][0] != "markdown":
        raise ValueError("A tutorial starts with a markdown cell holding its '# Tutorial' title.")
    title = "\n".join(_markdown_to_rst(_uncomment(cells[0][1]))).strip("\n")
    if quick and "KGRAPH_TUTORIAL_QUICK" in source:
        title += "\n\n" + QUICK_NOTE
    parts = ['"""\n' + title.replace('"""', "'''") + '\n"""\n']
    for kind, lines in cells[1:]:
        if kind == "markdown":
            text = _markdown_to_rst(_uncomment(lines))
            parts.append("# %%\n" + "\n".join(f"# {x}".rstrip() for x in text).strip("\n")
                         + "\n")
        else:
            parts.append("# %%\n" + "\n".join(lines).strip("\n") + "\n")
    return "\n".join(parts)


def write_examples(tutorials: Path, folder: Path) -> list[Path]:
    """Translate every ``tutorials/*.py`` into ``folder`` (with the gallery's header)."""
    folder.mkdir(exist_ok=True)
    (folder / "GALLERY_HEADER.rst").write_text(
        "Gallery\n=======\n\nThe tutorials of ``tutorials/``, run when these pages were "
        "built; each figure is the one the tutorial saves. Download any of them as a "
        "script or a notebook at the bottom of its page.\n")
    written = []
    for path in sorted(tutorials.glob("*.py")):
        target = folder / path.name
        text = translate(path.read_text(),
                         quick=os.environ.get("KGRAPH_TUTORIAL_QUICK") == "1")
        if not target.exists() or target.read_text() != text:
            target.write_text(text)
        written.append(target)
    return written


def record_saved_figures(gallery_conf, fname, when=None) -> None:
    """Before each example: :func:`viz.save_figure` also remembers the figures it saves."""
    import viz
    import viz.style

    original = viz.style.save_figure

    def save_figure(fig, path, style=None):
        _SAVED.append(fig)
        return original(fig, path, style)

    save_figure.__doc__ = original.__doc__
    viz.save_figure = save_figure
    _SAVED.clear()
    # third-party deprecation notices (pgmpy's, on importing its estimators) are pgmpy's
    # business, not the tutorial's output
    for category in (DeprecationWarning, FutureWarning):
        warnings.filterwarnings("ignore", category=category, module=r"pgmpy(\.|$)")
    warnings.formatwarning = format_warning


def format_warning(message, category, filename, lineno, line=None) -> str:
    """A warning as the gallery shows it: its class and message, without the file and line
    it came from (a path on the machine that built the pages)."""
    return f"{category.__name__}: {message}\n"


def saved_figures_scraper(block, block_vars, gallery_conf) -> str:
    """The figures the block saved, as PNG images on the example's page."""
    from sphinx_gallery.scrapers import figure_rst

    paths = []
    for fig, path in zip(_SAVED, block_vars["image_path_iterator"], strict=False):
        fig.savefig(path, dpi=110)
        paths.append(path)
    _SAVED.clear()
    return figure_rst(paths, gallery_conf["src_dir"])


def configuration(root: Path, docs: Path) -> dict:
    """sphinx-gallery's configuration; translates the tutorials first."""
    examples = docs / "_examples"
    write_examples(root / "tutorials", examples)
    # relative to the folder each example runs in (docs/_examples, not in the repository),
    # so that what a tutorial prints names no path of the machine that built the pages
    os.environ.setdefault("KGRAPH_TUTORIAL_OUT", "tutorial_output")
    return {
        # the tutorials' own order, (a) to (i), as their file names give it (a name, not
        # the class: Sphinx caches only picklable configuration)
        "within_subsection_order": "sphinx_gallery.sorting.FileNameSortKey",
        "examples_dirs": str(examples),
        "gallery_dirs": str(docs / "gallery"),
        "filename_pattern": r".*",
        "image_scrapers": ("_gallery.saved_figures_scraper",),
        "reset_modules": ("_gallery.record_saved_figures",),
        "abort_on_example_error": True,
        "download_all_examples": False,
        "remove_config_comments": True,
        "plot_gallery": "True",
    }
