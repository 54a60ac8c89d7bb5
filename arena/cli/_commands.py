"""The sub-commands of ``arena``, each declared by its own module.

A module of this package that adds a sub-command decorates its ``register(sub)`` with
``@command(name, order=...)``: :func:`commands` finds those modules (by reading their source,
so the helper modules are not imported), imports them and gives their commands in ``order``,
which is the order of ``arena --help``. What a command reads from ``arena.yaml`` is declared
there too (``uses_judge``, ``own_config``), for :mod:`arena.cli.config_defaults`. A new
command is one new module.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DECORATOR = "@command("
"""How a command's module declares it (what :func:`commands` looks for in the source)."""


@dataclass(frozen=True)
class Command:
    """One sub-command of ``arena``.

    Attributes:
        name: what a user types (``run``, ``golden``, ...).
        order: its place in ``arena --help`` (smaller first).
        register: adds its parser to the sub-parsers (``register(sub)``).
        uses_judge: its ``--judge`` is the judge it uses, so ``arena.yaml``'s ``judge`` is its
            default.
        own_config: it reads ``arena.yaml`` itself: only the database comes from the file's
            defaults, and a bad file is left for the command to report.
    """

    name: str
    order: int
    register: Callable[[Any], None]
    uses_judge: bool = False
    own_config: bool = False


COMMANDS: dict[str, Command] = {}
"""Every declared command by name (filled as :func:`commands` imports their modules)."""


def command(
    name: str, *, order: int, uses_judge: bool = False, own_config: bool = False
) -> Callable[[Callable[[Any], None]], Callable[[Any], None]]:
    """Declare the decorated ``register(sub)`` as the sub-command ``name``.

    Args:
        name: the sub-command (as its parser is named).
        order: its place in ``arena --help``.
        uses_judge: ``arena.yaml``'s ``judge`` is its ``--judge`` default.
        own_config: it reads ``arena.yaml`` itself (only the database is defaulted).

    Returns:
        A decorator recording the command and returning ``register`` unchanged.
    """

    def declare(register: Callable[[Any], None]) -> Callable[[Any], None]:
        COMMANDS[name] = Command(name, order, register, uses_judge, own_config)
        return register

    return declare


def _declaring_modules() -> list[str]:
    """The modules of this package whose source declares a command (none is imported)."""
    package = importlib.import_module(__package__ or "")
    found = []
    for info in pkgutil.iter_modules(package.__path__):
        path = Path(getattr(info.module_finder, "path", "")) / f"{info.name}.py"
        own = not info.name.startswith("_") and path.is_file()
        if own and DECORATOR in path.read_text(encoding="utf-8"):
            found.append(f"{package.__name__}.{info.name}")
    return sorted(found)


def commands() -> list[Command]:
    """Every sub-command, in ``arena --help`` order (their modules imported once).

    Returns:
        The declared commands, by ``order`` then name.
    """
    for module in _declaring_modules():
        importlib.import_module(module)
    return sorted(COMMANDS.values(), key=lambda c: (c.order, c.name))
