"""Read a small model's bare-JSON reply as tool calls (no LangChain client needed)."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from langchain_core.messages.tool import ToolCall

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
