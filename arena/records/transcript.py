"""A conversation result as text, turn by turn: what the user said, the tool calls the agent
made in that turn, and its reply.

Built from stored fields only (the result's dialogue turns and its tool calls), never from
anything a model might have written about them. Every line a message continues on is
indented, so a reply cannot forge a ``Turn N`` or ``User:`` line of its own. The text is
bounded: each message is clipped in its middle to :data:`MESSAGE_LIMIT`, and when the whole
is longer than the limit, turns between the first and the last few are left out (a marker
says which). The last turn is always shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.records.dialogue import DialogueTurn
from arena.records.results import RunResult, TrajectoryStep

#: The most characters of one user message or reply in a transcript (the middle is cut).
MESSAGE_LIMIT = 1000
#: The length a transcript is kept under by leaving out early turns (never the last turn).
TRANSCRIPT_LIMIT = 3000
#: The most characters of one turn's tool-call line.
TOOLS_LIMIT = 500
#: The tool line of a turn without tool calls.
NO_CALLS = "none"


def call_text(step: TrajectoryStep) -> str:
    """One tool call in a line: ``search_web(query=Japan GDP)``, ``[error]`` if it failed."""
    args = ", ".join(f"{k}={v}" for k, v in step.args.items())
    return f"{step.tool}({args[:80]}){' [error]' if step.error else ''}"


def calls_line(steps: Sequence[TrajectoryStep]) -> str:
    """Tool calls in one line, in order (``a(...) -> b(...)``); empty when there are none."""
    return " -> ".join(call_text(step) for step in steps)


def turn_steps(result: RunResult, turn: DialogueTurn) -> list[TrajectoryStep]:
    """The tool calls the agent made in ``turn`` (its indexes into the result's steps)."""
    return [result.steps[i] for i in turn.steps if 0 <= i < len(result.steps)]


def clip_middle(text: str, limit: int) -> str:
    """``text`` with its middle replaced by ``[...]`` when longer than ``limit``."""
    if len(text) <= limit:
        return text
    half = max(1, (limit - 7) // 2)
    return f"{text[:half]} [...] {text[-half:]}"


def _message(speaker: str, text: str, empty: str) -> str:
    shown = clip_middle(text.strip(), MESSAGE_LIMIT) or empty
    return f"{speaker}: " + "\n  ".join(shown.splitlines())


def turn_block(result: RunResult, turn: DialogueTurn, *, tools: bool) -> str:
    """One turn: ``Turn N``, the user's message, the turn's tool calls (when ``tools``), the
    agent's reply."""
    lines = [f"Turn {turn.index}", _message("User", turn.user, "(empty message)")]
    if tools:
        calls = clip_middle(calls_line(turn_steps(result, turn)), TOOLS_LIMIT)
        lines.append(f"Tools: {calls or NO_CALLS}")
    lines.append(_message("Agent", turn.reply, "(no reply)"))
    return "\n".join(lines)


def _omitted(first: int, last: int) -> str:
    which = f"turn {first}" if first == last else f"turns {first}-{last}"
    return f"[... {which} left out ...]"


def transcript(result: RunResult, *, tools: bool = True, limit: int = TRANSCRIPT_LIMIT) -> str:
    """The result's conversation as text, turn by turn (see the module docstring).

    Args:
        result: a conversation result (its ``dialogue`` set).
        tools: show each turn's tool calls in one line.
        limit: keep the text under this many characters by leaving out turns after the
            first and before the last ones; the last turn is always shown whole.

    Raises:
        ValueError: the result has no dialogue.
    """
    if result.dialogue is None:
        raise ValueError(f"result {result.id} of case {result.case_id} has no dialogue")
    turns = result.dialogue.turns
    blocks = [turn_block(result, turn, tools=tools) for turn in turns]
    if sum(len(b) + 2 for b in blocks) <= limit or len(blocks) <= 1:
        return "\n\n".join(blocks)
    kept = {len(blocks) - 1}
    room = limit - len(blocks[-1]) - 2 - len(_omitted(1, len(blocks))) - 2
    if len(blocks[0]) + 2 <= room:  # the opening turn next: the case's input
        kept.add(0)
        room -= len(blocks[0]) + 2
    for i in range(len(blocks) - 2, 0, -1):
        if len(blocks[i]) + 2 > room:
            break
        kept.add(i)
        room -= len(blocks[i]) + 2
    shown: list[str] = []
    gap: list[int] = []
    for i, block in enumerate(blocks):
        if i in kept:
            if gap:
                shown.append(_omitted(turns[gap[0]].index, turns[gap[-1]].index))
                gap = []
            shown.append(block)
        else:
            gap.append(i)
    return "\n\n".join(shown)


def replies(result: RunResult) -> list[tuple[str, str]]:
    """(user message, agent reply) of every turn, unclipped (for checks that read replies)."""
    if result.dialogue is None:
        return []
    return [(turn.user, turn.reply) for turn in result.dialogue.turns]
