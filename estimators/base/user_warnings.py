"""Warnings that point at the user's call, not at kgraph's internals.

:func:`warn_user` gives a warning the ``stacklevel`` of the user's call. :func:`user_fit`
decorates a classifier's ``fit``: progress bars when its ``verbose`` is set, and the
warnings raised inside (by scores, searchers, nested fits) re-raised once each at the end,
at the user's call. Inside such a fit the scores leave per-class notes to the classifier,
which names the class by its label (:func:`inside_classifier_fit`). An error raised inside
names the estimator first (:func:`named_errors`): the checks below take no name.
"""

from __future__ import annotations

import functools
import re
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from pathlib import Path
from typing import TypeVar

from estimators.base.progress import show_progress

_PACKAGE = str(Path(__file__).resolve().parent)
_IN_FIT: ContextVar[bool] = ContextVar("kgraph_in_classifier_fit", default=False)
F = TypeVar("F", bound=Callable)


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


def inside_classifier_fit() -> bool:
    """Whether the code runs inside a ``fit`` decorated with :func:`user_fit`."""
    return _IN_FIT.get()


@contextmanager
def named_errors(owner: str) -> Iterator[None]:
    """A ``ValueError`` or ``TypeError`` raised inside, whose message does not name
    ``owner`` (as a word: ``TANClassifier`` is not named by ``KTANClassifier``), leaves with ``"owner: "`` in front of its message (same exception, same
    traceback): the estimator's method is the one place that knows its name.

    Examples
    --------
    >>> with named_errors("Demo"):
    ...     raise ValueError("y has 2 labels but X has 3 rows")
    Traceback (most recent call last):
    ...
    ValueError: Demo: y has 2 labels but X has 3 rows
    """
    try:
        yield
    except (ValueError, TypeError) as exc:
        if exc.args and isinstance(exc.args[0], str) and not re.search(
                rf"\b{re.escape(owner)}\b", exc.args[0]):
            exc.args = (f"{owner}: {exc.args[0]}", *exc.args[1:])
        raise


def _reemit(caught: list[warnings.WarningMessage]) -> None:
    """Each distinct (category, message) of ``caught`` once, at the user's call."""
    seen: set[tuple[type, str]] = set()
    for w in caught:
        if (w.category, str(w.message)) not in seen:
            seen.add((w.category, str(w.message)))
            warn_user(str(w.message), w.category)


def user_fit(fit: F) -> F:
    """Decorate a classifier's ``fit``: with ``verbose=True`` progress bars are drawn inside
    (:func:`estimators.base.progress.show_progress`; ``False`` leaves the caller's setting, off by
    default); every distinct warning raised inside is raised once, after the work, with the
    ``stacklevel`` of the user's call. When ``fit`` raises, its exception goes through
    (its message naming the classifier first: :func:`named_errors`): the warnings are shown
    first under the caller's filters with ``"error"`` read as ``"always"``, so that
    ``python -W error`` or ``warnings.simplefilter("error")`` reports the real error, not a
    warning that came before it.

    Examples
    --------
    >>> import warnings
    >>> class Demo:
    ...     verbose = False
    ...     @user_fit
    ...     def fit(self):
    ...         for _ in range(3):
    ...             warnings.warn("same note", UserWarning)
    ...         return self
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     _ = Demo().fit()
    >>> [str(x.message) for x in w], w[0].filename.startswith(_PACKAGE)
    (['same note'], False)
    """

    @functools.wraps(fit)
    def wrapper(self, *args, **kwargs):
        token = _IN_FIT.set(True)
        caught: list[warnings.WarningMessage] = []
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                bars = show_progress(True) if getattr(self, "verbose", False) else nullcontext()
                with named_errors(type(self).__name__), bars:
                    result = fit(self, *args, **kwargs)
        except BaseException:
            _IN_FIT.reset(token)
            with warnings.catch_warnings():  # the fit's own error is the one to see
                warnings.filters[:] = [("always" if f[0] == "error" else f[0], *f[1:])
                                       for f in warnings.filters]
                _reemit(caught)
            raise
        _IN_FIT.reset(token)
        _reemit(caught)
        return result

    return wrapper  # type: ignore[return-value]
