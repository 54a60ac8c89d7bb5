"""Exact calls and output items anywhere in the run: the case fields of issue 45.

* ``expected_calls``: the calls (tool + arguments) a correct run makes, matched one to one
  against the calls that count; arguments match exactly unless a matcher says less (see
  :mod:`arena.scoring._matchers`);
* ``calls_match``: ``strict``, ``in_order`` (the default) or ``unordered``;
* ``allow_extra_calls``: side-effecting tools this case lets the agent call beyond what it
  expects;
* an ``expected_output_contains`` item may be ``{text, in}``: ``in: any_reply`` lets any
  assistant message of the run (or any reply of a dialogue) hold it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from arena.golden._conversation import ContainsItem
from arena.golden._matcher_syntax import check_expected, show

CallsMatch = Literal["strict", "in_order", "unordered"]
"""How ``expected_calls`` are matched to the calls that count."""

EXPECTED_CALLS = (
    "The calls a correct run makes, each {tool, args}: matched one to one (a call satisfies "
    "one expectation only); arguments match exactly (strings exactly, lists as lists, numbers "
    "by value) unless a matcher ({contains}, {regex}, {any: true}, {unordered}, {approx, tol}, "
    "{exact}) says less; each one missed is a hard fail (docs: golden)."
)
CALLS_MATCH = (
    "How expected_calls match: strict (exactly these calls, in this order, nothing else), "
    "in_order (the default: these, in this order, other calls allowed) or unordered (these, "
    "one to one, any order)."
)
ALLOW_EXTRA_CALLS = (
    "Side-effecting tools this case lets the agent call beyond what it expects (by default "
    "such a call is a hard fail)."
)


def _check_args(value: dict[str, Any]) -> dict[str, Any]:
    for name, expected in value.items():
        check_expected(expected, where=name)
    return value


class ExpectedCall(BaseModel):
    """One call a correct run makes: its tool and its arguments (values or matchers)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tool: Annotated[str, Field(min_length=1)] = Field(description="The tool's name.")
    args: dict[str, Any] = Field(
        default_factory=dict,
        description="The arguments, each a value (matched exactly) or a matcher.",
    )
    other_args: Literal["forbid", "allow"] = Field(
        "forbid",
        exclude_if=lambda v: v == "forbid",
        description="forbid (the default: the call carries exactly the named arguments) or "
        "allow (arguments the expectation does not name may be present).",
    )

    _valid_args = field_validator("args")(_check_args)

    def label(self) -> str:
        """The call as ``tool(name="value", ...)``, for reasons."""
        inside = ", ".join(f"{name}={show(value)}" for name, value in self.args.items())
        return f"{self.tool}({inside})"


class ReplyItem(BaseModel):
    """A required output item that says where it may appear."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, validate_by_name=True, serialize_by_alias=True
    )

    text: ContainsItem = Field(
        description="The string (or a list of alternatives, any one of which suffices)."
    )
    in_: Literal["final", "any_reply"] = Field(
        "final",
        alias="in",
        description="final (the default: the last reply) or any_reply (any assistant message "
        "of the run, an intermediate one included, or any reply of a dialogue).",
    )


OutputItem = ContainsItem | ReplyItem
"""An ``expected_output_contains`` item: a string, a list of alternatives, or a
:class:`ReplyItem`."""


def item_text(item: OutputItem) -> str | list[str]:
    """The string or alternatives of an output item."""
    return item.text if isinstance(item, ReplyItem) else item


def item_anywhere(item: OutputItem) -> bool:
    """True when the item may appear in any reply of the run."""
    return isinstance(item, ReplyItem) and item.in_ == "any_reply"
