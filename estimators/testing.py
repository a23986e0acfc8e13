"""A conformance kit for plug-ins, in the manner of scikit-learn's ``check_estimator``.

:func:`check_score` checks a hyperedge score (a registered name, or an object following the
score protocol of :mod:`estimators.scores`), :func:`check_searcher` a structure searcher (a
registered name, or a function with the signature of :mod:`estimators.search.registry`).
Each runs its checks on small random instances, raises :class:`ConformanceError` (an
``AssertionError``) naming the first check that fails, and returns the names of the checks
passed. kgraph's own scores and searchers pass them (``tests/test_conformance_kit.py``).

Examples
--------
>>> from estimators.testing import check_score, check_searcher
>>> check_score("bdeu")[:4]
['discrete: protocol', 'discrete: values', 'discrete: determinism', 'discrete: pickle and clone']
>>> "k=2: optimality certificate" in check_searcher("backbone-dp")
True
"""

from __future__ import annotations

import inspect
import itertools
import pickle
from collections.abc import Callable, Hashable

import numpy as np
import pandas as pd
from sklearn.base import clone

__all__ = ["ConformanceError", "check_score", "check_searcher", "random_table"]

#: widths checked (a score's max_parents may lower them)
WIDTHS = (1, 2)
N_FEATURES = 5
N_ROWS = 240


class ConformanceError(AssertionError):
    """A plug-in failed a check of the conformance kit (the message names the check)."""


def _require(ok: bool, check: str, detail: str) -> None:
    if not ok:
        raise ConformanceError(f"{check}: {detail}")


def random_table(family: str, seed: int = 0, n_rows: int = N_ROWS,
                 n_features: int = N_FEATURES) -> tuple[pd.DataFrame, np.ndarray]:
    """A small random table of a feature family with dependences (a chain of features
    influenced by the class): ``"discrete"`` (codes 0..2), ``"gaussian"`` or ``"mixed"``
    (categorical and continuous columns, a few missing cells). Returns ``(X, y_codes)``.

    Examples
    --------
    >>> X, y = random_table("discrete")
    >>> X.shape, sorted(np.unique(X.to_numpy())), sorted(np.unique(y))
    ((240, 5), [np.int64(0), np.int64(1), np.int64(2)], [np.int64(0), np.int64(1)])
    """
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n_rows // 2)
    latent = np.empty((n_rows, n_features))
    latent[:, 0] = rng.normal(size=n_rows) + y
    for j in range(1, n_features):
        latent[:, j] = 0.8 * latent[:, j - 1] + rng.normal(size=n_rows) + 0.5 * y
    names = [f"x{j}" for j in range(n_features)]
    if family == "gaussian":
        return pd.DataFrame(latent, columns=names), y
    codes = np.stack([np.digitize(c, np.quantile(c, [1 / 3, 2 / 3])) for c in latent.T], 1)
    if family == "discrete":
        return pd.DataFrame(codes.astype(np.int64), columns=names), y
    if family != "mixed":
        raise ValueError(f"Unknown family {family!r}; use 'discrete', 'gaussian' or 'mixed'.")
    X = pd.DataFrame({n: (np.array(["lo", "mid", "hi"])[codes[:, j]] if j % 2 == 0
                          else latent[:, j]) for j, n in enumerate(names)})
    X.iloc[rng.choice(n_rows, 6, replace=False), 1] = np.nan
    return X, y


def _fit(unfitted, family: str, X: pd.DataFrame, y: np.ndarray):
    """Fit as the classifiers do (``fit_encoded`` for the mixed family)."""
    if family == "mixed":
        from estimators.columns import MixedEncoder

        return unfitted.fit_encoded(MixedEncoder().fit_transform(X), y, np.unique(y))
    return unfitted.fit(X, y)


def _hyperedges(names: list, width: int, seed: int) -> list[tuple[Hashable, frozenset]]:
    """Every pair both ways, the empty parent set, and random larger parent sets."""
    rng = np.random.default_rng(seed)
    items = [(v, frozenset()) for v in names[:1]]
    items += [(v, frozenset({p})) for v, p in itertools.permutations(names, 2)]
    for size in range(2, width + 1):
        for _ in range(6):
            chosen = rng.choice(len(names), size + 1, replace=False)
            items.append((names[chosen[0]], frozenset(names[i] for i in chosen[1:])))
    return items


