"""The "See Also" sections of the main classes' API pages: which related model or tool to
read next. Inserted into the docstrings at build time (Sphinx's ``autodoc-process-docstring``,
before numpydoc renders them), each entry linked to the page of the object it names."""

from __future__ import annotations

import importlib

#: class or function (as exported) -> [(related object, why one would read it)]
SEE_ALSO: dict[str, list[tuple[str, str]]] = {
    "estimators.NaiveBayesClassifier": [
        ("estimators.TANClassifier", "one feature parent per feature: a maximum spanning tree"),
        ("estimators.AODEClassifier", "averaged one-dependence estimators"),
        ("estimators.baselines.MixedNB", "the scikit-learn naive Bayes baseline of kgraph "
                                         "compare"),
    ],
    "estimators.TANClassifier": [
        ("estimators.KTANClassifier", "up to k feature parents, by the backbone dynamic program"),
        ("estimators.NaiveBayesClassifier", "no feature edges"),
        ("estimators.BANClassifier", "any DAG among the features, by hill-climbing"),
        ("estimators.GNBClassifier", "the GNB junction tree with continuous features"),
    ],
    "estimators.KTANClassifier": [
        ("estimators.TANClassifier", "the k = 1 case"),
        ("estimators.KDBClassifier", "up to k parents per feature, ranked by class information"),
        ("estimators.KGNBClassifier", "an order-k cherry junction tree"),
        ("estimators.confidence.StructureConfidence", "bootstrap confidence of the edges"),
        ("viz.plot_ktree", "draw the learned k-tree"),
    ],
    "estimators.GNBClassifier": [
        ("estimators.KGNBClassifier", "clusters of order k instead of pairs"),
        ("estimators.TANClassifier", "a tree among the features, the class a parent of each"),
        ("viz.plot_gnb_graph", "draw the GNB graph"),
    ],
    "estimators.KGNBClassifier": [
        ("estimators.GNBClassifier", "the order-2 junction tree, with its reduced model"),
        ("estimators.KTANClassifier", "an acyclic k-tree among the features"),
    ],
    "estimators.KDBClassifier": [
        ("estimators.KTANClassifier", "parent sets forming an acyclic k-tree, by the backbone dynamic program"),
        ("estimators.BANClassifier", "parents by hill-climbing on a score"),
    ],
    "estimators.AnDEClassifier": [
        ("estimators.AODEClassifier", "n = 1"),
        ("estimators.NaiveBayesClassifier", "n = 0"),
    ],
    "estimators.AODEClassifier": [
        ("estimators.AnDEClassifier", "n super-parents"),
        ("estimators.KDBClassifier", "one learned structure instead of an average"),
    ],
    "estimators.BANClassifier": [
        ("estimators.KDBClassifier", "up to k parents ranked by class information"),
        ("estimators.TANClassifier", "a tree: the optimum, not a local search"),
    ],
    "estimators.LatentCNBClassifier": [
        ("estimators.LatentCNB", "the latent model itself"),
        ("estimators.NaiveBayesClassifier", "without latent components"),
        ("viz.plot_plate", "draw the plate diagram"),
    ],
    "estimators.confidence.StructureConfidence": [
        ("viz.plot_confidence", "draw the edges with their confidence"),
    ],
    "viz.compare.run_comparison": [
        ("viz.plot_critical_difference", "the critical-difference diagram"),
        ("viz.friedman_nemenyi", "the Friedman test and the Nemenyi critical difference"),
    ],
}


def _resolve(path: str):
    module, name = path.rsplit(".", 1)
    return getattr(importlib.import_module(module), name)


def sections(homes: dict[int, str]) -> dict[int, list[str]]:
    """``id(object) -> numpydoc "See Also" lines``, each name written as its API page's
    (``homes``: id of an object -> the full name it is documented under)."""
    out = {}
    for owner, related in SEE_ALSO.items():
        lines = ["See Also", "--------"]
        for path, why in related:
            lines.append(f"{homes.get(id(_resolve(path)), path)} : {why[0].upper()}{why[1:]}.")
        out[id(_resolve(owner))] = lines + [""]
    return out


def insert(lines: list[str], section: list[str]) -> None:
    """Put ``section`` before the docstring's Notes, References or Examples (numpydoc's
    order), or at its end; not where the docstring has a See Also of its own."""
    if "See Also" in lines:
        return
    for i, line in enumerate(lines[:-1]):
        if line.strip() in ("Notes", "References", "Examples") and set(
                lines[i + 1].strip()) == {"-"}:
            lines[i:i] = section
            return
    lines.extend(["", *section])
