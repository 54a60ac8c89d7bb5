"""ChatOpenAI without the openai SDK's per-request type walk over messages and tools.

For every request the openai SDK walks the parameters against their TypedDict annotations
(``async_maybe_transform``) to rename aliased keys and encode dates and files. Chat messages
and tool schemas as langchain-openai builds them are plain JSON with no such fields, so the
walk returns them unchanged, yet it costs about 2 ms of CPU per call, more as the
conversation grows. :class:`LeanChatOpenAI` hands them to the SDK through ``extra_body``
(which the SDK merges into the body as it is) and leaves empty placeholders in their place,
so the request body is byte for byte the same, key order included.

ChatOpenAI also builds its result from the parsed reply on a worker thread (a hop to the
default executor and back for every call); for plain chat completions :class:`LeanChatOpenAI`
builds it on the event loop instead, with the same code, errors and metadata.
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun
from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
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

    def _plain(self, payload: dict[str, Any]) -> bool:
        """A plain chat-completions request (no structured output, streaming or Responses)."""
        return (
            "messages" in payload
            and "response_format" not in payload
            and not payload.get("stream")
            and not self._use_responses_api(payload)
        )

    def _get_request_payload(
        self, input_: LanguageModelInput, *, stop: list[str] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        payload: dict[str, Any] = super()._get_request_payload(input_, stop=stop, **kwargs)
        return lean_payload(payload) if self._plain(payload) else payload

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        """ChatOpenAI's own ``_agenerate`` for plain chat completions, except that the result
        is built inline rather than on a worker thread; every other request is ChatOpenAI's."""
        payload = self._get_request_payload(messages, stop=stop, **kwargs)
        helpers = _chat_helpers()
        if helpers is None or not self._plain(payload):
            return await super()._agenerate(messages, stop=stop, run_manager=run_manager, **kwargs)
        bad_request, api_error, gateway_metadata = helpers
        import openai

        generation_info: dict[str, Any] = {}
        raw_response = None
        try:
            raw_response = await self.async_client.with_raw_response.create(**payload)
            response = raw_response.parse()
        except openai.BadRequestError as e:
            bad_request(e)
            raise  # the helper always raises; this keeps the type checker informed
        except openai.APIError as e:
            api_error(e)
            raise
        except Exception as e:
            if raw_response is not None and hasattr(raw_response, "http_response"):
                e.response = raw_response.http_response  # type: ignore[attr-defined]
            raise e
        if self.include_response_headers and hasattr(raw_response, "headers"):
            generation_info = {"headers": dict(raw_response.headers)}
        gateway_metadata(generation_info, raw_response)
        return self._create_chat_result(response, generation_info)


def _chat_helpers() -> tuple[Any, Any, Any] | None:
    """langchain-openai's error and metadata helpers of ``_agenerate``, or None when this
    version has other ones (then ChatOpenAI's own ``_agenerate`` runs)."""
    try:
        from langchain_openai.chat_models.base import (
            _add_gateway_metadata,
            _handle_openai_api_error,
            _handle_openai_bad_request,
        )
    except ImportError:
        return None
    return _handle_openai_bad_request, _handle_openai_api_error, _add_gateway_metadata
