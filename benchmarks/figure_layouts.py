"""Layered structure figures on the shared tables with >= 25 features (issue 44).

Fits TAN, 2-TAN, kDB and BAN (the ``kgraph learn`` models) on helpmiss (26 features),
kr_vs_kp (36) and sonar (60), 200 stratified rows each, and generates a structure of each
kind over 60 features (``viz.gallery.generated_structure``, seed 1); draws each at page and
column width and prints one row per figure:

table | model | width | features | layer crossings drawn | crossings of the drawn paths |
edges through a non-incident box (each drawn path sampled at 40 points per curve, tested
against every box: not the checker's code) | check_figure "passes through" | check_figure
overlaps | all check_figure problems | width (in) | height (in) | panels | font (pt) |
features labelled (name or key) | directed edges with an arrowhead / directed edges |
key (in the figure / out) | hubs drawn as the class is (``viz._hubs``: their edges left
out) | pairs of edges that run along each other (``check_figure(along=True)``: within
1 mm over 10 mm) | the same with every edge drawn (``hubs=None``) | crossings: igraph's
order alone | igraph + transpositions |
our barycentre sweeps + transpositions (these three with the same hubs)

With ``--grandalf`` (and grandalf importable) three more columns at page width: grandalf's
Sugiyama (its own layering and routing, straight polylines through its dummies) crossings,
edges through a non-incident box, and its width in inches (it has no width bound).

Run: ``PYTHONPATH=. MPLBACKEND=Agg python benchmarks/figure_layouts.py [--grandalf] [--quick]``
(about a minute; not a timing): writes the rows as a Markdown table to
``benchmarks/results/figure_layouts.md`` (``--quick``: the generated structures only, into
``figure_layouts_quick.md``).
"""
import argparse
import sys
import warnings
from pathlib import Path

import numpy as np

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path[:0] = [str(TESTS / "viz"), str(TESTS)]  # test_paper_acceptance and its slow_cases
from test_paper_acceptance import sample  # noqa: E402

import viz._layered as L  # noqa: E402
from benchmarks._common import QUICK, write  # noqa: E402
from estimators.datasets import dataset_target  # noqa: E402
from viz._fit import node_size  # noqa: E402
from viz.check import check_figure, segments_through_boxes  # noqa: E402
from viz.cli import learn, outputs  # noqa: E402
from viz.gallery import generated_structure  # noqa: E402
from viz.ktree import plot_ktree  # noqa: E402
from viz.style import MIN_FONT_SIZE, Style  # noqa: E402


def fitted_structures():
    out = {}
    for table in [] if QUICK else ["helpmiss", "kr_vs_kp", "sonar"]:
        X, y = sample(table)
        for model in ["tan", "ktan", "kdb", "ban"]:
            args = argparse.Namespace(quiet=True, random_state=0, feature_types=None,
                                      n_components=None)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                m = learn.MODELS[model].build(args)
                if model == "ktan":
                    m.set_params(k=2)
                m.fit(X, y)
            out[(table, model)] = (learn.learned_structure(m), dataset_target(table),
                                   outputs.model_graph(m))
    for model in ["tan", "ktan", "kdb", "ban"]:
        out[("generated", model)] = (generated_structure(model, 60, seed=1), "Attrition", None)
    return out



def flatten(verts, codes, n=12):
    pts = [verts[0]]
    i = 1
    while i < len(verts):
        if codes[i] == 4:
            p0 = np.array(pts[-1])
            p1, p2, p3 = (np.array(v) for v in verts[i:i + 3])
            for t in np.linspace(0, 1, n)[1:]:
                pts.append(tuple((1-t)**3*p0 + 3*t*(1-t)**2*p1 + 3*t*t*(1-t)*p2 + t**3*p3))
            i += 3
        else:
            pts.append(verts[i])
            i += 1
    return np.array(pts)


