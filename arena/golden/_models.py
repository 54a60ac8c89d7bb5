"""Golden dataset records: one case per query with its expectations."""

from __future__ import annotations

import re
from datetime import date
from enum import StrEnum
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from arena.defaults import Tier as Tier  # re-exported: declared in arena.defaults
from arena.errors import NotFound
from arena.golden._calls import (
    ALLOW_EXTRA_CALLS,
    CALLS_MATCH,
    EXPECTED_CALLS,
    CallsMatch,
    ExpectedCall,
    OutputItem,
)
from arena.golden._check_fields import check_field_types
from arena.golden._conversation import ContainsItem as ContainsItem
from arena.golden._conversation import Conversation, Text
from arena.golden._graph_trajectory import EXPECTED_GRAPH_TRAJECTORY, GraphTrajectoryRef
from arena.golden._matcher_syntax import check_expected
from arena.golden._route import (
    EXPECTED_ROUTE,
    FORBIDDEN_NODES,
    MAX_SUPERSTEPS,
    ROUTE_MATCH,
    NodeName,
    RouteMatch,
    route_match_needs_route,
    route_not_empty,
    route_not_forbidden,
)
from arena.golden._state import (
    EXPECTED_STATE,
    STATE_MAY_CHANGE,
    RecordPath,
    StateGlob,
)
from arena.inputs.linear_regex import check_pattern
from arena.inputs.validation import StrictInt, StrictNumber


class Category(StrEnum):
    """The five default golden case categories (a dataset may declare its own instead)."""

    HAPPY_PATH = "happy_path"
    EDGE_CASE = "edge_case"
    AMBIGUOUS = "ambiguous"
    MULTI_STEP = "multi_step"
    GRACEFUL_FAILURE = "graceful_failure"


class Behavior(StrEnum):
    """Expected non-task behaviours graded by a rubric."""

    REFUSE = "refuse"
    ASK_FOR_CLARIFICATION = "ask_for_clarification"
    GRACEFUL_RESPONSE = "graceful_response"
    ACKNOWLEDGE_UNCERTAINTY = "acknowledge_uncertainty"
    ERROR_HANDLING = "error_handling"


class Difficulty(StrEnum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


DEFAULT_CATEGORIES: tuple[str, ...] = tuple(c.value for c in Category)
CATEGORY_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,49}$"


def _unset(value: object) -> bool:
    """Optional metadata left out of dumps (and so of content hashes) while unset."""
    return value is None or value == []


def _expected_tool_names(data: dict[str, Any]) -> set[str]:
    """Every tool a case's expectations ask to be called (validated fields in ``data``)."""
    names = {*data.get("expected_tools", []), *data.get("expected_order", [])}
    names |= set(data.get("expected_args", {}))
    names |= {call.tool for call in data.get("expected_calls", [])}
    names |= {name for alternative in data.get("acceptable_tools", []) for name in alternative}
    conversation = data.get("conversation")
    if conversation is not None:
        names |= {name for expect in conversation.expect for name in expect.tools}
    return names


def _validate_check_fields(title: str, extra: dict[str, Any]) -> None:
    """Validate (in place) the fields no built-in declares: each must belong to a registered
    check; a ValidationError naming the field otherwise."""
    types = check_field_types()
    errors: list[Any] = []
    for name, value in extra.items():
        if name not in types:
            errors.append({"type": "extra_forbidden", "loc": (name,), "input": value})
            continue
        try:
            extra[name] = TypeAdapter(types[name]).validate_python(value)
        except ValidationError as exc:
            for error in exc.errors():
                errors.append({**error, "loc": (name, *error["loc"])})
    if errors:
        raise ValidationError.from_exception_data(title, errors)


# Case ids name results, sandboxes and trace runs: a safe pattern, never a path.
CASE_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"
_CASE_ID = re.compile(CASE_ID_PATTERN)


def check_case_id(value: str) -> str:
    """``value`` if it is a safe case id (CASE_ID_PATTERN, no ".."), else ValueError."""
    if not _CASE_ID.fullmatch(value) or ".." in value:
        raise ValueError(
            f"case ids must match {CASE_ID_PATTERN} and contain no '..' "
            f"(letters, digits, '.', '_', '-'), got {value[:80]!r}"
        )
    return value


class ExpectedFile(BaseModel):
    """A file a side-effect tool must leave in the run's sandbox."""

    model_config = ConfigDict(extra="forbid")

    path: str = Field(description="The file's path, relative to the sandbox.")
    contains: list[ContainsItem] = Field(
        default_factory=list,
        description="Strings the file must contain (a list item: any one of its alternatives).",
    )


