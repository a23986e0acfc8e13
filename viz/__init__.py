"""viz: matplotlib figures of kgraph structures and results."""

__all__: list[str] = []
