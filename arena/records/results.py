"""Records the runner stores and the scorers, judges and app read."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from arena.records.dialogue import Dialogue
from arena.records.end_state import StateDiff
from arena.records.graph_path import NodePath
from arena.records.graph_state import GraphStates
from arena.secrets import redact_optional


def utcnow() -> datetime:
    """Timezone-aware now, for record timestamps."""
    return datetime.now(UTC)


def known_total(costs: Iterable[float | None]) -> float | None:
    """The sum of ``costs``, or None when one of them is unknown: a sum that left an unknown
    cost out would under-count, and say so nowhere."""
    total = 0.0
    for cost in costs:
        if cost is None:
            return None
        total += cost
    return total


def known_mean(costs: Sequence[float | None]) -> float | None:
    """The mean of ``costs`` (0 without any), or None when one of them is unknown."""
    total = known_total(costs)
    return None if total is None else (total / len(costs) if costs else 0.0)


UNAVAILABLE_TOOL = "unavailable tool: "
"""How the error of a call to a tool the variant lacks begins (see TrajectoryStep.unavailable)."""


class TrajectoryStep(BaseModel):
    """One tool call of an agent run, in the order it started."""

    model_config = ConfigDict(extra="forbid")

    index: int
    agent: str = Field("agent", description="Sub-agent that made the call ('agent' for react).")
    tool: str
    args: dict[str, Any] = Field(default_factory=dict)
    observation: str = ""
    error: str | None = None

    _no_secrets = field_validator("error")(redact_optional)

    @property
    def unavailable(self) -> bool:
        """True for a call to a tool the variant does not have (the runner marks it in
        ``error``): it never counts as a call of the expected tools. Results stored before
        that mark are read by their error texts: arena's former one, and ``ToolNode``'s."""
        error = self.error or ""
        return (
            error.startswith((UNAVAILABLE_TOOL, f"Error: {self.tool} is not a valid tool"))
            or error == f"{self.tool} is not an available tool"
        )


class RunResult(BaseModel):
    """One answer of one variant to one golden case (one repeat), with its trajectory."""

    model_config = ConfigDict(extra="forbid")

    id: int | None = None
    run_id: int | None = None
    variant: str
    variant_hash: str
    case_id: str
    case_hash: str
    repeat: int = 0
    output: str = ""
    steps: list[TrajectoryStep] = Field(default_factory=list)
    model_calls: int = Field(0, description="Model invocations made by the agent (cached or not).")
    fresh_model_calls: int = Field(0, description="Model invocations actually sent (not cached).")
    latency_s: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = Field(
        0.0,
        description="US dollars; None when not known (a model without a price), never 0.",
    )
    error: str | None = None
    files: dict[str, str] = Field(
        default_factory=dict, description="Files the run left in its sandbox (path -> text)."
    )
    dialogue: Dialogue | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="A conversation case's turns (None for a one-message case); ``output`` "
        "is then the agent's last reply.",
    )
    nodes: NodePath | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="The path through a LangGraph agent's graph (None for a plain Runnable).",
    )
    states: GraphStates | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="A failed LangGraph run's state after each superstep (None otherwise).",
    )
    end_state: StateDiff | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="What the run changed in the state its agent exposes (ctx.expose_state); "
        "None when the agent exposes none.",
    )
    replies: list[str] = Field(
        default_factory=list,
        exclude_if=lambda v: not v,
        description="The text of every assistant message of the run, in order: intermediate "
        "ones (before a tool call) and every reply of a dialogue included (empty when the "
        "only one is ``output``).",
    )
    side_effecting: list[str] = Field(
        default_factory=list,
        exclude_if=lambda v: not v,
        description="The tools the agent declared side-effecting (the factory's "
        "``side_effecting`` or a tool's ``metadata``): a call of one the case does not expect "
        "is a hard fail.",
    )
    created_at: datetime = Field(default_factory=utcnow)

    _no_secrets = field_validator("error")(redact_optional)

    @property
    def simulator_error(self) -> str | None:
        """Why the simulated user failed (then the run is neither a pass nor an agent
        failure), else None."""
        return self.dialogue.simulator_error if self.dialogue is not None else None

    @property
    def tool_names(self) -> list[str]:
        """Tool names in call order."""
        return [step.tool for step in self.steps]

    @property
    def ok(self) -> bool:
        """True when the run finished without an error."""
        return self.error is None

    @property
    def error_headline(self) -> str | None:
        """The error's first paragraph: without the traceback a failure of your own agent
        keeps for ``arena show``."""
        return None if self.error is None else self.error.split("\n\n", 1)[0]


class RunInfo(BaseModel):
    """A stored run: which dataset and variants, when, and how many results."""

    model_config = ConfigDict(extra="forbid")

    id: int
    key: str
    dataset: str
    dataset_version: str
    config: dict[str, Any]
    status: str
    created_at: datetime
    finished_at: datetime | None = None
    results: int = 0
    errors: int = 0

    @property
    def is_shadow(self) -> bool:
        """True for an ``arena shadow`` run: production traces (its config has a ``shadow``
        block), not a golden dataset, so it is never "the latest run" of a golden command."""
        return isinstance(self.config.get("shadow"), dict)

    @property
    def is_mutant(self) -> bool:
        """True for a batch of one of ``arena mutate``'s mutants (its config has a
        ``mutation`` block: the mutated variant and the mutant's id)."""
        return isinstance(self.config.get("mutation"), dict)
