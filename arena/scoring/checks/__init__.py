"""Golden checks as registered types: one module per check (see :mod:`._base`), each class
decorated with ``@golden_check(name, summary, order=...)`` (this package is the registry's
home: its modules load when the registry is first read).

:func:`golden_checks` lists the registered checks in registry order (the built-ins first, by
their ``order``, then plugins); combined scoring, the gate and the LangSmith export iterate
it.
"""

from __future__ import annotations

from arena.scoring.checks._base import (
    GOLDEN_CHECKS,
    OUTPUT,
    WEAKENINGS,
    CheckInput,
    GoldenCheck,
    Weakening,
    golden_check,
    weakened_field,
)
from arena.scoring.checks._reasons import FailReason, FailureKind, general_reason


def golden_checks() -> list[GoldenCheck]:
    """Every registered check, in registry order (a broken plugin raises its own
    import error)."""
    return [GOLDEN_CHECKS.lookup(name) for name in GOLDEN_CHECKS.names()]


def check_fields() -> tuple[str, ...]:
    """Every case field some registered check reads, in check order."""
    fields: list[str] = []
    for check in golden_checks():
        fields.extend(f for f in (*check.fields, *check.extra_fields) if f not in fields)
    return tuple(fields)


def component_kinds() -> dict[str, FailureKind]:
    """The failure kind of each top-level scoring component."""
    kinds: dict[str, FailureKind] = {OUTPUT: "output"}
    for check in golden_checks():
        if check.component != OUTPUT:
            kinds.setdefault(check.component, check.kind)
    return kinds


__all__ = [
    "GOLDEN_CHECKS",
    "OUTPUT",
    "WEAKENINGS",
    "CheckInput",
    "FailReason",
    "FailureKind",
    "GoldenCheck",
    "Weakening",
    "check_fields",
    "component_kinds",
    "general_reason",
    "golden_check",
    "golden_checks",
    "weakened_field",
]
