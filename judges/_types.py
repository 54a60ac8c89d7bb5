"""Judge types: the judge's spec (stored with every verdict), a pair to judge, a verdict."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from arena.golden._models import JudgeSettings
from arena.models._config import ModelConfig
from arena.vocabulary import LABELS, Label

__all__ = [
    "COMBINATIONS",
    "DEFAULT_TIE_MARGIN",
    "LABELS",
    "Combination",
    "Exchange",
    "JudgeSettings",
    "JudgeSpec",
    "Label",
    "PairRequest",
    "Seat",
    "SelectiveSettings",
    "Verdict",
    "json_safe",
]

#: How the two orders' probabilities combine (see :mod:`judges._orders`).
Combination = Literal["logit", "average"]
COMBINATIONS: tuple[Combination, ...] = ("average", "logit")
#: The tie margin of a probability judge that has too few verdicts to calibrate one.
DEFAULT_TIE_MARGIN = 0.02


class SelectiveSettings(BaseModel):
    """Selective verdicts: the judge abstains below a threshold calibrated on labelled pairs so
    that, among the verdicts it gives, agreement with people (non-tied labels) is at least
    ``target`` with probability at least ``1 - error`` (see docs/judges.md, "Selective
    verdicts"). It changes no verdict, so it is in neither the judge's key nor its cache
    identity."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    target: float = Field(
        0.8, gt=0.5, lt=1, description="Agreement with people the given verdicts must reach."
    )
    error: float = Field(
        0.1, gt=0, lt=0.5, description="Chance the guarantee may fail (over the calibration set)."
    )
    escalate_to: tuple[str, ...] = Field(
        (),
        description="Judges a pair goes to, in order, when the judges before abstained on it "
        "(each as --judge takes it: SPEC[/MODE] or a judge YAML path), before people: a "
        "cascade whose guarantee covers every verdict it gives.",
    )


class JudgeSpec(BaseModel):
    """Everything needed to rebuild a judge; stored with every verdict.

    ``mode`` names a judge mode of :data:`judges.modes.MODES` (``text``, ``logprobs``,
    ``grades``, ...): how the judge asks, reads the reply and combines the two orders.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["pairwise", "human"] = Field(
        "pairwise", description="'pairwise' (a model) or 'human' (people voting in the app)."
    )
    model: ModelConfig = Field(description="The judge's model ('human:NAME' for a person).")
    mode: str = Field(
        "text",
        description="How the judge asks and reads: a registered judge mode (text, logprobs, "
        "grades, checklist, ...).",
    )
    prompt_version: str = Field(
        "v2", description="A label for the judge's prompt version, part of the judge's key."
    )
    with_trajectory: bool = Field(
        True,
        description="show the judge each answer's tool calls when the results have them "
        "(`--no-trajectory` hides them)",
    )
    with_graph_path: bool = Field(
        False,
        exclude_if=lambda v: not v,
        description="show the judge each answer's path through its LangGraph graph (nodes, "
        "supersteps, errors, interrupts) when both results have one (`--with-graph-path`); "
        "off by default: a judge that shows paths has its own key",
    )
    tie_margin: float | None = Field(
        None,
        ge=0,
        le=0.5,
        description="logprobs/grades: |P(A better) - 0.5| below this is a tie; None: "
        "calibrated from the judge's own verdicts on the run (see arena.trust._calibration)",
    )
    combine: Combination = Field(
        "average",
        description="logprobs/grades: how the two orders' P(first better) combine: 'average' "
        "(the mean probability, the default) or 'logit' (half the difference of their "
        "log-odds, which keeps the signal under a strong position preference); text verdicts "
        "always need both orders to agree",
    )
    persona: str | None = Field(
        None,
        min_length=1,
        max_length=300,
        exclude_if=lambda v: v is None,
        description="What the judged agent is, in the judge's system prompt (wins over the "
        "dataset's judge.persona; default: 'an AI assistant')",
    )
    rubric: str | None = Field(
        None,
        min_length=1,
        max_length=1000,
        exclude_if=lambda v: v is None,
        description="What makes an answer better, in the judge's system prompt (wins over the "
        "dataset's judge.rubric)",
    )

    selective: SelectiveSettings | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="Abstain below a calibrated confidence threshold (target agreement with "
        "people, error level); None: every verdict is given",
    )

    @field_validator("mode")
    @classmethod
    def _known_mode(cls, value: str) -> str:
        from judges.modes._registry import JUDGE_MODES

        if value not in JUDGE_MODES:
            known = ", ".join(JUDGE_MODES.names())
            raise ValueError(f"judge mode must be one of {known}, got {value!r}")
        return value

    @model_validator(mode="after")
    def _human_is_a_person(self) -> JudgeSpec:
        from arena.models.providers._registry import PROVIDERS

        person = bool(getattr(PROVIDERS.lookup(self.model.provider), "person", False))
        if (self.kind == "human") != person:
            raise ValueError(
                "a human judge is kind 'human' with the spec of a person ('human:NAME')"
            )
        return self

    @property
    def key(self) -> str:
        """Short display id of the judge, stored with its battles (API keys never enter it).

        It hashes the spec only; the verdict cache uses :func:`judges.judge_identity`, which
        also covers its mode's prompt templates and the model's cache identity.
        """
        blob = json.dumps(self.model_dump(mode="json", exclude={"selective"}), sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:12]

    @property
    def label(self) -> str:
        """Human-readable name, e.g. ``local:qwen2.5-coder-1.5b/logprobs`` (``/logit`` is
        added for the log-odds combination, ``/graph-path`` for a judge that shows graph
        paths), or ``human:NAME`` for a person."""
        if self.is_human:
            return self.model.spec
        tail = "/logit" if self.combine == "logit" and self.mode != "text" else ""
        tail += "/graph-path" if self.with_graph_path else ""
        return f"{self.model.spec}/{self.mode}{tail}"

    @property
    def is_human(self) -> bool:
        """A person voting in the app (``human:NAME``), not a model."""
        return self.kind == "human"

    def settings(self, dataset: JudgeSettings | None = None) -> JudgeSettings:
        """The persona and rubric this judge uses on a dataset: the spec's own, else the
        dataset's ``judge:`` block, else None (the prompts' defaults)."""
        found = dataset or JudgeSettings()
        return JudgeSettings(
            persona=self.persona or found.persona, rubric=self.rubric or found.rubric
        )


def json_safe(value: dict[str, Any]) -> dict[str, Any]:
    """``value`` unchanged if it survives a JSON round trip unchanged (a judge mode's inputs
    and details are stored as JSON); ValueError otherwise."""
    try:
        same = json.loads(json.dumps(value)) == value
    except (TypeError, ValueError) as exc:
        raise ValueError(f"must be JSON-safe: {exc}") from None
    if not same:
        raise ValueError("must be JSON-safe (string keys; lists, not tuples)")
    return value


class Exchange(BaseModel):
    """One turn of a judged conversation: the user's message and the agent's reply, whether
    a simulated user wrote the message, and the turn's tool calls as the judge sees them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    user: str
    reply: str
    simulated: bool = Field(
        False,
        exclude_if=lambda v: not v,
        description="A user model wrote the message (agent-influenced text, checked for "
        "injections); False: the case's own text, written by the team",
    )
    calls: str = Field(
        "",
        exclude_if=lambda v: not v,
        description="The turn's tool calls as shown to the judge (empty: none, or not shown)",
    )


