"""Judge modes behind one registry: how a judge asks, reads and combines the two orders.

Adding a mode is one module defining a :class:`~judges.modes.base.JudgeMode` subclass plus
one line in :data:`MODES`; the spec validation, the CLI help, the model config, the verdict
cache key and the rule combining both orders all follow from the registry. Entries are import
paths (or classes), so reading the registry stays light: a mode's module loads when it is used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from arena.errors import InputError

if TYPE_CHECKING:
    from judges.modes.base import Asker, JudgeMode, Reading, UnreadableReply

MODES: dict[str, str | type[JudgeMode]] = {
    "text": "judges.modes.text:TextMode",
    "logprobs": "judges.modes.logprobs:LogprobsMode",
    "grades": "judges.modes.grades:GradesMode",
    "checklist": "judges.modes.checklist:ChecklistMode",
}


def mode_names() -> tuple[str, ...]:
    """Every registered mode, in registration order."""
    return tuple(MODES)


def get_mode(name: str) -> JudgeMode:
    """A fresh instance of the mode registered under ``name`` (InputError if none)."""
    entry = MODES.get(name)
    if entry is None:
        raise InputError(
            f"judge mode must be one of {', '.join(MODES)}, got {name!r}", field="judge"
        )
    if isinstance(entry, str):
        module, _, attr = entry.partition(":")
        entry = getattr(importlib.import_module(module), attr)
        MODES[name] = entry
    return entry()


def default_mode(provider: str) -> str:
    """The mode of a judge given without one: checklist for the local model (the mode
    ``benchmarks/judge_bench.py`` measured most accurate on it; see docs/judges-checklist.md),
    text otherwise."""
    return "checklist" if provider == "local" else "text"


_BASE = ("Asker", "JudgeMode", "Reading", "UnreadableReply")
__all__ = [
    "MODES",
    "Asker",
    "JudgeMode",
    "Reading",
    "UnreadableReply",
    "default_mode",
    "get_mode",
    "mode_names",
]


def __getattr__(name: str) -> Any:
    if name in _BASE:
        return getattr(importlib.import_module("judges.modes.base"), name)
    raise AttributeError(f"module 'judges.modes' has no attribute {name!r}")