def crossings(polys, ends):
    """Pairs of edges (no shared end) whose polylines intersect."""
    segs = [np.hstack([p[:-1], p[1:]]) for p in polys]
    n = 0
    for i in range(len(polys)):
        for j in range(i + 1, len(polys)):
            if set(ends[i]) & set(ends[j]):
                continue
            a, b = segs[i], segs[j]
            # segment intersection test (vectorised)
            def orient(p, q, r):
                return np.sign((q[..., 0]-p[..., 0])*(r[..., 1]-p[..., 1]) - (q[..., 1]-p[..., 1])*(r[..., 0]-p[..., 0]))
            A0, A1 = a[:, None, :2], a[:, None, 2:]
            B0, B1 = b[None, :, :2], b[None, :, 2:]
            hit = (orient(A0, A1, B0) * orient(A0, A1, B1) < 0) & (orient(B0, B1, A0) * orient(B0, B1, A1) < 0)
            n += bool(hit.any())
    return n


def box_hits(polys, ends, boxes):
    """Edges of grandalf's drawing through a box not at their ends (its polylines)."""
    names = list(boxes)
    B = np.array([boxes[v] for v in names])  # x0, y0, x1, y1
    B = B + np.array([0.005, 0.005, -0.005, -0.005])
    hits = 0
    for p, (u, v) in zip(polys, ends, strict=True):
        segs = np.hstack([p[:-1], p[1:]])
        crossed = segments_through_boxes(segs, B).any(axis=0)
        hits += sum(1 for k, w in enumerate(names) if crossed[k] and w not in (u, v))
    return hits


def grandalf_layout(st, sizes):
    from grandalf.graphs import Edge, Graph, Vertex
    from grandalf.layouts import SugiyamaLayout

    class View:
        def __init__(self, w, h):
            self.w, self.h, self.xy = w, h, (0, 0)

    class EView:
        def setpath(self, pts):
            self.pts = pts

    V = {v: Vertex(v) for v in st.order}
    for v in V.values():
        v.view = View(sizes[v.data][0] * 72, sizes[v.data][1] * 72)
    E = [Edge(V[p], V[c]) for p, c in st.edges]
    for e in E:
        e.view = EView()
    g = Graph(list(V.values()), E)
    polys, ends, boxes = [], [], {}
    for comp in g.C:
        sug = SugiyamaLayout(comp)
        sug.init_all()
        sug.draw(3)
        sug.route_edge = None
    # components side by side
    off = 0.0
    for comp in g.C:
        xs = [v.view.xy[0] for v in comp.sV]
        dx = off - min(xs) + 30
        for v in comp.sV:
            v.view.xy = (v.view.xy[0] + dx, v.view.xy[1])
        for e in comp.sE:
            e.view.pts = [(x + dx, y) for x, y in e.view.pts]
        off = max(v.view.xy[0] + v.view.w / 2 for v in comp.sV)
    for v in V.values():
        (x, y), w, h = v.view.xy, v.view.w, v.view.h
        boxes[v.data] = (x - w/2, -y - h/2, x + w/2, -y + h/2)
    for e in E:
        pts = np.array([(x, -y) for x, y in e.view.pts]) / 72.0
        polys.append(pts)
        ends.append((e.v[0].data, e.v[1].data))
    boxes = {k: tuple(np.array(b) / 72.0) for k, b in boxes.items()}
    width = max(b[2] for b in boxes.values()) - min(b[0] for b in boxes.values())
    return polys, ends, boxes, width


