"""Each estimator parameter declared once (issue 47).

A :class:`Parameter` says everything about one hyperparameter: its name, default,
scikit-learn constraints (the vocabulary of ``sklearn.utils._param_validation``: ``Interval``,
``StrOptions``, ``"random_state"``, ``None``, a type, ...), its numpydoc type and text, and,
when ``kgraph learn`` exposes it, its command-line :class:`Flag`. A class lists its
parameters once with :func:`declare`; from that list come

- ``_parameter_constraints``, which scikit-learn's ``_fit_context`` checks once at ``fit``
  (the template; inner layers take the validated values),
- the numpydoc ``Parameters`` section of the class docstring (written in at import, before
  its first section, e.g. ``Attributes``; the text lives in the declarations, so it is
  greppable there),
- the ``kgraph learn`` options (``viz.cli.learn`` reads :func:`declared_parameters`).

``__init__`` stays explicit (scikit-learn's ``get_params`` reads its signature);
:func:`signature_mismatches` says where a signature and its declarations disagree (a test
runs it on every estimator).

A parameter that recurs is declared once where its concept lives (``alpha`` and
``var_smoothing`` here, ``k`` and ``search`` with the searchers, ``parameters`` with the
template, ...); a family that says more about it uses :meth:`Parameter.but`.

Examples
--------
>>> from numbers import Integral, Real
>>> from sklearn.base import BaseEstimator
>>> from sklearn.utils._param_validation import Interval
>>> RATE = Parameter("rate", 0.5, [Interval(Real, 0, 1, closed="both")], "float",
...                  "Share of something.", Flag("a rate in [0, 1]", type=float))
>>> @declare(RATE)
... class Demo(BaseEstimator):
...     '''A demo.
...
...     Attributes
...     ----------
...     rate_ : float
...     '''
...     def __init__(self, rate=0.5):
...         self.rate = rate
>>> Demo._parameter_constraints["rate"] == RATE.constraints
True
>>> print(Demo.__doc__.split("Attributes")[0].strip())
A demo.
<BLANKLINE>
    Parameters
    ----------
    rate : float, default=0.5
        Share of something.
>>> signature_mismatches(Demo)
[]
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

from sklearn.utils._param_validation import Interval, validate_parameter_constraints

__all__ = ["ALPHA", "ESS", "MAX_PARENTS", "N_JOBS", "RANDOM_STATE", "REQUIRED", "VAR_SMOOTHING", "VERBOSE", "Flag", "Parameter",
           "an_int", "declare", "declared_parameters", "int_or_auto",
           "ints_or_auto", "parameters_section", "signature_mismatches"]

#: the width of a docstring line (the project's line length)
_WIDTH = 92
#: the ``default`` of a parameter ``__init__`` requires
REQUIRED = inspect.Parameter.empty


@dataclass(frozen=True)
class Flag:
    """How ``kgraph learn`` exposes a parameter: ``--name`` (underscores as dashes).

    Attributes
    ----------
    help : str
        The option's help (the CLI starts it with the models that take it).
    type : callable or None
        Parses the text given (``float``, ``int``, :func:`int_or_auto`, ...); a
        ``ValueError`` it raises is the option's error message. None: the text itself.
    choices : str or None
        The key of the registry whose names are the accepted values (``viz.cli.learn.
        registries``, read when first used).
    extra : tuple of str
        Values accepted besides the registry's.
    listed : str or None
        A registry whose names the help shows as ``%(methods)s``.
    """

    help: str
    type: Callable[[str], Any] | None = None
    choices: str | None = None
    extra: tuple[str, ...] = ()
    listed: str | None = None


@dataclass(frozen=True)
class Parameter:
    """One estimator parameter, declared once.

    Attributes
    ----------
    name : str
        The ``__init__`` argument.
    default : object
        Its default (immutable), or :data:`REQUIRED`.
    constraints : list
        scikit-learn constraints (``_parameter_constraints[name]``).
    type : str
        The numpydoc type, without the default (``"float"``, ``'{"a", "b"}'``).
    doc : str
        The numpydoc description (one paragraph; wrapped when rendered).
    flag : Flag or None
        Its ``kgraph learn`` option, None when the command line does not expose it.
    """

    name: str
    default: Any
    constraints: list
    type: str
    doc: str
    flag: Flag | None = None

    def but(self, **changes) -> Parameter:
        """The same declaration with some fields changed (a family's own text, default,
        constraint or flag).

        Examples
        --------
        >>> ALPHA.but(default=0.5).default, ALPHA.but(default=0.5).name
        (0.5, 'alpha')
        """
        return dataclasses.replace(self, **changes)

    def numpydoc(self, indent: str = "    ") -> str:
        """Its entry of a numpydoc ``Parameters`` section.

        Examples
        --------
        >>> print(VAR_SMOOTHING.but(doc="Added variance.").numpydoc(""))
        var_smoothing : float, default=1e-9
            Added variance.
        """
        head = f"{indent}{self.name} : {self.type}{self.default_text}"
        body = textwrap.fill(" ".join(self.doc.split()), _WIDTH - len(indent) - 4,
                             initial_indent=indent + "    ", subsequent_indent=indent + "    ",
                             break_on_hyphens=False, break_long_words=False)
        return f"{head}\n{body}"

    @property
    def default_text(self) -> str:
        """``, default=...`` as the numpydoc type line ends (nothing for a required one)."""
        return "" if self.default is REQUIRED else f", default={_shown(self.default)}"

    def check(self, value: Any, owner: str) -> None:
        """Raise scikit-learn's ``InvalidParameterError`` when ``value`` breaks the
        constraints (for public functions that take the parameter directly; estimators
        are checked at ``fit`` by the template).

        Examples
        --------
        >>> ALPHA.check(0.0, "f")
        Traceback (most recent call last):
        ...
        sklearn.utils._param_validation.InvalidParameterError: The 'alpha' parameter of f \
