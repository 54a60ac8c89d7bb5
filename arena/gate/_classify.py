"""Why a case broke: output, trajectory, behaviour, side effect or error, and the failing check.

A run error is an ``error``. A hard fail (empty output, a forbidden tool, forbidden text, a
failed grader) names its own kind. Reasons are records (:class:`~arena.scoring.checks.FailReason`)
carrying the check and kind that gave them; the kind of each component comes from the
registered golden checks. Otherwise the kind is the scoring component that fell the
most against the baseline (or, when the baseline kept no components, the one that costs the
candidate the most weighted score), and the check is the candidate's failure reason about
that component.
"""

from __future__ import annotations

from arena.gate._tracebacks import error_line
from arena.scoring._baseline import CaseRecord
from arena.scoring._combined import WEIGHTS
from arena.scoring.checks import FailReason, FailureKind, component_kinds, golden_checks

KIND_WORDS: dict[str, str] = {
    "output": "output",
    "trajectory": "trajectory",
    "behavior": "behaviour",
    "side_effect": "side effect",
    "error": "error",
}
"""How each failure kind reads in reports."""
ALSO_DROP = 0.2
"""A component that fell this much besides the main one is named too."""


def reason_kind(reason: str) -> FailureKind | None:
    """The kind a failure reason names, or None (e.g. ``score 0.52 < 0.70``)."""
    return FailReason.coerce(reason).kind


def _component_kind(name: str) -> FailureKind:
    return component_kinds().get(name, "output")


def _fallen_component(baseline: CaseRecord, candidate: CaseRecord) -> str | None:
    now = candidate.components
    before = baseline.components
    if before:
        drops = {name: before[name] - now[name] for name in now if name in before}
        if drops and max(drops.values()) > 0:
            return max(drops, key=lambda name: drops[name])
    costs = {name: WEIGHTS.get(name, 0.2) * (1.0 - value) for name, value in now.items()}
    if costs and max(costs.values()) > 0:
        return max(costs, key=lambda name: costs[name])
    return None


def _own_component(check: str) -> str | None:
    """The component a check's verdict scores (``turns`` for the ``turns`` check)."""
    return next((c.component for c in golden_checks() if c.name == check), None)


def _own_reasons(candidate: CaseRecord, component: str, given: str) -> list[FailReason]:
    """The candidate's stored reasons from the check that scores ``component`` (each turn's
    for ``turns``), but the one already ``given``."""
    checks = {c.name for c in golden_checks() if c.component == component}
    return [r for r in candidate.fail_reasons if r.check in checks and r != given]


def with_turns(record: CaseRecord, text: str) -> str:
    """``text`` with the per-turn reasons of a conversation it does not quote yet appended
    (``... (turns: turn 2: expected a call to reset_password)``)."""
    turns = [r for r in _own_reasons(record, "turns", "") if r not in text]
    return f"{text} (turns: {'; '.join(turns)})" if turns else text


def _also(
    baseline: CaseRecord,
    candidate: CaseRecord,
    kind: FailureKind,
    skip: str | None = None,
    given: str = "",
) -> str:
    """Other components that fell by at least :data:`ALSO_DROP`, with their reasons: the ones
    their own check stored (a conversation's per-turn reasons), else one of their kind
    (``skip``: the component of the reason already ``given``)."""
    notes = []
    for name, now in candidate.components.items():
        was = baseline.components.get(name)
        other = _component_kind(name)
        own = _own_reasons(candidate, name, given)
        if name == skip or (other == kind and not own) or was is None or was - now < ALSO_DROP:
            continue
        if own:
            notes.append(f"{KIND_WORDS[own[0].kind or other]}: {'; '.join(own)}")
            continue
        reason = next((r for r in candidate.fail_reasons if r.kind == other), None)
        notes.append(f"{KIND_WORDS[other]}: {reason or f'{name} score {was:.2f} -> {now:.2f}'}")
    return f" (also {'; '.join(notes)})" if notes else ""


def classify(baseline: CaseRecord, candidate: CaseRecord) -> tuple[FailureKind | None, str]:
    """The failure kind of a case that got worse, and its failing check in words (with the
    other components that fell, e.g. the missing tool call behind a missing answer)."""
    if candidate.errors:
        # the error's first line: its traceback is the report's, trimmed (arena.gate._crashes)
        return (
            "error",
            f"run error: {error_line(candidate.error)}" if candidate.error else "run error",
        )
    for reason in candidate.fail_reasons:
        if reason.hard and reason.kind is not None:
            skip = _own_component(reason.check)
            return reason.kind, reason + _also(baseline, candidate, reason.kind, skip, reason)
    component = _fallen_component(baseline, candidate)
    if component is None:
        return None, "; ".join(candidate.fail_reasons) or "score fell"
    kind = _component_kind(component)
    for reason in candidate.fail_reasons:
        if reason.kind == kind:
            return kind, reason + _also(baseline, candidate, kind, given=reason)
    also = _also(baseline, candidate, kind)
    was = baseline.components.get(component)
    now = candidate.components.get(component, 0.0)
    change = f"{was:.2f} -> {now:.2f}" if was is not None else f"{now:.2f}"
    return kind, f"{component} score {change}{also}"
