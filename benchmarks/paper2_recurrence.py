"""Paper 2's §5.3 recursion read literally, against the exact backbone DP (MATH.md §5).

Paper 2 (thm 3) computes ``S(Δ, α)``, the best pbkt rooted at the (k+1)-clique Δ that
retains the backbone edges α::

    S(Δ, α) = f(Δ)                                            if α ⊆ E(Δ)
            = max_{u ∈ Δ, v} S(Δ, α \\ B(Δ, v)) + S(Δ|_v^u, B(Δ, v))   otherwise

where B(Δ, v) is the run of backbone edges in the interval of Δ's positions that holds v, and
the answer is the best root Δ with α = all backbone edges. Read here as follows (the
reference implementation, :func:`literal_recursion` / :func:`literal_ktrees`):

* v ranges over the vertices that occur in α but not in Δ (def. 10; the printed "v ∉ Δ nor
  in α" would leave nothing to build); the child retains ``B(Δ, v) ∩ α`` (def. 10 splits α
  into β and γ, so γ ⊆ α).
* f(Δ|_v^u) is the hyperedge score ``f(v, Δ - u)`` of the new vertex; the root clique scores
  its best creation order (its vertices get 0..k parents), so every root is allowed.
* The one guard the printed recursion lacks: a child may not be asked to retain a backbone
  edge at the vertex u it drops (u already exists and is in none of the child's cliques, so
  that edge could only be built by creating u a second time, which is no k-tree).

Then α is always a contiguous run of backbone edges, and the chain S(Δ, β) takes the
intervals of Δ one at a time, so S(Δ, α) is a sum over the intervals of Δ that α meets; each
interval goes whole to ONE child. The exact DP (``estimators.search.backbone_dp``) lets a
child's component be a union of several intervals, which is why the literal recursion can
miss k-trees (see the module docstring of ``estimators/search/backbone_dp.py``).

Run from the repository root::

    python benchmarks/paper2_recurrence.py          # -> benchmarks/results/paper2_recurrence.md
    python benchmarks/paper2_recurrence.py --quick  # small counts and 10 instances only, stdout
"""

from __future__ import annotations

import argparse
import sys
import time
from functools import cache
from itertools import combinations, permutations
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _common import RESULTS, write  # noqa: E402

from estimators.search import backbone_dp, brute_force_ktree, enumerate_acyclic_ktrees  # noqa: E402
from kgraph.ktree import AcyclicKTree  # noqa: E402

DATASETS = ["car", "tic_tac_toe", "votes", "nursery", "mushroom", "kr_vs_kp"]
#: k = 3 only up to this many features (kr_vs_kp's 36 would take the pure-Python literal
#: recursion most of an hour on a shared machine; k = 2 runs everywhere)
MAX_D_K3 = 25


def _runs(delta: tuple, a: int, b: int):
    """The intervals of Δ met by the edge run [a, b]: (c, d, free positions inside)."""
    inside = set(delta)
    out, run = [], []
    for p in range(a, b + 1):
        if p in inside:
            if run:
                out.append(run)
            run = []
        else:
            run.append(p)
    if run:
        out.append(run)
    return [(max(a, r[0] - 1), min(b, r[-1] + 1), r) for r in out]


def _children(delta: tuple, c: int, d: int, free: list):
    """Every (v, u, Δ') a child of Δ may take for the interval edges [c, d]."""
    for v in free:
        for u in delta:
            if u not in (c, d):  # the guard: no retained edge at the dropped vertex
                yield v, u, tuple(sorted(set(delta) - {u} | {v}))


def literal_recursion(f, n: int, k: int) -> float:
    """The best score the literal recursion reaches on vertices 0..n-1 (backbone 0-1-..-n-1).

    ``f(v, parents: frozenset) -> float``. The maximum over root (k+1)-cliques of the root's
    best ordered score plus ``S(root, all backbone edges)``.
    """
    fv = cache(lambda v, ps: float(f(v, ps)))

    @cache
    def S(delta: tuple, a: int, b: int) -> float:  # noqa: N802 - the paper's name
        total = 0.0
        for c, d, free in _runs(delta, a, b):
            total += max((fv(v, frozenset(delta) - {u}) + S(child, c, d)
                          for v, u, child in _children(delta, c, d, free)), default=-np.inf)
        return total

    return max(_root_score(fv, delta) + S(delta, 0, n - 1)
               for delta in combinations(range(n), k + 1))


def _root_score(fv, delta: tuple) -> float:
    """The root clique's best creation order: Σ_i f(v_i, {v_1..v_{i-1}})."""
    return max(sum(fv(v, frozenset(p[:i])) for i, v in enumerate(p)) for p in permutations(delta))


