"""Structure searchers over pluggable scores (DESIGN.md, table of searchers)."""

from estimators.search.backbone_dp import BackboneDPResult, backbone_dp

__all__ = ["BackboneDPResult", "backbone_dp"]
