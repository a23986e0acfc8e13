"""What the structure figures draw: nodes, edges, directions, labels (paper 1 figs. 1, 2, 4;
paper 2 fig. 2; the pbkt certificate)."""

import matplotlib.colors as mcolors
import pytest
from viz_cases import forest, gnb, ktree, pbkt

from kgraph import AcyclicKTree, CherryJunctionTree, GNBJunctionTree
from kgraph.pbkt import PBKT
from viz._draw import count_gids
from viz.gnb import plot_gnb_forest, plot_gnb_graph, plot_junction_tree
from viz.ktree import plot_ktree, plot_pbkt, plot_tree_representation
from viz.style import Style


def gids(ax, prefix):
    return {a.get_gid()[len(prefix):] for a in [*ax.patches, *ax.texts]
            if (a.get_gid() or "").startswith(prefix)}


def texts(ax, prefix):
    return sorted(t.get_text() for t in ax.texts if (t.get_gid() or "").startswith(prefix))


def by_gid(ax, gid):
    (artist,) = [a for a in [*ax.patches, *ax.texts] if a.get_gid() == gid]
    return artist


# -- paper 1 -----------------------------------------------------------------------------
def test_gnb_graph_draws_class_vertex_features_and_mother_arrows():
    ax = plot_gnb_graph(gnb()).axes[0]
    assert gids(ax, "node:") == {"class:0", *(f"variable:{v}" for v in range(1, 6))}
    # paper 1 §2.1: mu(2) = 1, mu(3) = 2, mu(4) = mu(5) = 1 (1 is the first cluster's root)
    assert gids(ax, "edge:tree:") == {"1->2", "2->3", "1->4", "1->5"}
    assert gids(ax, "edge:class:") == {f"0->{v}" for v in range(1, 6)}
    assert all(by_gid(ax, f"edge:tree:{e}").get_arrowstyle().__class__.__name__ == "CurveFilledB"
               for e in ("1->2", "2->3"))
    # selection order on the tree edges: (1,2) first ... (1,5) fourth
    assert by_gid(ax, "edge-label:order:1->5").get_text() == "4"
    assert by_gid(ax, "edge-label:order:2->3").get_text() == "2"
    # class edges lighter and thinner than tree edges
    light, tree = by_gid(ax, "edge:class:0->3"), by_gid(ax, "edge:tree:2->3")
    assert light.get_linewidth() < tree.get_linewidth()
    assert sum(light.get_edgecolor()[:3]) > sum(tree.get_edgecolor()[:3])


def test_gnb_graph_tidy_layout_puts_mothers_above_children():
    ax = plot_gnb_graph(gnb()).axes[0]
    y = {v: by_gid(ax, f"label:variable:{v}").get_position()[1] for v in range(1, 6)}
    assert y[1] > y[2] == y[4] == y[5] > y[3]
    assert by_gid(ax, "label:class:0").get_position()[1] > y[1]


def test_edge_labels_can_be_switched_off():
    ax = plot_gnb_graph(gnb(), style=Style(edge_labels=False)).axes[0]
    assert count_gids(ax, "edge-label:") == 0
    assert count_gids(ax, "edge:tree:") == 4


def test_gnb_forest_colours_each_tree_and_counts_in_title():
    fo = forest()
    assert fo.n_trees == 2
    style = Style()
    ax = plot_gnb_forest(fo, style=style).axes[0]
    assert ax.get_title() == "GNB forest: 3 clusters, 2 trees"
    assert count_gids(ax, "node:") == 1 + len(fo.features)
    assert count_gids(ax, "edge:tree:") == len(fo.edges)
    for i, tree in enumerate(fo.trees):
        for v in {x for e in tree for x in e}:
            colour = by_gid(ax, f"node:variable:{v}").get_edgecolor()
            assert mcolors.to_hex(colour) == style.palette[i].lower()


def test_gnb_forest_from_a_junction_tree_is_the_whole_tree():
    ax = plot_gnb_forest(gnb()).axes[0]
    assert ax.get_title() == "GNB forest: 4 clusters, 1 tree"


class FittedLike:
    """The attributes a fitted GNB classifier exposes to viz (structure_, n_clusters_)."""

    def __init__(self, structure, n_clusters):
        self.structure_, self.n_clusters_ = structure, n_clusters