def _hyperedges(n: int, k: int) -> dict[tuple, frozenset]:
    """Root clique -> every set of (v, parent mask) the literal recursion adds below it."""

    @cache
    def R(delta: tuple, a: int, b: int) -> frozenset:  # noqa: N802
        out = {frozenset()}
        for c, d, free in _runs(delta, a, b):
            options = {g | {(v, _mask(set(delta) - {u}))}
                       for v, u, child in _children(delta, c, d, free) for g in R(child, c, d)}
            out = {g | h for g in out for h in options}
        return frozenset(out)

    return {delta: R(delta, 0, n - 1) for delta in combinations(range(n), k + 1)}


def _mask(vertices) -> int:
    return sum(1 << v for v in vertices)


def _edges_of(n: int, items) -> int:
    """Edge bitmask (bit a*n + b for a < b) of (v, parent mask) items."""
    return sum(1 << (min(v, p) * n + max(v, p)) for v, m in items for p in range(n) if m >> p & 1)


def literal_ktrees(n: int, k: int) -> tuple[set[int], set[frozenset]]:
    """What the literal recursion builds from any root: the undirected k-trees (edge
    bitmasks) and the acyclic k-trees (sets of (v, parent mask), every root order)."""
    undirected, oriented = set(), set()
    for delta, below in _hyperedges(n, k).items():
        orders = [frozenset((v, _mask(p[:i])) for i, v in enumerate(p)) for p in permutations(delta)]
        for g in below:
            undirected.add(_edges_of(n, g | orders[0]))
            oriented.update(g | o for o in orders)
    return undirected, oriented


def backbone_ktrees(n: int, k: int) -> tuple[dict[int, np.ndarray], set[frozenset]]:
    """Every backbone k-tree on 0..n-1: undirected (edge bitmask -> one enumeration row) and
    acyclic (sets of (v, parent mask))."""
    undirected, oriented = {}, set()
    for row in enumerate_acyclic_ktrees(n, k, backbone=True):
        items = frozenset((int(c) >> n, int(c) & ((1 << n) - 1)) for c in row)
        oriented.add(items)
        undirected.setdefault(_edges_of(n, items), row)
    return undirected, oriented


def row_to_ktree(row: np.ndarray, n: int, k: int) -> AcyclicKTree:
    """The AcyclicKTree of an enumeration row (a topological creation order)."""
    parents = {int(c) >> n: [p for p in range(n) if int(c) >> p & 1] for c in row}
    order = []
    while len(order) < n:
        order += [v for v in range(n) if v not in order and set(parents[v]) <= set(order)][:1]
    return AcyclicKTree(k, order, {v: parents[v] for v in order[k:]})


def counts(max_n: int) -> list[tuple]:
    """(n, k, backbone k-trees, not built by the literal recursion, acyclic backbone k-trees,
    not built, seconds) for k = 2, 3 and k + 2 <= n <= max_n."""
    out = []
    for k in (2, 3):
        for n in range(k + 2, max_n + 1):
            t0 = time.perf_counter()
            (every, every_dir), (built, built_dir) = backbone_ktrees(n, k), literal_ktrees(n, k)
            if not (built <= set(every) and built_dir <= every_dir):
                raise AssertionError("the literal recursion built a non-backbone k-tree")
            out.append((n, k, len(every), len(every) - len(built), len(every_dir),
                        len(every_dir) - len(built_dir), time.perf_counter() - t0))
    return out


def random_scores(n: int, k: int, rng: np.random.Generator):
    """A direction-dependent score: f(v, P) iid standard normal for every v, |P| <= k."""
    table = {(v, frozenset(p)): rng.standard_normal()
             for size in range(k + 1) for p in combinations(range(n), size)
             for v in range(n) if v not in p}
    return lambda v, ps: table[(v, frozenset(ps))]


