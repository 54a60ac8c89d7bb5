"""ChatOpenAI without the openai SDK's per-request type walk over messages and tools.

For every request the openai SDK walks the parameters against their TypedDict annotations
(``async_maybe_transform``) to rename aliased keys and encode dates and files. Chat messages
and tool schemas as langchain-openai builds them are plain JSON with no such fields, so the
walk returns them unchanged, yet it costs about 2 ms of CPU per call, more as the
conversation grows. :class:`LeanChatOpenAI` hands them to the SDK through ``extra_body``
(which the SDK merges into the body as it is) and leaves empty placeholders in their place,
so the request body is byte for byte the same, key order included.
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import LanguageModelInput
from langchain_openai import ChatOpenAI

PASSED_AS_IS = ("messages", "tools")
"""Parameters sent without the SDK's transform (always plain JSON from langchain-openai)."""


def lean_payload(payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` with its messages and tools moved to ``extra_body``, leaving ``[]`` in their
    place so the merged body keeps its key order. Existing ``extra_body`` entries win, as they
    did over the body before."""
    moved = {key: payload[key] for key in PASSED_AS_IS if key in payload}
    if not moved:
        return payload
    lean = {**payload, **{key: [] for key in moved}}
    lean["extra_body"] = {**moved, **(payload.get("extra_body") or {})}
    return lean


class LeanChatOpenAI(ChatOpenAI):
    """ChatOpenAI whose chat-completions requests skip the SDK's transform of messages and
    tools (see the module docstring); structured output, streaming and the Responses API are
    left exactly as ChatOpenAI sends them."""

    def _get_request_payload(
        self, input_: LanguageModelInput, *, stop: list[str] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        payload: dict[str, Any] = super()._get_request_payload(input_, stop=stop, **kwargs)
        if (
            "messages" not in payload
            or "response_format" in payload
            or payload.get("stream")
            or self._use_responses_api(payload)
        ):
            return payload
        return lean_payload(payload)
