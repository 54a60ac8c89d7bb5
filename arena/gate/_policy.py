"""A gate whose configuration blocks on less than the default rules says so in its verdict.

``rules.block`` is the team's choice (``arena.yaml`` or ``--block``), and the exit code follows
it. But a gate that passes only because a rule that blocks by default was turned off must not
read as a plain pass: :func:`would_block` applies the default rules to the same records, and
:func:`verdict_words` puts what they would have blocked in the verdict line itself
(``passed (no rule blocks: 2 findings would have blocked: critical_broken HD-1, ...)``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from arena.gate._regression import RegressionReason, RegressionReport
from arena.gate._rule_config import DEFAULT_BLOCKING, RuleConfig
from arena.scoring._baseline import Baseline

if TYPE_CHECKING:
    from arena.ci._baseline_side import BaselineSide


def left_out(config: RuleConfig) -> list[str]:
    """The rules that block by default and not in ``config``."""
    return [r for r in DEFAULT_BLOCKING if r not in config.block]


def would_block(
    base: Baseline,
    cand: Baseline,
    config: RuleConfig,
    regression: RegressionReport,
    hashes: Mapping[str, str] | None = None,
    side: BaselineSide | None = None,
    tiers: Mapping[str, str] | None = None,
) -> list[RegressionReason]:
    """The findings the default blocking rules would have blocked on and ``config`` does not
    (``hashes``, ``side``, ``tiers``: as :func:`arena.gate._rules.compare_snapshots` had them)."""
    from arena.gate._rules import compare_snapshots

    if not left_out(config):
        return []
    strict = config.model_copy(update={"block": sorted({*config.block, *DEFAULT_BLOCKING})})
    again = compare_snapshots(base, cand, strict, hashes, side, tiers)
    now = {(r.rule, r.case_id, r.message) for r in regression.blocking}
    return [r for r in again.blocking if (r.rule, r.case_id, r.message) not in now]


def policy_fields(regression: RegressionReport | None) -> dict[str, object]:
    """The gate report's ``blocking_rules`` and ``would_block`` (none without a baseline)."""
    if regression is None:
        return {}
    return {"blocking_rules": regression.blocking_rules, "would_block": regression.would_block}


def _finding(reason: RegressionReason) -> str:
    return f"{reason.rule} {reason.case_id}" if reason.case_id else reason.rule


def verdict_words(
    passed: bool, blocking_rules: list[str] | None, would: list[RegressionReason]
) -> str:
    """``FAILED``, ``passed``, or ``passed (no rule blocks: ...)`` when the rules that block
    leave out default ones (``blocking_rules``: None when no regression rule applied)."""
    if not passed:
        return "FAILED"
    if blocking_rules is None or (blocking_rules and not would):
        return "passed"
    which = (
        "no rule blocks"
        if not blocking_rules
        else f"rules.block leaves out {', '.join(left_out(RuleConfig(block=blocking_rules)))}"
    )
    if not would:
        return f"passed ({which})"
    plural = "s" if len(would) != 1 else ""
    found = ", ".join(_finding(r) for r in would)
    return f"passed ({which}: {len(would)} finding{plural} would have blocked: {found})"
