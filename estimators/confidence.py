"""The public path of structure confidence (``from estimators.confidence import
StructureConfidence``, as the user guide writes it): the code lives on the learning floor,
:mod:`estimators.learning.structure_confidence`."""

from estimators.learning.structure_confidence import RESAMPLINGS, StructureConfidence

__all__ = ["RESAMPLINGS", "StructureConfidence"]
