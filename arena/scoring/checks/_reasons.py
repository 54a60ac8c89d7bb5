"""Failure reasons as records: the text, the check that gave it, its kind, hard or not.

Reasons stored as plain text (before they were records) are read back by :func:`from_text`,
the one place that still knows the old texts.
"""

from __future__ import annotations

from typing import Any, Literal

FailureKind = Literal["output", "trajectory", "behavior", "side_effect", "error"]
"""Why a case broke: the scoring component that fell, or a run error."""


class FailReason(str):
    """Why a result failed, as a record: its text (it is a ``str``), the check that gave it,
    the failure kind and whether it is a hard fail.

    Stored as ``{"text", "check", "kind", "hard"}``; a plain string (records stored before
    reasons were typed) is read through :func:`from_text`.
    """

    check: str
    kind: FailureKind | None
    hard: bool

    def __new__(
        cls, text: str, *, check: str, kind: FailureKind | None, hard: bool = False
    ) -> FailReason:
        self = super().__new__(cls, text)
        self.check, self.kind, self.hard = check, kind, hard
        return self

    @property
    def text(self) -> str:
        """The reason in words."""
        return str.__str__(self)

    def record(self) -> dict[str, Any]:
        """The stored form."""
        return {"text": self.text, "check": self.check, "kind": self.kind, "hard": self.hard}

    def __reduce__(self) -> Any:
        return (_rebuild, (self.record(),))

    @classmethod
    def coerce(cls, value: Any) -> FailReason:
        """A reason from its stored form, a reason, or a legacy string."""
        if isinstance(value, FailReason):
            return value
        if isinstance(value, dict):
            return cls(
                str(value["text"]),
                check=str(value.get("check", "")),
                kind=value.get("kind"),
                hard=bool(value.get("hard", False)),
            )
        if isinstance(value, str):
            return from_text(value)
        raise ValueError(f"a failure reason is a string or a record, got {type(value).__name__}")

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        from pydantic_core import core_schema

        return core_schema.no_info_plain_validator_function(
            cls.coerce,
            serialization=core_schema.plain_serializer_function_ser_schema(
                lambda reason: reason.record(), when_used="json"
            ),
        )

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: Any, handler: Any) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {
                "text": {"type": "string"},
                "check": {"type": "string"},
                "kind": {"type": ["string", "null"]},
                "hard": {"type": "boolean"},
            },
            "required": ["text"],
        }


def _rebuild(record: dict[str, Any]) -> FailReason:
    return FailReason.coerce(record)


def general_reason(text: str, kind: FailureKind | None, *, check: str, hard: bool) -> FailReason:
    """A reason no single check gives (a run error, an empty output, a low score)."""
    return FailReason(text, check=check, kind=kind, hard=hard)


# (prefix, check, kind, hard), hard fails first, as the scorer of those versions wrote them.
_PREFIXES: tuple[tuple[str, str, FailureKind | None, bool], ...] = (
    ("run error", "run", "error", True),
    ("empty output", "output", "output", True),
    ("forbidden tool called", "trajectory", "trajectory", True),
    ("output contains forbidden text", "not_contains", "output", True),
    ("behaviour grader failed", "behavior", "behavior", True),
    ("rubric grader failed", "rubric", "output", True),
    ("output missing", "contains", "output", False),
    ("output regex", "regex", "output", False),
    ("output exact", "exact", "output", False),
    ("rubric not met", "rubric", "output", False),
    ("tools ", "trajectory", "trajectory", False),
    ("unknown tools called", "trajectory", "trajectory", False),
    ("behaviour ", "behavior", "behavior", False),
    ("expected file", "functional", "side_effect", False),
    ("score ", "score", None, False),
)


def from_text(text: str) -> FailReason:
    """The record of a reason stored as text (check ``""`` and no kind when unrecognised)."""
    for prefix, check, kind, hard in _PREFIXES:
        if text.startswith(prefix):
            return FailReason(text, check=check, kind=kind, hard=hard)
    return FailReason(text, check="", kind=None, hard=False)
