"""The ``turns`` check: a conversation case's per-turn expectations, turn by turn.

Each :class:`~arena.golden._conversation.TurnExpect` with something to score (``contains``,
``not_contains``, ``tools``, ``forbidden_tools``; a ``description`` alone is for the judge)
is checked on the agent's reply to that user turn and on the tool calls made in that turn:

* ``contains`` / ``not_contains``: the scorers' own text matching (case-insensitive, numbers
  by value, ``arena.scoring._textmatch``) on that turn's reply;
* ``tools``: a multiset the turn's calls must include; only calls that count do (a call that
  raised, timed out or returned an error, unless the case lists its tool in
  ``expected_tool_errors``, or a call to a tool the variant lacks, does not:
  ``turn 2: expected a call to reset_password; its call raised KeyError``);
* ``forbidden_tools``: none of them called in that turn;
* a turn the conversation never reached fails its expectation.

The score is the share of expectations met; every unmet expectation is a hard fail naming its
turn (``turn 3: expected a call to issue_refund``), so the case fails. Single-turn cases never
have this check.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from typing import TYPE_CHECKING, Any, ClassVar

from arena.records.transcript import turn_steps
from arena.scoring._required import call_failure, counts_as_call
from arena.scoring._types import Check
from arena.scoring.checks._base import (
    CheckInput,
    GoldenCheck,
    LintNote,
    Weakening,
    golden_check,
)
from arena.scoring.checks._contains import score_contains
from arena.scoring.checks._not_contains import score_not_contains
from arena.scoring.checks._reasons import FailReason, FailureKind
from arena.scoring.checks._turns_lint import conversation_notes

if TYPE_CHECKING:
    from arena.golden._conversation import TurnExpect
    from arena.golden._models import GoldenCase
    from arena.records.dialogue import DialogueTurn
    from arena.records.results import RunResult

_TOOL_WORDS = ("expected a call to", " calls to ", "called the forbidden tool")
"""How the texts of the tool failures read (their kind is ``trajectory``)."""


def scored(expect: TurnExpect) -> bool:
    """True when an expectation has something to score (not only a description)."""
    return bool(expect.contains or expect.not_contains or expect.tools or expect.forbidden_tools)


def _quote(item: str | list[str]) -> str:
    return repr(item) if isinstance(item, str) else " or ".join(repr(x) for x in item)


def _missed_call(label: str, tool: str, wanted: int, made: int, failed: list[str]) -> str:
    if wanted == 1:
        return f"{label}: expected a call to {tool}" + (
            f"; its call {failed[-1]}" if failed else ""
        )
    text = f"{label}: expected {wanted} calls to {tool}, got {made}"
    return text + (f" (a call {failed[-1]})" if failed else "")


def check_turn(
    expect: TurnExpect,
    turn: DialogueTurn | None,
    result: RunResult,
    expected_errors: Collection[str] = (),
) -> list[str]:
    """What the reply to ``expect.turn`` failed to do, in words (empty: met).

    ``expected_errors`` are the case's ``expected_tool_errors``: an erroring call of one of
    them counts for the turn's ``tools``."""
    label = f"turn {expect.turn}"
    if turn is None:
        return [f"{label}: never reached (the conversation ended before it)"]
    failures: list[str] = []
    found = score_contains(turn.reply, expect.contains)
    failures.extend(f"{label}: reply missing {_quote(item)}" for item in found.details["missed"])
    banned = score_not_contains(turn.reply, expect.not_contains)
    failures.extend(f"{label}: reply contains {item!r}" for item in banned.details["violations"])
    steps = turn_steps(result, turn)
    calls = [s.tool for s in steps if counts_as_call(s, expected_errors)]
    wanted, made = Counter(expect.tools), Counter(calls)
    for tool in sorted(wanted - made):
        failed = [
            call_failure(s)
            for s in steps
            if s.tool == tool and not counts_as_call(s, expected_errors)
        ]
        failures.append(_missed_call(label, tool, wanted[tool], made[tool], failed))
    for tool in sorted(set(expect.forbidden_tools) & {s.tool for s in steps if not s.unavailable}):
        failures.append(f"{label}: called the forbidden tool {tool}")
    return failures


def score_turns(
    result: RunResult, expects: list[TurnExpect], expected_errors: Collection[str] = ()
) -> Check:
    """The share of the scored expectations the dialogue met, and what each turn missed
    (``expected_errors``: the case's ``expected_tool_errors``)."""
    dialogue = result.dialogue
    turns = {t.index: t for t in dialogue.turns} if dialogue is not None else {}
    rows: list[dict[str, Any]] = []
    for expect in expects:
        turn = turns.get(expect.turn)
        failures = check_turn(expect, turn, result, expected_errors)
        rows.append(
            {
                "turn": expect.turn,
                "reached": turn is not None,
                "passed": not failures,
                "failures": failures,
            }
        )
    met = sum(row["passed"] for row in rows)
    return Check(score=met / len(rows), passed=met == len(rows), details={"turns": rows})


@golden_check(
    "turns", "a conversation's per-turn expectations: each turn's reply and tool calls", order=90
)
class TurnsCheck(GoldenCheck):
    """A conversation case's per-turn expectations, on each turn's reply and tool calls."""

    component = "turns"
    kind = "output"
    weight = 0.35
    # fields it reads that are no reference outputs of its own (it has none)
    weakening: ClassVar[dict[str, Weakening]] = {
        "conversation": "single",
        "expected_tool_errors": "allowance",
    }

    def applies(self, case: Any) -> bool:
        conversation = getattr(case, "conversation", None)
        return conversation is not None and any(scored(e) for e in conversation.expect)

    def lint(self, case: GoldenCase) -> list[LintNote]:
        """The conversation rules: a ``when`` that can never hold, a simulated user who lacks
        a fact the case expects or knows the answer (:mod:`arena.scoring.checks._turns_lint`)."""
        return conversation_notes(case)

    def score(self, data: CheckInput) -> Check | None:
        conversation = data.case.conversation
        if data.result is None or conversation is None:
            return None
        expects = [e for e in conversation.expect if scored(e)]
        if not expects:
            return None
        return score_turns(data.result, expects, data.case.expected_tool_errors)

    def hard_fails(self, check: Check) -> list[str]:
        return [text for row in check.details["turns"] for text in row["failures"]]

    def reason(self, text: str, *, hard: bool = False) -> FailReason:
        kind: FailureKind = "trajectory" if any(w in text for w in _TOOL_WORDS) else "output"
        return FailReason(text, check=self.name, kind=kind, hard=hard)
