"""Tool calls for small local models that answer with a bare JSON object.

The embedded Qwen coder models do not emit ``<tool_call>`` tags; our chat template asks them
to reply with ``{"name": ..., "arguments": ...}`` instead, and this module turns such a reply
into a real LangChain tool call. It is a thin layer over ChatOpenAI, so everything else (usage,
logprobs, errors) is exactly what an OpenAI-compatible endpoint returns.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.messages.tool import ToolCall
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_openai import ChatOpenAI

_FENCE = re.compile(r"^```[a-zA-Z]*\s*(.*?)\s*```$", re.DOTALL)


def parse_json_tool_calls(content: str, salt: str = "") -> list[ToolCall]:
    """Tool calls written as a bare (or fenced) JSON object or list; [] for anything else.

    Only a reply that *is* a JSON call counts: prose that mentions JSON is an answer.
    Call ids are derived from the call and ``salt`` so reruns produce the same ids.
    """
    text = content.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    if not text.startswith(("{", "[")):
        return []
    try:
        value, _ = json.JSONDecoder().raw_decode(text)
    except json.JSONDecodeError:
        return []
    items = value if isinstance(value, list) else [value]
    calls: list[ToolCall] = []
    for index, item in enumerate(items):
        call = _to_call(item, f"{salt}:{index}")
        if call is None:
            return []
        calls.append(call)
    return calls


def _to_call(item: Any, index: str) -> ToolCall | None:
    if not isinstance(item, dict) or not isinstance(item.get("name"), str):
        return None
    args = item.get("arguments", item.get("parameters", {}))
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except json.JSONDecodeError:
            return None
    if not isinstance(args, dict):
        return None
    blob = json.dumps([item["name"], args, index], sort_keys=True)
    call_id = "call_" + hashlib.sha256(blob.encode()).hexdigest()[:16]
    return ToolCall(name=item["name"], args=args, id=call_id, type="tool_call")


class JsonToolChatOpenAI(ChatOpenAI):
    """ChatOpenAI that also reads JSON-object replies as tool calls when tools are bound."""

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None,
                  **kwargs: Any) -> ChatResult:
        result = super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)
        return _with_tool_calls(result, len(messages)) if kwargs.get("tools") else result

    async def _agenerate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                         run_manager: AsyncCallbackManagerForLLMRun | None = None,
                         **kwargs: Any) -> ChatResult:
        result = await super()._agenerate(messages, stop=stop, run_manager=run_manager, **kwargs)
        return _with_tool_calls(result, len(messages)) if kwargs.get("tools") else result


def _with_tool_calls(result: ChatResult, turn: int) -> ChatResult:
    generations: list[ChatGeneration] = []
    for generation in result.generations:
        message = generation.message
        calls: list[ToolCall] = []
        if (isinstance(message, AIMessage) and not message.tool_calls
                and isinstance(message.content, str)):
            calls = parse_json_tool_calls(message.content, salt=str(turn))
        if calls:
            message = message.model_copy(
                update={"content": "", "tool_calls": calls, "invalid_tool_calls": []})
            generation = ChatGeneration(message=message,
                                        generation_info=generation.generation_info)
        generations.append(generation)
    return ChatResult(generations=generations, llm_output=result.llm_output)
