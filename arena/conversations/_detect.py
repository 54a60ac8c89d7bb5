"""Simulator errors: a simulated user's message that breaks the simulation, not the agent.

:func:`simulator_error` reads one message of the simulated user (before it is sent) and
returns ``"KIND: why"`` or None. The kinds (see ``SIMULATOR_ERROR_KINDS``):

- ``role``: it speaks as the assistant ("How can I help you?", "As an AI", a line that starts
  with "Assistant:"), emits a tool call or tool-call JSON, or says nothing.
- ``refusal``: it refuses to play the user ("I can't help with that", "I'm sorry, but I
  cannot assist").
- ``leak``: it states its goal verbatim (a run of :data:`LEAK_WORDS` words of the goal, or
  the whole goal when it has at least :data:`MIN_GOAL_WORDS` words), or gives the value of a
  private fact the agent has not asked about. The agent *asked* about a fact when one of its
  replies so far names it: contains a word of the fact's name of 3 letters or more, or its
  possessive or plural (the fact "order number" is asked by "What's your order ID?", the
  fact "passenger" by "What is the passenger's name?"). A value already in the dialogue
  (the case's input, an earlier reply) is no leak, nor is a value under 3 characters.
- ``early_stop``: it ends the conversation (the stop token alone) on its first move while it
  has private facts none of which is in the dialogue yet (a goal that needs them cannot be
  reached yet: list in ``facts`` only what the goal needs), or while the agent's last reply
  asks it a question other than a closing one ("Anything else I can help with?" is
  closing). A user without private facts may end at its first move: the agent may have
  answered; the golden checks and the judge say whether it did.

The checks are plain text rules, tuned for precision: an ordinary user message is never
flagged (tests/conversations/test_detect.py holds the realistic messages that must pass).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from arena.golden import SimulatedUser
from arena.records.dialogue import DialogueTurn

#: What the simulated user writes, alone, to end the conversation.
STOP_TOKEN = "###STOP###"
#: Consecutive words of the goal that, repeated, count as stating it verbatim.
LEAK_WORDS = 10
#: A goal shorter than this many words may be repeated whole (it is a phrase, not a script).
MIN_GOAL_WORDS = 6

_ASSISTANT = re.compile(
    r"\bhow (?:can|may|could) i (?:help|assist) you\b"
    r"|\bwhat can i do for you\b"
    r"|\b(?:is there )?anything else i can (?:help|assist|do)\b"
    r"|\bas an ai\b|\bas a (?:large )?language model\b"
    r"|\bi(?:'m| am) (?:an|a|your) (?:ai|virtual assistant|assistant|language model|chatbot)\b"
    r"|^\s*(?:assistant|agent|ai)\s*:"
    r"|<tool_call>",
    re.IGNORECASE | re.MULTILINE,
)
_REFUSAL = re.compile(
    r"\bi (?:can(?:no|')t|can not|won't|will not|am unable to|'m unable to|am not able to"
    r"|'m not able to) (?:help|assist)(?: you)? with (?:that|this)\b"
    r"|\bi(?:'m| am) sorry,? but i (?:can(?:no|')t|can not|won't|am unable to|'m unable to)"
    r" (?:help|assist|comply|fulfil|fulfill|engage|participate|continue|do that|do this)\b"
    r"|\bi (?:can(?:no|')t|can not|won't|will not) (?:comply|fulfil|fulfill"
    r"|role-?play|pretend|play (?:this|that|the) role)\b",
    re.IGNORECASE,
)
_CLOSING = re.compile(
    r"\banything else\b|\bsomething else\b|\bany other (?:questions?|concerns?|issues?)\b"
    r"|\bfurther (?:help|assistance|questions?)\b|\banything more\b",
    re.IGNORECASE,
)
_QUESTION = re.compile(r"[^.!?\n]*\?")
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_COMMON = {"the", "and", "for", "your", "you", "with", "from", "any", "what", "which", "that"}


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def _contains_words(text: str, phrase: str) -> bool:
    """Whether ``phrase`` occurs in ``text`` as whole words, case and spacing ignored."""
    needle = " ".join(_words(phrase))
    return bool(needle) and f" {needle} " in f" {' '.join(_words(text))} "


def asks_question(reply: str) -> bool:
    """Whether the agent's reply asks the user something other than a closing question."""
    return any(not _CLOSING.search(q) for q in _QUESTION.findall(reply))