def random_instances(n: int, k: int, count: int, seed: int = 0) -> list[tuple]:
    """(literal, DP, brute force) on ``count`` random iid-normal scores."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        f = random_scores(n, k, rng)
        out.append((literal_recursion(f, n, k), backbone_dp(f, range(n), k).score,
                    brute_force_ktree(f, k, backbone=range(n)).score))
    return out


def unreachable_ktree(n: int = 7, k: int = 2) -> AcyclicKTree:
    """The first backbone k-tree (enumeration order) the literal recursion cannot build."""
    every, _ = backbone_ktrees(n, k)
    built, _ = literal_ktrees(n, k)
    bits = next(b for b in every if b not in built)
    return row_to_ktree(every[bits], n, k)


def gaussian_example(n: int = 7, k: int = 2, rows: int = 2000, seed: int = 0) -> dict:
    """Gaussian-CMI (order-invariant) instance whose optimum is the unreachable k-tree.

    Two classes; in each, x_v = Σ_{p ∈ π(v)} w x_p + noise along the unreachable k-tree's
    creation order (w = ±0.8, the sign flipped in class 1), so that tree carries the
    class-conditional dependence. Returns the literal and the exact (DP) optimum in nats.
    """
    from estimators.scores import GaussianCMI

    tree = unreachable_ktree(n, k)
    rng = np.random.default_rng(seed)
    X, y = np.empty((2 * rows, n)), np.repeat([0, 1], rows)
    for c in (0, 1):
        block = rng.standard_normal((rows, n))
        for v in tree.order:
            for p in tree.parents(v):
                block[:, v] += (0.8 if c == 0 else -0.8) * block[:, p]
        X[c * rows:(c + 1) * rows] = block
    f = GaussianCMI().fit(X, y)
    dp = backbone_dp(f, range(n), k)
    return {"literal": literal_recursion(f, n, k), "dp": dp.score,
            "brute": brute_force_ktree(f, k, backbone=range(n)).score,
            "dp_is_unreachable": dp.structure.skeleton() == tree.skeleton(), "tree": tree}


def dataset_gaps(names, ks) -> list[tuple]:
    """(data set, d, k, literal, DP, gap, seconds literal, seconds DP): DiscreteCMI on the
    whole data set, backbone = the column order (``backbone_order(.., "given")``)."""
    from estimators.datasets import load_dataset
    from estimators.scores import DiscreteCMI

    out = []
    for name in names:
        X, y = load_dataset(name)
        X = X.astype(str)
        X = X.loc[:, X.nunique() > 1]  # mushroom's veil_type is constant: no information
        f = DiscreteCMI().fit(X, y.astype(str))
        order = list(f.variables_)
        for k in ks if len(order) <= MAX_D_K3 else ks[:1]:
            t0 = time.perf_counter()
            dp = backbone_dp(f, order, k)
            t1 = time.perf_counter()
            lit = literal_recursion(
                lambda v, ps, f=f, order=order: f(order[v], frozenset(order[p] for p in ps)), len(order), k)
            t2 = time.perf_counter()
            out.append((name, len(order), k, lit, dp.score, dp.score - lit, t2 - t1, t1 - t0))
    return out


WHY_MISSED = (
    "Why the literal recursion misses it: its triangles form a chain {0,1,2}, {1,2,3}, "
    "{1,3,5}, {3,4,5}, {4,5,6}. Rooted at {1,3,5}, say, the component {4, 6} below it (4 "
    "joins {3,5}, then 6 joins {4,5}) lies in two intervals of {1,3,5}, [3..5] and [5..6], but "
    "the recursion hands the child {3,4,5} only the interval [3..5] that holds 4, so 6 cannot "
    "be placed; the exhaustive enumeration above confirms that no other root builds it either.")


def figure(tree: AcyclicKTree, path: Path) -> None:
    """The unreachable k-tree (creation order) and its pbkt along the backbone."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from kgraph.pbkt import PBKT
    from viz import plot_ktree, plot_pbkt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    plot_ktree(tree, ax=axes[0], title=f"backbone {tree.k}-tree the literal recursion misses")
    plot_pbkt(PBKT.from_ktree(tree, list(range(len(tree.order)))), ax=axes[1],
              title="its pbkt along the backbone 0-1-...-6")
    fig.tight_layout()
    fig.savefig(path.with_suffix(".png"), dpi=150)
    fig.savefig(path.with_suffix(".pdf"))
    plt.close(fig)