must be a float in the range (0.0, inf). Got 0.0 instead.
        """
        validate_parameter_constraints({self.name: self.constraints}, {self.name: value},
                                       caller_name=owner)


def _shown(default: Any) -> str:
    """A default as numpydoc shows it: strings in double quotes, ``1e-9`` not ``1e-09``."""
    if isinstance(default, str):
        return f'"{default}"'
    return re.sub(r"e([+-])0(\d)", r"e\1\2", repr(default))


def parameters_section(parameters: Iterable[Parameter], indent: str = "    ") -> str:
    """The numpydoc ``Parameters`` section of the declarations."""
    lines = [f"{indent}Parameters", f"{indent}----------"]
    return "\n".join(lines + [p.numpydoc(indent) for p in parameters])


def _with_section(doc: str | None, section: str, indent: str) -> str:
    """``doc`` with ``section`` before its first section heading (numpydoc puts
    ``Parameters`` first), or at its end."""
    doc = doc or ""
    match = re.search(rf"\n{indent}[A-Z][\w ]*\n{indent}-+\n", doc)
    if match:
        return f"{doc[:match.start()]}\n{section}\n{doc[match.start():]}"
    return f"{doc.rstrip()}\n\n{section}\n{indent}"


def declare(*parameters: Parameter) -> Callable[[type], type]:
    """Class decorator: the class's parameters, in ``__init__`` order. Sets
    ``_parameter_constraints`` and writes the ``Parameters`` section into the docstring
    (which must not have one)."""
    names = [p.name for p in parameters]
    if len(set(names)) != len(names):
        raise ValueError(f"a parameter declared twice: {names}")

    def apply(cls: type) -> type:
        if cls.__doc__ and re.search(r"\n\s*Parameters\n\s*-+\n", cls.__doc__):
            raise ValueError(f"{cls.__name__}: the docstring has a Parameters section; "
                             "the declarations write it")
        cls._declared_parameters = tuple(parameters)
        cls._parameter_constraints = {p.name: list(p.constraints) for p in parameters}
        cls.__doc__ = _with_section(cls.__doc__, parameters_section(parameters), "    ")
        return cls

    return apply


def declared_parameters(cls: type) -> tuple[Parameter, ...]:
    """The parameters :func:`declare` gave ``cls`` or its nearest declared base (empty
    when there is none)."""
    return tuple(getattr(cls, "_declared_parameters", ()))


def signature_mismatches(cls: type) -> list[str]:
    """Where ``cls.__init__`` and its declarations disagree (names, order, defaults), and
    declared parameters missing from the rendered docstring; empty when they agree."""
    declared = declared_parameters(cls)
    if not declared:
        return [f"{cls.__name__} declares no parameters"]
    signature = inspect.signature(cls).parameters
    out = []
    if list(signature) != [p.name for p in declared]:
        out.append(f"{cls.__name__}: __init__ takes {list(signature)}, declared "
                   f"{[p.name for p in declared]}")
    for p in declared:
        given = signature.get(p.name)
        if given is not None and not _same(given.default, p.default):
            out.append(f"{cls.__name__}.{p.name}: default {given.default!r} in __init__, "
                       f"{p.default!r} declared")
        if f"\n    {p.name} : {p.type}{p.default_text}\n" not in (cls.__doc__ or ""):
            out.append(f"{cls.__name__}.{p.name}: not in the docstring")
    return out


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


# -- command-line text of the declared types ---------------------------------------------------
def an_int(text: str) -> int:
    """An int.

    Examples
    --------
    >>> an_int("3")
    3
    >>> an_int("auto")
    Traceback (most recent call last):
    ...
    ValueError: expected an int, got 'auto'
    """
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"expected an int, got {text!r}") from None


def int_or_auto(text: str) -> int | str:
    """An int, or ``"auto"``.

    Examples
    --------
    >>> int_or_auto("3"), int_or_auto("auto")
    (3, 'auto')
    """
    if text == "auto":
        return text
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"expected an int or 'auto', got {text!r}") from None


def ints_or_auto(text: str) -> int | str | list[int]:
    """An int, ``"auto"``, or a comma-separated list of ints (the candidates a model chooses
    among by inner cross-validation).

    Examples
    --------
    >>> ints_or_auto("2"), ints_or_auto("auto"), ints_or_auto("1, 2")
    (2, 'auto', [1, 2])
    """
    if "," not in text:
        return int_or_auto(text)
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise ValueError(
            f"expected an int, 'auto' or a comma-separated list of ints, got {text!r}") from None


# -- the parameters several families share -----------------------------------------------------
ALPHA = Parameter(
    "alpha", 1.0, [Interval(Real, 0, None, closed="neither")], "float",
    "Pseudo-count of the CPTs (> 0).", Flag("CPT pseudo-count", type=float))
ESS = Parameter(
    "ess", None, [None, Interval(Real, 0, None, closed="neither")], "float or None",
    "When given, the CPTs use the BDeu-style Dirichlet prior with this equivalent sample "
    "size instead of ``alpha`` (see :func:`estimators.network.model.fit_network`).",
    Flag("equivalent sample size of a BDeu CPT prior (replaces --alpha)", type=float))
MAX_PARENTS = Parameter(
    "max_parents", 2, [Interval(Integral, 0, None, closed="left")], "int",
    "The largest number of feature parents of a feature (the class is a parent of every "
    "feature besides); 0 is naive Bayes.",
    Flag("the largest number of feature parents of a feature (an int >= 0; default 2)",
         type=an_int))
VAR_SMOOTHING = Parameter(
    "var_smoothing", 1e-9, [Interval(Real, 0, None, closed="left")], "float",
    "Fraction of the largest continuous-feature variance added to residual variances.")
VERBOSE = Parameter(
    "verbose", False, ["verbose"], "bool",
    "Progress bars (tqdm, on stderr) inside the long work of ``fit``; ``False`` leaves the "
    "caller's setting (:func:`estimators.base.progress.show_progress`, off by default).")
N_JOBS = Parameter(
    "n_jobs", None, [Integral, None], "int or None",
    "Parallel jobs (joblib; None: one unless a joblib context says otherwise, -1: all "
    "cores).")
RANDOM_STATE = Parameter(
    "random_state", None, ["random_state"], "int, RandomState or None",
    "Seeds the randomised steps of ``fit`` (None: seed 0, so a fit is reproducible by "
    "default).")
