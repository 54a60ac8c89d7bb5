"""What a golden check is: case fields, a scorer, typed failure reasons and a LangSmith mapping.

A check is registered by name in :data:`arena.registry.GOLDEN_CHECKS`. Combined scoring, the
gate's classification and the LangSmith export iterate that registry, so adding a check is
one module (a :class:`GoldenCheck` subclass decorated with ``@golden_check(name)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from arena.scoring.types import Check

if TYPE_CHECKING:
    from arena.golden.models import GoldenCase
    from arena.records import RunResult
    from arena.scoring.behavior import BehaviorGrade, RubricGrade

FailureKind = Literal["output", "trajectory", "behavior", "side_effect", "error"]
"""Why a case broke: the scoring component that fell, or a run error."""
OUTPUT = "output"
"""The component of the output checks (contains, not-contains, regex, exact, ...)."""


@dataclass(frozen=True)
class CheckInput:
    """Everything a check may read: the case, the final output, the whole result (None when
    only an output is scored), the dataset's tools and the precomputed behaviour and rubric
    grades."""

    case: GoldenCase
    output: str
    result: RunResult | None = None
    available_tools: set[str] | None = None
    behavior: BehaviorGrade | None = None
    rubric: RubricGrade | None = None


class GoldenCheck:
    """One golden check. Subclass it, set the class attributes, implement :meth:`score`.

    Attributes:
        name: the registered name (``contains``, ``trajectory``, ...).
        summary: one line for ``arena golden --help`` and the docs.
        component: ``output`` for a part of the output component (its score is averaged with
            the other output checks), otherwise its own weighted top-level component.
        kind: the failure kind its reasons carry (what the gate reports).
        fields: the case fields it reads; they are also its LangSmith reference outputs.
        extra_fields: fields of a check from outside this package, ``name -> (type, default)``:
            such a field is accepted on a case only when the check is registered, and a case
            that leaves it unset keeps its content hash.
        guard: an output check that only guards (not-contains): it counts in the output
            score only when it is the only output check.
    """

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    component: ClassVar[str] = OUTPUT
    kind: ClassVar[FailureKind] = "output"
    fields: ClassVar[tuple[str, ...]] = ()
    extra_fields: ClassVar[dict[str, tuple[Any, Any]]] = {}
    guard: ClassVar[bool] = False

    def applies(self, case: GoldenCase) -> bool:
        """True when the case asks for this check (default: one of its fields is set)."""
        return any(getattr(case, f, None) not in (None, [], {}) for f in self.fields)

    def score(self, data: CheckInput) -> Check | None:
        """The check's verdict, or None when it does not apply to the case."""
        raise NotImplementedError

    def subscores(self, check: Check) -> dict[str, float]:
        """Named sub-scores reported as ``<component>.<name>`` (default: none)."""
        return {}

    def hard_fails(self, check: Check) -> list[str]:
        """Failure texts that fail the case whatever its score (default: none)."""
        return []

    def hints(self, check: Check) -> list[str]:
        """Failure texts that explain a failing case (default: none)."""
        return []

    def reason(self, text: str, *, hard: bool = False) -> FailReason:
        """A failure reason of this check."""
        return FailReason(text, check=self.name, kind=self.kind, hard=hard)


class FailReason(str):
    """Why a result failed, as a record: its text (it is a ``str``), the check that gave it,
    the failure kind and whether it is a hard fail.

    Stored as ``{"text", "check", "kind", "hard"}``; a plain string (records stored before
    reasons were typed) is read through :func:`arena.scoring.checks.legacy.from_text`.
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
            from arena.scoring.checks.legacy import from_text

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
