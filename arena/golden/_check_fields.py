"""The case fields golden checks from outside declare, as validating a golden case reads them.

Golden checks are registered above this package (:mod:`arena.scoring.checks`), so case
validation never imports them: the golden-check registry hands its checks here when it is
declared (:func:`read_fields_from`). Until something imports it, the only checks that can
exist are an installed package's ``agent_arena.golden_checks`` entry points: loading those
imports the registry, which hands its checks here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

GROUP = "agent_arena.golden_checks"
"""The entry-point group of golden checks from installed packages."""

_SOURCES: list[Callable[[], Iterable[object]]] = []


def read_fields_from(checks: Callable[[], Iterable[object]]) -> None:
    """Read the declared fields of the checks ``checks()`` gives from now on.

    Args:
        checks: a function giving every registered check (an object with ``extra_fields``,
            ``name -> (type, default)``), called at each validation that meets such a field.
    """
    if checks not in _SOURCES:
        _SOURCES.append(checks)


def _load_installed_checks() -> None:
    """Import the installed packages' golden checks (their base registers the registry)."""
    from importlib.metadata import entry_points  # costs an import: only when needed

    for point in entry_points(group=GROUP):
        point.load()


def check_field_types() -> dict[str, Any]:
    """The type of every case field a registered check from outside declares.

    Returns:
        Field name -> its type (validated with a pydantic ``TypeAdapter``).
    """
    if not _SOURCES:
        _load_installed_checks()
    types: dict[str, Any] = {}
    for source in list(_SOURCES):
        for check in source():
            fields = getattr(check, "extra_fields", {})
            types.update({field: kind for field, (kind, _default) in fields.items()})
    return types
