"""What a golden check is: case fields, a scorer, typed failure reasons and a LangSmith mapping.

A check is registered by name in :data:`arena.registry.GOLDEN_CHECKS`. Combined scoring, the
gate's classification and the LangSmith export iterate that registry, so adding a check is
one module (a :class:`GoldenCheck` subclass decorated with ``@golden_check(name)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from arena.scoring._types import Check
from arena.scoring.checks._reasons import FailReason, FailureKind

if TYPE_CHECKING:
    from arena.golden._models import GoldenCase
    from arena.records.results import RunResult
    from arena.scoring._behavior import BehaviorGrade, RubricGrade

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
        name: the registered name (``contains``, ``trajectory``, ...), set by the registry.
        summary: one line for ``arena --help``, set by the registry from the registration.
        component: ``output`` for a part of the output component (its score is averaged with
            the other output checks), otherwise its own weighted top-level component.
        kind: the failure kind its reasons carry (what the gate reports).
        fields: the case fields it reads; they are also its LangSmith reference outputs.
        extra_fields: fields of a check from outside this package, ``name -> (type, default)``:
            such a field is accepted on a case only when the check is registered, and a case
            that leaves it unset keeps its content hash.
        weight: the weight of its own component (not an ``output`` part) when the component
            has no weight in :data:`arena.scoring._combined.WEIGHTS`; renormalised like them.
        guard: an output check that only guards (not-contains): it counts in the output
            score only when it is the only output check.
    """

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    component: ClassVar[str] = OUTPUT
    kind: ClassVar[FailureKind] = "output"
    fields: ClassVar[tuple[str, ...]] = ()
    extra_fields: ClassVar[dict[str, tuple[Any, Any]]] = {}
    weight: ClassVar[float] = 0.2
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


def graded_check(grade: BehaviorGrade | RubricGrade) -> Check:
    """A grader's grade as a check: a grader error scores 0 and fails (never a pass)."""
    return Check(
        score=0.0 if grade.error else grade.score,
        passed=grade.passed and grade.error is None,
        details=grade.model_dump(mode="json"),
    )
