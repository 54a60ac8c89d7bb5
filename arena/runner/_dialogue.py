"""Run a conversation case: the agent answers, the user (scripted or simulated) speaks again.

One sandbox, one trajectory recorder and one agent for the whole dialogue. Each agent turn is
``agent.ainvoke({"messages": history + [HumanMessage(user_text)]})`` under the case's time
limit; the history is the messages the agent returned on the turn before (rebuilt as
human/assistant pairs when it returns none). The runner's own work per turn does not grow
with the turns before it: of the messages a turn returns only those no earlier turn returned
are kept for the recorder (an agent returns the whole history each turn; keeping every list
whole held the square of the turns), and the user player reads the turns in place. The
dialogue ends when the user player ends it, at the conversation's turn limit, when the agent
fails a turn (then the result's error is set as for a one-message case) or when the simulated
user fails (a simulator error: the result's error stays None).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import Runnable, RunnableConfig

from arena.agents import extract_output
from arena.conversations import UserMove, UserPlayer
from arena.golden import GoldenCase
from arena.models import CALLS, CallCounter
from arena.records.dialogue import Dialogue, DialogueTurn, EndedBy
from arena.runner._trajectory import TrajectoryRecorder
from arena.secrets import redact

#: Turns an exception of the agent into the result's error text (the runner's own format).
ErrorText = Callable[[BaseException], str]


def _identity(message: Any) -> str | int:
    return getattr(message, "id", None) or id(message)


@dataclass
class DialogueRun:
    """What a dialogue produced: its turns, why it ended, the agent's error and messages."""

    dialogue: Dialogue
    error: str | None = None
    messages: list[Any] = field(default_factory=list)
    """Every message the agent returned, each once, for the recorder's observations."""
    _kept: set[str | int] = field(default_factory=set, repr=False)

    def keep(self, asked: list[BaseMessage], returned: list[Any]) -> None:
        """Add the messages of ``returned`` not kept before: those after ``asked`` when the
        agent returned that history as it was given (LangGraph agents do), else each one not
        already kept (by its message id, else its object: kept messages stay referenced, so
        an object's ``id`` is never reused)."""
        start = 0
        if asked and len(returned) >= len(asked) and returned[len(asked) - 1] is asked[-1]:
            start = len(asked)
        fresh = [m for m in returned[start:] if _identity(m) not in self._kept]
        self._kept.update(map(_identity, fresh))
        self.messages.extend(fresh)

    @property
    def output(self) -> str:
        """The agent's last reply."""
        return self.dialogue.turns[-1].reply if self.dialogue.turns else ""

    @property
    def latency_s(self) -> float:
        """The agent's seconds over every turn (the user's moves not included)."""
        return sum(t.latency_s for t in self.dialogue.turns)


@dataclass
class _Turn:
    reply: str = ""
    error: str | None = None
    messages: list[Any] | None = None


async def _agent_turn(
    agent: Runnable[Any, Any],
    messages: list[BaseMessage],
    config: RunnableConfig,
    timeout_s: float,
    error_text: ErrorText,
) -> _Turn:
    try:
        result = await asyncio.wait_for(agent.ainvoke({"messages": messages}, config), timeout_s)
    except TimeoutError:
        return _Turn(error=f"timeout: no answer within {timeout_s:g} s")
    except Exception as exc:  # recorded with the result, as for a one-message case
        return _Turn(error=error_text(exc))
    reply = extract_output(result)
    returned = result.get("messages") if isinstance(result, dict) else None
    turn = _Turn(reply=reply, messages=list(returned) if isinstance(returned, list) else None)
    if not reply.strip():
        turn.error = "empty answer: the agent finished without a final answer"
    return turn


async def _user_move(player: UserPlayer, turns: Sequence[DialogueTurn]) -> UserMove:
    """The player's move, its model calls kept out of the agent's call counter."""
    token = CALLS.set(CallCounter())
    try:
        return await player.next_move(turns)
    except Exception as exc:  # a player that raises instead of reporting is a failed one
        return UserMove(None, error=redact(f"failed: {type(exc).__name__}: {exc}")[:2000])
    finally:
        CALLS.reset(token)


async def run_dialogue(
    agent: Runnable[Any, Any],
    config: RunnableConfig,
    case: GoldenCase,
    player: UserPlayer,
    *,
    recorder: TrajectoryRecorder,
    counter: CallCounter,
    timeout_s: float,
    error_text: ErrorText,
    user_model: str | None = None,
) -> DialogueRun:
    """Play the case's conversation between ``agent`` and ``player``.

    ``recorder`` and ``counter`` are the run's (the agent's calls only); ``timeout_s`` bounds
    each agent turn; ``user_model`` is the label stored as ``Dialogue.user_model``.
    """
    assert case.conversation is not None
    limit = case.conversation.max_turns
    run = DialogueRun(Dialogue(ended_by="script", user_model=user_model))
    turns = run.dialogue.turns
    history: list[BaseMessage] = []
    text = case.input
    while True:
        first_step, calls, replayed = len(recorder.steps), recorder.model_calls, counter.replayed_s
        asked = [*history, HumanMessage(text)]
        started = time.perf_counter()
        turn = await _agent_turn(agent, asked, config, timeout_s, error_text)
        latency = time.perf_counter() - started + counter.replayed_s - replayed
        turns.append(
            DialogueTurn(
                index=len(turns) + 1,
                user=text,
                reply=turn.reply,
                steps=list(range(first_step, len(recorder.steps))),
                model_calls=recorder.model_calls - calls,
                latency_s=round(latency, 4),
            )
        )
        run.keep(asked, turn.messages or [])
        if turn.error is not None:
            run.error = turn.error
            run.dialogue.ended_by = "agent_error"
            return run
        history = turn.messages or [*asked, AIMessage(turn.reply)]
        if len(turns) >= limit:
            run.dialogue.ended_by = "max_turns" if case.conversation.simulated else "script"
            return run
        move = await _user_move(player, turns)
        run.dialogue.simulator_calls += move.model_calls
        run.dialogue.simulator_fresh_calls += move.fresh_model_calls
        if move.error is not None:
            run.dialogue.simulator_error = move.error
            run.dialogue.ended_by = "simulator_error"
            return run
        if move.text is None:
            run.dialogue.ended_by = _ended_by(move)
            return run
        text = move.text


def _ended_by(move: UserMove) -> EndedBy:
    return move.ended_by if move.ended_by is not None else "user"
