"""The simulated user: a model plays the user of a conversation case (as tau-bench does).

The model gets a short system prompt (persona, goal, private facts to give only when asked,
when to stop) and the dialogue so far with the roles swapped: the agent's replies are the
human side, the user's own earlier messages the assistant side, so the model writes the
user's next message as its own reply. Writing :data:`STOP_TOKEN` ends the conversation; a
message followed by the token is sent first and the conversation ends after the agent's
answer to it, unless that answer asks the user something (tau2-bench PR #297: a simulator
that stops right after confirming ends the dialogue before the agent acts).

Every call is seeded (:func:`arena.conversations.simulator_seed`) and goes through the
model it is given (the run's response cache): the cache key is the model's identity, the
messages (the prompt included, so editing the prompt never replays stale replies) and the
seed. The simulator counts its calls with its own counter, never the agent's.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from arena.conversations._detect import STOP_TOKEN, asks_question, simulator_error
from arena.conversations._player import UserMove
from arena.golden import SimulatedUser
from arena.models import CALLS, CallCounter
from arena.records.dialogue import DialogueTurn, EndedBy
from arena.secrets import redact

#: The agent's greeting that opens the swapped dialogue (the model answers it with the
#: case's input, the user's first message).
GREETING = "Hi! How can I help you today?"

PROMPT = """\
You play a USER who is chatting with an AI assistant. You are the user, never the assistant.
Who you are: {persona}
Your goal: {goal}
{facts}End the conversation when: {stop_when}.

Rules:
- Write only your next message to the assistant: one or two short sentences, as "I".
- Never offer help, never answer as the assistant, never call tools or write JSON.
- Give a private fact only when the assistant asks for it; never volunteer it. If asked for \
something you do not know, say so.
- Do not repeat your goal word for word; say what you want in your own words.
- If the assistant asks you a question or to confirm, answer it and wait for the result.
- Only when your goal is reached and the assistant has said it is done, reply with only \
{stop}."""

#: Changes whenever the prompt's text does; stored results of simulated cases should fold it
#: into their fingerprint (the cache needs nothing: the prompt is part of every call).
PROMPT_VERSION = "1-" + hashlib.sha256(f"{GREETING}\n{PROMPT}".encode()).hexdigest()[:8]

_LABELS = ("user:", "customer:", "me:")
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)


def system_prompt(user: SimulatedUser) -> str:
    """The simulated user's instructions: persona, goal, private facts, when to stop."""
    facts = "".join(f"- {name}: {value}\n" for name, value in user.facts.items())
    if facts:
        facts = "Private facts (give one only when the assistant asks for it):\n" + facts
    return PROMPT.format(
        persona=user.persona.strip(),
        goal=user.goal.strip(),
        facts=facts,
        stop_when=(user.stop_when or "your goal is reached").strip().rstrip("."),
        stop=STOP_TOKEN,
    )


def swapped_messages(
    user: SimulatedUser, case_input: str, turns: Sequence[DialogueTurn]
) -> list[BaseMessage]:
    """The model's view of the dialogue: the agent speaks as the human, the user as the AI."""
    messages: list[BaseMessage] = [SystemMessage(system_prompt(user)), HumanMessage(GREETING)]
    for turn in turns:
        said = case_input if turn.index == 1 else turn.user
        messages.append(AIMessage(said))
        messages.append(HumanMessage(turn.reply.strip() or "(no reply)"))
    return messages


def _clean(text: str) -> str:
    """The message without reasoning (``<think>...</think>``), quotes around it or a speaker
    label before it."""
    text = _THINK.sub("", text).strip()
    if text.casefold().startswith(_LABELS):
        text = text.split(":", 1)[1].strip()
    if len(text) > 1 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1].strip()
    return text


class SimulatedUserPlayer:
    """Plays a :class:`~arena.golden.SimulatedUser` with ``model`` (see the module doc).

    Args:
        user: the case's simulated user.
        model: the chat model that plays it (the run wraps it in its response cache).
        case_input: the case's input, the user's first message.
        seed: the seed of every call (:func:`~arena.conversations.simulator_seed`).
    """

    def __init__(
        self, user: SimulatedUser, model: BaseChatModel, *, case_input: str, seed: int
    ) -> None:
        self.user = user
        self.model = model
        self.case_input = case_input
        self.seed = seed
        self._stop_after: int | None = None  # the user turn after which it said the token

    def request(self, turns: Sequence[DialogueTurn]) -> tuple[list[BaseMessage], dict[str, Any]]:
        """The messages and call options of the next move (what the cache keys on)."""
        return swapped_messages(self.user, self.case_input, turns), {"seed": self.seed}

    async def next_move(self, turns: Sequence[DialogueTurn]) -> UserMove:
        """The user's next message, the end of the conversation, or a simulator error."""
        if self._stop_after == len(turns) and not asks_question(turns[-1].reply):
            return UserMove(None, ended_by="user")
        counter = CallCounter()
        token = CALLS.set(counter)
        try:
            reply = await self._call(turns)
        except Exception as exc:  # retried by the model layer already: a simulator error
            return _move(counter, error=redact(f"failed: {type(exc).__name__}: {exc}")[:2000])
        finally:
            CALLS.reset(token)
        return self._move_for(reply, turns, counter)

    async def _call(self, turns: Sequence[DialogueTurn]) -> AIMessage:
        messages, options = self.request(turns)
        reply = await self.model.ainvoke(messages, **options)
        assert isinstance(reply, AIMessage)
        return reply

    def _move_for(
        self, reply: AIMessage, turns: Sequence[DialogueTurn], counter: CallCounter
    ) -> UserMove:
        if reply.tool_calls:
            name = reply.tool_calls[0]["name"]
            return _move(counter, error=f"role: calls the tool {name!r} instead of speaking")
        text = _clean(reply.content if isinstance(reply.content, str) else str(reply.content))
        error = simulator_error(text, self.user, turns)
        if error is not None:
            return _move(counter, error=error)
        if STOP_TOKEN in text:
            text = text.replace(STOP_TOKEN, "").strip()
            if not text:
                return _move(counter, ended_by="user")
            self._stop_after = len(turns) + 1
        return _move(counter, text=text)


def _move(
    counter: CallCounter,
    *,
    text: str | None = None,
    ended_by: EndedBy | None = None,
    error: str | None = None,
) -> UserMove:
    """A move carrying the simulator's calls (one per move for a model with no cache)."""
    calls = counter.sent + counter.cached
    fresh = counter.sent if calls else 1
    return UserMove(
        text,
        ended_by="simulator_error" if error is not None else ended_by,
        error=error,
        model_calls=calls or 1,
        fresh_model_calls=fresh,
    )
