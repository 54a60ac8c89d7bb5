"""The merge gate: case-by-case regression rules, absolute and budget limits, noise-aware
verdicts, the ``arena.yaml`` configuration, the gate pipeline and its report.

Public names load lazily (like :mod:`arena`), so the scoring package can use the records here
without loading the pipeline.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.gate.alignment import Alignment, align
    from arena.gate.classify import classify
    from arena.gate.noise import Interval, paired_bootstrap, pass_drop_p_value
    from arena.gate.power import PowerEstimate, power_estimate
    from arena.gate.rules import (
        DEFAULT_BLOCKING,
        RULES,
        RuleConfig,
        check_candidate,
        compare_snapshots,
        snapshot,
    )

_EXPORTS = {
    "Alignment": "arena.gate.alignment",
    "align": "arena.gate.alignment",
    "classify": "arena.gate.classify",
    "Interval": "arena.gate.noise",
    "paired_bootstrap": "arena.gate.noise",
    "pass_drop_p_value": "arena.gate.noise",
    "PowerEstimate": "arena.gate.power",
    "power_estimate": "arena.gate.power",
    "DEFAULT_BLOCKING": "arena.gate.rules",
    "RULES": "arena.gate.rules",
    "RuleConfig": "arena.gate.rules",
    "check_candidate": "arena.gate.rules",
    "compare_snapshots": "arena.gate.rules",
    "snapshot": "arena.gate.rules",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'arena.gate' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
