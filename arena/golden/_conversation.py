"""Conversation cases: a golden case that is a dialogue, not one message.

The case's ``input`` is always the user's first message. After each reply of the agent the
user speaks again, either from a script (:class:`ScriptedTurn`, optionally conditioned on the
agent's last reply) or as a simulated user (:class:`SimulatedUser`: a persona with a goal and
private facts, played by a model). :class:`TurnExpect` states what one reply must do; the
case's ordinary expectations (tools, files, the answer) apply to the whole conversation, the
answer being the agent's last reply.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from arena.golden import _route
from arena.golden._route import NodeName, RouteMatch
from arena.inputs.validation import StrictInt

#: The most user turns a conversation case may hold (scripted or simulated): a script holds
#: at most ``MAX_TURNS - 1`` turns after the case's input.
MAX_TURNS = 20


def _unset(value: object) -> bool:
    return value is None or value == []


def _shows_nothing(text: str) -> bool:
    """Whether ``text`` shows nothing: empty, or only whitespace and invisible format
    characters (Unicode category Cf: zero-width spaces and joiners, U+2060, U+FEFF, bidi
    controls), which a reader cannot see and a reply cannot be checked for."""
    return all(char.isspace() or unicodedata.category(char) == "Cf" for char in text)


def _not_blank(value: str) -> str:
    if _shows_nothing(value):
        raise PydanticCustomError(
            "blank", "must not be empty or blank (only spaces or invisible characters)"
        )
    return value


def _no_blank_alternative(value: str | list[str]) -> str | list[str]:
    if isinstance(value, list) and not value:
        raise PydanticCustomError("blank", "a list of alternatives must not be empty")
    for option in [value] if isinstance(value, str) else value:
        _not_blank(option)
    return value


#: Text that must say something: not empty, not only spaces or invisible characters.
Text = Annotated[str, Field(min_length=1), AfterValidator(_not_blank)]

# An expected output item: one string, or a list of alternatives of which any one suffices;
# never empty (an empty string is in every reply, so the check would say nothing).
ContainsItem = Annotated[str | list[str], AfterValidator(_no_blank_alternative)]


def field_error(loc: tuple[str | int, ...], message: str, value: Any) -> ValidationError:
    """A validation error at ``loc`` (relative to the model validated) saying ``message``
    as is (no "Value error," prefix), for checks that span several fields."""
    error = PydanticCustomError("conversation", "{reason}", {"reason": message})
    return ValidationError.from_exception_data(
        "Conversation", [InitErrorDetails(type=error, loc=loc, input=value)]
    )


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


class ReplyCheck(BaseModel):
    """A simple check of the agent's last reply: case-insensitive substrings."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    contains: list[ContainsItem] = Field(
        default_factory=list,
        description="Strings the reply must contain (a list item: any one of its alternatives).",
    )
    not_contains: list[Text] = Field(
        default_factory=list, description="Strings the reply must not contain."
    )

    def matches(self, reply: str) -> bool:
        """Whether ``reply`` meets every item (case and spacing ignored)."""
        text = _fold(reply)
        for item in self.contains:
            options = [item] if isinstance(item, str) else item
            if not any(_fold(option) in text for option in options):
                return False
        return not any(_fold(item) in text for item in self.not_contains)


class TurnExpect(BaseModel):
    """What the agent's reply to one user turn must do (turn 1 answers ``input``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    turn: Annotated[StrictInt, Field(ge=1, le=MAX_TURNS)] = Field(
        description="The user turn this reply answers, 1-based (1: the case's input)."
    )
    description: str | None = Field(
        None,
        min_length=1,
        max_length=300,
        description="What the reply must do, in words (e.g. 'asks for the order number "
        "before refunding'); the judge's checklist states it.",
    )
    contains: list[ContainsItem] = Field(
        default_factory=list,
        description="Strings the reply must contain, case-insensitively (a list item: any "
        "one of its alternatives).",
    )
    not_contains: list[Text] = Field(
        default_factory=list, description="Strings the reply must not contain."
    )
    tools: list[str] = Field(
        default_factory=list, description="Tools the agent calls in this turn (a multiset)."
    )
    forbidden_tools: list[str] = Field(
        default_factory=list, description="Tools the agent must not call in this turn."
    )
    # The route fields are left out of dumps (and so of case hashes) while unset.
    expected_route: list[NodeName] = Field(
        default_factory=list,
        exclude_if=_unset,
        description=f"In this turn: {_route.EXPECTED_ROUTE}",
    )
    route_match: RouteMatch | None = Field(None, exclude_if=_unset, description=_route.ROUTE_MATCH)
    forbidden_nodes: list[NodeName] = Field(
        default_factory=list,
        exclude_if=_unset,
        description=f"In this turn: {_route.FORBIDDEN_NODES}",
    )
    max_supersteps: Annotated[StrictInt, Field(ge=1)] | None = Field(
        None, exclude_if=_unset, description=f"In this turn: {_route.MAX_SUPERSTEPS}"
    )

    @field_validator("expected_route")
    @classmethod
    def _route_not_empty(cls, value: list[str]) -> list[str]:
        return _route.route_not_empty(value)

    @model_validator(mode="after")
    def _says_something(self) -> TurnExpect:
        if not (
            self.description
            or self.contains
            or self.not_contains
            or self.tools
            or self.forbidden_tools
            or self.has_route_expectation
        ):
            raise ValueError(f"turn {self.turn}: an expectation needs at least one field")
        _route.route_match_needs_route(self.expected_route, self.route_match)
        _route.route_not_forbidden(self.expected_route, self.forbidden_nodes)
        return self

    @property
    def has_route_expectation(self) -> bool:
        """True when the turn expects something of the graph path."""
        return bool(self.expected_route or self.forbidden_nodes or self.max_supersteps is not None)


class ScriptedTurn(BaseModel):
    """One scripted user message, sent after the agent's reply to the turn before."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    user: Text = Field(description="What the user says.")
    when: ReplyCheck | None = Field(
        None,
        description="Send it only if the agent's last reply meets this check; otherwise "
        "send ``otherwise``, or end the conversation when that is unset.",
    )
    otherwise: Text | None = Field(None, description="What the user says when ``when`` is not met.")

    @model_validator(mode="after")
    def _otherwise_needs_when(self) -> ScriptedTurn:
        if self.otherwise is not None and self.when is None:
            raise ValueError("'otherwise' needs a 'when' check")
        return self