class GoldenCase(BaseModel):
    """One golden query with what a correct agent run looks like.

    Besides the fields below, a case may set the fields of a registered golden check from
    outside this package (its ``extra_fields``, see :mod:`arena.scoring.checks`); any other
    key is an error. A field left unset is absent from the dump, so registering a check
    never changes the content hash of a case that does not use it.
    """

    model_config = ConfigDict(
        extra="allow", frozen=True, json_schema_extra={"additionalProperties": False}
    )

    id: Annotated[str, Field(min_length=1)] = Field(
        description="A unique id, e.g. 'HP-001' (letters, digits, '.', '_', '-')."
    )
    input: str = Field(description="The query the agent is asked.")
    category: str = Field(
        pattern=CATEGORY_PATTERN,
        description="One of the dataset's categories (default: happy_path, edge_case, "
        "ambiguous, multi_step, graceful_failure).",
    )
    tier: Tier = Field(
        Tier.STANDARD,
        description="critical (gates every change), standard (run nightly) or pending "
        "(run and shown, never counted).",
    )
    difficulty: Difficulty = Field(
        Difficulty.MEDIUM, description="easy, medium or hard; pass rates are also given by it."
    )
    expected_tools: list[str] = Field(
        default_factory=list, description="The tools a correct run calls (a multiset)."
    )
    expected_order: list[str] = Field(
        default_factory=list, description="The order those calls should come in."
    )
    expected_args: dict[str, dict[str, object]] = Field(
        default_factory=dict,
        description="Per tool, approximate arguments: strings match as case-insensitive "
        "substrings, numbers tolerantly.",
    )
    expected_output_contains: list[OutputItem] = Field(
        default_factory=list,
        description="Strings the answer must contain, case-insensitively (a list item: any "
        "one of its alternatives; a {text, in: any_reply} item: in any reply of the run); "
        "each one missing is a hard fail.",
    )
    expected_output_not_contains: list[Text] = Field(
        default_factory=list, description="Strings the answer must not contain (a hard fail)."
    )
    expected_output_regex: str | None = Field(
        None, description="A regular expression the answer must match (RE2 syntax)."
    )
    expected_output_exact: str | None = Field(None, description="The exact expected answer.")
    expected_files: list[ExpectedFile] = Field(
        default_factory=list,
        description="Files a side-effect tool must leave in the sandbox (each miss is a hard "
        "fail).",
    )
    forbidden_tools: list[str] = Field(
        default_factory=list, description="Tools a correct run never calls."
    )
    acceptable_tools: list[list[str]] = Field(
        default_factory=list, description="Alternative tool sets, any of which is acceptable."
    )
    max_steps: Annotated[StrictInt, Field(ge=0)] = Field(
        5, description="Steps a run may take before its efficiency score drops (0.2 per step)."
    )
    min_tool_calls: Annotated[StrictInt, Field(ge=0)] = Field(
        0, description="The fewest tool calls a correct run makes."
    )
    expected_behavior: Behavior | None = Field(
        None,
        description="A non-task behaviour the answer must show (refuse, "
        "ask_for_clarification, ...), graded.",
    )
    reference_answer: str | None = Field(
        None, description="A correct answer, shown to the pairwise judge."
    )
    notes: str = Field("", description="Free text for the people who maintain the dataset.")
    tags: list[str] = Field(
        default_factory=list, exclude_if=_unset, description="Labels, for filtering."
    )
    added: date | None = Field(None, exclude_if=_unset, description="When the case joined.")
    reason: str | None = Field(
        None, exclude_if=_unset, description="Why it was added (e.g. the failure it captures)."
    )
    timeout_s: StrictNumber | None = Field(
        None, gt=0, exclude_if=_unset, description="This case's time limit (overrides --timeout)."
    )
    rubric: str | None = Field(
        None, exclude_if=_unset, description="A free-text criterion graded by the --grader LLM."
    )
    conversation: Conversation | None = Field(
        None,
        exclude_if=_unset,
        description="A dialogue instead of one message: scripted user turns or a simulated "
        "user after ``input``, and what given replies must do (docs: conversations).",
    )
    expected_calls: list[ExpectedCall] = Field(
        default_factory=list, exclude_if=_unset, description=EXPECTED_CALLS
    )
    calls_match: CallsMatch | None = Field(None, exclude_if=_unset, description=CALLS_MATCH)
    allow_extra_calls: list[Annotated[str, Field(min_length=1)]] = Field(
        default_factory=list, exclude_if=_unset, description=ALLOW_EXTRA_CALLS
    )
    expected_tool_errors: list[Annotated[str, Field(min_length=1)]] = Field(
        default_factory=list,
        exclude_if=_unset,
        description="Tools whose erroring calls this case expects (an error-handling case): "
        "a call to one of them that raised, timed out or returned an error still counts "
        "towards expected_tools, expected_order, expected_args and per-turn tools. Any other "
        "failed call, and every call to a tool the variant lacks, never does (docs: golden).",
    )
    expected_route: list[NodeName] = Field(
        default_factory=list, exclude_if=_unset, description=EXPECTED_ROUTE
    )
    route_match: RouteMatch | None = Field(None, exclude_if=_unset, description=ROUTE_MATCH)
    forbidden_nodes: list[NodeName] = Field(
        default_factory=list, exclude_if=_unset, description=FORBIDDEN_NODES
    )
    max_supersteps: Annotated[StrictInt, Field(ge=1)] | None = Field(
        None, exclude_if=_unset, description=MAX_SUPERSTEPS
    )
    expected_graph_trajectory: GraphTrajectoryRef | None = Field(
        None, exclude_if=_unset, description=EXPECTED_GRAPH_TRAJECTORY
    )
    expected_state: dict[RecordPath, dict[str, Any] | None] | None = Field(
        None, exclude_if=_unset, description=EXPECTED_STATE
    )
    state_may_change: list[StateGlob] = Field(
        default_factory=list, exclude_if=_unset, description=STATE_MAY_CHANGE
    )

    @field_validator("id")
    @classmethod
    def _safe_id(cls, value: str) -> str:
        return check_case_id(value)

    @field_validator("expected_output_regex")
    @classmethod
    def _valid_regex(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                check_pattern(value)  # as the output scorer runs it: linear time, on RE2
            except re.error as exc:
                raise ValueError(f"invalid regular expression: {exc}") from None
        return value

    @field_validator("expected_tool_errors")
    @classmethod
    def _errors_of_expected_tools(cls, value: list[str], info: ValidationInfo) -> list[str]:
        if len(set(value)) < len(value):
            raise PydanticCustomError("tool_errors", "each tool is named once")
        named = _expected_tool_names(info.data)
        unknown = [name for name in value if name not in named]
        if unknown:
            raise PydanticCustomError(
                "tool_errors",
                "{tools} named by no tool expectation of the case (expected_tools, "
                "expected_order, expected_args, expected_calls, acceptable_tools or a turn's "
                "tools): "
                "expecting their errors would change nothing",
                {"tools": ", ".join(unknown)},
            )
        return value

    @field_validator("calls_match")
    @classmethod
    def _match_needs_calls(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is not None and not info.data.get("expected_calls"):
            raise PydanticCustomError(
                "calls_match", "calls_match needs expected_calls (the calls it orders)"
            )
        return value

    @field_validator("expected_state")
    @classmethod
    def _state_matchers(
        cls, value: dict[str, dict[str, Any] | None] | None
    ) -> dict[str, dict[str, Any] | None] | None:
        for record, fields in (value or {}).items():
            for name, expected in (fields or {}).items():
                check_expected(expected, where=f"{record} {name}")
        return value

    @field_validator("route_match")
    @classmethod
    def _match_needs_route(cls, value: str | None, info: ValidationInfo) -> str | None:
        route_match_needs_route(info.data.get("expected_route", []), value)
        return value

    @field_validator("expected_route")
    @classmethod
    def _route_not_empty(cls, value: list[str]) -> list[str]:
        return route_not_empty(value)

    @field_validator("forbidden_nodes")
    @classmethod
    def _route_not_forbidden(cls, value: list[str], info: ValidationInfo) -> list[str]:
        route_not_forbidden(info.data.get("expected_route", []), value)
        return value

    @model_validator(mode="wrap")
    @classmethod
    def _registered_check_fields(cls, data: Any, handler: ModelWrapValidatorHandler[Any]) -> Any:
        case = handler(data)
        extra = case.__pydantic_extra__
        if extra:
            _validate_check_fields(cls.__name__, extra)
        return case

    @field_validator("expected_behavior", mode="before")
    @classmethod
    def _empty_behavior_is_none(cls, value: object) -> object:
        return None if value == "" else value

    def all_tool_names(self) -> set[str]:
        """Every tool name this case mentions anywhere."""
        names = set(self.expected_tools) | set(self.expected_order) | set(self.forbidden_tools)
        names |= set(self.expected_args)
        names |= {call.tool for call in self.expected_calls} | set(self.allow_extra_calls)
        for alternative in self.acceptable_tools:
            names |= set(alternative)
        if self.conversation is not None:
            names |= self.conversation.tool_names()
        return names

    def node_names(self) -> list[tuple[str, list[str]]]:
        """Every field naming graph nodes (``expected_route``, ``forbidden_nodes``, and a
        turn's as ``conversation.expect.0.expected_route``), with the names it holds."""
        fields = [("expected_route", list(self.expected_route))]
        fields.append(("forbidden_nodes", list(self.forbidden_nodes)))
        if self.expected_graph_trajectory is not None:
            reference = self.expected_graph_trajectory.node_names()
            fields.append(("expected_graph_trajectory.steps", reference))
        for index, expect in enumerate(self.conversation.expect if self.conversation else []):
            fields.append((f"conversation.expect.{index}.expected_route", expect.expected_route))
            fields.append((f"conversation.expect.{index}.forbidden_nodes", expect.forbidden_nodes))
        return [(name, names) for name, names in fields if names]

    @property
    def is_conversation(self) -> bool:
        """True for a dialogue case (``conversation`` set)."""
        return self.conversation is not None


def unknown_category(case: GoldenCase, allowed: list[str]) -> str:
    """The message for a case whose category the dataset does not have."""
    return (
        f"case {case.id}: unknown category {case.category!r}; this dataset's categories are "
        f"{', '.join(allowed)} (a dataset declares its own with `categories`)"
    )


class JudgeSettings(BaseModel):
    """Who the judge is told it judges, and what matters: a dataset's ``judge:`` block (or
    a judge spec's ``persona``/``rubric``). Unset fields keep the judge's defaults."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    persona: str | None = Field(
        None,
        min_length=1,
        max_length=300,
        exclude_if=_unset,
        description="What the agent is, as the judge's system prompt names it, e.g. "
        "'a kitchen assistant that converts units and scales recipes' (default: the "
        "neutral 'an AI assistant').",
    )
    rubric: str | None = Field(
        None,
        min_length=1,
        max_length=1000,
        exclude_if=_unset,
        description="What makes an answer better, in the judge's system prompt (default: "
        "correct, follows the expectations, refuses harmful requests, admits missing "
        "capabilities; length and style ignored).",
    )


_Date = date  # the field named `date` below would shadow the type


class DatasetChange(BaseModel):
    """One recorded edit of a dataset: the version it produced and its content hash."""

    model_config = ConfigDict(extra="forbid")

    version: str = Field(description="The version this edit produced.")
    date: _Date = Field(description="When the edit was made.")
    change: str = Field(description="What changed.")
    content_hash: str = Field(description="Hash of the cases after the edit.")


class GoldenDataset(BaseModel):
    """A versioned set of golden cases with the tools the agent has."""

    model_config = ConfigDict(extra="forbid")

    schema_url: str | None = Field(
        None, alias="$schema", exclude=True, description="The JSON Schema, for editors (ignored)."
    )
    name: str = Field(description="The dataset's name.")
    version: str = Field("1.0.0", description="The dataset's version (bumped on each edit).")
    description: str = Field("", description="What the dataset covers.")
    categories: list[Annotated[str, Field(pattern=CATEGORY_PATTERN)]] | None = Field(
        None,
        exclude_if=_unset,
        min_length=1,
        description="The categories this dataset's cases use (default: the five of "
        "DEFAULT_CATEGORIES).",
    )
    available_tools: list[str] = Field(description="The tools the agent under test has.")
    content_hash: str | None = Field(
        None, exclude_if=_unset, description="Hash of the cases as of ``version``."
    )
    changelog: list[DatasetChange] = Field(
        default_factory=list, exclude_if=_unset, description="Every recorded edit, oldest first."
    )
    judge: JudgeSettings | None = Field(
        None,
        exclude_if=_unset,
        description="The judge's persona and rubric for this dataset's agent (a judge spec "
        "that sets them wins); no case hash depends on it.",
    )
    test_cases: list[GoldenCase] = Field(description="The golden cases.")

    @property
    def category_names(self) -> list[str]:
        """The categories cases may use: the declared ones, else the five defaults."""
        return list(self.categories) if self.categories else list(DEFAULT_CATEGORIES)

    @model_validator(mode="after")
    def _known_categories(self) -> GoldenDataset:
        allowed = set(self.category_names)
        for case in self.test_cases:
            if case.category not in allowed:
                raise ValueError(unknown_category(case, self.category_names))
        return self

    def case(self, case_id: str) -> GoldenCase:
        """The case with this id (NotFound if absent)."""
        for case in self.test_cases:
            if case.id == case_id:
                return case
        raise NotFound(f"no case {case_id!r} in dataset {self.name!r}")