def test_fitted_model_draws_its_structure_and_reduced_forest():
    model = FittedLike(GNBJunctionTree.from_tree([(1, 2), (4, 5), (2, 3), (5, 6), (3, 4)]), 3)
    assert count_gids(plot_gnb_graph(model).axes[0], "edge:tree:") == 5
    assert plot_gnb_forest(model).axes[0].get_title() == "GNB forest: 3 clusters, 2 trees"


def test_gnb_figures_reject_other_objects():
    with pytest.raises(TypeError, match="Expected a GNBJunctionTree, a GNBForest or a fitted"):
        plot_gnb_graph([(1, 2)])


def test_junction_tree_tree_form_labels_separators():
    ax = plot_junction_tree(gnb(), "tree").axes[0]
    assert texts(ax, "label:cluster:") == ["0,1,2", "0,1,4", "0,1,5", "0,2,3"]
    assert count_gids(ax, "edge:junction:") == 3
    # separator {0,1} has multiplicity 3: two junction edges; {0,2}: one
    assert texts(ax, "edge-label:separator:") == ["0,1", "0,1", "0,2"]
    assert count_gids(ax, "multiplicity:") == 0


def test_junction_tree_compact_form_has_separator_nodes_with_multiplicity():
    g = gnb()
    ax = plot_junction_tree(g, "compact").axes[0]
    assert count_gids(ax, "node:cluster:") == 4
    assert texts(ax, "label:separator:") == ["0,1", "0,2"]
    assert by_gid(ax, "multiplicity:0,1").get_text() == "ν=3"
    assert by_gid(ax, "multiplicity:0,2").get_text() == "ν=2"
    # each separator joins the clusters containing it: 3 + 2 edges
    assert count_gids(ax, "edge:junction:") == sum(g.separators.values())


def test_junction_tree_of_a_forest_has_the_class_separator():
    ax = plot_junction_tree(forest(), "compact").axes[0]
    assert by_gid(ax, "multiplicity:0").get_text() == "ν=2"


def test_cherry_junction_tree_of_order_four_in_both_forms():
    jt = ktree().to_junction_tree("Y")
    tree_ax = plot_junction_tree(jt, "tree").axes[0]
    assert count_gids(tree_ax, "node:cluster:") == len(jt.clusters)
    assert count_gids(tree_ax, "edge:junction:") == len(jt.junction_edges)
    compact = plot_junction_tree(jt, "compact").axes[0]
    expected = {",".join(map(str, sorted(s, key=str))): nu for s, nu in jt.separators.items()}
    shown = {t.get_gid()[len("multiplicity:"):]: t.get_text() for t in compact.texts
             if t.get_gid().startswith("multiplicity:")}
    assert {",".join(sorted(k.split(","))): v for k, v in shown.items()} == {
        ",".join(sorted(k.split(","))): f"ν={nu}" for k, nu in expected.items()}


def test_cherry_junction_tree_single_cluster():
    ax = plot_junction_tree(CherryJunctionTree([{0, 1, 2}]), "compact").axes[0]
    assert count_gids(ax, "node:") == 1 and count_gids(ax, "edge:") == 0


def test_junction_tree_rejects_unknown_form():
    with pytest.raises(ValueError, match="Unknown junction-tree form 'wide'; valid forms"):
        plot_junction_tree(gnb(), "wide")


# -- paper 2 -----------------------------------------------------------------------------
def test_ktree_draws_every_parent_edge_directed_with_creation_numbers():
    kt = ktree()
    ax = plot_ktree(kt).axes[0]
    assert count_gids(ax, "node:variable:") == kt.n
    assert gids(ax, "edge:parent:") == {f"{p}->{v}" for p, v in kt.edges}
    assert len(kt.edges) == kt.k * (kt.n - kt.k) + kt.k * (kt.k - 1) // 2
    assert {v: by_gid(ax, f"creation:{v}").get_text() for v in kt.order} == {
        v: str(i + 1) for i, v in enumerate(kt.order)}
    # the initial k-clique is shaded, the others are not
    shaded = {v for v in kt.order
              if by_gid(ax, f"node:variable:{v}").get_facecolor()[:3] != (1.0, 1.0, 1.0)}
    assert shaded == set(kt.order[: kt.k])


def test_ktan_adds_the_class_vertex_on_top():
    kt = ktree()
    ax = plot_ktree(kt, target="Y").axes[0]
    assert count_gids(ax, "node:") == kt.n + 1
    assert gids(ax, "edge:class:") == {f"Y->{v}" for v in kt.order}
    top = by_gid(ax, "label:class:Y").get_position()[1]
    assert all(by_gid(ax, f"label:variable:{v}").get_position()[1] < top for v in kt.order)


