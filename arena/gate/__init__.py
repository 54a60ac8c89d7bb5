"""The merge gate: case-by-case regression rules, absolute and cost limits, noise-aware
verdicts, the gate pipeline and its report. It also re-exports the names users import from
here that live beside it: ``arena.yaml`` and the project's defaults (:mod:`arena.project`),
comparisons and power advice (:mod:`arena.compare`), the baseline's side (:mod:`arena.ci`).

Public names load lazily (like :mod:`arena`), so the scoring package can use the records here
without loading the pipeline, the judges or the database.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.ci._baseline_side import BaselineSide, run_baseline_side, uncommitted_warning
    from arena.compare._answers import Answer, RunAnswers, cheaper_variant, run_answers
    from arena.compare._power import PowerEstimate, power_estimate
    from arena.gate._alignment import Alignment, align
    from arena.gate._baselines import (
        Proposal,
        load_baseline,
        load_baseline_file,
        propose_baseline,
        run_snapshot,
    )
    from arena.gate._changed import tier_changes
    from arena.gate._classify import classify
    from arena.gate._history import CaseHistory, case_history
    from arena.gate._limits import AbsoluteLimits, BudgetLimits, CostLimits, LimitCheck
    from arena.gate._noise import Interval, paired_bootstrap, pass_drop_p_value
    from arena.gate._pipeline import check_stored, run_gate
    from arena.gate._policy import verdict_words, would_block
    from arena.gate._regression import MAX_DROP, RegressionReason, RegressionReport
    from arena.gate._report import (
        GateReport,
        gate_markdown,
        gate_text,
        regression_markdown,
        regression_text,
    )
    from arena.gate._rule_config import DEFAULT_BLOCKING, RULES, RuleConfig
    from arena.gate._rules import check_candidate, check_regression, compare_snapshots, snapshot
    from arena.project._config import GateConfig, find_config, load_config
    from arena.project._defaults import ProjectDefaults, project_defaults, read_project_defaults
    from arena.project._variant_lookup import resolve_variant, resolve_variants

_EXPORTS = {
    "AbsoluteLimits": "arena.gate._limits",
    "Alignment": "arena.gate._alignment",
    "Answer": "arena.compare._answers",
    "RunAnswers": "arena.compare._answers",
    "cheaper_variant": "arena.compare._answers",
    "run_answers": "arena.compare._answers",
    "BaselineSide": "arena.ci._baseline_side",
    "BudgetLimits": "arena.gate._limits",
    "CostLimits": "arena.gate._limits",
    "CaseHistory": "arena.gate._history",
    "DEFAULT_BLOCKING": "arena.gate._rule_config",
    "GateConfig": "arena.project._config",
    "GateReport": "arena.gate._report",
    "regression_markdown": "arena.gate._report",
    "regression_text": "arena.gate._report",
    "Interval": "arena.gate._noise",
    "LimitCheck": "arena.gate._limits",
    "PowerEstimate": "arena.compare._power",
    "ProjectDefaults": "arena.project._defaults",
    "Proposal": "arena.gate._baselines",
    "RULES": "arena.gate._rule_config",
    "RuleConfig": "arena.gate._rule_config",
    "align": "arena.gate._alignment",
    "case_history": "arena.gate._history",
    "check_candidate": "arena.gate._rules",
    "check_regression": "arena.gate._rules",
    "MAX_DROP": "arena.gate._regression",
    "RegressionReason": "arena.gate._regression",
    "RegressionReport": "arena.gate._regression",
    "check_stored": "arena.gate._pipeline",
    "classify": "arena.gate._classify",
    "compare_snapshots": "arena.gate._rules",
    "gate_markdown": "arena.gate._report",
    "gate_text": "arena.gate._report",
    "load_baseline": "arena.gate._baselines",
    "load_baseline_file": "arena.gate._baselines",
    "find_config": "arena.project._config",
    "load_config": "arena.project._config",
    "project_defaults": "arena.project._defaults",
    "read_project_defaults": "arena.project._defaults",
    "paired_bootstrap": "arena.gate._noise",
    "pass_drop_p_value": "arena.gate._noise",
    "power_estimate": "arena.compare._power",
    "propose_baseline": "arena.gate._baselines",
    "run_baseline_side": "arena.ci._baseline_side",
    "tier_changes": "arena.gate._changed",
    "uncommitted_warning": "arena.ci._baseline_side",
    "verdict_words": "arena.gate._policy",
    "would_block": "arena.gate._policy",
    "run_gate": "arena.gate._pipeline",
    "run_snapshot": "arena.gate._baselines",
    "snapshot": "arena.gate._rules",
    "resolve_variant": "arena.project._variant_lookup",
    "resolve_variants": "arena.project._variant_lookup",
}

__all__ = [
    "DEFAULT_BLOCKING",
    "MAX_DROP",
    "RULES",
    "AbsoluteLimits",
    "Alignment",
    "Answer",
    "BaselineSide",
    "BudgetLimits",
    "CaseHistory",
    "CostLimits",
    "GateConfig",
    "GateReport",
    "Interval",
    "LimitCheck",
    "PowerEstimate",
    "ProjectDefaults",
    "Proposal",
    "RegressionReason",
    "RegressionReport",
    "RuleConfig",
    "RunAnswers",
    "align",
    "case_history",
    "cheaper_variant",
    "check_candidate",
    "check_regression",
    "check_stored",
    "classify",
    "compare_snapshots",
    "find_config",
    "gate_markdown",
    "gate_text",
    "load_baseline",
    "load_baseline_file",
    "load_config",
    "paired_bootstrap",
    "pass_drop_p_value",
    "power_estimate",
    "project_defaults",
    "propose_baseline",
    "read_project_defaults",
    "regression_markdown",
    "regression_text",
    "resolve_variant",
    "resolve_variants",
    "run_answers",
    "run_baseline_side",
    "run_gate",
    "run_snapshot",
    "snapshot",
    "tier_changes",
    "uncommitted_warning",
    "verdict_words",
    "would_block",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'arena.gate' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
