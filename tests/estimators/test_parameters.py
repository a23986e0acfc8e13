"""Each estimator parameter declared once (issue 47): the signature, the scikit-learn
constraints, the numpydoc Parameters section and the ``kgraph learn`` options all come from
one list of :class:`~estimators.base.parameters.Parameter` per class."""

from __future__ import annotations

import argparse
import importlib
import inspect
import pkgutil
from numbers import Integral

import numpy as np
import pytest
from numpydoc.docscrape import NumpyDocString
from sklearn.base import clone
from sklearn.utils._param_validation import Interval, InvalidParameterError

import estimators
from estimators.base.parameters import (
    ALPHA,
    REQUIRED,
    Flag,
    Parameter,
    declare,
    declared_parameters,
    signature_mismatches,
)
from estimators.ktan import TANClassifier


def _validated_classes() -> list[type]:
    """Every concrete class of the estimators package whose parameters scikit-learn
    validates (it has ``_parameter_constraints``)."""
    found = {}
    for info in pkgutil.walk_packages(estimators.__path__, "estimators."):
        module = importlib.import_module(info.name)
        for cls in vars(module).values():
            if (isinstance(cls, type) and cls.__module__.startswith("estimators.")
                    and hasattr(cls, "_parameter_constraints") and not inspect.isabstract(cls)):
                found[cls.__module__, cls.__qualname__] = cls
    return [found[key] for key in sorted(found)]


DECLARED = _validated_classes()


def test_every_estimator_family_is_covered():
    names = {cls.__name__ for cls in DECLARED}
    assert {"TANClassifier", "KTANClassifier", "NaiveBayesClassifier", "KDBClassifier",
            "BANClassifier", "AnDEClassifier", "AODEClassifier", "A2DEClassifier",
            "GNBClassifier", "KGNBClassifier", "LatentCNBClassifier", "LatentCNB",
            "DiscreteCMI", "ConditionalGaussianScore", "StructureConfidence"} <= names


@pytest.mark.parametrize("cls", DECLARED, ids=lambda c: c.__name__)
def test_signature_defaults_and_docstring_follow_the_declarations(cls):
    assert signature_mismatches(cls) == []
    declared = declared_parameters(cls)
    signature = inspect.signature(cls).parameters
    assert {n: p.default for n, p in signature.items()} == {p.name: p.default for p in declared}
    # the constraints scikit-learn checks are exactly the declared ones
    assert cls._parameter_constraints == {p.name: p.constraints for p in declared}
    # numpydoc reads the rendered section back: every parameter, in __init__ order
    parsed = NumpyDocString(inspect.getdoc(cls))["Parameters"]
    assert [p.name for p in parsed] == list(signature)
    for entry, p in zip(parsed, declared, strict=True):
        assert " ".join(entry.desc) == " ".join(p.doc.split())
    # and the section comes before Attributes, as numpydoc orders them
    doc = cls.__doc__
    if "\n    Attributes\n" in doc:
        assert doc.index("\n    Parameters\n") < doc.index("\n    Attributes\n")


@pytest.mark.parametrize("cls", DECLARED, ids=lambda c: c.__name__)
def test_defaults_satisfy_their_own_constraints(cls):
    from sklearn.utils._param_validation import validate_parameter_constraints

    defaults = {p.name: p.default for p in declared_parameters(cls) if p.default is not REQUIRED}
    assert defaults  # every class has a parameter with a default
    validate_parameter_constraints({n: cls._parameter_constraints[n] for n in defaults},
                                   defaults, caller_name=cls.__name__)


def test_a_shared_declaration_is_one_object():
    """``alpha`` is declared once: every family's constraint is that declaration's."""
    from estimators.bnc import AODEClassifier, KDBClassifier
    from estimators.ktan import NaiveBayesClassifier

    for cls in (TANClassifier, KDBClassifier, AODEClassifier, NaiveBayesClassifier):
        assert cls._parameter_constraints["alpha"] == ALPHA.constraints


