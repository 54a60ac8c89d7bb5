"""What a golden check is: case fields, a scorer, typed failure reasons and a LangSmith mapping.

A check is registered by name in :data:`GOLDEN_CHECKS`, declared here beside its base. Combined
scoring, the gate's classification and the LangSmith export iterate that registry, so adding a
check is one module (a :class:`GoldenCheck` subclass decorated with ``@golden_check(name)``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeVar, get_args

from arena.golden._check_fields import read_fields_from
from arena.registry import Registry, adapt_instance, entry_point_group
from arena.scoring._types import Check
from arena.scoring.checks._reasons import FailReason, FailureKind

if TYPE_CHECKING:
    from arena.golden._models import GoldenCase
    from arena.records.results import RunResult
    from arena.scoring._behavior import BehaviorGrade, RubricGrade

OUTPUT = "output"
"""The component of the output checks (contains, not-contains, regex, exact, ...)."""


def _items(values: Any) -> list[str]:
    return [json.dumps(v, sort_keys=True) for v in values or []]


Weakening = Literal["items", "mapping", "single", "allowance", "limit", "floor", "none"]
"""How editing a case field can weaken a check (:attr:`GoldenCheck.weakening`): ``items``,
a list of requirements, each removed item weakens; ``mapping``, a mapping of requirements,
each key whose value changed or that was removed weakens; ``single``, removing the field
weakens; ``allowance``, a list of excuses, each added item weakens; ``limit``, an upper limit
raised or removed weakens; ``floor``, a lower limit lowered or removed weakens; ``none``, no
edit of it weakens."""
WEAKENINGS: tuple[Weakening, ...] = get_args(Weakening)
"""The kinds of :data:`Weakening`, in the order the gate names what an edit weakened (items
lost, mapping entries changed, checks removed, excuses gained, upper limits raised, lower
limits lowered)."""
_EMPTY: tuple[Any, ...] = (None, "", [], {})


def weakened_field(field: str, how: Weakening, was: Any, now: Any) -> str | None:
    """What an edit of one case field lost, as ``how`` says, in one phrase (None: nothing).

    Args:
        field: the field's name, the phrase's first word.
        how: how an edit of it weakens a check.
        was: its JSON value before the edit (None when unset).
        now: its JSON value after the edit (None when unset).

    Returns:
        A phrase such as ``expected_tools lost "refund"``, ``expected_args changed for
        refund``, ``rubric removed``, ``acceptable_tools gained ["escalate"]``,
        ``max_steps 5 -> 8`` or ``min_tool_calls 2 -> 0``.
    """
    if how == "items":
        gone = [v for v in _items(was) if v not in _items(now)]
        return f"{field} lost {', '.join(gone)}" if gone else None
    if how == "mapping":
        changed = [k for k, v in (was or {}).items() if (now or {}).get(k) != v]
        return f"{field} changed for {', '.join(changed)}" if changed else None
    if how == "allowance":
        added = [v for v in _items(now) if v not in _items(was)]
        return f"{field} gained {', '.join(added)}" if added else None
    if how == "limit" and was and (not now or now > was):
        return f"{field} {was} -> {now or 'none'}"
    if how == "floor" and (now or 0) < (was or 0):
        return f"{field} {was} -> {now or 0}"
    if how == "single" and was not in _EMPTY and now in _EMPTY:
        return f"{field} removed"
    return None


@dataclass(frozen=True)
class LintNote:
    """What ``arena golden lint`` says of one case for one check (:meth:`GoldenCheck.lint`).

    Attributes:
        rule: the finding's rule name (``max_words_zero``).
        message: one sentence, without the case id (the linter prefixes it).
        severity: ``error`` (lint exits 1) or ``warning``.
    """

    rule: str
    message: str
    severity: Literal["error", "warning"] = "warning"


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
        weakening: how an edit of each field it reads weakens it (:data:`Weakening`), for
            the gate's critical cases edited since the baseline (:meth:`weakened`); a field
            not named is ``items`` when its value is a list, else ``single`` (a built-in
            names every one). It may name a field it reads beyond :attr:`fields` and
            :attr:`extra_fields` (see :meth:`read_fields`).
    """

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    component: ClassVar[str] = OUTPUT
    kind: ClassVar[FailureKind] = "output"
    fields: ClassVar[tuple[str, ...]] = ()
    extra_fields: ClassVar[dict[str, tuple[Any, Any]]] = {}
    weight: ClassVar[float] = 0.2
    guard: ClassVar[bool] = False
    weakening: ClassVar[dict[str, Weakening]] = {}

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

    def read_fields(self) -> tuple[str, ...]:
        """Every case field it reads: :attr:`fields`, :attr:`extra_fields`, then a field only
        its :attr:`weakening` names (read, but not a LangSmith reference output: the turns
        check's ``conversation``)."""
        return tuple(dict.fromkeys((*self.fields, *self.extra_fields, *self.weakening)))

    def weakening_of(self, field: str, value: Any = None) -> Weakening:
        """How an edit of ``field`` weakens this check: as :attr:`weakening` declares, else
        ``items`` when its ``value`` (before the edit) is a list, else ``single``."""
        return self.weakening.get(field, "items" if isinstance(value, list) else "single")

    def weakened(
        self, before: GoldenCase, after: GoldenCase, fields: tuple[str, ...] | None = None
    ) -> list[str]:
        """What an edit of a case lost of this check, one phrase each (empty: nothing), by
        :attr:`weakening` (the gate asks it of a critical case edited since the baseline).

        Args:
            before: the case as the baseline knew it.
            after: the case as edited.
            fields: the fields to compare (default: :meth:`read_fields`).

        Returns:
            Phrases such as ``expected_output_contains lost "refund"`` or ``rubric removed``
            (:func:`weakened_field`), in the order of ``fields``.
        """
        old, new = before.model_dump(mode="json"), after.model_dump(mode="json")
        found: list[str] = []
        for field in dict.fromkeys(self.read_fields() if fields is None else fields):
            was, now = old.get(field), new.get(field)
            phrase = weakened_field(field, self.weakening_of(field, was), was, now)
            found += [phrase] if phrase else []
        return found

    def lint(self, case: GoldenCase) -> list[LintNote]:
        """What ``arena golden lint`` says of ``case`` for this check (default: nothing).

        Args:
            case: one case of the linted dataset (every case, whether it asks for the check
                or not: see :meth:`applies`).

        Returns:
            Its findings, each becoming one finding naming the case.
        """
        return []