def sampled_hits(fig):
    """Edges through a box not at their ends: every drawn edge path (the matplotlib patch
    itself, in display coordinates) sampled at 40 points per curve, each point tested
    against every other node box shrunk by one pixel."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    ax = fig.axes[0]
    boxes = {p.get_gid()[5:]: p.get_window_extent(renderer).extents for p in ax.patches
             if (p.get_gid() or "").startswith("node:")}
    hits = 0
    for p in ax.patches:
        if not (p.get_gid() or "").startswith("edge:"):
            continue
        path = p.get_transform().transform_path(p.get_path())
        pts = np.vstack([bez(np.linspace(0, 1, 40)) for bez, _ in path.iter_bezier()])
        for gid, (x0, y0, x1, y1) in boxes.items():
            if gid not in p.kgraph_ends and ((pts[:, 0] > x0 + 1) & (pts[:, 0] < x1 - 1)
                                             & (pts[:, 1] > y0 + 1) & (pts[:, 1] < y1 - 1)).any():
                hits += 1
    return hits


def labelled(fig, st):
    """Features whose box shows their name or a key entry for it."""
    from viz.key import figure_key

    key = dict(figure_key(fig))
    shown = {t.get_gid()[6:]: t.get_text() for t in fig.axes[0].texts
             if (t.get_gid() or "").startswith("label:")}
    return sum(shown.get(f"variable:{v}") in (str(v),) or key.get(shown.get(f"variable:{v}"))
               == str(v) for v in st.order)


def arrowheads(fig):
    """(directed edges drawn with a filled arrowhead, directed edges)."""
    arrows = [p for p in fig.axes[0].patches if (p.get_gid() or "").startswith("edge:")
              and p.get_gid() != "edge:" and "->" in p.get_gid()]
    return sum(type(p.get_arrowstyle()).__name__ in ("CurveFilledB", "CurveFilledA")
               for p in arrows), len(arrows)


def every_edge_along(st, target, width) -> int:
    """Pairs of edges that run along each other when no hub is drawn as the class is."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fig = plot_ktree(st, target=target, width=width, hubs=None)
    return sum("runs along" in p for p in check_figure(fig, along=True))


def main():
    rows = []
    for (table, model), (st, target, _) in fitted_structures().items():
        tgt = target if model in ("tan", "ktan") else None
        for width in ("page", "column"):
            line = [table, model, width, len(st.order)]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fig = plot_ktree(st, target=tgt, width=width)
            d = fig.kgraph_drawing
            found = check_figure(fig, along=True)
            along = sum("runs along" in p for p in found)
            probs = [p for p in found if "runs along" not in p]
            polys = [flatten(e.vertices, e.codes) for e in d.edges]
            ends = [(e.u, e.v) for e in d.edges]
            fonts = [t.get_fontsize() for t in fig.axes[0].texts]
            w, h = fig.get_size_inches()
            line += [d.crossings, crossings(polys, ends), sampled_hits(fig),
                     sum("passes through" in p for p in probs), sum("overlaps" in p for p in probs),
                     len(probs), round(w, 2), round(h, 2),
                     d.panels,
                     min(fonts), f"{labelled(fig, st)}/{len(st.order)}",
                     "/".join(map(str, arrowheads(fig))),
                     "in" if d.key_in_figure else ("out" if d.key else "-"),
                     len(fig.kgraph_hubs), along, every_edge_along(st, tgt, width)]
            assert min(fonts) >= MIN_FONT_SIZE
            for orders, passes in ((("igraph",), 0), (("igraph",), 4), (("barycentre",), 4)):
                L.ORDERINGS, L.TRANSPOSE_PASSES = orders, passes
                fig0 = plot_ktree(st, target=tgt, width=width, hubs=fig.kgraph_hubs)
                line += [fig0.kgraph_drawing.crossings]
            L.ORDERINGS, L.TRANSPOSE_PASSES = ("barycentre", "igraph"), 4
            if width == "page" and "--grandalf" in sys.argv:
                s = Style(width="page")
                sizes = {v: node_size(str(v), s) for v in st.order}
                try:
                    gp, ge, gb, gw = grandalf_layout(st, sizes)
                    line += [crossings(gp, ge), box_hits(gp, ge, gb), round(gw, 1)]
                except Exception as exc:
                    line += [f"grandalf failed: {type(exc).__name__}"]
            print(" | ".join(map(str, line)), flush=True)
            rows.append(line)
    head = ["table", "model", "width", "features", "layer crossings", "path crossings",
            "edges through a box (sampled)", "checker: passes through",
            "checker: overlaps", "checker: problems", "width in", "height in", "panels",
            "smallest font pt", "labelled", "arrowheads", "key", "hubs",
            "edge pairs along", "pairs along, every edge drawn",
            "crossings igraph", "igraph+transpose", "barycentre+transpose"]
    text = ["Not a timing.", "",
            "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    text += ["| " + " | ".join(map(str, r[:len(head)])) + " |" for r in rows]
    write("figure_layouts", "figure_layouts: structure figures on the shared tables with >= 25 "
          "features and generated 60-feature structures", text, quiet=True)


if __name__ == "__main__":
    main()