def test_declare_refuses_a_hand_written_parameters_section_and_a_name_twice():
    class Doc:
        """Demo.

        Parameters
        ----------
        alpha : float
        """

    with pytest.raises(ValueError, match="Doc: the docstring has a Parameters section"):
        declare(ALPHA)(Doc)
    with pytest.raises(ValueError, match="a parameter declared twice"):
        declare(ALPHA, ALPHA)


def test_signature_mismatches_names_what_disagrees():
    @declare(ALPHA)
    class Wrong:
        """Demo."""

        def __init__(self, alpha=2.0):
            self.alpha = alpha

    assert signature_mismatches(Wrong) == [
        "Wrong.alpha: default 2.0 in __init__, 1.0 declared"]


# -- the acceptance point: a new hyperparameter is one declaration plus its use -----------------
#: the one declaration of a toy hyperparameter (its use is in ``_spec``)
ROUNDS = Parameter("smoothing_rounds", 0, [Interval(Integral, 0, 3, closed="both")], "int",
                   "Toy: rounds of extra CPT smoothing (each adds 1 to ``alpha``).",
                   Flag("rounds of extra CPT smoothing", type=int))


@declare(*declared_parameters(TANClassifier), ROUNDS)
class RoundsTAN(TANClassifier):
    """TAN with one more hyperparameter."""

    def __init__(self, *, features="auto", alpha=1.0, ess=None, feature_types="auto",
                 var_smoothing=1e-9, verbose=False, parameters="generative",
                 continuous="gaussian", structure_score="cmi", hdp_iterations=5000,
                 hdp_burn_in=None, hdp_tying="level", random_state=0, discretize=None,
                 smoothing_rounds=0):
        super().__init__(features=features, alpha=alpha, ess=ess, feature_types=feature_types,
                         var_smoothing=var_smoothing, verbose=verbose, parameters=parameters,
                         continuous=continuous, structure_score=structure_score,
                         hdp_iterations=hdp_iterations, hdp_burn_in=hdp_burn_in,
                         hdp_tying=hdp_tying, random_state=random_state,
                         discretize=discretize)
        self.smoothing_rounds = smoothing_rounds

    def fit(self, X, y=None):
        alpha = self.alpha
        try:  # its use: the CPTs see alpha + rounds
            self.alpha = alpha + self.smoothing_rounds
            return super().fit(X, y)
        finally:
            self.alpha = alpha


def _table():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 120)
    X = (rng.random((120, 3)) < 0.3 + 0.4 * y[:, None]).astype(int)
    return X, y


def test_a_new_hyperparameter_gets_its_constraint_docstring_and_signature_check():
    assert signature_mismatches(RoundsTAN) == []
    assert "smoothing_rounds : int, default=0\n        Toy: rounds" in RoundsTAN.__doc__
    X, y = _table()
    with pytest.raises(InvalidParameterError,
                       match=r"The 'smoothing_rounds' parameter of RoundsTAN must be an int "
                             r"in the range \[0, 3\]\. Got 7 instead"):
        RoundsTAN(smoothing_rounds=7).fit(X, y)
    # its use: the same model as TAN with alpha + rounds (an independent fit)
    got = RoundsTAN(smoothing_rounds=2).fit(X, y).predict_proba(X)
    want = TANClassifier(alpha=3.0).fit(X, y).predict_proba(X)
    np.testing.assert_allclose(got, want, rtol=0, atol=0)
    assert clone(RoundsTAN(smoothing_rounds=2)).get_params()["smoothing_rounds"] == 2


@pytest.fixture
def registered(request):
    """Register classes as families for one test: ``registered(name, cls)``."""
    from estimators.template.family_registry import register_family, unregister_family

    names = []

    def add(name: str, cls: type) -> None:
        register_family(name, f"toy {cls.__name__}")(cls)
        names.append(name)

    yield add
    for name in names:
        unregister_family(name)


