"""What is registered, kind by kind, with each entry's one-line summary.

One home for the listing: ``arena --help`` prints :func:`registered_text`, the app's
Extensions tab shows :func:`registered_kinds`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from arena.registry import Registry

WIDTH = 100


@dataclass(frozen=True)
class RegisteredKind:
    """One extension kind: its entry-point group, its name, and name -> one-line summary."""

    group: str
    kind: str
    entries: dict[str, str]

    @property
    def entry_point_group(self) -> str:
        """The entry-point group outside packages register under (``agent_arena.<group>``)."""
        return f"agent_arena.{self.group}"


def registered_kinds(registries: Mapping[str, Registry[Any]]) -> list[RegisteredKind]:
    """Every extension kind with its entries (built-ins, run-time and entry-point ones; the
    built-ins read from source while nothing has imported them: ``arena --help`` stays fast).

    Args:
        registries: each kind's registry by its group suffix (:func:`arena.extend.registries`).

    Returns:
        One :class:`RegisteredKind` per registry, in the mapping's order.
    """
    return [
        RegisteredKind(group, registry.kind, registry.listing())
        for group, registry in registries.items()
    ]


def _line(name: str, summary: str, pad: int) -> str:
    text = f"    {name.ljust(pad)}  {summary}"
    return text if len(text) <= WIDTH else text[: WIDTH - 3] + "..."


def registered_text(registries: Mapping[str, Registry[Any]]) -> str:
    """Every extension kind with its entries, as the text ``arena --help`` ends with.

    Args:
        registries: each kind's registry by its group suffix (:func:`arena.extend.registries`).

    Returns:
        The text, one line per entry under a line per kind.
    """
    lines = ["extensions (built-in and installed; see docs/extending.md):"]
    for kind in registered_kinds(registries):
        pad = max((len(name) for name in kind.entries), default=0)
        lines.append(f"  {kind.kind}s ({kind.entry_point_group}):")
        lines.extend(_line(name, text, pad) for name, text in kind.entries.items())
    return "\n".join(lines)