def _role(message: str) -> str | None:
    text = message.strip()
    if not text:
        return "role: an empty message"
    if _tool_json(text):
        return "role: tool-call JSON instead of a user message"
    match = _ASSISTANT.search(text)
    if match:
        return f"role: speaks as the assistant ({match.group(0).strip()!r})"
    return None


def _tool_json(text: str) -> bool:
    if not text.startswith(("{", "[")):
        return False
    try:
        value = json.loads(text)
    except ValueError:
        return False
    items = value if isinstance(value, list) else [value]
    return any(
        isinstance(i, dict) and "name" in i and ({"arguments", "args", "parameters"} & set(i))
        for i in items
    )


def _leak(message: str, user: SimulatedUser, turns: Sequence[DialogueTurn]) -> str | None:
    goal = _words(user.goal)
    size = min(len(goal), LEAK_WORDS)
    if size >= MIN_GOAL_WORDS:
        said = f" {' '.join(_words(message))} "
        for start in range(len(goal) - size + 1):
            if f" {' '.join(goal[start : start + size])} " in said:
                return "leak: states its goal verbatim"
    before = " ".join(part for t in turns for part in (t.user, t.reply))
    replies = [t.reply for t in turns]
    for name, value in user.facts.items():
        if len(value.strip()) < 3 or not _contains_words(message, value):
            continue
        if _contains_words(before, value) or asked_about(name, replies):
            continue
        return f"leak: gives the private fact {name!r} before the agent asked for it"
    return None


def _stem(word: str) -> str:
    """The word without a possessive or a plural ending: "passenger's", "passengers'" and
    "passengers" are "passenger"; "addresses" is "address", "cities" is "city"."""
    word = word.removesuffix("'s").removesuffix("'")
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "xes", "zes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def asked_about(fact: str, replies: Sequence[str]) -> bool:
    """Whether any agent reply names the fact: contains a word of its name (3+ letters,
    not a common word such as "the" or "your"), a possessive or plural of it counting as
    the word ("the passenger's name" names the fact "passenger")."""
    names = {_stem(w) for w in _words(fact) if len(w) >= 3 and w not in _COMMON}
    return any(names & {_stem(w) for w in _words(reply)} for reply in replies)


def _early_stop(message: str, user: SimulatedUser, turns: Sequence[DialogueTurn]) -> str | None:
    if message.replace(STOP_TOKEN, "").strip():
        return None  # a message comes first: it is sent, the conversation ends after it
    said = " ".join(turn.user for turn in turns)
    unsaid = not any(_contains_words(said, value) for value in user.facts.values())
    if len(turns) <= 1 and user.facts and unsaid:
        return "early_stop: ends the conversation on its first move, no private fact given"
    if asks_question(turns[-1].reply):
        return "early_stop: ends the conversation while the agent asks it a question"
    return None


def simulator_error(message: str, user: SimulatedUser, turns: Sequence[DialogueTurn]) -> str | None:
    """``"KIND: why"`` when the simulated user's next message breaks the simulation.

    Args:
        message: the simulated user's next message as the model wrote it (the stop token
            included, if any).
        user: the simulated user (its goal and private facts).
        turns: the dialogue so far, the last turn with the agent's reply.

    Returns:
        ``"role: ..."``, ``"refusal: ..."``, ``"leak: ..."`` or ``"early_stop: ..."``; None
        for an ordinary message.
    """
    if STOP_TOKEN in message:
        said = message.replace(STOP_TOKEN, "").strip()
        if not said:
            return _early_stop(message, user, turns)
        message = said
    if not message.strip() or _tool_json(message.strip()):
        return _role(message)
    refusal = _REFUSAL.search(message)
    if refusal:
        return f"refusal: refuses to play the user ({refusal.group(0).strip()!r})"
    return _role(message) or _leak(message, user, turns)
