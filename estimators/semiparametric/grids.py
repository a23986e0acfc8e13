"""The grid engine's integration rules for a semiparametric network (the rule and its
error bound: :mod:`estimators.semiparametric.network`)."""

from __future__ import annotations

import numpy as np

from estimators.columns import EncodedColumns
from estimators.marginal.grid import trapezoid_grid
from estimators.network.factors import LinearGaussianFactor
from estimators.semiparametric.ckde import CKDEFactor
from estimators.semiparametric.copula_factor import CopulaFactor
from estimators.semiparametric.selection import ClassFreeFactor

#: the grid engine's rule: spacing (in smallest scales), reach (in largest scales), nodes
SPACING, REACH, MAX_NODES = 0.25, 8.0, 256


def rule_grids(enc: EncodedColumns, scales: dict) -> dict:
    """Nodes and log trapezoid weights of each continuous vertex: spacing a quarter of its
    smallest scale (at most sd / 5), reach 8 of its largest scales beyond the training
    values, at most :data:`MAX_NODES` nodes (module docstring)."""
    grids = {}
    for v, ss in scales.items():
        x = enc.values[:, v]
        x = x[np.isfinite(x)]
        sd = float(np.std(x)) if x.size else 1.0
        sd = sd if sd > 0 else 1.0
        small, large = min([sd / 5.0, *ss]), max([sd / 5.0, *ss])
        lo, hi = x.min() - REACH * large, x.max() + REACH * large
        size = int(min(np.ceil((hi - lo) / (SPACING * small)) + 1, MAX_NODES))
        grids[int(v)] = trapezoid_grid(lo, hi, size)
    return grids


def factor_scales(factors, margins, cont) -> dict:
    """Per continuous vertex, the scales on which its factors vary (for the grids)."""
    scales = {v: [] for v in cont}
    for f in factors:
        f = f.inner if isinstance(f, ClassFreeFactor) else f
        if isinstance(f, CKDEFactor):
            cells = [*f.cells.values(), *f.class_cells]
            for j, u in enumerate((f.v, *f.continuous_parents)):
                scales[u] += [float(np.abs(c.chol[j, j])) for c in cells]
        elif isinstance(f, LinearGaussianFactor) and f.v in scales:
            scales[f.v] += [float(np.sqrt(np.min(f.var)))]
        elif isinstance(f, CopulaFactor):
            for u in (f.v, *f.continuous_parents) if f.continuous else f.continuous_parents:
                scales[u] += [m.h for m in margins.margins[u]]
    return {v: [s for s in ss if s > 0] for v, ss in scales.items()}