class SimulatedUser(BaseModel):
    """A user played by a model: who they are, what they want, what only they know."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    persona: Text = Field(max_length=500, description="Who the user is and how they talk.")
    goal: Text = Field(max_length=1000, description="What the user wants from the agent.")
    facts: dict[str, str] = Field(
        default_factory=dict,
        description="Private facts the user gives only when the agent asks for them "
        "(name -> value, e.g. 'order number': '4471').",
    )
    stop_when: str | None = Field(
        None,
        min_length=1,
        max_length=300,
        description="When the user is satisfied and ends the conversation (default: when "
        "the goal is reached).",
    )
    max_turns: Annotated[StrictInt, Field(ge=1, le=MAX_TURNS)] = Field(
        6, description="The most user messages, the case's input included."
    )
    model: str | None = Field(
        None,
        min_length=1,
        description="The model spec that plays the user (default: the run's user model, "
        "the local model unless set).",
    )


class Conversation(BaseModel):
    """A dialogue case: scripted user turns or a simulated user, and per-turn expectations."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    turns: list[ScriptedTurn] = Field(
        default_factory=list,
        description="Scripted user messages after the case's input, in order (at most "
        f"{MAX_TURNS - 1}: {MAX_TURNS} user turns with the input).",
    )
    user: SimulatedUser | None = Field(None, description="A simulated user instead of a script.")
    expect: list[TurnExpect] = Field(
        default_factory=list, description="What the agent's reply to given turns must do."
    )

    @model_validator(mode="after")
    def _one_user(self) -> Conversation:
        if bool(self.turns) == (self.user is not None):
            raise ValueError("a conversation has either scripted 'turns' or a simulated 'user'")
        if len(self.turns) > MAX_TURNS - 1:
            raise field_error(
                ("turns",),
                f"{len(self.turns)} scripted turns after the input; a conversation holds at "
                f"most {MAX_TURNS} user turns (MAX_TURNS), so at most {MAX_TURNS - 1} here",
                len(self.turns),
            )
        seen: set[int] = set()
        for index, expect in enumerate(self.expect):
            if expect.turn in seen:
                raise field_error(
                    ("expect", index, "turn"),
                    f"turn {expect.turn} has two expectations; merge them",
                    expect.turn,
                )
            if expect.turn > self.max_turns:
                raise field_error(
                    ("expect", index, "turn"),
                    f"turn {expect.turn} is expected but the conversation has at most "
                    f"{self.max_turns} user turns",
                    expect.turn,
                )
            seen.add(expect.turn)
        return self

    @property
    def simulated(self) -> bool:
        """True when a model plays the user."""
        return self.user is not None

    @property
    def max_turns(self) -> int:
        """The most user turns: the input plus the script, or the simulated user's limit."""
        return self.user.max_turns if self.user is not None else 1 + len(self.turns)

    def expectation(self, turn: int) -> TurnExpect | None:
        """The expectation of the reply to ``turn`` (1-based), if any."""
        return next((e for e in self.expect if e.turn == turn), None)

    def tool_names(self) -> set[str]:
        """Every tool the per-turn expectations name."""
        return {name for _field, names in self.named_tools() for name in names}

    def named_tools(self) -> list[tuple[str, list[str]]]:
        """Each per-turn field naming tools, by its path in the case (e.g.
        ``conversation.expect.0.tools``), with the names it holds."""
        return [
            (f"conversation.expect.{index}.{field}", list(getattr(expect, field)))
            for index, expect in enumerate(self.expect)
            for field in ("tools", "forbidden_tools")
        ]