def _table(head: list[str], rows: list[list]) -> list[str]:
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head),
            *["| " + " | ".join(map(str, r)) + " |" for r in rows]]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="n <= 6, 10 instances, car and votes only (paper2_recurrence_quick.md)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    L = ["Also `kgraph bench paper2_recurrence`; the reference implementation of the paper's "
         "recursion is in benchmarks/paper2_recurrence.py (see its docstring for the reading).",
         ""]

    L += ["## 1. Backbone k-trees the literal recursion cannot build (exhaustive)", "",
          "All backbone k-trees on vertices 0..n-1 with backbone 0-1-..-(n-1) come from "
          "`estimators.search.enumerate_acyclic_ktrees(n, k, backbone=True)` (acyclic = with a "
          "creation order; undirected = distinct edge sets); the literal recursion's are "
          "enumerated from every root (k+1)-clique and every order of it. Every structure it "
          "builds is checked to be among the enumerated ones.", ""]
    rows = counts(6 if args.quick else 7)
    L += _table(["n", "k", "backbone k-trees", "not built", "acyclic backbone k-trees",
                 "not built (acyclic)", "s"],
                [[n, k, a, b, c, d, f"{t:.1f}"] for n, k, a, b, c, d, t in rows])
    L += ["", "An undirected k-tree is missed only when some child component of a clique "
          "needs two intervals of it, whatever the root; an orientation (root clique and "
          "order) is missed much more often, which matters for direction-dependent scores.", ""]

    n_inst = 10 if args.quick else 50
    L += ["## 2. Random scores", "",
          f"{n_inst} instances per row, n = 7: f(v, P) iid standard normal for every vertex v "
          "and parent set |P| <= k (a direction-dependent score), "
          "`np.random.default_rng(0)`. DP = `backbone_dp`, checked against "
          "`brute_force_ktree(f, k, backbone=range(n))`.", ""]
    inst_rows = []
    for k in (2, 3):
        res = np.array(random_instances(7, k, n_inst, seed=0))
        lit, dp, bf = res.T
        inst_rows.append([k, n_inst, int((lit < dp - 1e-9).sum()), int((lit > dp + 1e-9).sum()),
                          f"{(dp - lit).max():.4f}", f"{np.abs(dp - bf).max():.1e}"])
    L += _table(["k", "instances", "literal below the optimum", "literal above",
                 "largest gap", "max abs(DP - brute force)"], inst_rows)
    L += ["", "The issue's audit reported 7 of 50 below (never above) with a generator it did "
          "not record; the count depends on the score distribution and on n, k. Never above "
          "holds in every run: the literal recursion only builds backbone k-trees (section 1).",
          ""]

    g = gaussian_example()
    L += ["## 3. An order-invariant score: Gaussian CMI", "",
          "Two classes, 2000 rows each, seven features generated along the missed 2-tree of "
          "section 1 (`gaussian_example`, seed 0); score `GaussianCMI`, for which every "
          "orientation of a k-tree scores the same, so only the missed undirected 2-tree can "
          "make a gap.", "",
          f"- literal recursion: {g['literal']:.5f} nats",
          f"- exact DP: {g['dp']:.5f} nats (brute force {g['brute']:.5f}); the DP's optimum "
          f"is the missed 2-tree: {g['dp_is_unreachable']}",
          "", "The issue's 0.66691 vs 0.69842 nats came from an instance it did not record; "
          "this one is built so that the missed 2-tree is the optimum.", ""]

    names = ["car", "votes"] if args.quick else DATASETS
    gaps = dataset_gaps(names, (2, 3))
    L += ["## 4. Paper 2's data sets: k-TAN score, literal recursion vs exact DP", "",
          "`DiscreteCMI` fitted on the whole data set (every column a category; constant "
          "columns, mushroom's veil_type, dropped), backbone = the column order, score = Σ_v I(X_v; X_π(v) | Y) in nats.", ""]
    L += _table(["data set", "features", "k", "literal", "exact DP", "gap", "s literal",
                 "s DP"],
                [[n, d, k, f"{a:.6f}", f"{b:.6f}", f"{c:.2e}", f"{t1:.1f}", f"{t2:.1f}"]
                 for n, d, k, a, b, c, t1, t2 in gaps])
    L += ["", f"k = 3 runs on the data sets with at most {MAX_D_K3} features (kr_vs_kp has 36: "
          "the pure-Python reference recursion would take most of an hour there).",
          "A gap of 0 (to rounding) means the exact optimum is a k-tree the literal "
          "recursion also builds on these data; section 1 shows it does not have to be.", ""]

    tree = g["tree"]
    if not args.quick:
        figure(tree, RESULTS / "paper2_recurrence_unreachable")
    L += ["## 5. The missed 2-tree (n = 7)", "",
          f"Creation order {tree.order}, parents "
          + ", ".join(f"{v}: {sorted(tree.parents(v))}" for v in tree.order[2:]) + ".",
          "", WHY_MISSED if tree.order == (0, 1, 2, 3, 5, 4, 6) else "",
          "", "![missed 2-tree](paper2_recurrence_unreachable.png)", "",
          f"Total time {time.perf_counter() - t0:.0f} s."]
    write("paper2_recurrence_quick" if args.quick else "paper2_recurrence",
          "Paper 2 §5.3: the literal recursion vs the exact backbone DP", L)


if __name__ == "__main__":
    main()
