"""PyBNesian (the independent peer of issue 32) with an OpenCL platform.

PyBNesian's KDE and CKDE run their kernel sums through OpenCL; its wheel links the Khronos
ICD loader statically and finds no platform on a machine without an OpenCL driver
("RuntimeError: OpenCL platforms not found."). The ``pocl-binary-distribution`` wheel ships
a CPU driver (pocl) as ``pyopencl/.libs/libpocl-*.so``; pointing ``OCL_ICD_FILENAMES`` at
it before the first kernel call makes the loader use it.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path


def pocl_library() -> str | None:
    """Path of pocl's OpenCL driver from ``pocl-binary-distribution``, or None."""
    spec = importlib.util.find_spec("pocl_binary_distribution")
    if spec is None or not spec.submodule_search_locations:
        return None
    libs = Path(list(spec.submodule_search_locations)[0]).parent / "pyopencl" / ".libs"
    found = sorted(libs.glob("libpocl*.so*"))
    return str(found[0]) if found else None


def import_pybnesian():
    """``pybnesian`` with ``OCL_ICD_FILENAMES`` set to pocl when the caller has not set it
    (ImportError when pybnesian is not installed)."""
    library = pocl_library()
    if library and not os.environ.get("OCL_ICD_FILENAMES"):
        os.environ["OCL_ICD_FILENAMES"] = library
    import pybnesian

    return pybnesian