def test_ktan_target_must_not_be_a_vertex():
    with pytest.raises(ValueError, match="target 3 is a vertex of the k-tree"):
        plot_ktree(ktree(), target=3)


def test_one_tree_is_drawn_as_a_tidy_tree():
    tan = AcyclicKTree(1, "abcd", {"b": "a", "c": "a", "d": "b"})
    ax = plot_ktree(tan).axes[0]
    y = {v: by_gid(ax, f"label:variable:{v}").get_position()[1] for v in "abcd"}
    assert y["a"] > y["b"] == y["c"] > y["d"]


def test_tree_representation_nodes_edges_and_separators():
    kt = ktree()
    ax = plot_tree_representation(kt).axes[0]
    assert count_gids(ax, "node:clique:") == kt.n - kt.k
    assert count_gids(ax, "edge:tree:") == kt.n - kt.k - 1
    rank = {v: i for i, v in enumerate(kt.order)}
    expected = sorted(",".join(str(p) for p in sorted(kt.parents(v), key=rank.__getitem__))
                      for v in kt.order[kt.k + 1:])
    assert texts(ax, "edge-label:separator:") == expected
    assert texts(ax, "created:") == sorted(f"Δ{v}" for v in kt.order[kt.k:])


def test_pbkt_backbone_line_arcs_and_root():
    p, kt = pbkt(), pbkt().to_ktree()
    style = Style()
    ax = plot_pbkt(p, style=style).axes[0]
    backbone = list(p.backbone)
    assert count_gids(ax, "node:variable:") == len(backbone)
    # vertices stand on one line, in backbone order
    xy = [by_gid(ax, f"label:variable:{v}").get_position() for v in backbone]
    assert len({y for _, y in xy}) == 1 and [x for x, _ in xy] == sorted(x for x, _ in xy)
    retained = {frozenset(e) for e in p.retained}
    assert count_gids(ax, "edge:backbone:") == len(retained) == len(backbone) - 1
    assert count_gids(ax, "edge:arc:") == len(kt.edges) - len(retained)
    root = {v for v in backbone
            if mcolors.to_hex(by_gid(ax, f"node:variable:{v}").get_facecolor())
            == style.highlight_color.lower()}
    assert root == set(p.root)


def test_partial_pbkt_dashes_vertices_outside_and_gaps():
    p = PBKT.from_decomposition(2, [1, 2, 3, 4, 5], {1, 2, 4}, [(1, 3, [(2, 5, [])])])
    child = p.children[0][2]
    ax = plot_pbkt(child).axes[0]
    outside = {v for v in p.backbone
               if by_gid(ax, f"node:variable:{v}").get_linestyle() in ("--", "dashed")}
    assert outside == set(p.backbone) - set(child.vertices)
    assert count_gids(ax, "edge:backbone:") == len(child.retained)
    skeleton = child.to_ktree().skeleton()
    gaps = [(a, b) for a, b in zip(p.backbone, p.backbone[1:], strict=False)
            if frozenset((a, b)) not in skeleton]
    assert gaps and gids(ax, "edge:gap:") == {f"{a}-{b}" for a, b in gaps}


def test_parent_set_dag_draws_its_arcs_class_and_topological_order():
    from kgraph import ParentSetDAG
    from viz.structure import plot_structure

    dag = ParentSetDAG({"a": [], "b": ["a"], "c": ["a"], "d": ["b", "c"]}, target="y")
    ax = plot_structure(dag, width="column").axes[0]
    assert gids(ax, "edge:parent:") == {"a->b", "a->c", "b->d", "c->d"}
    assert gids(ax, "edge:class:") == {"y->a", "y->b", "y->c", "y->d"}
    assert gids(ax, "node:") == {"class:y", "variable:a", "variable:b", "variable:c",
                                 "variable:d"}
    assert {t: by_gid(ax, f"creation:{t}").get_text() for t in "abcd"} == {
        "a": "1", "b": "2", "c": "3", "d": "4"}
    assert "numbers: topological order" in texts(ax, "legend-text:")

    with pytest.raises(TypeError, match="tree-representation is a k-tree's; got a ParentSetDAG"):
        plot_tree_representation(dag)
