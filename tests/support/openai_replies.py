"""OpenAI chat-completion bodies, shared by the test fault server and the benchmark server.

One home for what an agent request is answered with: the first tool call (``calculate`` when
offered, else the first tool with the question as its query), the assistant choice and the
``chat.completion`` envelope with its usage counts. tests/support/fault_server.py and
benchmarks/chat_server.py both build their replies from these, so they answer alike.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any


def digest(text: str) -> str:
    """A short stable hash of ``text`` (8 hex digits)."""
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def text_of(content: Any) -> str:
    """A message's content as text (a list of parts is joined; None is empty)."""
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) if isinstance(p, dict) else str(p) for p in content)
    return "" if content is None else str(content)


def tool_names(request: dict[str, Any]) -> list[str]:
    """The names of the tools a request offers."""
    return [t.get("function", {}).get("name") for t in request.get("tools") or []]


def has_tool_result(messages: Sequence[Any]) -> bool:
    """Whether the conversation already holds a tool result."""
    return any(isinstance(m, dict) and m.get("role") == "tool" for m in messages)


def first_tool_call(tools: Sequence[str], last_user: str) -> dict[str, Any]:
    """``calculate(6 * 7)`` when offered, else the first tool with the question as its query."""
    name, args = (
        ("calculate", {"expression": "6 * 7"})
        if "calculate" in tools
        else (tools[0], {"query": last_user[:60]})
    )
    return {
        "id": f"call_{digest(last_user)}",
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(args)},
    }


def assistant_choice(content: str, tool_call: dict[str, Any] | None) -> dict[str, Any]:
    """The first (only) choice: the tool call when there is one, else ``content``."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_call is not None:
        message = {"role": "assistant", "content": None, "tool_calls": [tool_call]}
    return {
        "index": 0,
        "message": message,
        "finish_reason": "tool_calls" if tool_call else "stop",
    }


def chat_completion(
    completion_id: str, model: str, choices: list[dict[str, Any]], prompt_texts: Sequence[str]
) -> dict[str, Any]:
    """The ``chat.completion`` body; prompt tokens are the prompt's characters / 4, plus one."""
    prompt_tokens = sum(len(t) for t in prompt_texts) // 4 + 1
    return {
        "id": completion_id,
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": choices,
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": 8,
            "total_tokens": prompt_tokens + 8,
        },
    }
