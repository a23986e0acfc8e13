"""The family registry (:mod:`estimators.template.family_registry`): every list of families
comes from it, so these check the lists that cannot be generated against it (``__all__``,
the README's table) and the registry's own rules (one name, one class; one meaning per
parameter name)."""

import re
from pathlib import Path

import pytest
from sklearn.base import ClassifierMixin

import estimators
from estimators.template.family_registry import (
    families,
    family_names,
    get_family,
    parameter_meanings,
    register_family,
)

ROOT = Path(__file__).resolve().parents[2]


def test_every_family_and_only_they_are_the_exported_classifiers():
    exported = {name: getattr(estimators, name) for name in estimators.__all__}
    classifiers = {name for name, obj in exported.items()
                   if isinstance(obj, type) and issubclass(obj, ClassifierMixin)}
    assert classifiers == {f.cls.__name__ for f in families()}
    assert all(exported[f.cls.__name__] is f.cls for f in families())


def test_the_built_ins_in_their_order():
    assert family_names() == ["gnb", "kgnb", "tan", "ktan", "kdb", "ande", "aode", "a2de",
                              "latent-cnb", "ban", "nb"]
    assert family_names(command_line=False) == ["ande", "nb"]


def test_each_parameter_name_means_one_thing_across_the_registry():
    assert parameter_meanings() == []


def test_kdb_and_ban_bound_parents_by_one_name():
    assert {"kdb", "ban"} <= {f.name for f in families() if "max_parents" in f.options}
    assert [f.name for f in families() if "k" in f.options] == ["ktan"]


def test_a_name_or_a_class_registered_twice_is_refused():
    cls = get_family("tan").cls
    with pytest.raises(ValueError, match="A family named 'tan' is registered already"):
        register_family("tan", "again")(type("Other", (), {}))
    with pytest.raises(ValueError, match="TANClassifier is registered already, as the "
                                         "family 'tan'"):
        register_family("tan2", "again")(cls)
    with pytest.raises(ValueError, match=r"Unknown family 'forest'; valid ones are \['gnb'"):
        get_family("forest")


def test_the_readme_table_lists_every_family():
    text = (ROOT / "README.md").read_text()
    table = text.split("## What is in the box", 1)[1].split("\n\n", 2)[1]
    rows = [[cell.strip() for cell in line.strip("|").split("|")]
            for line in table.splitlines()[2:]]
    classes = {name for row in rows for name in re.findall(r"`(\w+)`", row[0])}
    names = {name for row in rows for name in re.findall(r"`([\w-]+)`", row[1])}
    assert classes == {f.cls.__name__ for f in families()}
    assert names == set(family_names(command_line=True))


def test_the_old_clash_of_k_is_found():
    """kDB's parent bound was ``k`` (an int >= 0) beside k-TAN's width ``k`` (>= 1)."""
    from numbers import Integral

    from sklearn.utils._param_validation import Interval

    from estimators.base.parameters import Flag, Parameter, declare
    from estimators.template.family_registry import unregister_family

    @declare(Parameter("k", 2, [Interval(Integral, 0, None, closed="left")], "int", "Bound.",
                       Flag("a bound", type=int)))
    class OldKDB:
        """Demo."""

        def __init__(self, k=2):
            self.k = k

    register_family("old-kdb", "kDB as it was")(OldKDB)
    try:
        assert parameter_meanings() == [
            "'k': ktan takes an int in the range [1, inf), old-kdb an int in the range [0, inf)",
            "'k': the flags of ktan and old-kdb parse different values"]
    finally:
        unregister_family("old-kdb")
    assert parameter_meanings() == []  # unregistered, the clash is gone