def _values(f, items) -> np.ndarray:
    return np.array([float(f(v, p)) for v, p in items])


def _same(a, b, tol: float = 1e-9) -> bool:
    a, b = np.asarray(a, float), np.asarray(b, float)
    return bool(np.allclose(a, b, rtol=tol, atol=tol, equal_nan=False))


def _score_families(score, families) -> tuple[str, ...]:
    from estimators.scores import SCORES, declared_families, score_names

    if isinstance(score, str):
        _require(score in score_names(), "registry", f"no score is registered as {score!r}; "
                 f"the registered scores are {sorted(SCORES)}")
    found = tuple(families) if families is not None else declared_families(score)
    _require(bool(found), "protocol", "the score declares no families: give it a 'families' "
             "attribute or pass families=")
    return found


def check_score(score, *, families=None, seeds=(0, 1)) -> list[str]:
    """Check a hyperedge score against the protocol of :mod:`estimators.scores`.

    For each feature family the score serves: the protocol (``fit`` returns the score,
    ``score(v, parents)`` gives a float), the values (finite or ``-inf``, never NaN;
    symmetric when it says so), determinism (two fits give the same values, calls repeat),
    pickling and cloning (unfitted and fitted, same values), that the backbone DP equals
    brute force with that score on small random instances (every width up to 2 the score
    answers), and that :class:`~estimators.ktan.KTANClassifier` (and, for the
    ``"gaussian"`` family, :class:`~estimators.gnb.KGNBClassifier`) fits and predicts with
    it, with the structure score the score gives.

    Parameters
    ----------
    score : str or object
        A registered name (its families are its registry entry's), or an unfitted score
        object (its ``families`` attribute, or ``families=``).
    families : sequence of str, optional
        The families to check (default: all the score declares).
    seeds : sequence of int, default=(0, 1)
        The random instances.

    Returns
    -------
    list of str
        The checks passed, ``"family: check"``.

    Raises
    ------
    ConformanceError
        Naming the first check that failed.
    """
    from estimators.gnb import KGNBClassifier
    from estimators.ktan import KTANClassifier
    from estimators.scores import as_fitted_score, max_parents, unfitted_score
    from estimators.search import backbone_dp, brute_force_ktree

    passed: list[str] = []
    for family in _score_families(score, families):
        def fresh(family=family):
            return unfitted_score(score, family)

        proto = fresh()
        largest = max_parents(proto)
        widths = [k for k in WIDTHS if largest is None or k <= largest]
        _require(bool(widths), f"{family}: protocol", f"max_parents={largest} allows no k")
        X, y = random_table(family, seeds[0])
        names = list(X.columns)
        check = f"{family}: protocol"
        needs = ["fit_encoded" if family == "mixed" else "fit", "score"]
        _require(all(callable(getattr(proto, m, None)) for m in needs), check,
                 f"{type(proto).__name__} lacks one of the methods {needs}")
        fitted = _fit(proto, family, X, y)
        _require(fitted is proto, check, "fit must return the score itself (self)")
        items = _hyperedges(names, max(widths), seeds[0])
        values = _values(proto.score, items)
        passed.append(check)

        check = f"{family}: values"
        _require(not np.isnan(values).any() and not (values == np.inf).any(), check,
                 f"scores must be finite or -inf; got {values[~np.isfinite(values)][:3]}")
        if getattr(proto, "symmetric", False):
            pairs = {(v, next(iter(p))): s for (v, p), s in zip(items, values, strict=True)
                     if len(p) == 1}
            _require(all(_same(s, pairs[p, v]) for (v, p), s in pairs.items()), check,
                     "symmetric=True but score(i, {j}) != score(j, {i})")
        passed.append(check)

        check = f"{family}: determinism"
        again = _fit(fresh(), family, X, y)
        _require(_same(_values(again.score, items), values), check,
                 "two fits on the same data give different scores")
        _require(_same(_values(proto.score, items[::-1])[::-1], values), check,
                 "repeated calls (in another order) give different scores")
        passed.append(check)

        check = f"{family}: pickle and clone"
        try:
            copies = (("pickled fitted", pickle.loads(pickle.dumps(proto))),
                      ("pickled unfitted", _fit(pickle.loads(pickle.dumps(fresh())), family,
                                                X, y)),
                      ("clone", _fit(clone(proto, safe=False), family, X, y)))
        except Exception as exc:  # classifiers holding the score are cloned and pickled
            raise ConformanceError(f"{check}: {type(exc).__name__}: {exc}") from None
        for label, other in copies:
            _require(_same(_values(other.score, items), values), check,
                     f"the {label} score gives other values")
        passed.append(check)

        check = f"{family}: backbone DP equals brute force"
        for seed in seeds:
            Xs, ys = random_table(family, seed)
            f = as_fitted_score(_fit(fresh(), family, Xs, ys), names)
            order = list(np.random.default_rng(seed).permutation(names))
            for k in widths:
                dp, brute = backbone_dp(f, order, k).score, brute_force_ktree(f, k, order).score
                _require(_same(dp, brute), check, f"k={k}, seed {seed}: the DP gives {dp!r}, "
                         f"brute force {brute!r} (a score must depend only on (v, parents))")
        passed.append(check)

        check = f"{family}: classifiers fit and predict"
        k = max(widths)
        param = score if isinstance(score, str) else fresh()
        clf = KTANClassifier(k=k, structure_score=param, backbone="given").fit(X, y)
        proba = clf.predict_proba(X)
        _require(proba.shape == (len(y), 2) and _same(proba.sum(axis=1), 1.0), check,
                 "KTANClassifier's predict_proba rows do not sum to 1")
        expected = clf.structure_.score(as_fitted_score(fitted, names))
        _require(_same(clf.score_, expected, 1e-7), check,
                 f"KTANClassifier's structure score {clf.score_!r} is not the score's "
                 f"{expected!r} on its k-tree")
        best = brute_force_ktree(as_fitted_score(fitted, names), k, names).score
        _require(_same(clf.score_, best, 1e-7), check, "KTANClassifier(backbone='given') "
                 f"found {clf.score_!r}, brute force under the backbone {best!r}")
        if family == "gaussian":
            gnb = KGNBClassifier(order=k + 2, structure_score=param).fit(X, y)
            _require(set(gnb.predict(X)) <= {0, 1}, check, "KGNBClassifier predicts no class")
        passed.append(check)
    return passed


