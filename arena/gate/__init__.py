"""The merge gate: case-by-case regression rules, absolute and budget limits, noise-aware
verdicts, the ``arena.yaml`` configuration, the gate pipeline and its report.

Public names load lazily (like :mod:`arena`), so the scoring package can use the records here
without loading the pipeline, the judges or the database.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.gate.alignment import Alignment, align
    from arena.gate.baselines import (
        Proposal,
        load_baseline,
        load_baseline_file,
        propose_baseline,
        run_snapshot,
    )
    from arena.gate.classify import classify
    from arena.gate.config import GateConfig, load_config
    from arena.gate.history import CaseHistory, case_history
    from arena.gate.limits import AbsoluteLimits, BudgetLimits, LimitCheck
    from arena.gate.noise import Interval, paired_bootstrap, pass_drop_p_value
    from arena.gate.pipeline import check_stored, run_gate
    from arena.gate.power import PowerEstimate, power_estimate
    from arena.gate.regression import MAX_DROP, RegressionReason, RegressionReport
    from arena.gate.report import GateReport, gate_markdown, gate_text
    from arena.gate.rule_config import DEFAULT_BLOCKING, RULES, RuleConfig
    from arena.gate.rules import check_candidate, check_regression, compare_snapshots, snapshot
    from arena.gate.variant_lookup import resolve_variant

_EXPORTS = {
    "AbsoluteLimits": "arena.gate.limits",
    "Alignment": "arena.gate.alignment",
    "BudgetLimits": "arena.gate.limits",
    "CaseHistory": "arena.gate.history",
    "DEFAULT_BLOCKING": "arena.gate.rule_config",
    "GateConfig": "arena.gate.config",
    "GateReport": "arena.gate.report",
    "Interval": "arena.gate.noise",
    "LimitCheck": "arena.gate.limits",
    "PowerEstimate": "arena.gate.power",
    "Proposal": "arena.gate.baselines",
    "RULES": "arena.gate.rule_config",
    "RuleConfig": "arena.gate.rule_config",
    "align": "arena.gate.alignment",
    "case_history": "arena.gate.history",
    "check_candidate": "arena.gate.rules",
    "check_regression": "arena.gate.rules",
    "MAX_DROP": "arena.gate.regression",
    "RegressionReason": "arena.gate.regression",
    "RegressionReport": "arena.gate.regression",
    "check_stored": "arena.gate.pipeline",
    "classify": "arena.gate.classify",
    "compare_snapshots": "arena.gate.rules",
    "gate_markdown": "arena.gate.report",
    "gate_text": "arena.gate.report",
    "load_baseline": "arena.gate.baselines",
    "load_baseline_file": "arena.gate.baselines",
    "load_config": "arena.gate.config",
    "paired_bootstrap": "arena.gate.noise",
    "pass_drop_p_value": "arena.gate.noise",
    "power_estimate": "arena.gate.power",
    "propose_baseline": "arena.gate.baselines",
    "run_gate": "arena.gate.pipeline",
    "run_snapshot": "arena.gate.baselines",
    "snapshot": "arena.gate.rules",
    "resolve_variant": "arena.gate.variant_lookup",
}

__all__ = [
    "DEFAULT_BLOCKING",
    "MAX_DROP",
    "RULES",
    "AbsoluteLimits",
    "Alignment",
    "BudgetLimits",
    "CaseHistory",
    "GateConfig",
    "GateReport",
    "Interval",
    "LimitCheck",
    "PowerEstimate",
    "Proposal",
    "RegressionReason",
    "RegressionReport",
    "RuleConfig",
    "align",
    "case_history",
    "check_candidate",
    "check_regression",
    "check_stored",
    "classify",
    "compare_snapshots",
    "gate_markdown",
    "gate_text",
    "load_baseline",
    "load_baseline_file",
    "load_config",
    "paired_bootstrap",
    "pass_drop_p_value",
    "power_estimate",
    "propose_baseline",
    "resolve_variant",
    "run_gate",
    "run_snapshot",
    "snapshot",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'arena.gate' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
