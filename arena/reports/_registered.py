"""What is registered, kind by kind, with each entry's one-line summary.

One home for the listing: ``arena --help`` prints :func:`registered_text`, the app's
Extensions tab shows :func:`registered_kinds`.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.registry import REGISTRIES

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


def registered_kinds() -> list[RegisteredKind]:
    """Every extension kind with its entries (built-ins, run-time and entry-point ones; the
    built-ins read from source while nothing has imported them: ``arena --help`` stays fast)."""
    return [
        RegisteredKind(group, registry.kind, registry.listing())
        for group, registry in REGISTRIES.items()
    ]


def _line(name: str, summary: str, pad: int) -> str:
    text = f"    {name.ljust(pad)}  {summary}"
    return text if len(text) <= WIDTH else text[: WIDTH - 3] + "..."


def registered_text() -> str:
    """Every extension kind with its entries, as the text ``arena --help`` ends with."""
    lines = ["extensions (built-in and installed; see docs/extending.md):"]
    for kind in registered_kinds():
        pad = max((len(name) for name in kind.entries), default=0)
        lines.append(f"  {kind.kind}s ({kind.entry_point_group}):")
        lines.extend(_line(name, text, pad) for name, text in kind.entries.items())
    return "\n".join(lines)
