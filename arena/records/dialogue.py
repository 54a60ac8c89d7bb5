"""A conversation run's dialogue: each user turn, the agent's reply and its tool calls."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from arena.secrets import redact_optional

#: How a dialogue ended: the script ran out, the simulated user ended it, the turn limit was
#: reached, a scripted turn's ``when`` failed with no ``otherwise``, the agent failed (see the
#: result's error), or the simulated user failed (see ``simulator_error``).
EndedBy = Literal["script", "user", "max_turns", "condition", "agent_error", "simulator_error"]

#: The kinds of simulator error, the first word of ``Dialogue.simulator_error``.
SIMULATOR_ERROR_KINDS: tuple[str, ...] = ("role", "leak", "early_stop", "refusal", "failed")


class DialogueTurn(BaseModel):
    """One user turn and the agent's reply to it."""

    model_config = ConfigDict(extra="forbid")

    index: int = Field(ge=1, description="1-based; turn 1 is the case's input.")
    user: str = Field(description="What the user said.")
    reply: str = Field("", description="The agent's reply (empty if it failed).")
    steps: list[int] = Field(
        default_factory=list,
        description="Indexes into the result's steps: the tool calls made in this turn.",
    )
    model_calls: int = Field(0, description="The agent's model calls in this turn.")
    latency_s: float = Field(0.0, description="Seconds the agent took on this turn.")


class Dialogue(BaseModel):
    """The whole conversation of one run, stored beside its result."""

    model_config = ConfigDict(extra="forbid")

    turns: list[DialogueTurn] = Field(default_factory=list)
    ended_by: EndedBy = Field(description="Why the conversation ended.")
    user_model: str | None = Field(
        None, description="The model spec that played the user (None: a scripted user)."
    )
    simulator_calls: int = Field(0, description="Model calls of the simulated user.")
    simulator_fresh_calls: int = Field(
        0, description="Of those, the calls actually sent (not cached)."
    )
    simulator_error: str | None = Field(
        None,
        description="'KIND: why' when the simulated user failed (KIND one of "
        "SIMULATOR_ERROR_KINDS); the run then counts as a simulator error, not an agent "
        "failure.",
    )

    _no_secrets = field_validator("simulator_error")(redact_optional)

    @property
    def simulator_error_kind(self) -> str | None:
        """The simulator error's kind (role, leak, early_stop, refusal, failed), if any."""
        if self.simulator_error is None:
            return None
        return self.simulator_error.split(":", 1)[0].strip()
