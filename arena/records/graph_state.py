"""A LangGraph run's state after each superstep, kept for a failed case ("time travel").

When the agent's graph has (or accepts) a checkpointer, the runner reads the thread's
checkpoints after the run (``get_state_history``: no extra model call) and, for a case that
failed, keeps one :class:`StateStep` per superstep of the top-level graph: the nodes that
wrote in it, every state key, and each value as text cut to :data:`VALUE_LIMIT` characters
with secrets redacted. At most :data:`STEP_LIMIT` steps are kept (the last ones: where a run
went wrong is usually near its end). :func:`state_diff` gives what one step changed.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from arena.secrets import redact

VALUE_LIMIT = 300
"""The most characters of one state value kept (after redaction)."""
STEP_LIMIT = 50
"""The most supersteps kept per result."""
KEY_LIMIT = 40
"""The most state keys kept per step (every key is still listed in ``keys``)."""


def value_text(value: Any, limit: int = VALUE_LIMIT) -> str:
    """A state value as stored: its text, secrets redacted, then cut to ``limit`` characters
    (``...`` marks a cut); a message list as ``type: content`` lines, keeping its end (the
    newest messages)."""
    if _messages(value):
        text = redact("\n".join(_message_text(m) for m in value))
        return text if len(text) <= limit else "..." + text[3 - limit :]
    text = redact(str(value))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _messages(value: Any) -> bool:
    return (
        isinstance(value, list | tuple) and bool(value) and all(hasattr(v, "type") for v in value)
    )


def _message_text(message: Any) -> str:
    calls = getattr(message, "tool_calls", None) or []
    names = ", ".join(str(c.get("name", "")) for c in calls if isinstance(c, dict))
    text = f"{message.type}: {getattr(message, 'content', '')}"
    return f"{text} [calls {names}]" if names else text


class StateStep(BaseModel):
    """The graph's state after one superstep of the top-level graph."""

    model_config = ConfigDict(extra="forbid")

    step: int = Field(description="LangGraph's superstep number (-1: the input, 0: after it).")
    nodes: list[str] = Field(
        default_factory=list, description="The nodes whose writes made this state."
    )
    keys: list[str] = Field(default_factory=list, description="Every key of the state.")
    values: dict[str, str] = Field(
        default_factory=dict, description="Each key's value as text, redacted and cut."
    )

    @field_validator("values", mode="before")
    @classmethod
    def _as_texts(cls, values: dict[str, Any]) -> dict[str, str]:
        return {str(key): value_text(value) for key, value in values.items()}


class GraphStates(BaseModel):
    """The state after each superstep of a failed LangGraph run, oldest first."""

    model_config = ConfigDict(extra="forbid")

    steps: list[StateStep] = Field(default_factory=list)
    dropped: int = Field(0, ge=0, description="Earlier supersteps left out (over STEP_LIMIT).")

    def at(self, step: int) -> StateStep | None:
        """The state after superstep ``step``, or None when it was not kept."""
        return next((s for s in self.steps if s.step == step), None)

    def before(self, step: StateStep) -> StateStep | None:
        """The kept state just before ``step`` (None for the first)."""
        index = self.steps.index(step)
        return self.steps[index - 1] if index else None


def state_diff(before: StateStep | None, after: StateStep) -> dict[str, tuple[str, str]]:
    """What a superstep changed: per key added, removed or changed, its old and new text
    (``""`` for a side that lacks the key)."""
    old = before.values if before is not None else {}
    keys = list(dict.fromkeys([*old, *after.values]))
    return {
        key: (old.get(key, ""), after.values.get(key, ""))
        for key in keys
        if old.get(key) != after.values.get(key)
    }
