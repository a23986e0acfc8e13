"""Warnings that point at the user's call, not at kgraph's internals."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

_PACKAGE = str(Path(__file__).resolve().parent)


def _internal() -> tuple[str, ...]:
    """Folders whose frames are not the user's: estimators, and scikit-learn and joblib
    (their wrappers around ``fit`` and their parallel loops)."""
    folders = [_PACKAGE]
    for name in ("sklearn", "joblib"):
        module = sys.modules.get(name)
        if module is not None and getattr(module, "__file__", None):
            folders.append(str(Path(module.__file__).resolve().parent))
    return tuple(folders)


def user_stacklevel() -> int:
    """The ``stacklevel`` of the first frame outside estimators, scikit-learn and joblib
    (the user's call), counted from the caller of :func:`warn_user`.

    Python 3.12's ``skip_file_prefixes`` does the same; kgraph supports 3.11.
    """
    internal = _internal()
    frame, level = sys._getframe(2), 1  # the frame that called warn_user
    while frame is not None and frame.f_code.co_filename.startswith(internal):
        frame, level = frame.f_back, level + 1
    return level


def warn_user(message: str, category: type[Warning] = UserWarning) -> None:
    """``warnings.warn`` attributed to the first frame outside :mod:`estimators`.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     warn_user("look here")
    >>> w[0].filename.startswith(_PACKAGE), str(w[0].message)
    (False, 'look here')
    """
    warnings.warn(message, category, stacklevel=user_stacklevel() + 1)