def _random_score(names: list, seed: int) -> Callable[[Hashable, frozenset], float]:
    """A deterministic random hyperedge score (a fixed draw per hyperedge), symmetric on
    pairs as the classifiers' pair scores are (``f(i, {j}) = f(j, {i})``)."""
    table: dict = {}
    rng = np.random.default_rng(seed)
    for v in names:
        for size in range(0, 3):
            for ps in itertools.combinations([u for u in names if u != v], size):
                table[v, frozenset(ps)] = 0.0 if size == 0 else float(rng.normal(size=1)[0])
    for v, u in itertools.combinations(names, 2):
        table[u, frozenset({v})] = table[v, frozenset({u})]

    def f(v, parents):
        return table[v, frozenset(parents)]

    f.variables_ = list(names)
    return f


def check_searcher(searcher, *, seeds=(0, 1)) -> list[str]:
    """Check a structure searcher against the protocol of :mod:`estimators.search.registry`.

    On random hyperedge scores over five variables, for k = 1 and 2 (a ``ValueError``
    declines a k; at least one must be served): the signature, that it returns a
    ``SearchResult`` whose acyclic k-tree spans the variables with width k and whose score
    is ``sum_v f(v, pa(v))`` of it, never above the brute-force optimum, equal to the
    brute-force optimum under the backbone when it returns a certificate of optimality, a
    kept backbone being a path of the k-tree; determinism; pickling; and that
    :class:`~estimators.ktan.KTANClassifier` and :class:`~estimators.gnb.KGNBClassifier`
    fit and predict with it (registered for the check when it is an unregistered function).

    Parameters
    ----------
    searcher : str or callable
        A registered name or a searcher function.
    seeds : sequence of int, default=(0, 1)

    Returns
    -------
    list of str
        The checks passed.

    Raises
    ------
    ConformanceError
        Naming the first check that failed.
    """
    from estimators.gnb import KGNBClassifier
    from estimators.ktan import KTANClassifier
    from estimators.search import (
        SEARCHERS,
        SearchResult,
        brute_force_ktree,
        get_searcher,
        register_searcher,
    )
    from kgraph import AcyclicKTree

    name = searcher if isinstance(searcher, str) else None
    run = get_searcher(searcher) if name else searcher
    _require(callable(run), "protocol", "a searcher must be callable")
    try:
        inspect.signature(run).bind(None, [], 1, backbone=None, W=None)
    except TypeError as exc:
        raise ConformanceError(f"protocol: the signature must be (f, variables, k, *, "
                               f"backbone=None, W=None): {exc}") from None
    passed = ["protocol"]
    names = [f"x{j}" for j in range(N_FEATURES)]
    served = []
    for k in WIDTHS:
        results = []
        for seed in seeds:
            f = _random_score(names, seed)
            try:
                found = run(f, names, k, backbone=None, W=None)
            except ValueError:
                break
            check = f"k={k}: result"
            _require(isinstance(found, SearchResult), check, "it must return a SearchResult")
            tree = found.structure
            _require(isinstance(tree, AcyclicKTree) and tree.k == k
                     and sorted(tree.order) == names, check,
                     f"the structure must be an acyclic {k}-tree over {names}")
            _require(_same(found.score, tree.score(f)), check,
                     f"score {found.score!r} is not sum_v f(v, pa(v)) = {tree.score(f)!r}")
            best = brute_force_ktree(f, k, variables=names).score
            _require(found.score <= best + 1e-9, check,
                     f"score {found.score!r} above the brute-force optimum {best!r}")
            if found.backbone is not None:
                path = list(found.backbone)
                edges = {frozenset(e) for e in tree.edges}
                _require(sorted(path) == names and all(
                    frozenset(e) in edges for e in zip(path, path[1:], strict=False)),
                    check, "the kept backbone is not a path of the k-tree")
                if found.certificate is not None:
                    under = brute_force_ktree(f, k, path).score
                    _require(_same(found.score, under), f"k={k}: optimality certificate",
                             f"certified {found.score!r}, brute force under the backbone "
                             f"{under!r}")
                    certified = f"k={k}: optimality certificate"
                    passed += [certified] if certified not in passed else []
            results.append(found)
        if not results:
            continue
        served.append(k)
        passed.append(f"k={k}: result")
        f = _random_score(names, seeds[0])
        again = run(f, names, k, backbone=None, W=None)
        _require(again.structure == results[0].structure and _same(again.score,
                 results[0].score), f"k={k}: determinism", "two runs give different results")
        passed.append(f"k={k}: determinism")
    _require(bool(served), "result", f"it declined (ValueError) every k in {WIDTHS}")
    try:
        copy = pickle.loads(pickle.dumps(run))
    except Exception as exc:  # the classifiers ship searchers to parallel workers
        raise ConformanceError(f"pickle: the searcher does not pickle: {exc}") from None
    f = _random_score(names, seeds[0])
    _require(copy(f, names, served[0]).structure == run(f, names, served[0]).structure,
             "pickle", "the unpickled searcher gives another structure")
    passed.append("pickle")
    temporary = name is None
    name = name or f"check-searcher-{id(run)}"
    if temporary:
        register_searcher(name, run)
    try:
        k = max(served)
        X, y = random_table("discrete", seeds[0])
        clf = KTANClassifier(k=k, search=name).fit(X, y)
        _require(_same(clf.predict_proba(X).sum(axis=1), 1.0), "classifiers",
                 "KTANClassifier's predict_proba rows do not sum to 1")
        Xg, yg = random_table("gaussian", seeds[0])
        gnb = KGNBClassifier(order=k + 2, search=name).fit(Xg, yg)
        _require(set(gnb.predict(Xg)) <= {0, 1}, "classifiers", "KGNBClassifier predicts no class")
    finally:
        if temporary:
            SEARCHERS.pop(name, None)
    passed.append("classifiers")
    return passed
