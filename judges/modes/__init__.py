"""Judge modes behind one registry: how a judge asks, reads and combines the two orders.

Adding a mode is one module defining a :class:`~judges.modes.base.JudgeMode` subclass
decorated with ``@arena.registry.judge_mode(name)`` (or named in an ``agent_arena.judge_modes``
entry point); the spec validation, the CLI help, the model config, the verdict cache key and
the rule combining both orders all follow from :data:`arena.registry.JUDGE_MODES`. Built-ins
are import paths, so reading the registry stays light: a mode's module loads when it is used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from arena.errors import InputError
from arena.registry import JUDGE_MODES, UnknownName

if TYPE_CHECKING:
    from judges.modes.base import Asker, JudgeMode, Reading, UnreadableReply
    from judges.orders import Outcome
    from judges.types import Verdict

MODES = JUDGE_MODES
"""The judge-mode registry (:data:`arena.registry.JUDGE_MODES`)."""


def mode_names() -> tuple[str, ...]:
    """Every registered judge mode.

    Returns:
        Their names, in registration order.
    """
    return JUDGE_MODES.names()


def get_mode(name: str) -> JudgeMode:
    """A fresh instance of the mode registered under ``name``.

    Args:
        name: a registered judge mode (``text``, ``logprobs``, ``grades``, ``checklist``, ...).

    Returns:
        A new instance of that mode.

    Raises:
        InputError: no mode has that name (the message lists the known ones).
    """
    try:
        mode_class = JUDGE_MODES.lookup(name)
    except UnknownName as exc:
        raise InputError(
            f"judge mode must be one of {', '.join(exc.known)}, got {name!r}", field="judge"
        ) from None
    mode: JudgeMode = mode_class()
    return mode


def combine(ab: Verdict, ba: Verdict, tie_margin: float | None = None) -> Outcome:
    """The outcome of a battle by the rule of the judge's mode.

    Args:
        ab: the verdict with the first answer shown first.
        ba: the verdict with the order swapped.
        tie_margin: overrides the spec's margin (e.g. one calibrated on the run).

    Returns:
        The battle's outcome.
    """
    return get_mode(ab.judge.mode).combine(ab, ba, tie_margin)


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
    "combine",
    "default_mode",
    "get_mode",
    "mode_names",
]


def __getattr__(name: str) -> Any:
    if name in _BASE:
        return getattr(importlib.import_module("judges.modes.base"), name)
    raise AttributeError(f"module 'judges.modes' has no attribute {name!r}")