class PairRequest(BaseModel):
    """One ordered pair to judge: the query, the golden expectations, answer A, answer B.

    ``mode_inputs`` holds what the judge's mode prepared from the golden case
    (:meth:`judges.modes._base.JudgeMode.prepare`, e.g. the checklist mode's YES/NO items);
    other modes ignore it.

    A conversation pair (:attr:`is_conversation`) shows each side's transcript as its
    answer, and keeps each side's turns in ``turns_a`` / ``turns_b`` for the checks that read
    the agent's replies alone (:mod:`judges._injection`).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    case_id: str
    query: str
    reference: str | None = None
    expectations: str | None = None
    answer_a: str
    answer_b: str
    trajectory_a: str | None = None
    trajectory_b: str | None = None
    path_a: str | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="Answer A's path through its graph as the judge reads it "
        "(judges._graph_prompts.path_text; None: not shown)",
    )
    path_b: str | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="Answer B's path through its graph (None: not shown)",
    )
    actions_a: str | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="What answer A's agent did (tool calls, records changed) as the judge "
        "reads it (judges._action_prompts.actions_text; None: not shown)",
    )
    actions_b: str | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="What answer B's agent did (None: not shown)",
    )
    mode_inputs: dict[str, Any] = Field(
        default_factory=dict,
        description="what the judge's mode prepared from the golden case (JSON-safe)",
    )
    persona: str | None = None
    rubric: str | None = None
    turns_a: list[Exchange] | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="A conversation's turns on side A (None: a one-message answer)",
    )
    query_untrusted: bool = Field(
        False,
        exclude_if=lambda v: not v,
        description="The query is someone else's text, not the team's (a production "
        "trace, an answer file): an answer repeating it earns no exemption from the "
        "injection detector (judges._injection)",
    )
    turns_b: list[Exchange] | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="A conversation's turns on side B (None: a one-message answer)",
    )

    @property
    def is_conversation(self) -> bool:
        """True when the answers are transcripts of whole conversations."""
        return self.turns_a is not None

    @field_validator("mode_inputs")
    @classmethod
    def _json_inputs(cls, value: dict[str, Any]) -> dict[str, Any]:
        return json_safe(value)


#: An answer's seat in one order (``A`` shown first).
Seat = Literal["A", "B"]


class Verdict(BaseModel):
    """One judgement of one order. ``p_first`` is P(first-shown answer is better) if known."""

    model_config = ConfigDict(extra="forbid")

    label: Label | None = None
    rationale: str = ""
    p_first: float | None = None
    error: str | None = None
    raw: str = ""
    judge: JudgeSpec
    model_calls: int = 0
    details: dict[str, Any] = Field(
        default_factory=dict,
        exclude_if=lambda v: not v,
        description="What the judge's mode read besides the label, in its own JSON-safe "
        "shape (e.g. the checklist mode's item grades); its mode renders it "
        "(JudgeMode.details_lines, JudgeMode.details_rows)",
    )
    suspected_injection: dict[Seat, list[str]] = Field(
        default_factory=dict,
        exclude_if=lambda v: not v,
        description="Seat -> why its answer seems to address the judge instead of the user "
        "(judges._injection); such an answer never wins its battle",
    )

    @field_validator("details")
    @classmethod
    def _json_details(cls, value: dict[str, Any]) -> dict[str, Any]:
        return json_safe(value)

    @property
    def ok(self) -> bool:
        """True when the verdict was read (no error)."""
        return self.error is None and self.label is not None
