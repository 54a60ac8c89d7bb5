"""Whether a model reply is usable, and which failed calls were a malformed HTTP-200 reply.

An OpenAI-compatible endpoint can answer 200 with a body that is not a reply: bad JSON, a
truncated body, no ``choices``, an empty assistant message, or no log-probabilities although
they were asked for. Such replies are retried like transient errors and never cached.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatResult


class MalformedReplyError(Exception):
    """The endpoint answered, but not with a usable reply (retried, never cached)."""


_MALFORMED_NAMES = {"APIResponseValidationError"}
_MALFORMED_TEXT = ("Unexpected response type",)


def is_malformed_reply(exc: BaseException) -> bool:
    """A malformed reply anywhere in the exception's chain: bad JSON, a body that is not a
    completion, or a reply :func:`check_reply` rejected."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, MalformedReplyError | json.JSONDecodeError):
            return True
        if type(current).__name__ in _MALFORMED_NAMES:
            return True
        if isinstance(current, ValueError) and str(current).startswith(_MALFORMED_TEXT):
            return True
        current = current.__cause__ or current.__context__
    return False


def has_logprobs(message: BaseMessage) -> bool:
    """True when the reply carries OpenAI-style token log-probabilities."""
    value = (message.response_metadata or {}).get("logprobs")
    if isinstance(value, dict):
        return bool(value.get("content"))
    return bool(value)


def is_empty(message: BaseMessage) -> bool:
    """An assistant message with neither text nor tool calls nor log-probabilities."""
    if isinstance(message, AIMessage) and (message.tool_calls or message.invalid_tool_calls):
        return False
    content = message.content
    text = content if isinstance(content, str) else json.dumps(content) if content else ""
    return not text.strip() and not has_logprobs(message)


def check_reply(message: BaseMessage, *, logprobs_requested: bool) -> None:
    """Raise MalformedReplyError unless ``message`` is a usable reply."""
    if not isinstance(message, AIMessage):
        raise MalformedReplyError(f"the reply is a {type(message).__name__}, not an AI message")
    if logprobs_requested and not has_logprobs(message):
        raise MalformedReplyError("the reply has no log-probabilities although they were requested")
    if is_empty(message):
        raise MalformedReplyError("the reply is an empty assistant message with no tool calls")


def reply_message(result: ChatResult) -> BaseMessage:
    """The first generation's message, with generation info merged into its metadata (what
    BaseChatModel.invoke does); MalformedReplyError when there is no generation."""
    if not result.generations:
        raise MalformedReplyError("the reply has no choices")
    generation = result.generations[0]
    message = generation.message
    if generation.generation_info:
        meta: dict[str, Any] = {**generation.generation_info, **message.response_metadata}
        message = message.model_copy(update={"response_metadata": meta})
    return message
