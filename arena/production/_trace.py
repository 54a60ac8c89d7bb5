"""A production trace: one query a user really asked, and what production answered."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

#: A trace id that is already a safe case id is used as one; any other is hashed.
_SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


class ToolUse(BaseModel):
    """One tool call production made: its name, arguments, result and error, if any."""

    model_config = ConfigDict(extra="ignore")

    name: str = Field(min_length=1)
    arguments: dict[str, Any] = Field(default_factory=dict)
    result: Any = None
    error: str | None = None


class Message(BaseModel):
    """One chat message of a trace (``role``: user, assistant, system or tool)."""

    model_config = ConfigDict(extra="ignore")

    role: str = Field(min_length=1)
    content: str


class ProductionTrace(BaseModel):
    """One production trace (a JSONL line of ``arena shadow --traces``).

    ``query`` is what the user asked; without it, the last user message of ``messages``.
    ``answer`` is what production answered: the contestant the candidate is judged against.
    """

    model_config = ConfigDict(extra="forbid")

    trace_id: str = Field(min_length=1, max_length=512)
    query: str = Field(
        min_length=1,
        description="The user's query (default: the last user message of ``messages``).",
    )
    messages: list[Message] = Field(default_factory=list)
    answer: str = Field(description="What production answered.")
    tools: list[ToolUse] = Field(default_factory=list)
    latency_s: float | None = Field(None, ge=0)
    input_tokens: int | None = Field(None, ge=0)
    output_tokens: int | None = Field(None, ge=0)
    total_tokens: int | None = Field(None, ge=0)
    cost: float | None = Field(None, ge=0, description="What the trace cost, in dollars.")
    timestamp: datetime | None = None
    error: str | None = Field(None, description="The error production raised, if any.")
    metadata: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _query_from_messages(cls, data: Any) -> Any:
        if isinstance(data, dict) and not data.get("query"):
            messages = data.get("messages")
            users = [
                m.get("content")
                for m in (messages if isinstance(messages, list) else [])
                if isinstance(m, dict) and m.get("role") in ("user", "human")
            ]
            if users and isinstance(users[-1], str) and users[-1].strip():
                data = {**data, "query": users[-1]}
        return data

    @property
    def case_id(self) -> str:
        """The golden case id this trace becomes: its trace id when that is a safe id,
        else ``trace-`` and a hash of it."""
        if _SAFE_ID.fullmatch(self.trace_id) and ".." not in self.trace_id:  # "t1\n" is hashed
            return self.trace_id
        return "trace-" + hashlib.sha256(self.trace_id.encode()).hexdigest()[:16]

    def stratum(self, field: str) -> str:
        """The value of metadata ``field`` (dotted for nested keys) as text, ``""`` if unset."""
        value: Any = self.metadata
        for part in field.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        return "" if value is None else str(value)
