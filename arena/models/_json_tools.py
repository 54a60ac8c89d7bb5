"""Tool calls for small local models that answer with a bare JSON object.

The embedded Qwen coder models do not emit ``<tool_call>`` tags; our chat template asks them
to reply with ``{"name": ..., "arguments": ...}`` instead, and this module turns such a reply
into a real LangChain tool call. It is a thin layer over ChatOpenAI, so everything else (usage,
logprobs, errors) is exactly what an OpenAI-compatible endpoint returns.
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.messages.tool import ToolCall
from langchain_core.outputs import ChatGeneration, ChatResult

from arena.models._json_calls import parse_json_tool_calls
from arena.models._lean_openai import LeanChatOpenAI


class JsonToolChatOpenAI(LeanChatOpenAI):
    """ChatOpenAI that also reads JSON-object replies as tool calls when tools are bound."""

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        result = super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)
        return _with_tool_calls(result, len(messages)) if kwargs.get("tools") else result

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        result = await super()._agenerate(messages, stop=stop, run_manager=run_manager, **kwargs)
        return _with_tool_calls(result, len(messages)) if kwargs.get("tools") else result


def _with_tool_calls(result: ChatResult, turn: int) -> ChatResult:
    generations: list[ChatGeneration] = []
    for generation in result.generations:
        message = generation.message
        calls: list[ToolCall] = []
        if (
            isinstance(message, AIMessage)
            and not message.tool_calls
            and isinstance(message.content, str)
        ):
            calls = parse_json_tool_calls(message.content, salt=str(turn))
        if calls:
            message = message.model_copy(
                update={"content": "", "tool_calls": calls, "invalid_tool_calls": []}
            )
            generation = ChatGeneration(message=message, generation_info=generation.generation_info)
        generations.append(generation)
    return ChatResult(generations=generations, llm_output=result.llm_output)