def test_a_new_hyperparameter_gets_its_cli_flag(registered, tmp_path):
    from viz.cli import learn

    registered("rounds-tan", RoundsTAN)
    parser = argparse.ArgumentParser()
    learn.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["learn", "data.csv", "--model", "rounds-tan", "--out",
                              str(tmp_path), "--smoothing-rounds", "2", "--alpha", "0.5"])
    assert args.smoothing_rounds == 2
    model = learn.MODELS["rounds-tan"].build(args)
    assert (model.smoothing_rounds, model.alpha) == (2, 0.5)
    text = parser._subparsers._group_actions[0].choices["learn"].format_help()
    assert "rounds-tan: rounds of extra CPT smoothing" in " ".join(text.split())
    # a model without the parameter: the parser refuses the flag, naming who takes it
    with pytest.raises(SystemExit):
        parser.parse_args(["learn", "data.csv", "--model", "tan", "--out", str(tmp_path),
                           "--smoothing-rounds", "1"])
    assert learn.refused_options(argparse.Namespace(model="tan", smoothing_rounds=1)) == (
        "--smoothing-rounds does not apply to --model tan (its model options: --features, "
        "--alpha, --ess, --parameters, --continuous, --structure-score, --hdp-iterations, "
        "--hdp-burn-in, --hdp-tying, --discretize); the models that take "
        "--smoothing-rounds: rounds-tan")


def test_the_cli_options_are_those_the_hand_written_table_had():
    """The per-model options of ``kgraph learn`` before the declarations (viz/cli/learn.py's
    MODELS table, written by hand), now derived from the estimators (kDB's ``k`` is
    ``max_parents`` since, the name BAN's same bound has)."""
    from viz.cli.learn import MODELS

    before = {
        "gnb": ("dependence", "n_clusters", "parameters"),
        "kgnb": ("order", "dependence", "search", "backbone", "candidates", "structure_score"),
        "tan": ("features", "alpha", "ess", "parameters", "continuous", "structure_score"),
        "ktan": ("k", "search", "backbone", "features", "alpha", "candidates",
                 "structure_score", "ess", "parameters", "continuous"),
        "kdb": ("max_parents", "features", "alpha", "ess", "parameters", "continuous"),
        "aode": ("alpha",), "a2de": ("alpha",),
        "latent-cnb": ("n_components", "prior", "family"),
        "ban": ("max_parents", "structure_score", "features", "alpha", "ess", "parameters",
                "continuous"),
    }
    sized = {"kgnb", "ktan", "kdb", "aode", "a2de", "ban"}  # since: max_cells (model sizes)
    discrete = {"tan", "ktan", "kdb", "aode", "a2de", "ban"}  # since: discretize (MDL)
    # since: the settings of the HDP tables (AnDE: its option smoothing too)
    hdp = {"tan", "ktan", "kdb", "ban", "aode", "a2de"}
    assert {m: set(spec.options) for m, spec in MODELS.items()} == {
        m: set(o) | ({"max_cells"} if m in sized else set())
        | ({"hdp_iterations", "hdp_burn_in", "hdp_tying"} if m in hdp else set())
        | ({"smoothing"} if m in ("aode", "a2de") else set())
        | ({"discretize"} if m in discrete else set())
        for m, o in before.items()}


def test_one_flag_with_two_types_is_refused(registered):
    from viz.cli import learn

    @declare(ALPHA.but(flag=Flag("as text", type=str)))
    class TextAlpha:
        """Demo."""

        def __init__(self, alpha=1.0):
            self.alpha = alpha

    registered("text-alpha", TextAlpha)
    with pytest.raises(ValueError, match="the declarations of 'alpha' give --alpha different "
                                         "types or choices"):
        learn.add_model_options(argparse.ArgumentParser())


def test_a_bad_option_text_is_the_parsers_message(capsys):
    from viz.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["learn", "iris", "--model", "ktan", "--k", "1,x", "--out", "x"])
    assert exc.value.code == 2
    assert ("expected an int, 'auto' or a comma-separated list of ints, got '1,x'"
            in capsys.readouterr().err)
