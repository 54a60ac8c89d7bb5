"""Judge modes behind one registry: how a judge asks, reads and combines the two orders.

Adding a mode is one module defining a :class:`~judges.modes._base.JudgeMode` subclass
decorated with ``@judge_mode(name, summary)`` (:mod:`arena.extend`), a built-in in this
package (its sub-packages included, e.g. :mod:`judges.modes.checklist`), a plugin in its own
package or through an ``agent_arena.judge_modes`` entry point; the spec validation, the CLI
help, the model config, the verdict cache key and the rule combining both orders all follow
from :data:`MODES` (:mod:`judges.modes._registry`). This package is the registry's home: its modules
load when the registry is first read, not on ``import arena``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.registry import Registry
from judges.modes._registry import JUDGE_MODES, judge_mode

if TYPE_CHECKING:
    from judges._orders import Outcome
    from judges._types import Verdict
    from judges.modes._base import Asker, JudgeMode, Reading, UnreadableReply

MODES: Registry[type[JudgeMode]] = JUDGE_MODES
"""The judge-mode registry (:data:`judges.modes._registry.JUDGE_MODES`): mode classes."""


def mode_names() -> tuple[str, ...]:
    """Every registered judge mode.

    Returns:
        Their names, the built-ins first (in their ``order``).
    """
    return MODES.names()


def get_mode(name: str) -> JudgeMode:
    """A fresh instance of the mode registered under ``name``.

    Args:
        name: a registered judge mode (``text``, ``logprobs``, ``grades``, ``checklist``, ...).

    Returns:
        A new instance of that mode.

    Raises:
        UnknownName: no mode has that name (an InputError; the message lists the known ones).
    """
    return MODES.lookup(name)()


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
    """The mode of a judge given without one, as its provider declares it
    (:attr:`~arena.models.providers._base.Provider.default_judge_mode`): ``auto`` for the
    local model (the checklist where a case has golden items, else the mode measured best
    against people on open-ended answers; :mod:`judges.modes._auto`), text otherwise."""
    from arena.models.providers import PROVIDERS

    return PROVIDERS.lookup(provider).default_judge_mode


_BASE = ("Asker", "JudgeMode", "Reading", "UnreadableReply")
__all__ = [
    "JUDGE_MODES",
    "MODES",
    "Asker",
    "JudgeMode",
    "Reading",
    "UnreadableReply",
    "combine",
    "default_mode",
    "get_mode",
    "judge_mode",
    "mode_names",
]


def __getattr__(name: str) -> Any:
    if name in _BASE:
        from judges.modes import _base

        return getattr(_base, name)
    raise AttributeError(f"module 'judges.modes' has no attribute {name!r}")
