"""The plate graph of latent conditional Naive Bayes (paper 3)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from kgraph.graphdb import GraphDB
from kgraph.structure import Structure, check_distinct

__all__ = ["LatentCNBPlate"]


class LatentCNBPlate(Structure):
    """Plate graph of a latent conditional Naive Bayes model (LD-, LGD-, LBL-CNB).

    For each row: ``pi ~ prior``; for each observed feature j: ``z_j ~ Cat(pi)`` and
    ``x_j ~ p(x | theta_{z_j, j})``. Nodes (directed graph; ``kind`` says what each is,
    ``plates`` lists the plates it sits in):

    - ``"prior"`` (``kind="hyperparameter"``, ``distribution`` = the prior's name);
    - ``"pi"`` (``kind="latent"``, ``role="mixing-weights"``, plates ``("rows",)``);
    - ``("z", j)`` (``kind="latent"``, ``role="assignment"``, plates ``("rows",)``);
    - ``("x", j)`` (``kind="variable"``, ``observed="if present"``, plates ``("rows",)``);
    - ``("theta", j)`` (``kind="parameter"``, plates ``("components",)``, one per feature,
      holding the K component parameters of feature j).

    Edges: prior -> pi (``kind="prior"``), pi -> z_j (``"mixing"``), z_j -> x_j
    (``"selects"``), theta_j -> x_j (``"emission"``). The graph attribute ``plates`` gives
    the plate sizes (``rows``: ``"N"``, ``components``: K).

    Parameters
    ----------
    features : sequence of hashable
        Feature names, in column order.
    n_components : int
        K, the number of latent components.
    prior : str, default="dirichlet"
        Name of the prior on pi.
    family : str, default="gaussian"
        Name of the distribution of a feature given its component.

    Examples
    --------
    >>> plate = LatentCNBPlate(["a", "b"], 3, prior="beta-liouville")
    >>> g = plate.graph
    >>> g.successors("pi")
    [('z', 'a'), ('z', 'b')]
    >>> sorted(g.predecessors(("x", "a")), key=str)
    [('theta', 'a'), ('z', 'a')]
    >>> g.node_attrs(("theta", "b"))["plates"]
    ('components',)
    >>> LatentCNBPlate.from_graph(g) == plate
    True
    """

    def __init__(
        self,
        features: Sequence[Hashable],
        n_components: int,
        prior: str = "dirichlet",
        family: str = "gaussian",
    ):
        self._features = tuple(check_distinct(features, "Feature"))
        if not self._features:
            raise ValueError("A plate graph needs at least one feature; got none.")
        if isinstance(n_components, bool) or not isinstance(n_components, int) or n_components < 1:
            raise ValueError(f"n_components must be an int >= 1. Got {n_components!r} instead.")
        for name, value in (("prior", prior), ("family", family)):
            if not isinstance(value, str) or not value:
                raise ValueError(f"{name} must be a non-empty string. Got {value!r} instead.")
        self._k, self._prior, self._family = n_components, prior, family

    @property
    def features(self) -> tuple:
        """Feature names in column order."""
        return self._features

    @property
    def n_components(self) -> int:
        return self._k

    @property
    def prior(self) -> str:
        return self._prior

    @property
    def family(self) -> str:
        return self._family

    def _identity(self) -> tuple:
        return self._features, self._k, self._prior, self._family

    def to_graph(self, backend: str = "networkx") -> GraphDB:
        g = self._new_graph(
            True,
            backend,
            n_components=self._k,
            prior=self._prior,
            family=self._family,
            plates={"rows": "N", "components": self._k},
        )
        g.add_node("prior", kind="hyperparameter", distribution=self._prior, plates=())
        g.add_node("pi", kind="latent", role="mixing-weights", plates=("rows",))
        g.add_edge("prior", "pi", kind="prior")
        for i, j in enumerate(self._features):
            z, x, theta = ("z", j), ("x", j), ("theta", j)
            g.add_node(z, kind="latent", role="assignment", feature=j, plates=("rows",))
            g.add_node(x, kind="variable", feature=j, position=i, family=self._family,
                       observed="if present", plates=("rows",))
            g.add_node(theta, kind="parameter", feature=j, family=self._family,
                       plates=("components",))
            g.add_edge("pi", z, kind="mixing")
            g.add_edge(z, x, kind="selects")
            g.add_edge(theta, x, kind="emission")
        return g

    @classmethod
    def _from_graph(cls, graph: GraphDB) -> LatentCNBPlate:
        xs = sorted(graph.nodes(kind="variable", data=True), key=lambda item: item[1]["position"])
        return cls([attrs["feature"] for _, attrs in xs], graph.attrs["n_components"],
                   graph.attrs["prior"], graph.attrs["family"])

    def __repr__(self) -> str:
        return (f"LatentCNBPlate(features={list(self._features)!r}, "
                f"n_components={self._k}, prior={self._prior!r}, family={self._family!r})")
