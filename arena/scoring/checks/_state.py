"""The ``state`` check: what the run changed in the state its agent exposes, against the
case's ``expected_state`` and ``state_may_change`` (the types: :mod:`arena.golden._state`).

The run's :class:`~arena.records.end_state.StateDiff` (taken by the runner from the
factory's ``ctx.expose_state``) says which records were added, removed or changed and how.
Each expected record must end with the named field values (exactly by default, or by a
matcher: :mod:`arena.scoring._matchers`), its other fields unchanged; ``null`` asks the
record to be gone. Every other change must match a ``state_may_change`` glob. Every miss is
a hard fail naming record and field:

* ``orders/#W4 status: expected "cancelled", is "pending"`` (an expected value missing);
* ``orders/#W2 status: pending -> cancelled, not expected`` (a change nobody asked for);
* ``orders/#W2: removed, not expected`` / ``carts/#C1: added, not expected``.

A case that sets these fields on an agent that exposes no state fails, saying so (the
expectation cannot be checked, never silently passed); so does one whose snapshot failed.
The score is the share of expectations met (each expected field or record, each change).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import TYPE_CHECKING, Any, ClassVar

from arena.golden._state import path_matches
from arena.records.end_state import RecordChange, StateDiff, value_text
from arena.scoring._matchers import is_matcher, match_value
from arena.scoring._types import Check
from arena.scoring.checks._base import CheckInput, GoldenCheck, Weakening, golden_check

if TYPE_CHECKING:
    from arena.golden._models import GoldenCase

NO_STATE = (
    "the agent exposes no state: expected_state cannot be checked (the factory lends it with "
    "ctx.expose_state(snapshot), docs: own-agent)"
)
_ABSENT = object()


def value_miss(expected: Any, actual: Any) -> str | None:
    """None when ``actual`` is what ``expected`` asks (exactly, or by its matcher:
    :func:`arena.scoring._matchers.match_value`), else a short reason: ``expected
    "cancelled", is "pending"`` for a plain value, the matcher's own reason otherwise."""
    why = match_value(expected, actual)
    if why is None or is_matcher(expected):
        return why
    return f"expected {_json(expected)}, is {_json(actual)}"


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _unexpected(change: RecordChange, named: Collection[str] = ()) -> list[str]:
    """A change no expectation asked for (``named``: fields the case names, left out)."""
    if change.change != "changed":
        return [f"{change.record}: {change.change}, not expected"]
    return [
        f"{change.record} {name}: {value_text(old) if had else '(absent)'} -> "
        f"{value_text(new) if has else '(absent)'}, not expected"
        for name, old, new, had, has in change.field_changes()
        if name not in named
    ]


def _expected_record(
    record: str, fields: dict[str, Any] | None, diff: StateDiff
) -> tuple[int, list[str]]:
    """How many expectations the record holds, and its misses."""
    change = diff.change(record)
    end = diff.named.get(record)
    if fields is None:
        gone = end is None
        return 1, [] if gone else [f"{record}: expected removed, still there"]
    if end is None:
        what = "was removed" if change is not None and change.change == "removed" else "is absent"
        return len(fields) or 1, [f"{record}: expected {_json(fields)}, {what}"]
    misses = []
    for name, wanted in fields.items():
        actual = end.get(name, _ABSENT)
        if actual is _ABSENT:
            misses.append(f"{record} {name}: expected {_json(wanted)}, is absent")
            continue
        why = value_miss(wanted, actual)
        if why is not None:
            misses.append(f"{record} {name}: {why}")
    total = len(fields)
    if change is not None and change.change == "changed":
        others = _unexpected(change, fields)
        misses.extend(others)
        total += len(others)
    return total or 1, misses


def score_state(case: GoldenCase, diff: StateDiff | None) -> Check:
    """The state check's verdict on a run's diff (None: the agent exposes no state)."""
    if diff is None:
        return Check(score=0.0, passed=False, details={"failures": [NO_STATE]})
    if diff.error is not None:
        text = f"the state is not known: {diff.error}"
        return Check(score=0.0, passed=False, details={"failures": [text]})
    expected = case.expected_state or {}
    allowed = list(case.state_may_change)
    failures: list[str] = []
    total = 0
    for record, fields in expected.items():
        count, misses = _expected_record(record, fields, diff)
        total += count
        failures.extend(misses)
    for change in diff.changes:
        if change.record in expected or path_matches(change.record, allowed):
            continue
        misses = _unexpected(change)
        total += len(misses)
        failures.extend(misses)
    if diff.dropped:
        total += 1
        failures.append(
            f"{diff.dropped} more changed record(s) were not stored (over the limit): "
            "they cannot be checked"
        )
    score = 1.0 - len(failures) / total if total else 1.0
    return Check(
        score=max(0.0, score),
        passed=not failures,
        details={"failures": failures, "changes": len(diff.changes) + diff.dropped},
    )


@golden_check(
    "state",
    "the end state the agent exposes: expected records and fields, nothing else changed",
    order=75,
)
class StateCheck(GoldenCheck):
    """``expected_state`` / ``state_may_change`` against the run's state diff."""

    component = "state"
    kind = "side_effect"
    fields = ("expected_state", "state_may_change")
    # records allowed to change excuse a change: one added weakens the check
    weakening: ClassVar[dict[str, Weakening]] = {
        "expected_state": "single",
        "state_may_change": "allowance",
    }

    def applies(self, case: GoldenCase) -> bool:
        """True when the case sets ``expected_state`` (``{}`` too: nothing may change) or
        ``state_may_change``."""
        return case.expected_state is not None or bool(case.state_may_change)

    def score(self, data: CheckInput) -> Check | None:
        if data.result is None or not self.applies(data.case):
            return None
        return score_state(data.case, data.result.end_state)

    def hard_fails(self, check: Check) -> list[str]:
        """Every miss: an expected value or record missing, a change not expected."""
        failures: list[Any] = check.details["failures"]
        return [str(text) for text in failures]
