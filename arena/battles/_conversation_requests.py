"""What the judge sees of a conversation case: what the conversation is, what each turn and
the end must do, and each side's transcript.

A simulated user's persona, goal, stop condition and private facts (names and values) are
shown: the judge never talks to the agent, so nothing leaks to it, and the values let the
judge check that the agent acted on the right ones (refunded order 4471, not 4417).
"""

from __future__ import annotations

from arena.golden import GoldenCase
from arena.golden._conversation import TurnExpect
from arena.records.results import RunResult
from arena.records.transcript import calls_line, transcript, turn_steps
from judges._types import Exchange


def _quoted(text: str) -> str:
    return '"' + " ".join(text.split()) + '"'


def conversation_query(case: GoldenCase) -> str:
    """The conversation in words: it opens with the case's input; who the simulated user is."""
    lines = [f"The user opens the conversation with: {_quoted(case.input)}"]
    user = case.conversation.user if case.conversation is not None else None
    if user is not None:
        lines.append(f"The user is played by a model. Persona: {user.persona}")
        lines.append(f"The user's goal: {user.goal}")
        if user.facts:
            facts = "; ".join(f"{name}: {value}" for name, value in user.facts.items())
            lines.append(f"What the user knows and gives when asked: {facts}")
        if user.stop_when:
            lines.append(f"The user ends the conversation when: {user.stop_when}")
    return "\n".join(lines)


def _items(items: list[str | list[str]]) -> str:
    return "; ".join(f"({' or '.join(i) if isinstance(i, list) else i})" for i in items)


def turn_text(expect: TurnExpect) -> str:
    """What the reply to one user turn must do, compactly."""
    parts: list[str] = []
    if expect.description:
        parts.append(expect.description)
    if expect.contains:
        parts.append("should mention: " + _items(expect.contains))
    if expect.not_contains:
        parts.append("must not contain: " + "; ".join(expect.not_contains))
    if expect.tools:
        parts.append("expected tools: " + ", ".join(expect.tools))
    if expect.forbidden_tools:
        parts.append("must not call: " + ", ".join(expect.forbidden_tools))
    return f"turn {expect.turn}: " + ", ".join(parts)


def conversation_expectations(case: GoldenCase, end_state: str | None) -> str | None:
    """Per-turn expectations, then the end state (the case's own expectations: the last
    reply, and the tools over the whole conversation)."""
    expects = sorted(case.conversation.expect, key=lambda e: e.turn) if case.conversation else []
    parts = [turn_text(e) for e in expects]
    if end_state:
        parts.append(f"at the end: {end_state}")
    return ". ".join(parts) or None


def exchanges(result: RunResult, case_input: str, *, tools: bool = False) -> list[Exchange]:
    """Every turn's user message and agent reply (what the injection check reads), whether a
    user model wrote the message (every turn after the case's input, when one played the
    user), and with ``tools`` the turn's tool calls as the transcript shows them; a result
    without a dialogue has one turn, its output."""
    if result.dialogue is None:
        return [Exchange(user=case_input, reply=result.output)]
    simulated = result.dialogue.user_model is not None
    return [
        Exchange(
            user=turn.user,
            reply=turn.reply,
            simulated=simulated and turn.index > 1,
            calls=calls_line(turn_steps(result, turn)) if tools else "",
        )
        for turn in result.dialogue.turns
    ]


def shown_conversation(result: RunResult, *, tools: bool) -> str:
    """The side's transcript; a result without a dialogue (stored before the case became a
    conversation) shows its last reply as the only turn's."""
    if result.dialogue is None:
        return result.output
    return transcript(result, tools=tools)
