"""The judge-mode registry and its decorator, beside the base class
:class:`~judges.modes._base.JudgeMode`.

The base class declares itself the registry's base (this module imports neither it nor
LangChain: judge specs validate their mode and help texts list the modes through it). This
package is the registry's home: its modules load when the registry is first read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from arena.registry import Registry, adapt_named, entry_point_group

F = TypeVar("F")

JUDGE_MODES: Registry[type[Any]] = Registry(
    "judge mode",
    entry_point_group("judge_modes"),
    declared_by="judge_mode",
    homes=(__package__,),
    base_declared_later=True,
    classes=True,
    adapt=adapt_named,
)
"""Judge modes (classes; a fresh instance judges each run), by the name a judge spec gives
(``--judge m/NAME``); typed ``Registry[type[JudgeMode]]`` as :data:`judges.modes.MODES`."""


def judge_mode(
    name: str, summary: str | None = None, *, replace: bool = False, order: int | None = None
) -> Callable[[F], F]:
    """Register a ``JudgeMode`` subclass as the judge mode ``name`` (``--judge m/NAME``).

    Args:
        name: the mode's name in judge specs.
        summary: one line for ``arena --help`` (default: the first docstring line).
        replace: replace a mode already registered as ``name``.
        order: its place in listings: the built-ins (defined under the kind's home) come
            first, by ``order``; then every other entry, those with an ``order`` by it,
            then the rest in registration order.

    Returns:
        A decorator registering the class (its ``name`` and ``summary`` set) and returning it.

    Raises:
        NameTaken: ``name`` is registered already and ``replace`` is false.
        TypeError: the decorated object is not a ``JudgeMode`` subclass.
    """
    return JUDGE_MODES.decorator(name, summary, replace=replace, order=order)