F = TypeVar("F")

GOLDEN_CHECKS: Registry[GoldenCheck] = Registry(
    "golden check",
    entry_point_group("golden_checks"),
    declared_by="golden_check",
    homes=(__package__,),
    base=GoldenCheck,
    adapt=adapt_instance,
)
"""Golden checks (instances; a class is instantiated), in scoring order."""

read_fields_from(lambda: [GOLDEN_CHECKS.lookup(name) for name in GOLDEN_CHECKS.names()])


def golden_check(
    name: str, summary: str | None = None, *, replace: bool = False, order: int | None = None
) -> Callable[[F], F]:
    """Register a :class:`GoldenCheck` subclass (or instance) as the golden check ``name``.

    Args:
        name: the check's name (in fail reasons and ``arena golden``).
        summary: one line for ``arena --help`` (default: the first docstring line).
        replace: replace a check already registered as ``name``.
        order: its place in listings and in scoring: the built-ins (defined under the
            kind's home) come first, by ``order``; then every other entry, those with an
            ``order`` by it, then the rest in registration order.

    Returns:
        A decorator registering an instance (its ``name`` and ``summary`` set) and returning
        the decorated object unchanged.

    Raises:
        NameTaken: ``name`` is registered already and ``replace`` is false.
        TypeError: the decorated object is not a ``GoldenCheck``.
    """
    return GOLDEN_CHECKS.decorator(name, summary, replace=replace, order=order)


def graded_check(grade: BehaviorGrade | RubricGrade) -> Check:
    """A grader's grade as a check: a grader error scores 0 and fails (never a pass)."""
    return Check(
        score=0.0 if grade.error else grade.score,
        passed=grade.passed and grade.error is None,
        details=grade.model_dump(mode="json"),
    )
